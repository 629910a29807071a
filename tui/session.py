"""Provides the game session: one game at the table, its players, one client per side, saves and records.

The session is the in-process "game server" of the TUI: it owns the :class:`engine.Game`, hands each side a
:class:`~tui.client.LocalClient`, autosaves after every action through the saves package, and keeps the score
at the end of each turn for the end-of-game chart. Screens talk to the clients, never to the game.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import engine
from engine import Game
from engine.ai import Agent, make_agent, parse_player
from engine.presentation import Presentation

from .client import Change, LocalClient
from .lastsave import LastSave, find_last_save, load_saves
from .standing import Standing

__all__ = ["LastSave", "Session", "find_last_save", "load_saves", "parse_players"]

log = logging.getLogger(__name__)

SETUP_MODES: tuple[str, ...] = ("scenario", "players")
"""How a new game is set up: the scenario file's positions, or each side places its own units."""


def parse_players(sides: tuple[str, ...], given: Mapping[str, str | None]) -> dict[str, str]:
    """Players per side (``human`` or ``ai:<level>``), ``human`` where none is given.

    Raises:
        ValueError: an unknown side or an unknown player.
    """
    out = {s: "human" for s in sides}
    for side, player in given.items():
        if player is None:
            continue
        if side not in out:
            raise ValueError(f"unknown side {side!r} (sides: {', '.join(sides)})")
        kind, level = parse_player(player)
        out[side] = "human" if kind == "human" else f"ai:{level}"
    return out


