"""Provides saving and loading games: ``save_game``, ``load_game``, ``read_header``, ``list_saves``, replay checks.

A game save embeds the scenario and map text, the seed, the history in notation, a snapshot of the current
state, the event log and who plays each side. Loading rebuilds the scenario from the embedded text, then either
replays the history and compares the result with the snapshot (``verify="replay"``, the default), or continues
from the snapshot at once (``verify="snapshot"``) and leaves the replay check to :func:`check_replay`, which a
background worker can run while the player is already playing.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgpack

import engine
from engine.actions import MAX_NOTATION, Action, parse_notation
from engine.dice import Dice, ScriptedDice, dice_from_dict
from engine.errors import ScenarioError, StateError, UnknownRulesetError
from engine.events import Event
from engine.game import Game, board_for, collector_paused
from engine.rules import Ruleset, get_ruleset, ruleset_names
from engine.scenario import Scenario, parse_scenario
from engine.state import GameState

from . import migrations
from .codec import (
    MAX_FILE_BYTES,
    MAX_HEADER_BYTES,
    Packed,
    pack_array,
    pack_save,
    pack_value,
    read_header_dict,
    split_save,
    unpack_save,
)
from .errors import SaveError, shown
from .fileio import backup_path, read_bounded, read_prefix, write_atomic
from .header import SaveHeader, SideInfo, header_from_dict, utc_now
from .paths import SUFFIX, saves_dir

__all__ = [
    "GameEncoder",
    "SaveEntry",
    "SavedGame",
    "Verify",
    "check_replay",
    "clear_scenario_cache",
    "decode_game",
    "diff_plain",
    "encode_game",
    "is_good_save",
    "list_saves",
    "load_game",
    "read_header",
    "read_history",
    "save_game",
]

log = logging.getLogger("saves")

Verify = Literal["replay", "snapshot"]
"""How :func:`load_game` checks a save: replay the history now, or trust the snapshot and check later."""

_MAX_DIFFS = 8


class SavedGame(Game):
    """A game loaded from (or bound for) a save file: a :class:`engine.Game` plus what the file records.

    Every attribute is set by the loading functions; ``warnings`` is where a replay check that did not match
    reports (the same sentences are logged on the ``saves`` logger).
    """

    players: dict[str, str]
    """Side id → ``"human"`` or ``"ai:<level>"``."""
    table: dict[str, Any]
    """What the client keeps with the game (its standing reaction orders...): plain data, checked by the client;
    empty when the save holds none."""
    created: str
    """When the game was first saved (ISO 8601, UTC); kept on every later save."""
    path: Path | None
    """The file it was loaded from (the main file even when its ``.bak`` had to be used)."""
    header: SaveHeader | None
    """The header it was loaded with."""
    warnings: list[str]
    """Problems found while loading that did not stop the game from loading (sentences)."""
    verified: bool
    """True if the history was replayed and matched the snapshot."""
    initial_dice: dict[str, Any] | None
    """The dice the game started with, as stored (None: seeded dice from :attr:`seed`)."""
    snapshot: dict[str, Any] | None
    """The state snapshot read from the file (what :func:`check_replay` compares with); None when the game was
    replayed instead because the snapshot could not be used."""
    snapshot_actions: int
    """How many actions of :attr:`history` the snapshot covers."""


@dataclass(frozen=True, slots=True)
class SaveEntry:
    """One file of a saves folder, as :func:`list_saves` found it."""

    path: Path
    header: SaveHeader | None
    """The file's header, or None when it cannot be read."""
    error: SaveError | None
    """Why the header cannot be read."""
    mtime: float
    """The file's modification time (seconds since the epoch)."""


# --- Writing ---------------------------------------------------------------------------------------------


def _players(game: Game, players: Mapping[str, str] | None) -> dict[str, str]:
    sides = game.scenario.side_ids()
    out = {s: "human" for s in sides}
    if isinstance(game, SavedGame):
        out.update({s: p for s, p in getattr(game, "players", {}).items() if s in out})
    for side, player in (players or {}).items():
        if side not in out:
            raise ValueError(f"unknown side {side!r} in players (sides: {', '.join(sides)})")
        if not isinstance(player, str) or not (player == "human" or (player.startswith("ai:") and len(player) > 3)):
            raise ValueError(f"player for {side} must be 'human' or 'ai:<level>', not {player!r}")
        out[side] = player
    return out


