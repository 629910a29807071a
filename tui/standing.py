"""Provides standing reaction orders: what a human side's reaction windows do without asking.

A reaction window is a decision in which every legal action is a reaction (:data:`~engine.Role.REACT`) or a
retreat (:data:`~engine.Role.RETREAT`) of one of the side's units, or the one action that lets the moment pass
(:data:`~engine.Role.PASS`, no unit): opportunity fire, return fire, a retreat, a counter-move, in any ruleset
(a retreat offered after a close combat, with an action to decline it, is one too). A side's standing orders
(per side, and per unit where the player wants another) say, in the manner of the reaction fire settings of
computer wargames:

- ``ask``: ask in every window;
- ``worth``: ask only when some reaction is worth it, else let the moment pass by itself and say so in the log;
- ``auto`` (the default): react by itself with the attack worth most, when one is worth it, else let the moment
  pass; a retreat worth it is asked (a unit is never moved by the orders);
- ``never``: never react.

A reaction is worth it when the engine's odds give it at least the side's threshold of an effect (an attack);
a retreat is worth it when the attack just left the unit in a bad way (:data:`RETREATS`: by default; or whenever
it was just attacked, or also when it stands next to an enemy unit the window reacts to, if the player says so;
the engine names all three in :class:`~engine.Waiting`, and a ruleset that names none gets the cautious reading:
next to any enemy unit); a reaction the engine gives no odds for always is (the player is asked). Only the
player's own orders decide: the program never chooses a reaction the orders do not name, and a reaction worth it
under ``worth`` or ``ask`` is always asked.

``auto`` is the default because it is how the game is played well: in Hannut the ``normal`` AI, which beats the
baselines, never lets a window with an attack of 10 % or more pass (132 such windows in 4 games of 2 turns: it
fired in 116 and retreated in 16; ``benchmarks/reaction_decisions.py --ai-windows normal --seeds 1,2,3,4``), so
asking each time costs a player dozens of questions a turn that are nearly always answered the same way.

The orders also give the usual answer to a routine choice where the ruleset names one
(:attr:`~engine.Waiting.usual`, e.g. keeping a result rather than paying for it), unless the player says
``ask`` (:data:`ROUTINES`). Pure functions of the side's view and legal actions, tested without Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Action, ActionInfo, GameState, Odds, Role, Waiting, distance

from .overlay import Legal, effect_chance, window_pass
from .settings import DEFAULT_REACTION_THRESHOLD, REACTION_ORDERS

__all__ = [
    "DEFAULT_THRESHOLD",
    "ORDERS",
    "RETREATS",
    "ROUTINES",
    "Standing",
    "Verdict",
    "decide",
    "note_declined",
    "window_pass",
]

ORDERS = REACTION_ORDERS
"""Standing orders → what they do (the settings' table, which the settings file is checked against)."""

RETREATS: dict[str, str] = {
    "hurt": "ask for a unit the attack hurt (neutralised, a step lost)",
    "struck": "ask for any unit just attacked",
    "near": "ask also for a unit next to the enemy that moves or fires",
}
"""When a retreat is worth asking → what it means (as ``R`` offers it)."""

ROUTINES: dict[str, str] = {
    "usual": "give the usual answer by themselves (the log says which)",
    "ask": "ask every time",
}
"""What the orders do with a routine choice the ruleset names a usual answer for (:attr:`engine.Waiting.usual`)
→ what it means (as ``R`` offers it)."""

DEFAULT_THRESHOLD = DEFAULT_REACTION_THRESHOLD
"""The chance of an effect from which an attack in a reaction window is worth asking about (10 %)."""


@dataclass
class Standing:
    """One side's standing reaction orders."""

    order: str = "auto"
    """One of :data:`ORDERS` for every unit of the side without an order of its own."""
    threshold: float = DEFAULT_THRESHOLD
    """The chance of an effect that makes an attack worth it."""
    units: dict[str, str] = field(default_factory=dict)
    """Unit id → its own order (one of :data:`ORDERS`)."""
    retreats: str = "hurt"
    """When a retreat is worth asking (:data:`RETREATS`)."""
    routine: str = "usual"
    """What a routine choice with a usual answer does (:data:`ROUTINES`)."""
    declined: dict[tuple[int, tuple[str, ...], str, Role], float] = field(default_factory=dict, compare=False)
    """What the player let pass this game session: (turn, the enemy units the window reacted to, unit, its role:
    attack or retreat) → the chance it had (see :func:`note_declined`; not saved: after a resume everything is
    asked again)."""

    def to_plain(self) -> dict[str, Any]:
        """The orders as plain data (kept in the game's save, ``table.standing``)."""
        return {
            "order": self.order,
            "threshold": self.threshold,
            "retreats": self.retreats,
            "routine": self.routine,
            "units": dict(self.units),
        }

    @classmethod
    def from_plain(cls, raw: Any) -> Standing:
        """Orders read back from a save; anything not understood gives the default (a save is never refused for
        its standing orders)."""
        out = cls()
        if not isinstance(raw, dict):
            return out
        if raw.get("order") in ORDERS:
            out.order = raw["order"]
        threshold = raw.get("threshold")
        if isinstance(threshold, (int, float)) and not isinstance(threshold, bool) and 0 <= threshold <= 1:
            out.threshold = float(threshold)
        if raw.get("retreats") in RETREATS:
            out.retreats = raw["retreats"]
        if raw.get("routine") in ROUTINES:
            out.routine = raw["routine"]
        units = raw.get("units")
        if isinstance(units, dict):
            out.units = {k: v for k, v in units.items() if isinstance(k, str) and v in ORDERS}
        return out

    def order_of(self, unit: str | None) -> str:
        """The order that applies to a unit."""
        return self.units.get(unit, self.order) if unit is not None else self.order


@dataclass(frozen=True)
class Verdict:
    """What the standing orders do in a window: play ``action`` and log ``line``, or ask (``action`` None)."""

    action: Action | None
    line: str = ""


ASK = Verdict(None)


def _worth(
    info: ActionInfo, odds: Odds | None, view: GameState, side: str, waiting: Waiting | None, retreats: str
) -> float | None:
    """How much a reaction is worth: its chance of an effect; for a retreat 1 when the unit was just attacked or
    stands next to an enemy unit the window reacts to (:attr:`~engine.Waiting.struck`,
    :attr:`~engine.Waiting.react_to`; next to any enemy where the ruleset names neither), else 0; None when the
    engine gives nothing to judge it by (always asked)."""
    if info.has(Role.RETREAT):
        me = view.units.get(info.unit or "")
        if me is None or me.hex is None:
            return None
        bad = waiting.hurt if waiting is not None and retreats == "hurt" else None
        if waiting is not None and me.id in (waiting.struck if bad is None else bad):
            return 1.0
        if retreats != "near" and waiting is not None and (waiting.react_to or waiting.struck):
            return 0.0
        named = waiting is not None and bool(waiting.react_to or waiting.struck)
        threats = [view.units.get(u) for u in waiting.react_to] if waiting is not None and named else []
        if not named:
            threats = [u for u in view.units.values() if u.side != side]
        near = any(u is not None and u.hex is not None and distance(u.hex, me.hex) <= 1 for u in threats)
        return 1.0 if near else 0.0
    if odds is not None:
        return effect_chance(odds)
    return None


def decide(
    standing: Standing,
    view: GameState,
    side: str,
    legal: Legal,
    odds: Callable[[Action], Odds | None],
    names: Mapping[str, str] | None = None,
    waiting: Waiting | None = None,
    describe: Callable[[Action], str] = str,
) -> Verdict:
    """What ``side``'s standing orders do now: :data:`ASK` unless the decision is a reaction window that the orders
    answer (pass, or react by themselves) or a routine choice they give the usual answer to; ``names`` are the
    sides' names for the log line, ``waiting`` what the engine says of the decision (whom a window reacts to, the
    usual answer), ``describe`` an action in words for the log line."""
    usual = waiting.usual if waiting is not None else None
    if usual is not None and standing.routine == "usual" and any(a == usual for a, _ in legal):
        who = (names or {}).get(side, side.title())
        return Verdict(usual, f"{who}'s standing orders: {describe(usual)}; the usual choice (R changes it)")
    passing = window_pass(legal)
    if passing is None:
        return ASK
    best: tuple[float, Action] | None = None
    seen = False
    for action, info in legal:
        if action == passing:
            continue
        order = standing.order_of(info.unit)
        if order == "never":
            continue
        if order == "ask":
            return ASK
        worth = _worth(info, odds(action) if info.has(Role.CHANCE) else None, view, side, waiting, standing.retreats)
        if worth is None:
            return ASK
        if worth < standing.threshold or worth <= 0:
            continue
        if order == "worth" and _let_pass(standing, view, waiting, info, worth):
            seen = True  # the player let as good a chance pass against the same enemy this turn
            continue
        if order == "worth" or not info.has(Role.ATTACK):
            return ASK  # worth it, and the orders leave it to the player (a retreat is never taken by itself)
        if best is None or worth > best[0]:
            best = (worth, action)
    who = (names or {}).get(side, side.title())
    if best is not None:
        return Verdict(best[1], f"{who}'s standing orders react: {best[1]} ({best[0]:.0%} chance of an effect)")
    limit = f"{standing.threshold:.0%}"
    why = "standing orders: never react" if standing.order == "never" else f"no reaction with {limit} or more"
    if seen:
        why = "no better chance than one you let pass against the same enemy this turn"
    return Verdict(passing, f"{who} lets it pass ({why}; R changes the standing orders)")


def _key(view: GameState, waiting: Waiting | None, info: ActionInfo) -> tuple[int, tuple[str, ...], str, Role] | None:
    if waiting is None or not waiting.react_to or info.unit is None:
        return None
    return (view.turn, tuple(waiting.react_to), info.unit, Role.RETREAT if info.has(Role.RETREAT) else Role.ATTACK)


def _let_pass(standing: Standing, view: GameState, waiting: Waiting | None, info: ActionInfo, worth: float) -> bool:
    key = _key(view, waiting, info)
    return key is not None and key in standing.declined and standing.declined[key] >= worth - 1e-9


def note_declined(
    standing: Standing,
    view: GameState,
    side: str,
    legal: Legal,
    odds: Callable[[Action], Odds | None],
    waiting: Waiting | None,
) -> None:
    """The player let a window pass: remember each reaction worth asking about in it, so that a window later in
    the turn against the same enemy unit(s) is asked again only for a better chance (under ``worth``)."""
    passing = window_pass(legal)
    for action, info in legal:
        if action == passing:
            continue
        worth = _worth(info, odds(action) if info.has(Role.CHANCE) else None, view, side, waiting, standing.retreats)
        key = _key(view, waiting, info)
        if worth is not None and key is not None and worth >= standing.threshold:
            standing.declined[key] = max(worth, standing.declined.get(key, 0.0))
