"""Provides the server's tables: two-player games played over two SSH sessions, and their spectators.

The table service runs in the ``planspiel serve`` process and listens on a Unix socket (mode 0600) that only the
game processes it starts use (:mod:`.wire`). It keeps the authoritative game of every table: a player's action is
applied here first (the engine refuses what is not legal, for the side that player holds), saved at once
(``<root>/tables/<id>.planspiel``, the table's seats in ``<id>.json``), then passed to the other player's and the
spectators' game processes, which apply it to their copy of the game and show it from their side's view only. A
game process that drops loses nothing: the table goes on from its save, and the player opens it again from the
lobby. When a game ends, each player finds its history in ``finished/`` of their own folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
import saves
from engine import Game
from engine.errors import PlanspielError
from engine.rules import PUBLIC

from .accounts import GUEST
from .limits import clean_text
from .wire import pack, unpacker

__all__ = ["Table", "TableError", "TableService"]

log = logging.getLogger("planspiel.serve")


class TableError(Exception):
    """A request the tables refuse: the sentence says why."""


class _Conn:
    """One game process connected to the tables."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.name: str | None = None
        self.tables: set[str] = set()

    def send(self, message: dict[str, Any]) -> None:
        if not self.writer.is_closing():
            with contextlib.suppress(OSError, RuntimeError):  # the process has gone: its drop follows
                self.writer.write(pack(message))


@dataclass
class Table:
    """A game between two players of the server."""

    id: str
    ruleset: str
    scenario: str
    title: str
    seed: int
    owner: str
    seats: dict[str, str | None]
    """Side → the player holding it (None: free)."""
    spectators: bool
    """Whether others may watch."""
    game: Game
    watch: str = "owner"
    """The view spectators get, chosen by the owner: ``owner`` (the owner's side's), ``other`` (the other
    side's) or ``public`` (what both sides hide stays hidden)."""
    created: float = field(default_factory=time.time)
    conns: set[_Conn] = field(default_factory=set)

    def side_of(self, name: str) -> str | None:
        return next((s for s, n in self.seats.items() if n == name), None)

    @property
    def state(self) -> str:
        if self.game.outcome is not None:
            return "over"
        return "open" if None in self.seats.values() else "playing"

    def summary(self) -> dict[str, Any]:
        g = self.game
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "title": self.title,
            "owner": self.owner,
            "seats": dict(self.seats),
            "spectators": self.spectators,
            "watch": self.watch,
            "state": self.state,
            "turn": g.state.turn,
            "to_act": g.to_act,
            "actions": len(g.history),
            "online": sorted({c.name for c in self.conns if c.name}),
            "outcome": g.outcome.reason if g.outcome else None,
        }

    def meta(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "title": self.title,
            "seed": self.seed,
            "owner": self.owner,
            "seats": self.seats,
            "spectators": self.spectators,
            "watch": self.watch,
            "created": self.created,
        }


WATCH_VIEWS = ("owner", "other", "public")
"""The views a table's owner may give spectators."""


def _watched(table: Table) -> str:
    """The side whose view a spectator of ``table`` gets (``PUBLIC``: the public view)."""
    owner = table.side_of(table.owner)
    if table.watch == "public" or owner is None:
        return PUBLIC
    if table.watch == "other":
        return next((s for s in table.seats if s != owner), owner)
    return owner


def _auto_setup(game: Game) -> None:
    """The scenario's set-up for every side (remote tables always take the scenario's positions), as each
    player's game process does after every action."""
    while (action := engine.scenario_setup_action(game)) is not None:
        game.apply(action)