def _initial_dice(game: Game, name: str) -> dict[str, Any] | None:
    if isinstance(game, SavedGame) and hasattr(game, "initial_dice"):
        return game.initial_dice
    dice = game.state.dice
    if isinstance(dice, Dice):
        return None if dice.seed == game.seed else {"kind": "seeded", "seed": dice.seed, "counter": 0}
    if isinstance(dice, ScriptedDice):
        return {"kind": "scripted", "values": list(dice.values), "position": 0}
    raise SaveError(name, f"cannot save a game whose dice are {type(dice).__name__} (only seeded or scripted dice)")


class GameEncoder:
    """Encodes saves of one game again and again, packing only what changed since the last time.

    The scenario text, the history and the log only grow while a game goes on (an undo shortens them), so their
    packed bytes are kept and only new actions and events are packed; the state is packed whole every time.
    :func:`encode_game` keeps one per live game, which keeps saving after every action cheap in long games.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = threading.local()
        self._scenario: Scenario | None = None
        self._texts: tuple[Packed, Packed] = (Packed(b""), Packed(b""))
        self._actions: list[Action] = []
        self._notations: list[bytes] = []
        self._events: list[Event] = []
        self._packed_events: list[bytes] = []

    def _history(self, game: Game, history: tuple[Action, ...]) -> Packed:
        kept, cached = 0, self._actions
        limit = min(len(history), len(cached))
        while kept < limit and (history[kept] is cached[kept] or history[kept] == cached[kept]):
            kept += 1
        del self._actions[kept:], self._notations[kept:]
        for action in history[kept:]:
            packed = pack_value(game.describe(action))
            self._actions.append(action)
            self._notations.append(packed)
        return pack_array(self._notations)

    def _log(self, events: tuple[Event, ...]) -> Packed:
        kept, cached = 0, self._events
        limit = min(len(events), len(cached))
        while kept < limit and events[kept] is cached[kept]:
            kept += 1
        del self._events[kept:], self._packed_events[kept:]
        for event in events[kept:]:
            packed = pack_value(event.to_dict())
            self._events.append(event)
            self._packed_events.append(packed)
        return pack_array(self._packed_events)

    def encode(
        self,
        game: Game,
        players: Mapping[str, str] | None = None,
        *,
        created: str | None = None,
        name: str = "<game>",
    ) -> tuple[bytes, SaveHeader]:
        """The bytes of a save of ``game`` and its header (see :func:`encode_game`)."""
        if getattr(self._active, "on", False):
            # Re-entered on the same thread (a signal handler saving while this thread was saving): a fresh
            # encoder, since this one's caches may be half updated and its lock is held.
            return GameEncoder()._encode(game, players, created, name)
        self._active.on = True
        try:
            with self._lock:
                return self._encode(game, players, created, name)
        finally:
            self._active.on = False

    def _encode(
        self, game: Game, players: Mapping[str, str] | None, created: str | None, name: str
    ) -> tuple[bytes, SaveHeader]:
        scenario = game.scenario
        if not scenario.text or not scenario.map.text:
            missing = "text" if not scenario.text else "map text"
            raise SaveError(name, f"cannot save: scenario {scenario.id} has no {missing} to embed")
        who = _players(game, players)
        now = utc_now()
        if created is None and isinstance(game, SavedGame):
            created = getattr(game, "created", None)
        state = game.state
        outcome = state.outcome
        history = game.history
        header = SaveHeader(
            format=migrations.FORMAT_VERSION,
            kind="game",
            app=engine.__version__,
            ruleset=game.ruleset.id,
            ruleset_version=str(game.ruleset.version),
            scenario=scenario.id,
            title=scenario.title,
            turn=state.turn,
            actions=len(history),
            to_act=game.to_act,
            winner=outcome.winner if outcome else None,
            result=outcome.reason if outcome else None,
            sides=tuple(SideInfo(s.id, s.name, who[s.id]) for s in scenario.sides),
            created=created or now,
            updated=now,
        )
        try:
            if scenario is not self._scenario:
                self._texts = (Packed(pack_value(scenario.text)), Packed(pack_value(scenario.map.text)))
                self._scenario = scenario
            body = {
                "scenario_file": Path(scenario.path).name or f"{scenario.id}.toml",
                "scenario_text": self._texts[0],
                "map_file": Path(scenario.map.path).name or f"{scenario.map.id}.map",
                "map_text": self._texts[1],
                "seed": game.seed,
                "dice": _initial_dice(game, name),
                "history": self._history(game, history),
                "state": state.to_dict(),
                "events": self._log(game.events),
                "players": who,
            }
            table = getattr(game, "table", None)
            if isinstance(table, Mapping) and table:
                body["table"] = dict(table)
            data = pack_save(header.to_dict(), body)
        except (TypeError, ValueError, OverflowError) as err:
            raise SaveError(name, f"cannot save: the game holds data a save cannot store ({err})") from None
        return data, header


def encode_game(
    game: Game,
    players: Mapping[str, str] | None = None,
    *,
    created: str | None = None,
    name: str = "<game>",
) -> tuple[bytes, SaveHeader]:
    """The bytes of a save of ``game`` and its header (nothing is written).

    Each live game has its :class:`GameEncoder`, so saving it again packs only the actions and events that are
    new since its last save.

    Args:
        game: the game to save.
        players: side id → ``"human"`` or ``"ai:<level>"``; sides not given keep the game's players (a
            :class:`SavedGame`) or are ``"human"``.
        created: when the game was first saved (ISO 8601); defaults to the game's, else now.
        name: the file's name for messages.

    Raises:
        SaveError: the game cannot be saved (no scenario text to embed, dice that cannot be stored, state data
            that msgpack cannot write).
        ValueError: ``players`` names an unknown side or an unknown kind of player.
    """
    with _encoders_lock:
        encoder = _encoders.get(game)
        if encoder is None:
            encoder = _encoders[game] = GameEncoder()
    return encoder.encode(game, players, created=created, name=name)


_encoders: weakref.WeakKeyDictionary[Game, GameEncoder] = weakref.WeakKeyDictionary()
"""One encoder per live game, so that saving the same game again packs only what is new."""
_encoders_lock = threading.RLock()


def is_good_save(path: Path) -> bool:
    """True if ``path`` holds a save whose header and checksum are good (kept as the ``.bak`` on the next write)."""
    try:
        split_save(read_bounded(path, MAX_FILE_BYTES), str(path))
    except SaveError:
        return False
    return True


def save_game(
    game: Game,
    path: str | os.PathLike[str],
    players: Mapping[str, str] | None = None,
    *,
    created: str | None = None,
) -> SaveHeader:
    """Save ``game`` to ``path`` atomically, keeping the previous good file as ``<path>.bak``.

    Args:
        game: the game to save.
        path: the save file (its folder is created if needed); by convention it ends in ``.planspiel``.
        players: side id → ``"human"`` or ``"ai:<level>"`` (see :func:`encode_game`).
        created: when the game was first saved (see :func:`encode_game`).

    Returns:
        The header written.

    Raises:
        SaveError: the game cannot be saved, or the file cannot be written (full disk, read-only folder...);
            the previous save is then intact.
        ValueError: ``players`` names an unknown side or an unknown kind of player.
    """
    target = Path(path)
    data, header = encode_game(game, players, created=created, name=str(target))
    write_atomic(target, data, backup=True, is_good=is_good_save)
    return header


# --- Reading the body ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Body:
    """A game body of the current format, checked for types."""

    scenario_file: str
    scenario_text: str
    map_file: str
    map_text: str
    seed: int
    dice: dict[str, Any] | None
    history: list[str]
    state: dict[str, Any]
    events: list[Event]
    players: dict[str, str]
    table: dict[str, Any]


def _damaged(name: str, key: str, expected: str, value: Any) -> SaveError:
    return SaveError(name, f"is damaged: body entry {key!r} should be {expected}, not {shown(value)}")


def _text(body: dict[str, Any], key: str, name: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise _damaged(name, key, "text", value)
    return value


def _events(value: Any, name: str) -> list[Event]:
    if not isinstance(value, list):
        raise _damaged(name, "events", "a list", value)
    out: list[Event] = []
    for e in value:
        if not (
            isinstance(e, dict)
            and isinstance(e.get("kind"), str)
            and isinstance(e.get("text"), str)
            and isinstance(e.get("data", {}), dict)
        ):
            raise _damaged(name, "events", "a list of events", e)
        seen = e.get("visible_to")
        if seen is not None and not (isinstance(seen, list) and all(isinstance(s, str) for s in seen)):
            raise _damaged(name, "events", "a list of events", e)
        out.append(Event(e["kind"], e["text"], e.get("data", {}), tuple(seen) if seen is not None else None))
    return out


def _game_body(body: dict[str, Any], name: str) -> _Body:
    seed = body.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise _damaged(name, "seed", "a number", seed)
    dice = body.get("dice")
    if dice is not None and not isinstance(dice, dict):
        raise _damaged(name, "dice", "a map or nil", dice)
    history = body.get("history")
    if not isinstance(history, list) or not all(isinstance(a, str) for a in history):
        raise _damaged(name, "history", "a list of actions in notation", history)
    state = body.get("state")
    if not isinstance(state, dict):
        raise _damaged(name, "state", "a map", state)
    players = body.get("players")
    if not isinstance(players, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in players.items()):
        raise _damaged(name, "players", "a map of side to player", players)
    return _Body(
        scenario_file=_text(body, "scenario_file", name),
        scenario_text=_text(body, "scenario_text", name),
        map_file=_text(body, "map_file", name),
        map_text=_text(body, "map_text", name),
        seed=seed,
        dice=dice,
        history=history,
        state=state,
        events=_events(body.get("events", []), name),
        players=players,
        table=_table(body.get("table", {}), name),
    )


def _table(value: Any, name: str) -> dict[str, Any]:
    """The client's data kept with the game (a map with text keys; what is inside, the client checks)."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise _damaged(name, "table", "a map with text keys", value)
    return value


