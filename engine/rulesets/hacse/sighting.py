"""Provides HACSE line of sight (§6.2 [PROPOSED]) and sighting (§6.1) on the board.

- :func:`los_policy` is the engine's LOS policy of HACSE: higher ground blocks, and buildings (whose roofs stand
  above a line between units on the ground); :func:`sight_line` adds the §6.2 procedure for the other terrain:
  an intervening hex *obstructs* when its ground plus its feature height reaches the line's height there (eye
  heights ground + 0.5, linear between), its Sight and Hit entries count, and obstructing hexes whose Sight
  entries sum to 8 or more block the line.
- :func:`automatic` gives the conditions of §6.1 under which no sighting roll is needed, :func:`sight_roll` the
  sighting TN with its terms, :func:`check` one observer's check of one enemy (keeping, gaining or losing sight)
  and :func:`fire_phase_checks` the checks of every unit at the start of the Fire Phase (§3.2 Phase 3).

Sighting is per observing unit (``Status.sighted``, kept from turn to turn until lost, §6.1).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from engine.events import Modifier
from engine.hexgrid import Hex, distance
from engine.los import LosPolicy, line_of_sight
from engine.rules import Transition
from engine.state import GameState, Unit

from .bridges import terrain_of
from .buildings import occupied
from .communication import all_round
from .data import Tables
from .firedata import mod, total
from .model import data, status
from .targetdie import has_moved, movement_modifier
from .weather import SightEffect, condition

__all__ = [
    "SightLine",
    "automatic",
    "check",
    "fire_phase_checks",
    "los_policy",
    "sight_line",
    "sight_roll",
    "sight_tn",
    "sights",
    "smoke_now",
]


@cache
def sight_table() -> dict[str, Any]:
    """``data/sight.toml``, read once."""
    with (Path(__file__).parent / "data" / "sight.toml").open("rb") as f:
        return tomllib.load(f)


def los_policy(tables: Tables) -> LosPolicy:
    """Higher ground and buildings block (§6.2 [PROPOSED]); the other terrain is weighed by :func:`sight_line`."""
    buildings = frozenset(k for k, c in tables.terrain.items() if c.building)
    return LosPolicy(
        id="hacse:los",
        obstacles=buildings,
        levels=True,
        blind_hexes=False,
        hexside="either",
        rules={k: "6.2" for k in ("range", "obstacle", "higher", "crest", "blind", "hexside", "adjacent")},
        names={k: c.name for k, c in tables.terrain.items()},
    )


@dataclass(frozen=True, slots=True)
class SightLine:
    """The line between two hexes (§6.2): clear or not (with why), and the obstructing intervening hexes."""

    clear: bool
    reason: str
    obstructing: tuple[str, ...] = ()
    """The terrain keys of the obstructing intervening hexes (their Sight and Hit entries apply, §6.2)."""
    last_obstructed: bool = False
    """The hex next to the target along the line obstructs (§6.1 condition 4)."""

    @property
    def sight_sum(self) -> int:
        """The summed Sight entries of the obstructing hexes."""
        table = sight_table()["terrain_sight"]
        return sum(int(table.get(k, 0)) for k in self.obstructing)


_LINES: dict[tuple[int, int, tuple[Hex, ...], tuple[Hex, ...], Hex, Hex], tuple[object, object, SightLine]] = {}
"""Lines already drawn, by board, tables, blown bridges (4.10), smoke (7.1) and the two hexes: nothing else changes
a line. Each entry holds its board and tables, so that their ids are not reused while it is kept."""
_LINES_KEPT = 100_000


def smoke_now(st: GameState) -> tuple[Hex, ...]:
    """The hexes whose smoke counts for sight now (7.1, 6.3: 4 levels high, +5 to sight): smoke laid in this turn's
    Fire Phase takes effect for LOS only after it (3.2 P); in a fixed order."""
    d = data(st)
    if not d.smoke:
        return ()
    fresh = set(d.smoke_new) if st.phase == "attack" and d.smoke_turn == st.turn else set()
    return tuple(sorted((h for h in d.smoke if h not in fresh), key=lambda h: (h.q, h.r)))


def sight_line(st: GameState, tables: Tables, a: Hex, b: Hex) -> SightLine:
    """The line of sight from ``a`` to ``b`` (§6.2); the firer's hex never counts, the target's hex neither."""
    board = st.board
    key = (id(board), id(tables), tuple(data(st).blown), smoke_now(st), a, b)
    kept = _LINES.get(key)
    if kept is not None and kept[0] is board and kept[1] is tables:
        return kept[2]
    if len(_LINES) >= _LINES_KEPT:
        _LINES.clear()
    line = _sight_line(st, tables, a, b)
    _LINES[key] = (board, tables, line)
    return line


def _sight_line(st: GameState, tables: Tables, a: Hex, b: Hex) -> SightLine:
    board = st.board
    result = line_of_sight(board, a, b, los_policy(tables))
    if not result.visible:
        return SightLine(False, result.reason)
    n = distance(a, b)
    ha, hb = board.level(a) + 0.5, board.level(b) + 0.5
    keys: list[str] = []
    last = False
    smoke = smoke_now(st)
    for x in result.path:
        if x in (a, b) or x not in board:
            continue
        line = ha + (hb - ha) * distance(a, x) / n
        cls = terrain_of(st, tables, x)
        if cls.height >= int(sight_table()["obstacle_height"]) and board.level(x) + cls.height >= line:
            keys.append(cls.key)
            last = last or distance(x, b) == 1
        if x in smoke and board.level(x) + int(sight_table()["smoke_height"]) >= line:  # 6.3: smoke, 4 levels high
            keys.append("smoke")
            last = last or distance(x, b) == 1
    out = SightLine(True, "", tuple(keys), last)
    if out.sight_sum >= int(sight_table()["block_sum"]):
        return SightLine(
            False, f"obstructing terrain sums to +{out.sight_sum} to sight (8 or more blocks)", out.obstructing
        )
    return out


def _open(st: GameState, tables: Tables, unit: Unit) -> bool:
    if unit.hex is None or unit.hex in smoke_now(st):
        return False
    return terrain_of(st, tables, unit.hex).key in ("clear", "road")


def automatic(st: GameState, tables: Tables, observer: Unit, target: Unit, line: SightLine) -> str | None:
    """Why no sighting roll is needed (§6.1 conditions 1–4, the reach of 3–4 set by the weather and light of the
    turn), or None. Condition 5 (a friend's sighting passed on through communication, §10) is ``messages.py``."""
    assert observer.hex is not None and target.hex is not None
    t = sight_table()
    d = distance(observer.hex, target.hex)
    if target.id in status(observer).sighted:
        return "already sighted (rule 6.1)"
    if d <= 1:
        return "in the same or an adjacent hex (rule 6.1)"
    reach = condition(st).range  # 6.1 P: 15 hexes in clear weather, less in other conditions, never at dark night
    if d > reach or not _open(st, tables, target) or status(target).dug_in:
        return None
    if not line.obstructing:
        return f"within {reach} hexes on open ground, nothing in the way (rule 6.1)"
    higher = st.board.level(observer.hex) - st.board.level(target.hex)
    if higher >= int(t["higher_levels"]) and not line.last_obstructed:
        return f"{higher} levels higher, the hex before it clear (rule 6.1)"
    return None


def sight_tn(
    *,
    base: int,
    distance: int,
    binoculars: bool = False,
    terrain: tuple[str, ...] = (),
    target_terrain: str = "clear",
    infantry_in_building: bool = False,
    profile: int = 0,
    kept: int = 0,
    dug_in: bool = False,
    moved: bool = False,
    all_round: bool = False,
    higher: int = 0,
    fired_dk: int | None = None,
    conditions: SightEffect | None = None,
) -> tuple[int, list[Modifier]]:
    """The sighting TN of §6.1 (clear weather unless ``conditions`` say otherwise) with its terms, the base number
    first: distance (per full 5
    hexes, 7 with binoculars), the Sight entries of the obstructing hexes and of the target's hex, infantry in a
    building, the target's profile, infantry's MP kept, dug in, observer moved, under all-round armour, levels
    (``higher``: observer's level less the target's), an enemy that fired (−(2 + Dk), §6.3 note c).

    >>> sight_tn(base=4, distance=12, binoculars=True, target_terrain="light_forest", kept=3, moved=True,
    ...          all_round=True)[0]
    16
    """
    t = sight_table()
    per = int(t["binocular_step" if binoculars else "distance_step"])
    terms = [mod(base, "base number", "6.1")]
    glass = ", binoculars" if binoculars else ""
    if conditions is not None and conditions.name != "clear":  # weather and light (6.1, weather.py)
        if conditions.modifier(distance, binoculars=binoculars):
            step = conditions.binocular_step if binoculars else conditions.step
            what = (
                f"{distance} hexes, {conditions.name.replace('_', ' ')} (+{conditions.factor} per full {step}{glass})"
            )
            terms.append(mod(conditions.modifier(distance, binoculars=binoculars), what, "6.1"))
    elif distance // per:
        terms.append(mod(distance // per, f"{distance} hexes (+1 per full {per}{glass})", "6.1"))
    table = t["terrain_sight"]
    for key in terrain:
        if table.get(key):
            terms.append(mod(int(table[key]), key.replace("_", " ") + " in the line", "6.2"))
    if table.get(target_terrain):
        terms.append(mod(int(table[target_terrain]), target_terrain.replace("_", " ") + " (target's hex)", "6.2"))
    flags = (
        (infantry_in_building, int(t["target"]["in_building"]), "infantry in a building"),
        (bool(profile), profile, "target profile"),
        (bool(kept), kept, f"{kept} MP kept"),
        (dug_in, int(t["dug_in"]), "dug in"),
        (moved, int(t["observer_moved"]), "observer moved this turn"),
        (all_round, int(t["all_round_armour"]), "observer under all-round armour"),
        (bool(higher), -higher * int(t["per_level"]), f"{abs(higher)} levels {'higher' if higher > 0 else 'lower'}"),
    )
    terms += [mod(value, name, "6.3") for on, value, name in flags if on]
    if fired_dk is not None:
        terms.append(mod(-(int(t["fired_base"]) + fired_dk), f"target fired (Dk {fired_dk})", "6.3"))
    return total(terms), terms


def sight_roll(
    st: GameState, tables: Tables, observer: Unit, target: Unit, line: SightLine
) -> tuple[int, list[Modifier]]:
    """The sighting TN of ``observer`` looking for ``target`` on the board (§6.1, :func:`sight_tn`)."""
    assert observer.hex is not None and target.hex is not None
    o, s = status(observer), status(target)
    osheet, sheet = tables.sheets[observer.type], tables.sheets[target.type]
    here = terrain_of(st, tables, target.hex)
    infantry = sheet.unit_type == "infantry"
    seen_through = here.key
    table = sight_table()["terrain_sight"]
    if target.hex in smoke_now(st) and int(table["smoke"]) > int(table.get(here.key, 0)):
        seen_through = "smoke"  # 6.3: smoke in the target's hex, +5 to sight
    fired = max(s.fired_dk, s.fired_dk_last)
    return sight_tn(
        base=tables.experience[o.experience].base_number,
        distance=distance(observer.hex, target.hex),
        binoculars=osheet.equipment.get("binoculars", 0) > 0,
        terrain=line.obstructing,
        target_terrain=seen_through,
        infantry_in_building=infantry and occupied(st, tables, target) is not None,  # 4.9: occupying it
        profile=sheet.target_profile,
        kept=movement_modifier(infantry=True, mp=sheet.mp, mp_spent=Fraction(s.half_mp, 2)) if infantry else 0,
        dug_in=s.dug_in,
        moved=has_moved(Fraction(o.half_mp, 2)),
        all_round=all_round(osheet),
        higher=st.board.level(observer.hex) - st.board.level(target.hex),
        fired_dk=fired if fired >= 0 else None,
        conditions=condition(st),
    )


def sights(unit: Unit) -> bool:
    """Whether the unit can observe: on the map, not destroyed, not carried (§6.1)."""
    s = status(unit)
    return unit.hex is not None and not s.destroyed and not s.embarked_in and not s.towed_by


def check(tr: Transition, tables: Tables, observer: Unit, target: Unit) -> bool:
    """One sighting check of ``target`` by ``observer`` (§6.1): sight is lost without LOS or when the target is
    hidden; kept or gained by the automatic conditions; else 2d10 ≥ the sighting TN. Returns whether it sees it."""
    st = tr.state
    o = status(observer)
    assert observer.hex is not None and target.hex is not None
    line = sight_line(st, tables, observer.hex, target.hex)
    if not line.clear or status(target).hidden or not sights(target):
        if target.id in o.sighted:
            o.sighted.remove(target.id)
            tr.emit("sight", f"{observer.id} loses sight of {target.id} (rule 6.1)", (observer.side,), unit=observer.id)
        return False
    why = automatic(st, tables, observer, target, line)
    if why is None:
        tn, terms = sight_roll(st, tables, observer, target, line)
        roll = sum(
            tr.roll(
                10,
                2,
                f"sighting: {observer.id} looks for {target.id}",
                target=tn,
                compare="at_least",
                modifiers=(),
                shifts=terms,
                visible_to=(observer.side,),
            )
        )
        explain = " ".join(str(m) for m in terms)
        if roll < tn:
            tr.emit(
                "sight",
                f"{observer.id} does not sight {target.id}: {roll} against TN {tn} = {explain}",
                (observer.side,),
                unit=observer.id,
            )
            return False
        why = f"{roll} against TN {tn} = {explain}"
    if target.id not in o.sighted:
        o.sighted.append(target.id)
        tr.emit("sight", f"{observer.id} sights {target.id}: {why}", (observer.side,), unit=observer.id)
    return True


def fire_phase_checks(tr: Transition, tables: Tables) -> None:
    """The start of the Fire Phase (§3.2 Phase 3, §6.1): every unit checks every enemy unit on the map."""
    st = tr.state
    units = sorted(st.units.values(), key=lambda u: u.id)
    for observer in units:
        if not sights(observer):
            continue
        for target in units:
            if target.side != observer.side and target.hex is not None and not status(target).destroyed:
                check(tr, tables, observer, target)
