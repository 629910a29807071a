"""Provides the Blitzkrieg 1940 victory rules: holding objectives (11), the Hannut German VP (13.8) and its
per-turn windows (12.1), possession of Stonne at the end (12.2) and the VP track display (1.4).

The state is read as :mod:`.model` describes it: ``Data.held_by`` maps each objective hex label to the side
holding it (11), units carry ``type``, ``side`` and remaining ``steps`` (0 = eliminated; eliminated units stay in
``state.units``). ``Data.victory`` is the scenario's ``[victory]`` table (``kind`` = ``"vp"`` for Hannut,
``"hold"`` for Stonne, with its hexes); without it the scheme follows the scenario id and the data tables.

>>> vp_track(23), vp_track(40)
((2, 3), (4, 0))
>>> held = {"1512": "french"}
>>> held_by_update(held, "german", ["1511", "1512"]), held
(['1512'], {'1512': 'german'})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from engine.hexgrid import Hex, hex_label, parse_hex
from engine.state import GameState, Outcome

from .data import Tables
from .model import data

__all__ = [
    "SCHEMES",
    "Losses",
    "hannut_objectives",
    "hannut_vp",
    "held_by_update",
    "losses",
    "victory_check",
    "victory_kind",
    "vp_track",
]

SCHEMES: Mapping[str, str] = {"hannut": "vp", "stonne": "hold"}
"""Scenario id → victory scheme, used when the state has no ``kind`` in ``Data.victory``."""


def held_by_update(held: MutableMapping[str, str], side: str, hexes_entered: Iterable[str | Hex]) -> list[str]:
    """Record that a combat unit of ``side`` moved through ``hexes_entered`` (11 [P]: the last side through holds).

    Only objective hexes (the keys of ``held``) are tracked. Call it for every hex a combat unit
    enters, passes through or sets up in — never for an HQ (11: "the last combat unit (not HQ)").

    Args:
        held: the state's ``Data.held_by`` (objective hex label → side), changed in place.
        side: the moving unit's side.
        hexes_entered: the hexes entered, as labels or hexes, in any order.

    Returns:
        The labels of the objective hexes that changed hands, in the order entered.
    """
    changed: list[str] = []
    for h in hexes_entered:
        label = h if isinstance(h, str) else hex_label(h)
        if label in held and held[label] != side:
            held[label] = side
            changed.append(label)
    return changed


@dataclass(frozen=True, slots=True)
class Losses:
    """Steps lost since the start of the scenario, by the classes of the 13.8 VP formula."""

    french_tank: int
    """Steps of French tank counters (13.8: S35 and H39, ``victory.toml`` ``tank_types``)."""
    french_other: int
    """Steps of every other French counter (dragoons, MG, AT gun, armoured cars, motorcycles)."""
    german: int
    """Steps of every German counter."""


def losses(tables: Tables, st: GameState) -> Losses:
    """Count the steps lost so far, unit by unit: full strength (1.2) minus remaining steps.

    Every loss counts, including the 2. Kürassiere's setup losses (12.1: the scenario lists those counters with
    ``steps = 1``) and the second step of eliminated units (``steps = 0``). Units that left the map with steps
    remaining (exited, withdrawn) lost nothing by leaving (13.8); units not yet arrived are at full strength. HQs
    have no steps (1.3).
    """
    tank_types = tables.hannut_victory.awards.tank_types
    french_tank = french_other = german = 0
    for u in st.units.values():
        lost = max(0, tables.units[u.type].steps - u.steps)
        if u.side == "german":
            german += lost
        elif u.type in tank_types:
            french_tank += lost
        else:
            french_other += lost
    return Losses(french_tank, french_other, german)


def _victory(st: GameState) -> Mapping[str, Any]:
    victory = data(st).victory
    return victory if isinstance(victory, Mapping) else {}


def _labels(value: Any) -> tuple[str, ...] | None:
    """Hex labels from a scenario hex list (a string or a list), or None if there is none."""
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = list(value)
    else:
        return None
    return tuple(hex_label(parse_hex(p)) for p in parts) or None


def hannut_objectives(tables: Tables, st: GameState) -> tuple[str, ...]:
    """The Hannut objective hexes (13.8): the scenario's ``victory.objectives``, else ``victory.toml``'s."""
    return _labels(_victory(st).get("objectives")) or tuple(tables.hannut_victory.objectives)


def hannut_vp(tables: Tables, st: GameState) -> int:
    """The German VP total of Hannut (13.8), recomputed from the state.

    2 × French tank steps lost + 1 × other French steps lost + 3 × objective hexes held by the German − 1 × German
    steps lost, at least 0 (the factors are in ``victory.toml`` ``[hannut.awards]``). At the start it is 8: the
    2. Kürassiere's 4 tank steps lost at setup (12.1).
    """
    lo = losses(tables, st)
    held = data(st).held_by or {}
    objectives = sum(1 for label in hannut_objectives(tables, st) if held.get(label) == "german")
    return tables.hannut_victory.awards.german_vp(
        french_tank_steps_lost=lo.french_tank,
        french_other_steps_lost=lo.french_other,
        objectives_held=objectives,
        german_steps_lost=lo.german,
    )


def victory_kind(st: GameState) -> str:
    """The victory scheme of the game: ``"vp"`` (Hannut, 12.1) or ``"hold"`` (Stonne, 12.2).

    Raises:
        ValueError: the state names no scheme and its scenario is neither Hannut nor Stonne.
    """
    kind = _victory(st).get("kind")
    if isinstance(kind, str):
        return kind
    if st.scenario in SCHEMES:
        return SCHEMES[st.scenario]
    raise ValueError(f"no victory scheme for scenario {st.scenario!r} (expected victory.kind = 'vp' or 'hold')")


def _name(side: str) -> str:
    return "draw" if side == "draw" else side.title()


def victory_check(tables: Tables, st: GameState, *, final: bool) -> Outcome | None:
    """The end-of-turn victory check (2.10 step 3) for ``st.turn``.

    Hannut (12.1, 13.8): the German VP is compared with this turn's window — above: German victory, below: French
    victory, inside: play on, or a draw after the last turn. Stonne (12.2): nothing before the end of the check turn
    (10); then the German wins if he holds every Stonne hex (0708, 0709), otherwise the French win.

    Args:
        tables: the rule tables.
        st: the state at the end of the turn.
        final: True at the end of the scenario's last turn: the game ends whatever the result (a Hannut VP total
            inside the window is a draw; Stonne is decided).

    Returns:
        The outcome if the game ends now, else None.

    Raises:
        ValueError: unknown victory scheme, or a Hannut turn without a VP window.
    """
    kind = victory_kind(st)
    if kind == "vp":
        return _hannut_check(tables, st, final)
    if kind == "hold":
        return _hold_check(tables, st, final)
    raise ValueError(f"unknown victory kind {kind!r} (expected 'vp' or 'hold')")


def _hannut_check(tables: Tables, st: GameState, final: bool) -> Outcome | None:
    h = tables.hannut_victory
    vp = hannut_vp(tables, st)
    result = h.outcome(st.turn, vp)
    low, high = h.windows[st.turn - 1]
    window = f"the turn-{st.turn} window {low}–{high}"
    if result == h.inside:
        if not final:
            return None
        result = h.inside_last_turn
    if result == h.above:
        return Outcome(result, f"German VP {vp} above {window}: {_name(result)} victory (rule 12.1)")
    if result == h.below:
        return Outcome(result, f"German VP {vp} below {window}: {_name(result)} victory (rule 12.1)")
    return Outcome(result, f"German VP {vp} inside {window} at the end of the game: {result} (rule 12.1)")


def _hold_check(tables: Tables, st: GameState, final: bool) -> Outcome | None:
    s = tables.stonne_victory
    victory = _victory(st)
    side = victory.get("side", s.side)
    turn = victory.get("turn", s.check_turn)
    hexes = _labels(victory.get("hexes")) or s.hexes
    if st.turn < turn and not final:
        return None  # 12.2: no VP windows, the game cannot end early
    held = data(st).held_by or {}
    other = next((x for x in st.sides if x != side), s.otherwise)
    missing = [label for label in hexes if held.get(label) != side]
    where = ", ".join(hexes)
    if not missing:
        return Outcome(
            side, f"{_name(side)} holds {where} at the end of turn {st.turn}: {_name(side)} victory (rule 12.2)"
        )
    lost = ", ".join(f"{label} (last through: {held.get(label, 'nobody')})" for label in missing)
    return Outcome(
        other,
        f"{_name(side)} does not hold {lost} at the end of turn {st.turn}: {_name(other)} victory (rule 12.2)",
    )


def vp_track(vp: int) -> tuple[int, int]:
    """Where the markers stand on the 1–10 VP track (1.4): the "x10" marker's box and the VP marker's box.

    0 means the marker is off the 1–10 boxes (AC-72: 40 VP → "x10" on 4, VP marker off the track).

    Raises:
        ValueError: a negative total (13.8 keeps the German VP at 0 or more).
    """
    if vp < 0:
        raise ValueError(f"the VP total is never negative (rule 13.8), got {vp}")
    tens, ones = divmod(vp, 10)
    return tens, ones