# --- Scenario and ruleset --------------------------------------------------------------------------------

_scenarios: OrderedDict[str, Scenario] = OrderedDict()
_scenarios_lock = threading.Lock()
_SCENARIO_CACHE_SIZE = 8


def _ruleset(header: SaveHeader, name: str) -> Ruleset:
    try:
        return get_ruleset(header.ruleset)
    except UnknownRulesetError:
        known = ", ".join(ruleset_names()) or "none"
        raise SaveError(
            name, f"was made with ruleset {header.ruleset!r}, which is not installed (installed: {known})"
        ) from None


def _scenario(body: _Body, ruleset: Ruleset, name: str) -> Scenario:
    """The scenario embedded in a save, parsed against ``ruleset`` (cached: parsing validates, which is slow)."""
    digest = hashlib.sha256()
    for part in (ruleset.id, str(ruleset.version), body.scenario_file, body.scenario_text, body.map_file):
        digest.update(part.encode() + b"\0")
    digest.update(body.map_text.encode())
    key = digest.hexdigest()
    with _scenarios_lock:
        found = _scenarios.get(key)
        if found is not None:
            _scenarios.move_to_end(key)
            return found
    try:
        scenario = parse_scenario(
            body.scenario_text, body.scenario_file, map_text=body.map_text, map_file=body.map_file, ruleset=ruleset
        )
    except ScenarioError as err:
        first = err.problems[0] if err.problems else "unknown problem"
        more = f" (and {len(err.problems) - 1} more)" if len(err.problems) > 1 else ""
        raise SaveError(name, f"holds a scenario that no longer loads: {first}{more}") from None
    except Exception as err:  # a ruleset's scenario checks failing on unexpected data
        raise SaveError(name, f"holds a scenario that cannot be read ({_reason(err, named=True)})") from None
    with _scenarios_lock:
        _scenarios[key] = scenario
        while len(_scenarios) > _SCENARIO_CACHE_SIZE:
            _scenarios.popitem(last=False)
    return scenario