class TableService:
    """The tables of one server.

    Args:
        root: the server's folder (tables in ``tables/``, players' finished games in ``accounts/NAME/home``).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / "tables"
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.tables: dict[str, Table] = {}
        self._server: asyncio.AbstractServer | None = None
        self._handlers: set[asyncio.Task[Any]] = set()
        self._load()

    # --- Disk -------------------------------------------------------------------------------------------

    def _load(self) -> None:
        for meta_path in sorted(self.folder.glob("*.json")):
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                game = saves.load_game(self.folder / f"{meta['id']}.planspiel", verify="snapshot")
                table = Table(
                    id=str(meta["id"]),
                    ruleset=str(meta["ruleset"]),
                    scenario=str(meta["scenario"]),
                    title=str(meta["title"]),
                    seed=int(meta["seed"]),
                    owner=str(meta["owner"]),
                    seats={str(k): (str(v) if v is not None else None) for k, v in meta["seats"].items()},
                    spectators=bool(meta["spectators"]),
                    game=game,
                    created=float(meta.get("created", 0.0)),
                    watch=str(meta.get("watch", "owner")),
                )
            except (OSError, ValueError, KeyError, TypeError, PlanspielError) as err:
                log.error("table %s cannot be read and is left out: %s", meta_path.name, err)
                continue
            self.tables[table.id] = table
        log.info("%d table(s) read from %s", len(self.tables), self.folder)

    def _save(self, table: Table) -> None:
        saves.save_game(table.game, self.folder / f"{table.id}.planspiel", players=dict.fromkeys(table.seats, "human"))
        tmp = self.folder / f"{table.id}.json.tmp"
        tmp.write_text(json.dumps(table.meta(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, self.folder / f"{table.id}.json")

    def _finished(self, table: Table) -> None:
        """Give each player the history of the finished game (``finished/<id>.txt`` in their folder)."""
        g = table.game
        lines = [
            f"# {table.title} ({table.ruleset}/{table.scenario}), table {table.id}, seed {table.seed}",
            *(f"# {side}: {name}" for side, name in table.seats.items()),
            f"# result: {g.outcome.reason if g.outcome else '?'}",
            *(g.describe(a) for a in g.history),
        ]
        for name in {n for n in table.seats.values() if n}:
            folder = self.root / "accounts" / name / "home" / "finished"
            try:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                (folder / f"{table.id}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
            except OSError as err:
                log.warning("the history of table %s could not be given to %s: %s", table.id, name, err)

    # --- The socket -------------------------------------------------------------------------------------

    async def start(self, path: Path) -> asyncio.AbstractServer:
        """Listen on the Unix socket ``path`` (only this user may connect)."""
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        server = await asyncio.start_unix_server(self._serve, path=str(path))
        os.chmod(path, 0o600)
        self._server = server
        return server

    async def stop(self) -> None:
        """Stop listening and close every game process's connection."""
        if self._server is not None:
            self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = _Conn(writer)
        stream = unpacker()
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            while data := await reader.read(65536):
                stream.feed(data)
                for message in stream:
                    conn.send(self.handle(conn, message))
                await writer.drain()
        except (ConnectionError, ValueError) as err:  # a dropped process, or bytes that are no message
            log.info("a game process left the tables: %s", err)
        finally:
            self._drop(conn)
            writer.close()
            if task is not None:
                self._handlers.discard(task)

    def _drop(self, conn: _Conn) -> None:
        for tid in conn.tables:
            table = self.tables.get(tid)
            if table is not None:
                table.conns.discard(conn)
                self._broadcast(table, {"ev": "presence", "table": tid, "online": table.summary()["online"]})

    def handle(self, conn: _Conn, message: Any) -> dict[str, Any]:
        """Answer one request (an error answer for anything wrong in it)."""
        rid = message.get("rid") if isinstance(message, dict) else None
        try:
            if not isinstance(message, dict):
                raise TableError("not a request")
            op = message.get("op")
            handler = getattr(self, f"_op_{op}", None) if isinstance(op, str) and op.isidentifier() else None
            if handler is None:
                raise TableError(f"no such request: {clean_text(str(op), 30)!r}")
            if op != "hello" and conn.name is None:
                raise TableError("say hello first")
            if op in ("create", "join", "act") and conn.name is not None and conn.name.startswith(GUEST):
                raise TableError("guests may only watch games: log in with a key to play")
            out: dict[str, Any] = handler(conn, message)
        except TableError as err:
            out = {"error": str(err)}
        except PlanspielError as err:
            out = {"error": str(err)}
        except Exception as err:  # a fault in the rules must not take the tables down
            log.exception("request %r failed", message.get("op") if isinstance(message, dict) else None)
            out = {"error": f"the server could not do that ({type(err).__name__})"}
        out["rid"] = rid
        return out

    def _broadcast(self, table: Table, message: dict[str, Any], skip: _Conn | None = None) -> None:
        for c in list(table.conns):
            if c is not skip:
                c.send(message)

    def _table(self, message: dict[str, Any]) -> Table:
        table = self.tables.get(str(message.get("table", "")))
        if table is None:
            raise TableError("no such table (it may have been closed)")
        return table

    # --- Requests ---------------------------------------------------------------------------------------

    def _op_hello(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        name = message.get("name")
        if not isinstance(name, str) or not name or clean_text(name, 24) != name:
            raise TableError("hello needs the player's name")
        conn.name = name
        return {"ok": True}

    def _op_list(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        return {"tables": [t.summary() for t in sorted(self.tables.values(), key=lambda t: -t.created)]}

    def _op_scenarios(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        found = []
        for rs in engine.ruleset_names():
            for sid in engine.scenario_ids(rs):
                try:
                    sc = engine.load_scenario(rs, sid)
                except PlanspielError:
                    continue
                sides = [[s.id, s.name] for s in sc.sides]
                found.append({"ruleset": rs, "scenario": sid, "title": sc.title, "sides": sides})
        return {"scenarios": found}

    def _op_create(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        assert conn.name is not None
        ruleset, scenario = str(message.get("ruleset", "")), str(message.get("scenario", ""))
        sc = engine.load_scenario(ruleset, scenario)  # PlanspielError: unknown ruleset or scenario
        side = str(message.get("side", ""))
        if side not in sc.side_ids():
            raise TableError(f"no side {clean_text(side, 30)!r} in {scenario} (sides: {', '.join(sc.side_ids())})")
        if sum(1 for t in self.tables.values() if t.owner == conn.name and t.state != "over") >= 20:
            raise TableError("you have 20 tables open: finish or leave one first")
        seed = secrets.randbelow(2**31)
        game = engine.new_game(sc, seed=seed)
        _auto_setup(game)
        tid = secrets.token_hex(3)
        while tid in self.tables:
            tid = secrets.token_hex(3)
        seats: dict[str, str | None] = dict.fromkeys(sc.side_ids())
        seats[side] = conn.name
        watch = str(message.get("watch", "owner"))
        if watch not in WATCH_VIEWS:
            raise TableError(f"spectators watch from one of: {', '.join(WATCH_VIEWS)}")
        spectators = bool(message.get("spectators"))
        table = Table(tid, ruleset, scenario, sc.title, seed, conn.name, seats, spectators, game, watch=watch)
        self._save(table)
        self.tables[tid] = table
        log.info("table %s: %s created %s/%s as %s", tid, conn.name, ruleset, scenario, side)
        return {"table": tid}

    def _op_join(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        assert conn.name is not None
        table = self._table(message)
        if table.side_of(conn.name) is not None:
            raise TableError("you already play at this table: open it")
        free = [s for s, n in table.seats.items() if n is None]
        if not free or table.state == "over":
            raise TableError("this table has no free seat")
        table.seats[free[0]] = conn.name
        self._save(table)
        self._broadcast(table, {"ev": "seats", "table": table.id, "seats": dict(table.seats)})
        log.info("table %s: %s joined as %s", table.id, conn.name, free[0])
        return {"side": free[0]}

    def _op_open(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        """Play (a seat held) or watch (spectators allowed, from the owner's side's view) a table: its game so far,
        and from now on its actions as events."""
        assert conn.name is not None
        table = self._table(message)
        side = table.side_of(conn.name)
        watching = side is None
        if watching:
            if not table.spectators:
                raise TableError("this table does not allow spectators")
            side = _watched(table)
        g = table.game
        table.conns.add(conn)
        conn.tables.add(table.id)
        self._broadcast(table, {"ev": "presence", "table": table.id, "online": table.summary()["online"]}, conn)
        return {
            **table.summary(),
            "seed": table.seed,
            "side": side,
            "watching": watching,
            "history": [g.describe(a) for a in g.history],
        }

    def _op_act(self, conn: _Conn, message: dict[str, Any]) -> dict[str, Any]:
        assert conn.name is not None
        table = self._table(message)
        side = table.side_of(conn.name)
        if side is None:
            raise TableError("you hold no seat at this table")
        if None in table.seats.values():
            raise TableError("wait for the second player to join")
        g = table.game
        index, notation = message.get("index"), message.get("notation")
        if not isinstance(notation, str) or len(notation) > 2000:
            raise TableError("an action needs its notation")
        if index != len(g.history):
            raise TableError(f"out of step with the table ({len(g.history)} actions there): open the game again")
        g.apply(notation, side=side)  # the engine's refusal (ActionError) is the answer
        played = len(g.history) - 1
        _auto_setup(g)
        self._save(table)
        self._broadcast(
            table, {"ev": "action", "table": table.id, "index": played, "side": side, "notation": notation}, conn
        )
        if g.outcome is not None:
            self._finished(table)
            log.info("table %s is over: %s", table.id, g.outcome.reason)
        return {"ok": True, "actions": len(g.history)}
