"""Provides the Blitzkrieg 1940 state model: what the ruleset keeps in ``GameState.data`` and ``Unit.status``.

Everything here is a plain, msgpack-safe value so that ``state.to_dict()`` and saves need no special cases.

``state.data`` keys:

- ``formations``: formation id → :data:`Formation` record (2.4 per-formation state).
- ``chits``: chit id → ``{"kind", "side", "formation"?, "salvos"?}``; kinds are ``formation``, ``replay``,
  ``general``, ``artillery``, ``stuka`` (2.3).
- ``cup``: chit ids in the cup, sorted (the draw is a die roll over this order, so it replays exactly).
- ``carried``: the chit carried over from the last turn (2.6), or None.
- ``pass_owner``: the side that made the immediately preceding pass, or None (2.7).
- ``players``: side → ``{"replays": [...], "general": id|None, "general_free": bool, "held": id|None,
  "activated": [...], "skipped": [...]}`` (2.4 per-player state).
- ``frames``: the stack of pending decisions; the top frame says who decides and what (2.9).
- ``mines``: hex label → owning side; ``forts``: hex labels; ``held_by``: objective hex label → side (11).
- ``removed_chits``: chit ids out of play for good; ``next_first``: the chit that will be carried.

``Unit.status`` keys (all optional, false/absent by default): ``neutralised``, ``opp_used``, ``ooc`` (out of
command), ``returned`` (return fire attempted this enemy activation), ``retreated`` (reaction retreat this enemy
activation), ``acted`` (has taken its action in the current activation), ``moving`` (the action under way:
``{"action", "mp", "spent", "moved", "column", "fired", "from"}``), ``column`` (in column, 7.2.1),
``independent`` (10.3), ``exited`` (left the map for good), ``arrives`` and ``entry`` (a reinforcement not yet
on the map, 12.2), ``carrying`` (on an APC: the id of the company on board) and ``carried_by`` (on that company:
the APC's id, 12.1 [P]).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from engine.state import GameState, Outcome, Unit

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.contract import ActionInfo
    from engine.los import LosPolicy
    from engine.rules import Transition

    from .data import Tables
    from .sight import SightRules

__all__ = [
    "CHIT_KINDS",
    "Formation",
    "Rules",
    "formation",
    "formation_units",
    "frame",
    "new_formation",
    "opponent",
    "player",
    "push",
]

Formation = dict[str, Any]
"""A formation record: side, name, hq (unit id or None), ff, independent, and the per-turn flags of 2.4:
acts, normal_used, replay_used, skipped, exhausted, demoralised, steps_total, steps_lost, overrun, removed."""

CHIT_KINDS = ("formation", "replay", "general", "artillery", "stuka")


class Rules(Protocol):
    """What the rules modules need of the ruleset object (:class:`.ruleset.Blitzkrieg1940`): its tables and the
    hooks of the sequence of play. The modules below the ruleset class name this protocol, never the class, so
    that none of them imports the module on top."""

    @property
    def tables(self) -> Tables: ...

    @property
    def sight_rules(self) -> SightRules: ...

    def los_policy(self, state: GameState) -> LosPolicy: ...

    def action_info(self, state: GameState, action: Action) -> ActionInfo: ...

    def turns(self, st: GameState) -> int: ...

    def recovery_first_side(self, st: GameState) -> str: ...

    def turn_start_events(self, tr: Transition) -> None: ...

    def turn_end_events(self, tr: Transition) -> None: ...

    def command_check(self, tr: Transition, units: list[Unit] | None) -> None: ...

    def demoralised_retreat(self, tr: Transition, fid: str) -> None: ...

    def activation_effects(self, tr: Transition, fid: str) -> None: ...

    def victory_check(self, st: GameState, final: bool) -> Outcome | None: ...


def new_formation(side: str, name: str, hq: str | None, ff: int, independent: bool = False) -> Formation:
    """A formation record at the start of a scenario."""
    return {
        "side": side,
        "name": name,
        "hq": hq,
        "ff": ff,
        "independent": independent,
        "acts": 0,
        "normal_used": False,
        "replay_used": False,
        "skipped": False,
        "exhausted": False,
        "demoralised": False,
        "steps_total": 0,
        "steps_lost": 0,
        "overrun": False,
        "removed": False,
    }


def formation(st: GameState, fid: str) -> Formation:
    """The formation record ``fid``."""
    rec: Formation = st.data["formations"][fid]
    return rec


def formation_units(st: GameState, fid: str, on_map: bool = True, hq: bool = True) -> list[Unit]:
    """Units of formation ``fid`` (attached independents included), in id order."""
    hq_id = formation(st, fid)["hq"]
    return [u for u in st.iter_units(on_map=on_map) if u.formation == fid and (hq or u.id != hq_id)]


def player(st: GameState, side: str) -> dict[str, Any]:
    """The per-player record of ``side``."""
    rec: dict[str, Any] = st.data["players"][side]
    return rec


def opponent(st: GameState, side: str) -> str:
    """The other side."""
    return next(s for s in st.sides if s != side)


def frame(st: GameState) -> dict[str, Any] | None:
    """The pending decision on top of the stack, or None."""
    frames: list[dict[str, Any]] = st.data["frames"]
    return frames[-1] if frames else None


def push(st: GameState, kind: str, side: str, **fields: Any) -> dict[str, Any]:
    """Push a decision frame and make ``side`` the side to act."""
    f: dict[str, Any] = {"kind": kind, "side": side, **fields}
    st.data["frames"].append(f)
    st.to_act = side
    return f