def clear_scenario_cache() -> None:
    """Forget the scenarios parsed from saves (benchmarks use this to time a cold load)."""
    with _scenarios_lock:
        _scenarios.clear()


# --- Replay and comparison -------------------------------------------------------------------------------


def _reason(err: BaseException, *, named: bool = False, limit: int = 300) -> str:
    """An exception as words, at most ``limit`` characters: the message of a ValueError or TypeError, the
    missing key of a KeyError, else (or when ``named``) the exception's type and message (a bug somewhere, worth
    naming)."""
    if isinstance(err, KeyError) and not named:
        return f"missing entry {shown(err.args[0])}" if err.args else "missing entry"
    try:
        text = str(err)
    except Exception:  # a message made from a value that cannot be shown
        text = ""
    if not (isinstance(err, (ValueError, TypeError)) and text) or named:
        text = f"{type(err).__name__}: {text}" if text else type(err).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _ReplayFailed(Exception):
    def __init__(self, sentence: str) -> None:
        self.sentence = sentence
        super().__init__(sentence)


def _plain(d: dict[str, Any]) -> Any:
    """``d`` as it reads back from a save (tuples become lists and so on), for comparison."""
    return msgpack.unpackb(msgpack.packb(d, use_bin_type=True), raw=False, strict_map_key=False)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def diff_plain(saved: Any, replayed: Any, where: str = "state", limit: int = _MAX_DIFFS) -> list[str]:
    """Where two plain values differ, as sentences (at most ``limit``)."""
    out: list[str] = []

    def walk(a: Any, b: Any, at: str) -> None:
        if len(out) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b), key=str):
                if k not in a:
                    out.append(f"{at}.{k}: missing from the save, replayed {_short(b[k])}")
                elif k not in b:
                    out.append(f"{at}.{k}: saved {_short(a[k])}, missing from the replay")
                else:
                    walk(a[k], b[k], f"{at}.{k}")
                if len(out) >= limit:
                    return
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{at}[{i}]")
        else:
            out.append(f"{at}: saved {_short(a)}, replayed {_short(b)}")

    walk(saved, replayed, where)
    return out