class Session:
    """A game at the table: the game, who plays each side, the clients, the saves.

    Args:
        game: the game (new, or loaded from a save).
        players: side id → ``"human"`` or ``"ai:<level>"``.
        path: the save file the game was loaded from or last saved to (None: not saved by hand yet).
        autosave: keep an autosave after every action (through the saves package).
    """

    def __init__(
        self,
        game: Game,
        players: Mapping[str, str],
        *,
        path: Path | None = None,
        autosave: bool = True,
        setup: str = "scenario",
    ) -> None:
        if setup not in SETUP_MODES:
            raise ValueError(f"unknown set-up mode {setup!r}: expected one of {', '.join(SETUP_MODES)}")
        self.game = game
        self.setup = setup
        self._auto_setting_up = False
        self.players = parse_players(game.state.sides, players)
        self.path = path
        self.actors: list[str | None] = []
        self.clients = {
            s: LocalClient(game, s, actors=self.actors, on_change=self._on_change) for s in game.state.sides
        }
        self.info = self.clients[game.state.sides[0]].info
        self.presenter: Presentation = engine.get_ruleset(self.info.ruleset).presentation(self.info)
        self.agents: dict[str, Agent] = {}
        for i, side in enumerate(game.state.sides):
            kind, level = parse_player(self.players[side])
            if kind == "ai" and level is not None:
                self.agents[side] = make_agent(level, seed=game.seed * 31 + i)
        self.standing: dict[str, Standing] = _standing_from(getattr(game, "table", None), game.state.sides)
        """Standing reaction orders of the human sides (:mod:`tui.standing`), set by the table, kept in the save."""
        self.scores: dict[int, dict[str, int]] = {}
        self.log_ids = False
        """True: the log, the hand-off summary and the rounds shown step by step give the units' ids (for notation)
        instead of their names (``I``)."""
        self._replaying = threading.Lock()
        """One background replay at a time (the save check, the score chart): the UI thread keeps its share."""
        self.replay_check_pending = False
        """True when the game was loaded from its snapshot and the replay check has not run yet."""
        self.replay_problems: list[str] = []
        """What the replay check found (empty: it matched, or it has not run)."""
        self.save_error: str | None = None
        self.last_saved: Path | None = None
        self._autosaver: Any = None
        self.campaign: Any = None
        """The :class:`~tui.campaign.CampaignPlay` this game is a battle of (None: a single game)."""
        self.remote: Any = None
        """The :class:`~tui.remote.RemoteGame` when this game is at a server table, played against another SSH
        session or watched (its other sides are ``"remote"`` players); None for a game of this terminal only."""
        if autosave:
            self._autosaver = self._make_autosaver()
        self.auto_setup()
        self._record_score()

    def __repr__(self) -> str:
        return f"<Session {self.info.ruleset}/{self.info.scenario} players={self.players}>"

    # --- Starting ---------------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: str,
        scenario: str,
        players: Mapping[str, str | None] | None = None,
        *,
        seed: int | None = None,
        autosave: bool = True,
        setup: str = "scenario",
    ) -> Session:
        """Start a new game of ``scenario``; ``setup="scenario"`` takes the scenario file's set-up for every
        side, ``"players"`` lets each side set up (the AI sets up its own side).

        Raises:
            PlanspielError: unknown ruleset or scenario, or a broken scenario file.
            ValueError: an unknown side or player.
        """
        sc = engine.load_scenario(ruleset, scenario)
        game = engine.new_game(sc, seed=secrets.randbelow(2**31) if seed is None else seed)
        return cls(game, parse_players(sc.side_ids(), players or {}), autosave=autosave, setup=setup)

    @classmethod
    def load(cls, path: str | Path, *, autosave: bool = True, verify: str = "snapshot") -> Session:
        """Continue a saved game.

        With ``verify="snapshot"`` (the default) the game continues from the saved position at once and
        :attr:`replay_check_pending` is True: the screen then runs :meth:`check_replay` in a worker. With
        ``"replay"`` the history is replayed and compared before this returns (seconds for a long game).

        Raises:
            SaveError: the file cannot be loaded; the sentence names the file and the cause.
        """
        saves = load_saves()
        if saves is None:
            raise engine.PlanspielError("saves are not available in this installation")
        target = Path(path)
        game = saves.load_game(target, verify=verify)
        # The set-up mode is not saved: a game whose history took the scenario's set-up goes on taking it.
        verb = game.ruleset.default_setup_verb
        took_default = verb is not None and any(a.verb == verb for a in game.history)
        session = cls(
            game, dict(game.players), path=target, autosave=False, setup="scenario" if took_default else "players"
        )
        session.replay_check_pending = (
            verify == "snapshot" and getattr(game, "snapshot", None) is not None and not getattr(game, "verified", True)
        )
        if autosave:
            in_autosaves = target.parent.resolve() == saves.autosave_dir().resolve()
            session._autosaver = session._make_autosaver(target if in_autosaves else None)
        return session

    @classmethod
    def for_campaign(cls, play: Any, *, autosave: bool = True) -> Session:
        """The battle under way of a campaign (:class:`~tui.campaign.CampaignPlay`): saved with the campaign after
        every action (its game save is inside the campaign save)."""
        from .campaign import CampaignSaver  # noqa: PLC0415

        game = play.game
        if game is None:
            raise ValueError("the campaign has no battle under way")
        verb = game.ruleset.default_setup_verb
        took_default = not game.history or (verb is not None and any(a.verb == verb for a in game.history))
        players = {s: p for s, p in play.players.items() if s in game.state.sides}
        session = cls(game, players, path=play.path, autosave=False, setup="scenario" if took_default else "players")
        session.campaign = play
        session.replay_check_pending = getattr(game, "snapshot", None) is not None and not getattr(
            game, "verified", True
        )
        if autosave:
            session._autosaver = CampaignSaver(play, session.players)
        return session

    def check_replay(self) -> list[str]:
        """Replay the loaded history and compare it with the saved position (safe in a worker thread).

        Returns:
            Sentences describing each difference; empty when the replay matches.
        """
        saves = load_saves()
        self.replay_check_pending = False
        if saves is None:
            return []
        with self._replaying:
            self.replay_problems = list(saves.check_replay(self.game))
        return self.replay_problems

    # --- Players ----------------------------------------------------------------------------------------

    @property
    def humans(self) -> list[str]:
        """Sides played by people at this keyboard, in scenario order."""
        return [s for s in self.game.state.sides if self.players[s] == "human"]

    def is_human(self, side: str | None) -> bool:
        """True if a person plays ``side``."""
        return side is not None and self.players.get(side) == "human"

    def is_remote(self, side: str | None) -> bool:
        """True if a player of another SSH session plays ``side`` (a game at a server table)."""
        return side is not None and self.players.get(side) == "remote"

    def client(self, side: str) -> LocalClient:
        """The client of one side."""
        return self.clients[side]

    def has_hidden_information(self) -> bool:
        """True if a side's view now differs from the full state (beyond the dice): hot-seat needs a hand-off."""
        full = self.game.state.to_dict()
        for side in self.game.state.sides:
            view = self.game.view(side).to_dict()
            for d in (full, view):
                d.pop("dice", None)
                d.pop("viewer", None)
            if view != full:
                return True
        return False

    # --- Saving -----------------------------------------------------------------------------------------

    def _make_autosaver(self, path: Path | None = None) -> Any:
        saves = load_saves()
        if saves is None:
            return None
        try:
            return saves.Autosaver(self.game, path, players=self.players)
        except (saves.SaveError, OSError, ValueError) as err:
            self.save_error = str(err)
            return None

    @property
    def autosave_path(self) -> Path | None:
        """Where the autosave goes (None when autosave is off)."""
        return None if self._autosaver is None else Path(self._autosaver.path)

    def _keep_table(self) -> None:
        """Put what the table keeps with the game (the standing orders) where the save reads it."""
        self.game.table = {"standing": {side: o.to_plain() for side, o in sorted(self.standing.items())}}

    def autosave(self) -> str | None:
        """Write the autosave now; returns the error sentence if it failed (the game goes on)."""
        if self._autosaver is None:
            return self.save_error
        self._keep_table()
        saves = load_saves()
        assert saves is not None
        try:
            self._autosaver.save()
        except (saves.SaveError, OSError) as err:
            self.save_error = str(err)
            log.warning("autosave failed: %s", err)
            return self.save_error
        self.save_error = None
        self.last_saved = self.autosave_path
        return None

    def save(self, path: str | Path | None = None) -> Path:
        """Save the game by hand (to ``path``, else to the file it came from or a new file in the saves folder).

        Raises:
            SaveError: the file cannot be written; the previous save is intact.
        """
        if self.remote is not None:
            raise engine.PlanspielError("a game at a server table is kept by the table: it is saved after every action")
        saves = load_saves()
        if saves is None:
            raise engine.PlanspielError("saves are not available in this installation")
        self._keep_table()
        if self.campaign is not None and path is None:  # a campaign battle is saved with its campaign
            self.campaign.write()
            self.last_saved = self.campaign.path
            return Path(self.campaign.path)
        if path is None:
            path = self.path
            if path is None or path.parent.resolve() == saves.autosave_dir().resolve():
                from datetime import datetime  # noqa: PLC0415

                stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
                path = saves.saves_dir() / f"{self.info.scenario}-{stamp}{saves.SUFFIX}"
        target = Path(path)
        saves.save_game(self.game, target, players=self.players)
        self.path = target
        self.last_saved = target
        return target

    # --- Records ----------------------------------------------------------------------------------------

    def auto_setup(self) -> None:
        """Play the ruleset's default set-up verb for every set-up step while the players chose the scenario's
        set-up (the engine offers the verb; the client only plays it)."""
        if self.setup != "scenario" or self._auto_setting_up:
            return
        self._auto_setting_up = True
        try:
            while (action := engine.scenario_setup_action(self.game)) is not None:
                assert self.game.to_act is not None
                self.clients[self.game.to_act].apply(action, auto=True)
        finally:
            self._auto_setting_up = False

    def _on_change(self, change: Change) -> None:
        if self.remote is not None and not self._auto_setting_up:
            self.remote.changed(change, self)  # this player's action goes to the table first
        self.auto_setup()
        self._record_score()
        self.autosave()

    def _record_score(self) -> None:
        view = self.game.view(self.game.state.sides[0])
        score = self.presenter.score(view)
        if score is not None:
            self.scores[view.turn] = score

    def score_history(self) -> dict[int, dict[str, int]]:
        """The score at the end of every turn so far; turns played before this session are found by replay."""
        have = dict(self.scores)
        turn_now = self.game.state.turn
        if all(t in have for t in range(1, turn_now + 1)):
            return have
        with self._replaying:
            self._replay_scores(have)
        have.update(self.scores)
        return dict(sorted(have.items()))

    def _replay_scores(self, have: dict[int, dict[str, int]]) -> None:
        try:
            replayed = engine.new_game(self.game.scenario, seed=self.game.seed)
            first = replayed.state.sides[0]
            for action in (*self.game.history, None):
                score = self.presenter.score(replayed.view(first))
                if score is not None and replayed.state.turn not in self.scores:
                    have[replayed.state.turn] = score  # the last score seen in a turn is its end-of-turn score
                if action is not None:
                    replayed.apply(action)
        except (engine.PlanspielError, ValueError) as err:
            log.warning("score history: replay failed: %s", err)


def _standing_from(table: Any, sides: Sequence[str]) -> dict[str, Standing]:
    """The standing orders a save kept (``table.standing``), for the game's sides; nothing usable: none."""
    kept = table.get("standing") if isinstance(table, dict) else None
    if not isinstance(kept, dict):
        return {}
    return {side: Standing.from_plain(raw) for side, raw in kept.items() if side in sides}
