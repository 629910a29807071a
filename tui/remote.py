"""Provides the game process's side of the server's tables (``planspiel serve``): the lobby's requests, and a game
at a table played against another player's SSH session, or watched.

The game process keeps its own copy of the table's game, made from the table's history, and shows it from its
side's view only (like every screen). Its player's actions go to the table first (:meth:`RemoteGame.changed`);
the other player's arrive as events and are applied to the copy in the UI thread (:meth:`RemoteGame.incoming`).
The engine is deterministic (seeded dice), so both copies and the table stay the same game; an action that the
table refuses means the copy is out of step: the player opens the game again from the lobby.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import engine
from engine.errors import PlanspielError
from engine.rules import PUBLIC

from .client import LocalClient
from .serve.wire import pack, unpacker

if TYPE_CHECKING:
    from .client import Change
    from .session import Session

__all__ = ["RemoteGame", "TableLink", "open_table"]

TABLES_VARIABLE = "PLANSPIEL_TABLES"
"""The tables' socket, set by ``planspiel serve`` for the game processes it starts."""
PLAYER_VARIABLE = "PLANSPIEL_PLAYER"
"""The player's name, set by ``planspiel serve``."""


class TableLink:
    """A game process's connection to the server's tables.

    Args:
        path: the tables' Unix socket.
        name: the player.
        timeout: seconds to wait for an answer.

    Raises:
        PlanspielError: the tables cannot be reached.
    """

    def __init__(self, path: str, name: str, timeout: float = 10.0) -> None:
        self.name = name
        self.timeout = timeout
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(path)
        except OSError as err:
            self._sock.close()
            raise PlanspielError(f"the server's tables cannot be reached ({err.strerror or err})") from None
        self._lock = threading.Condition()
        self._answers: dict[int, dict[str, Any]] = {}
        self._next = 0
        self._events: list[dict[str, Any]] = []
        self.closed = False
        self.listeners: list[Callable[[], None]] = []
        """Called (in the reading thread) when an event arrives."""
        threading.Thread(target=self._read, name="tables", daemon=True).start()
        self.request("hello", name=name)

    @classmethod
    def from_env(cls) -> TableLink | None:
        """The link of a game process started by ``planspiel serve`` (None when not started by one)."""
        path, name = os.environ.get(TABLES_VARIABLE), os.environ.get(PLAYER_VARIABLE)
        return cls(path, name) if path and name else None

    def _read(self) -> None:
        stream = unpacker()
        try:
            while data := self._sock.recv(65536):
                stream.feed(data)
                for message in stream:
                    self._deliver(message)
        except (OSError, ValueError):
            pass
        with self._lock:
            self.closed = True
            self._lock.notify_all()
        for listener in list(self.listeners):
            listener()

    def _deliver(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        rid = message.get("rid")
        with self._lock:
            if isinstance(rid, int):
                self._answers[rid] = message
            else:
                self._events.append(message)
            self._lock.notify_all()
        if not isinstance(rid, int):
            for listener in list(self.listeners):
                listener()

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Ask the tables; returns the answer.

        Raises:
            PlanspielError: the tables refused (the sentence says why), or the connection is gone.
        """
        with self._lock:
            rid = self._next
            self._next += 1
            if self.closed:
                raise PlanspielError("the connection to the server's tables is lost")
            try:
                self._sock.sendall(pack({"op": op, "rid": rid, **fields}))
            except OSError as err:
                raise PlanspielError(f"the connection to the server's tables is lost ({err})") from None
            if not self._lock.wait_for(lambda: rid in self._answers or self.closed, timeout=self.timeout):
                raise PlanspielError("the server's tables do not answer")
            answer = self._answers.pop(rid, None)
        if answer is None:
            raise PlanspielError("the connection to the server's tables is lost")
        if "error" in answer:
            raise PlanspielError(str(answer["error"]))
        return answer

    def events(self, table: str) -> list[dict[str, Any]]:
        """The events of ``table`` that arrived since the last call (others are kept)."""
        with self._lock:
            mine = [e for e in self._events if e.get("table") == table]
            self._events = [e for e in self._events if e.get("table") != table]
        return mine

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


class RemoteGame:
    """A game at a server table, as one game process takes part in it.

    Args:
        link: the connection to the tables.
        opened: the table's answer to ``open`` (its id, seats, side, history...).
    """

    def __init__(self, link: TableLink, opened: dict[str, Any]) -> None:
        self.link = link
        self.table = str(opened["id"])
        self.side = str(opened["side"])
        """The side this process shows (the seat held, or the side a spectator watches from)."""
        self.watching = bool(opened["watching"])
        self.seats: dict[str, str | None] = dict(opened["seats"])
        self.online: list[str] = list(opened.get("online", []))
        self.error: str | None = None
        """Set when the copy fell out of step with the table (the player must open the game again)."""
        self.applying = False

    @property
    def mine(self) -> tuple[str, ...]:
        """The sides this process plays (none when watching)."""
        return () if self.watching else (self.side,)

    def player(self, side: str) -> str:
        """Who plays ``side``, and whether they are connected now."""
        name = self.seats.get(side)
        if name is None:
            return "nobody yet (the table waits for a second player)"
        return name if name in self.online else f"{name} (not at the table now)"

    def changed(self, change: Change, session: Session) -> None:
        """After an action on this copy: one of this player's goes to the table (its refusal sets :attr:`error`)."""
        if self.applying or change.action is None or change.side not in self.mine:
            return
        index = len(session.game.history) - 1
        try:
            self.link.request("act", table=self.table, index=index, notation=session.game.describe(change.action))
        except PlanspielError as err:
            self.error = str(err)

    def incoming(self, session: Session) -> int:
        """Apply the actions that arrived from the table (in the UI thread); returns how many."""
        applied = 0
        for event in self.link.events(self.table):
            kind = event.get("ev")
            if kind == "seats":
                self.seats = dict(event.get("seats", {}))
            elif kind == "presence":
                self.online = list(event.get("online", []))
            elif kind == "action":
                applied += self._apply(session, event)
        if self.link.closed and self.error is None:
            self.error = "the connection to the server's tables is lost"
        return applied

    def _apply(self, session: Session, event: dict[str, Any]) -> int:
        index, side, notation = event.get("index"), str(event.get("side")), str(event.get("notation"))
        have = len(session.game.history)
        if isinstance(index, int) and index < have:
            return 0  # already in this copy (it was opened again after the action was sent)
        if index != have:
            self.error = f"out of step with the table (action {index} came, {have} here): open the game again"
            return 0
        self.applying = True
        try:
            session.client(side).apply(notation)
        except (PlanspielError, ValueError) as err:
            self.error = f"the table's action {notation!r} does not apply here ({err}): open the game again"
            return 0
        finally:
            self.applying = False
        return 1


def open_table(link: TableLink, table: str) -> tuple[Session, RemoteGame]:
    """Open a table to play at (a seat held) or to watch: the game rebuilt from the table's history, and the session
    showing it, from its side's view.

    Raises:
        PlanspielError: the table refuses, or its game cannot be rebuilt here.
    """
    from .session import Session  # noqa: PLC0415 - the session imports the engine's AI: only when a game opens

    opened = link.request("open", table=table)
    remote = RemoteGame(link, opened)
    sc = engine.load_scenario(str(opened["ruleset"]), str(opened["scenario"]))
    try:
        game = engine.replay(sc, int(opened["seed"]), [str(a) for a in opened["history"]])
    except engine.ReplayError as err:
        raise PlanspielError(f"the table's game cannot be rebuilt here: {err}") from None
    players = {s: ("human" if s in remote.mine else "remote") for s in sc.side_ids()}
    session = Session(game, {s: "human" for s in sc.side_ids()}, autosave=False, setup="scenario")
    session.players.update(players)
    session.remote = remote
    if remote.side == PUBLIC:  # a spectator of the public view: a client of no side
        session.clients[PUBLIC] = LocalClient(game, PUBLIC, actors=session.actors)
    for client in session.clients.values():
        client.undo_allowed = False
    return session, remote