@collector_paused()  # a batch of actions: see engine.game.collector_paused
def _replay(scenario: Scenario, seed: int, dice: dict[str, Any] | None, history: list[str], name: str) -> SavedGame:
    try:
        start = dice_from_dict(dice) if dice is not None else None
        game = SavedGame(scenario, seed, start)
    except Exception as err:  # the ruleset's setup failing on this scenario
        raise _ReplayFailed(f"the scenario cannot be set up ({_reason(err)})") from None
    for i, text in enumerate(history, start=1):
        try:
            try:
                action = game.parse(text)
            except engine.InvalidActionError as err:
                # The ruleset cannot read notation its own describe() wrote (a ruleset bug). When the plain
                # grammar reads it as one of the legal actions, that is the action that was played.
                action = parse_notation(text)
                if action not in game.legal_actions():
                    raise err from None
                log.warning(
                    "%s: position %d: %s cannot read %r (%s); it is the legal action %r",
                    name, i, scenario.ruleset, text, err, action,
                )  # fmt: skip
            game.apply(action)
        except engine.ActionError as err:
            raise _ReplayFailed(
                f"illegal action in the history at position {i} ({shown(text, 120)}): {_reason(err)}"
            ) from None
        except Exception as err:  # a ruleset bug must not become a traceback
            raise _ReplayFailed(f"the history fails at position {i} ({shown(text, 120)}): {_reason(err)}") from None
    return game


def _actions(ruleset: Ruleset, state: GameState, history: list[str]) -> list[Action | str]:
    """The history as actions where that is quick and exact, else as notation for ``Game.restore`` to read.

    Reading notation with the ruleset reads it into the verb's typed form; plain notation split on spaces is the
    action that was played when the ruleset writes it back to the same text, since ``describe`` never writes two
    actions alike (DESIGN §4: ``describe`` and ``parse`` are exact inverses).
    """
    out: list[Action | str] = []
    for text in history:
        tokens = text.split(" ") if len(text) <= MAX_NOTATION else [""]
        if tokens[0] and not any(c in text for c in "'\"\\"):
            action = Action(tokens[0], tuple(tokens[1:]))
            try:
                if ruleset.describe(state, action) == text:
                    out.append(action)
                    continue
            except Exception:  # the ruleset reads the notation itself below, and says what is wrong
                pass
        out.append(text)
    return out


def _cut(sentence: str, limit: int = 250) -> str:
    """A sentence shortened to about ``limit`` characters, for a message that joins two."""
    return sentence if len(sentence) <= limit else sentence[: limit - 3] + "..."


class _Unusable(Exception):
    """The saved position cannot be continued from; ``sentence`` says why (it follows "the save ...")."""

    def __init__(self, sentence: str) -> None:
        self.sentence = sentence
        super().__init__(sentence)


def _restore(scenario: Scenario, body: _Body) -> SavedGame:
    """The game continued from the body's snapshot, once the position has been found playable.

    Raises:
        _Unusable: the snapshot cannot be read into the ruleset's state, or the position cannot be played on
            (:meth:`engine.Game.check_playable`: a unit of an unknown type, a hex off the map, the rules failing
            to list the legal actions or a side's view...).
    """
    try:
        ruleset = get_ruleset(scenario.ruleset)
        state = GameState.from_dict(
            body.state,
            board_for(scenario, ruleset),
            data_type=ruleset.state_type,
            status_type=ruleset.status_type,
        )
        game = SavedGame.restore(scenario, body.seed, _actions(ruleset, state, body.history), state, body.events)
    except Exception as err:  # a snapshot that does not fit this ruleset, whatever the cause
        raise _Unusable(f"holds a saved position that cannot be read ({_reason(err)})") from None
    try:
        game.check_playable()
    except StateError as err:
        raise _Unusable(f"holds a saved position that cannot be played on ({_reason(err)})") from None
    return game


def _version_text(header: SaveHeader, ruleset: Ruleset) -> str:
    return f"saved with {header.ruleset} version {header.ruleset_version}, this is version {ruleset.version}"


def _from_snapshot(header: SaveHeader, body: _Body, scenario: Scenario, name: str) -> tuple[SavedGame, list[str], bool]:
    """``verify="snapshot"``: the game continued from its snapshot, or, when the snapshot cannot be used, from
    its history replayed (with a warning saying why); ``(game, warnings, whether the snapshot was used)``.

    Raises:
        SaveError: neither the snapshot nor the history can be used.
    """
    ruleset = get_ruleset(scenario.ruleset)
    try:
        game = _restore(scenario, body)
    except _Unusable as bad:
        try:
            replayed = _replay(scenario, body.seed, body.dice, body.history, name)
        except _ReplayFailed as failed:
            raise SaveError(
                name, f"{_cut(bad.sentence)}, and its history does not replay either: {_cut(failed.sentence)}"
            ) from None
        if str(ruleset.version) != header.ruleset_version:
            why = (
                f"{_version_text(header, ruleset)}: its saved position has a shape this version no longer reads "
                f"({_cut(bad.sentence)}); the position is rebuilt by replaying the history"
            )
            return replayed, [why], False
        return replayed, [f"the save {bad.sentence}; the game continues from its history, replayed"], False
    if str(ruleset.version) != header.ruleset_version:
        return game, [f"{_version_text(header, ruleset)}; the history has not been replayed yet"], True
    return game, [], True


def _from_replay(header: SaveHeader, body: _Body, scenario: Scenario, name: str) -> tuple[SavedGame, list[str], bool]:
    """``verify="replay"``: the game replayed from its history and compared with the snapshot, or continued from
    the snapshot when the rules changed since the save (see FORMAT.md, section 5); ``(game, warnings,
    verified)``.

    Raises:
        SaveError: the history does not replay under the same rules, or neither it nor the snapshot can be used.
    """
    ruleset = get_ruleset(scenario.ruleset)
    same_version = str(ruleset.version) == header.ruleset_version
    try:
        replayed = _replay(scenario, body.seed, body.dice, body.history, name)
    except _ReplayFailed as failed:
        if same_version:
            raise SaveError(name, failed.sentence) from None
        try:
            game = _restore(scenario, body)
        except _Unusable as bad:
            why = f"{_cut(bad.sentence)}, and its history no longer replays: {_cut(failed.sentence)}"
            raise SaveError(name, why) from None
        return (
            game,
            [
                f"{_version_text(header, ruleset)}, and the history no longer replays: {failed.sentence}; "
                "the game continues from the saved position"
            ],
            False,
        )
    diffs = diff_plain(body.state, _plain(replayed.state.to_dict()))
    if not diffs:
        return replayed, [], True
    if same_version:
        return (
            replayed,
            [
                "the replayed history differs from the saved position; the game continues from the replayed one: "
                + "; ".join(diffs)
            ],
            False,
        )
    try:
        game = _restore(scenario, body)
    except _Unusable as bad:
        return (
            replayed,
            [
                f"{_version_text(header, ruleset)}, and the history now replays differently, but the save "
                f"{bad.sentence}; the game continues from the replayed history"
            ],
            False,
        )
    return (
        game,
        [
            f"{_version_text(header, ruleset)}, and the history now replays differently; the game continues from "
            "the saved position: " + "; ".join(diffs)
        ],
        False,
    )


def _build(header: SaveHeader, body: _Body, name: str, verify: Verify) -> SavedGame:
    ruleset = _ruleset(header, name)
    scenario = _scenario(body, ruleset, name)
    verified, keep_snapshot = False, True
    if verify == "snapshot":
        game, warnings, keep_snapshot = _from_snapshot(header, body, scenario, name)
    else:
        game, warnings, verified = _from_replay(header, body, scenario, name)
    for w in warnings:
        log.warning("%s: %s", name, w)
    game.players = {s: body.players.get(s, "human") for s in scenario.side_ids()}
    game.table = body.table
    game.created = header.created
    game.path = None
    game.header = header
    game.warnings = warnings
    game.verified = verified
    game.initial_dice = body.dice
    # A snapshot that could not be used is not worth comparing with: check_replay then has nothing to check.
    game.snapshot = body.state if keep_snapshot else None
    game.snapshot_actions = len(body.history)
    return game


def decode_game(data: bytes, name: str, *, verify: Verify = "replay") -> SavedGame:
    """Load a game from the bytes of a save.

    Args:
        data: the save's bytes.
        name: the file's name for messages.
        verify: ``"replay"`` replays the history and compares it with the snapshot; ``"snapshot"``
            continues from the snapshot without replaying (see :func:`check_replay`).

    Raises:
        SaveError: the bytes are not a loadable game save; the sentence says why.
    """
    if verify not in ("replay", "snapshot"):
        raise ValueError(f"verify must be 'replay' or 'snapshot', not {verify!r}")
    header_dict, body_dict = unpack_save(data, name)
    header = header_from_dict(header_dict, name)
    if header.kind != "game":
        raise SaveError(name, f"is a {header.kind} save, not a game save (load it with saves.load_campaign)")
    body = _game_body(body_dict, name)
    try:
        return _build(header, body, name, verify)
    except SaveError:
        raise
    except Exception as err:  # the last guard: a file never causes a traceback
        raise SaveError(name, f"cannot be loaded ({_reason(err)})") from None


def load_game(path: str | os.PathLike[str], *, verify: Verify = "replay", backup: bool = True) -> SavedGame:
    """Load a saved game, with its players.

    Args:
        path: the save file.
        verify: ``"replay"`` (default) replays the history and compares the result with the saved snapshot;
            ``"snapshot"`` continues from the snapshot at once, and :func:`check_replay` can run later.
        backup: when the file cannot be loaded and ``<path>.bak`` can, load that instead (the game then
            carries a warning saying so, and its :attr:`SavedGame.path` is still ``path``).

    Returns:
        The game, with ``players``, ``created``, ``warnings`` and the rest of :class:`SavedGame` set.

    Raises:
        SaveError: the file (and its backup) cannot be loaded; the sentence names the file and the cause.
    """
    target = Path(path)
    try:
        game = decode_game(read_bounded(target, MAX_FILE_BYTES), str(target), verify=verify)
    except SaveError as err:
        bak = backup_path(target)
        if not backup or not bak.is_file():
            raise
        try:
            game = decode_game(read_bounded(bak, MAX_FILE_BYTES), str(bak), verify=verify)
        except SaveError as bak_err:
            raise SaveError(target, f"{err.cause}; its backup cannot be loaded either: {bak_err.cause}") from None
        note = f"{err}; loaded the backup {bak.name} (the save before it) instead"
        log.warning("%s", note)
        game.warnings.insert(0, note)
    game.path = target
    return game


def check_replay(game: SavedGame) -> list[str]:
    """Replay a loaded game's history up to the saved position and compare it with the saved snapshot.

    Safe to run in a worker thread while the game goes on (it builds a game of its own).

    Returns:
        Sentences describing each difference; empty when the replay matches (or nothing was saved).
    """
    if getattr(game, "snapshot", None) is None:
        return []
    assert game.snapshot is not None
    history = [game.describe(a) for a in game.history[: game.snapshot_actions]]
    try:
        replayed = _replay(game.scenario, game.seed, game.initial_dice, history, str(game.path or game.scenario.id))
    except _ReplayFailed as failed:
        return [failed.sentence]
    diffs = diff_plain(game.snapshot, _plain(replayed.state.to_dict()))
    return ["the replayed history differs from the saved position: " + "; ".join(diffs)] if diffs else []


# --- Headers and listing ---------------------------------------------------------------------------------


def read_header(path: str | os.PathLike[str]) -> SaveHeader:
    """The header of a save file, read without the rest of the file (no checksum check: that needs the body).

    Raises:
        SaveError: missing, not a Planspiel save, truncated, damaged or of a newer format.
    """
    target = Path(path)
    name = str(target)
    return header_from_dict(read_header_dict(read_prefix(target, MAX_HEADER_BYTES), name), name)


def read_history(path: str | os.PathLike[str]) -> tuple[SaveHeader, list[str]]:
    """A save's header and its history in notation (for a campaign save, the current battle's), checksum checked.

    Raises:
        SaveError: the file cannot be read.
    """
    target = Path(path)
    name = str(target)
    header_dict, body = unpack_save(read_bounded(target, MAX_FILE_BYTES), name)
    header = header_from_dict(header_dict, name)
    if header.kind == "campaign":
        battle = body.get("battle")
        if battle is None:
            return header, []
        if not isinstance(battle, bytes):
            raise _damaged(name, "battle", "a game save", battle)
        inner = f"{name} (current battle)"
        _, battle_body = unpack_save(battle, inner)
        return header, _game_body(battle_body, inner).history
    return header, _game_body(body, name).history


def list_saves(folder: str | os.PathLike[str] | None = None) -> list[SaveEntry]:
    """The save files in ``folder`` (default :func:`saves.saves_dir`), reading only their headers.

    Files that cannot be read are listed with their error. Backups (``.bak``) and hidden files are skipped.
    The newest save comes first; broken files come last.

    Raises:
        SaveError: ``folder`` exists but is not a folder, or cannot be read. A missing folder has no saves.
    """
    where = Path(folder) if folder is not None else saves_dir()
    if not where.exists():
        return []
    if not where.is_dir():
        raise SaveError(where, "is not a folder")
    try:
        names = sorted(e.name for e in os.scandir(where) if e.name.endswith(SUFFIX) and not e.name.startswith("."))
    except OSError as err:
        raise SaveError(where, f"cannot be listed: {err.strerror or err}") from None
    entries: list[SaveEntry] = []
    for file_name in names:
        p = where / file_name
        try:
            mtime = p.stat().st_mtime
        except OSError:
            continue  # removed while listing
        try:
            entries.append(SaveEntry(p, read_header(p), None, mtime))
        except SaveError as err:
            entries.append(SaveEntry(p, None, err, mtime))
        except Exception as err:  # the last guard: one file never stops the listing of the others
            entries.append(SaveEntry(p, None, SaveError(p, f"cannot be read ({_reason(err, named=True)})"), mtime))
    good = [e for e in entries if e.header is not None]
    good.sort(key=lambda e: (e.header.updated if e.header is not None else "", e.mtime), reverse=True)
    return good + [e for e in entries if e.header is None]
