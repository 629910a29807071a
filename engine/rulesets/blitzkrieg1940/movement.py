"""Provides Blitzkrieg 1940 movement: MP allowances, step costs, doctrine, stacking, reach and retreats.

Digest sections: 3.2 (HQ speed), 3.4 (doctrine distance), 3.5 (out of command), 6.1 (actions), 6.2
(out-of-command halving), 6.3.3 and 9.1.5 (retreats), 7 (movement, column, dispersal, stacking), 8.4
(neutralised units), 8.5.1 (demoralised retreat), 9.1.1 (close-combat entry), 10.1 (leaving a minefield) and
13.3 (terrain and movement cost table). Everything is a pure function of a :class:`~engine.state.GameState`
except :func:`command_check`, which writes the out-of-command markers into a
:class:`~engine.rules.Transition`'s state. Every number comes from
:func:`~engine.rulesets.blitzkrieg1940.data.load_tables` (``terrain.toml``, ``units.toml``,
``sequence.toml``); only the seed's "half" and the rounding directions of 6.1 / 6.2 are written here.

State conventions read here (see :mod:`.model`): ``unit.status`` keys ``neutralised``, ``ooc`` (the
out-of-command marker), ``independent`` (an attached white-stripe unit, 10.3), ``exited``, and for the APC
rule of 12.1 ``carrying`` (on an APC: the id of the company on board) and ``mounted`` (on the company: the
id of its APC); ``data(state).formations`` (the HQ unit id, ``overrun``) and ``data(state).mines``
(hex label → owning side). An HQ counts as present on the map whenever its ``hex`` is set, whatever its
``steps`` (HQs have no steps, 1.3).

>>> from engine.rulesets.blitzkrieg1940.data import load_tables
>>> terrain_cost(load_tables(), "woods", "wheeled", along_road=False) is None
True
>>> terrain_cost(load_tables(), "woods", "wheeled", along_road=True)
0.5
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from engine.hexgrid import Hex, distance
from engine.pathing import Reach, WeightFn, reachable
from engine.state import GameState, Unit

from .data import Tables, UnitType, load_tables
from .model import Formation, data, status

if TYPE_CHECKING:
    from engine.rules import Transition

__all__ = [
    "ACTIONS",
    "EXIT",
    "HQ_MOVE_CLASS",
    "MoveAction",
    "Verdict",
    "base_mp",
    "can_close_combat",
    "can_enter_min_one",
    "close_combat_entry_cost",
    "column_after",
    "command_check",
    "command_distance",
    "demoralised_retreat_mp",
    "demoralised_retreat_paths",
    "dispersed",
    "doctrine_allows",
    "edge_distance",
    "enemy_hexes",
    "explain_mp",
    "fastest_unit",
    "hq_distance",
    "hq_of",
    "is_hq",
    "min_one_hexes",
    "move_class",
    "mp_allowance",
    "out_of_command",
    "reachable_hexes",
    "retreat_options",
    "retreat_path",
    "stack_count",
    "stacking_ok",
    "step_cost",
    "step_problem",
    "terrain_cost",
    "units_by_hex",
    "weight_fn",
]

MoveAction = Literal["move", "move_fire", "load"]
"""The actions of 6.1 that include movement: move (full MP), move and fire, load/unload then move."""

ACTIONS: tuple[str, ...] = ("move", "move_fire", "load")
"""The values :data:`MoveAction` may take."""

HQ_MOVE_CLASS = "formation"
"""The ``move_class`` that ``units.toml`` gives HQs: they move as the fastest unit of their formation (3.2)."""

FALLBACK_MOVE_CLASS = "foot"
"""[I] The class of an HQ none of whose combat units is on the map (3.2 [P] removes such an HQ anyway);
its base MP is then 0, so it can only use the one-hex minimum of 7.1."""

EXIT: None = None
"""The sentinel that ends a path of :func:`demoralised_retreat_paths` when the unit leaves the map (8.5.1)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "may this unit do that?", with a reason citing the rule and the MP cost when known."""

    ok: bool
    reason: str
    cost: float | None = None

    def __bool__(self) -> bool:
        return self.ok


# --- Units, HQs and presence ----------------------------------------------------------------------------


def _type(tables: Tables, unit: Unit) -> UnitType:
    return tables.units[unit.type]


def is_hq(tables: Tables, unit: Unit) -> bool:
    """True if ``unit`` is a formation HQ (1.3)."""
    return _type(tables, unit).category == "hq"


def _present(tables: Tables, unit: Unit) -> bool:
    """On the map: a hex, not exited, and steps left (an HQ has no steps and is present whenever placed)."""
    if unit.hex is None or status(unit).exited:
        return False
    return unit.steps > 0 or is_hq(tables, unit)


def _units(tables: Tables, st: GameState) -> list[Unit]:
    """Every unit present on the map, in id order (``st.units`` is kept in id order)."""
    units = tables.units
    return [
        u
        for u in st.units.values()
        if u.hex is not None and not status(u).exited and (u.steps > 0 or units[u.type].category == "hq")
    ]


def _units_at(tables: Tables, st: GameState, h: Hex) -> list[Unit]:
    """The units of :func:`_units` in ``h`` (the hex compared first: few units stand in one hex)."""
    units = tables.units
    return [
        u
        for u in st.units.values()
        if u.hex == h and not status(u).exited and (u.steps > 0 or units[u.type].category == "hq")
    ]


def enemy_hexes(tables: Tables, st: GameState, side: str) -> frozenset[Hex]:
    """Hexes holding at least one unit (HQs included) of a side other than ``side``."""
    units = tables.units
    return frozenset(
        u.hex
        for u in st.units.values()
        if u.side != side
        and u.hex is not None
        and not status(u).exited
        and (u.steps > 0 or units[u.type].category == "hq")
    )


def _formation(st: GameState, fid: str | None) -> Formation | None:
    if fid is None:
        return None
    return data(st).formations.get(fid)


def hq_of(st: GameState, unit: Unit) -> Unit | None:
    """The HQ unit of ``unit``'s formation (None for a formation without HQ, e.g. 4 BCC)."""
    rec = _formation(st, unit.formation)
    if rec is None or rec.hq is None:
        return None
    return st.units.get(rec.hq)


def _apc_of(st: GameState, unit: Unit) -> Unit | None:
    """The APC a mounted company rides on (12.1 [P]), if any."""
    apc = status(unit).carried_by
    return st.units.get(str(apc)) if apc else None


def _carried(st: GameState, unit: Unit) -> list[Unit]:
    """The companies an APC carries (12.1 [P]); ``carrying`` may hold one id or a list of ids."""
    raw = status(unit).carrying
    if not raw:
        return []
    ids = [raw] if isinstance(raw, str) else list(raw)
    return [st.units[str(i)] for i in ids if str(i) in st.units]


# --- Movement class and MP (3.2, 6.1, 6.2, 8.4) ----------------------------------------------------------


def fastest_unit(tables: Tables, st: GameState, hq: Unit) -> Unit | None:
    """The unit whose class and MP an HQ uses (3.2 [P]).

    Only combat units of the HQ's formation on the map count; attached independent units (10.3) do not.
    Tie-break: among units with the same printed MP the one with the lowest unit id is taken.
    """
    # Blitzkrieg 3.2 [P]: own combat units on the map only; attached independents (10.3) never count.
    best: Unit | None = None
    best_mp = -1
    fid = hq.formation
    for u in st.units.values():
        if u.formation != fid or u.id == hq.id or not _present(tables, u) or is_hq(tables, u):
            continue
        if status(u).independent:
            continue
        mp = _type(tables, u).mp
        if mp is not None and mp > best_mp:
            best, best_mp = u, mp
    return best


def move_class(tables: Tables, st: GameState, unit: Unit) -> str:
    """The unit's movement class for 13.3: ``foot``, ``tracked`` or ``wheeled``.

    An HQ uses the class of the fastest unit of its formation on the map (3.2 [P]); a mounted company moves
    with its APC's class (12.1 [P]).
    """
    apc = _apc_of(st, unit)
    if apc is not None:
        return move_class(tables, st, apc)
    mc = _type(tables, unit).move_class
    if mc != HQ_MOVE_CLASS:
        return mc
    fast = fastest_unit(tables, st, unit)
    return _type(tables, fast).move_class if fast is not None else FALLBACK_MOVE_CLASS


def base_mp(tables: Tables, st: GameState, unit: Unit) -> float:
    """The unit's full movement allowance before any halving.

    The printed MP (13.7); an HQ has the MP of the fastest unit of its formation on the map (3.2 [P]; 0 if
    none is left); a mounted company has its APC's MP (12.1 [P]).
    """
    apc = _apc_of(st, unit)
    if apc is not None:
        return base_mp(tables, st, apc)
    t = _type(tables, unit)
    if t.move_class == HQ_MOVE_CLASS:
        fast = fastest_unit(tables, st, unit)
        return float(_type(tables, fast).mp or 0) if fast is not None else 0.0
    return float(t.mp or 0)


def explain_mp(tables: Tables, st: GameState, unit: Unit, *, action: str = "move") -> tuple[int, tuple[str, ...]]:
    """The MP allowance of :func:`mp_allowance` with one reason per step, each citing its rule.

    Raises:
        ValueError: ``action`` is not one of :data:`ACTIONS`.
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown movement action {action!r} (expected one of {', '.join(ACTIONS)}; rule 6.1)")
    hq = is_hq(tables, unit)
    if status(unit).neutralised and not hq:
        return 0, ("neutralised: cannot move (rule 8.4)",)
    if status(unit).carried_by:
        apc = _apc_of(st, unit)
        name = apc.id if apc is not None else "its APC"
        return 0, (f"mounted on {name}: the company moves only with the APC (rule 12.1)",)
    mp = int(base_mp(tables, st, unit))
    notes = [f"{mp} MP" + (" (fastest unit of the formation, rule 3.2)" if hq else " (rule 7.1)")]
    if action == "move_fire":
        # Blitzkrieg 6.1 item 3: move and fire = at most half the MPs, fractions rounded up.
        mp = math.ceil(mp / 2)
        notes.append(f"move and fire: half, rounded up → {mp} (rule 6.1)")
    elif action == "load":
        # Blitzkrieg 6.1 item 5: load/unload, then move with half MPs; [I] rounded up as in item 3.
        mp = math.ceil(mp / 2)
        notes.append(f"load or unload: half, rounded up → {mp} (rule 6.1)")
    if status(unit).ooc:
        # Blitzkrieg 6.2: out of command halves the allowance, rounded down; halvings in sequence [P].
        mp //= 2
        notes.append(f"out of command: half, rounded down → {mp} (rule 6.2)")
    if hq and status(unit).neutralised:
        # Blitzkrieg 8.4: a neutralised HQ moves at half its allowance, rounded down.
        mp //= 2
        notes.append(f"neutralised HQ: half, rounded down → {mp} (rule 8.4)")
    return mp, tuple(notes)


def mp_allowance(tables: Tables, st: GameState, unit: Unit, *, action: str = "move") -> int:
    """The MPs the unit may spend in one action.

    ``move`` gives the full allowance, ``move_fire`` half rounded up (6.1), ``load`` half ([I] rounded up
    like move and fire; 6.1 gives no rounding). Then an out-of-command marker halves it rounded down (6.2),
    and a neutralised HQ halves it rounded down (8.4), each halving rounded down in turn (6.2 [P]). A
    neutralised combat unit cannot move (8.4) and a mounted company moves only with its APC (12.1 [P]): 0.

    Raises:
        ValueError: ``action`` is not one of :data:`ACTIONS`.
    """
    return explain_mp(tables, st, unit, action=action)[0]


def _may_move(tables: Tables, unit: Unit) -> bool:
    """8.4: a neutralised combat unit cannot move (a neutralised HQ can); 12.1 [P]: nor a mounted company."""
    if status(unit).carried_by:
        return False
    return not (status(unit).neutralised and not is_hq(tables, unit))


# --- Terrain and step costs (7.1, 7.2.1, 10.1, 13.3) ------------------------------------------------------


def terrain_cost(tables: Tables, terrain: str, mclass: str, *, along_road: bool) -> float | None:
    """MP to enter a hex of ``terrain`` without climb or minefield (13.3); None if the class may not.

    ``along_road`` means road movement in column through a road hexside (7.2.1): the road rate for every
    class, which also opens road-only terrain (13.3: wheeled units in woods).
    """
    if along_road:
        return tables.terrain.movement.road_cost
    tc = tables.terrain.classes[terrain]
    if mclass in tc.road_only:
        return None
    return tc.entry_cost(mclass)


def _climb(tables: Tables, st: GameState, a: Hex, b: Hex) -> int:
    # Blitzkrieg 13.3: +climb_per_level MP per level climbed (also along a road); descending is free.
    return max(0, st.board.level(b) - st.board.level(a)) * tables.terrain.movement.climb_per_level


def _leaving_mines(tables: Tables, st: GameState, side: str, a: Hex) -> int:
    # Blitzkrieg 10.1: leaving an enemy minefield hex costs extra MPs (own minefields never affect the owner).
    mines = data(st).mines
    if not mines:
        return 0
    owner = mines.get(st.board.label(a))
    return tables.terrain.movement.leave_minefield if owner is not None and owner != side else 0


def _raw_cost(
    tables: Tables, st: GameState, side: str, mclass: str, a: Hex, b: Hex, *, in_column: bool
) -> float | None:
    """Cost of the step a → b ignoring units and doctrine; None when the terrain forbids it."""
    key = (id(tables), mclass, a, b, in_column)
    cache: dict[tuple[int, str, Hex, Hex, bool], float | None] = st.board.cache.setdefault("blitzkrieg1940.step", {})
    if key in cache:
        base = cache[key]
    else:
        # Terrain and climb depend on the map and the tables only: worked out once per step and class.
        if b not in st.board:
            base = None
        else:
            road = in_column and st.board.has_road(a, b)
            base = terrain_cost(tables, st.board.terrain(b), mclass, along_road=road)
            if base is not None:
                base += _climb(tables, st, a, b)
        cache[key] = base
    if base is None:
        return None
    return base + _leaving_mines(tables, st, side, a)


def _check_adjacent(a: Hex, b: Hex) -> None:
    if distance(a, b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent (a step enters an adjacent hex, rule 7.1)")


def step_cost(
    tables: Tables,
    st: GameState,
    unit: Unit,
    a: Hex,
    b: Hex,
    *,
    in_column: bool,
    enemies: frozenset[Hex] | None = None,
) -> float | None:
    """MP for ``unit`` to enter ``b`` from the adjacent hex ``a``; None when the step is not allowed.

    The road rate (13.3) applies when a road crosses the a|b hexside and the unit is in column (7.2.1);
    otherwise the terrain cost of ``b`` for the unit's class (None for prohibited terrain, e.g. woods for
    wheeled units except along a road). Climbing adds ``climb_per_level`` per level (13.3); leaving an enemy
    minefield adds ``leave_minefield`` (10.1). A hex holding any enemy unit is None: it can be entered only
    by close combat or overrun (9.1.1, 3.2 [P]; see :func:`close_combat_entry_cost`). Off the map is None.
    Doctrine (3.4) is not applied here (see :func:`doctrine_allows`).

    ``enemies`` (the result of :func:`enemy_hexes` for the unit's side) may be passed to save work in loops.

    Raises:
        ValueError: the hexes are not adjacent.
    """
    _check_adjacent(a, b)
    if b in (enemies if enemies is not None else enemy_hexes(tables, st, unit.side)):
        return None
    return _raw_cost(tables, st, unit.side, move_class(tables, st, unit), a, b, in_column=in_column)


def step_problem(tables: Tables, st: GameState, unit: Unit, a: Hex, b: Hex, *, in_column: bool) -> str | None:
    """Why ``unit`` may not step from ``a`` into ``b`` (a sentence citing the rule), or None if it may.

    Checks, in order: adjacency, the map edge, enemy units, terrain, doctrine (3.4). MPs are not checked.
    """
    if distance(a, b) != 1:
        return f"{st.board.label(b) if b in st.board else b} is not adjacent (rule 7.1)"
    if b not in st.board:
        return "off the map: impassable (rule 13.3)"
    label = st.board.label(b)
    enemies = [u for u in _units_at(tables, st, b) if u.side != unit.side]
    if enemies:
        if all(is_hq(tables, u) for u in enemies):
            return (
                f"{label} holds only enemy HQs: enter by overrun, paying the close-combat entry cost (rules 3.2, 9.1.1)"
            )
        return f"{label} is enemy-occupied: enter only by close combat (rule 9.1.1)"
    mclass = move_class(tables, st, unit)
    if _raw_cost(tables, st, unit.side, mclass, a, b, in_column=in_column) is None:
        terrain = st.board.terrain(b)
        if mclass in tables.terrain.classes[terrain].road_only:
            return f"{mclass} units may enter {terrain} only along a road, in column (rules 13.3, 7.2.1)"
        return f"{mclass} units may not enter {terrain} (rule 13.3)"
    if not doctrine_allows(tables, st, unit, a, b):
        cd = command_distance(tables, st, unit)
        hq = hq_of(st, unit)
        d = distance(hq.hex, b) if hq is not None and hq.hex is not None else None
        return f"{label} would be {d} hexes from the HQ, beyond the command distance of {cd} (rule 3.4)"
    return None


def column_after(st: GameState, path: Iterable[Hex], *, declared: bool) -> bool:
    """Whether a unit that moved along ``path`` in declared column is still in column (7.2.1).

    Column ends when the unit stops using the road: it lasts only if the last step of the path crossed a
    road hexside. (It may be declared again at no cost in any road hex, 7.2.1 [P].)
    """
    hexes = list(path)
    return declared and len(hexes) >= 2 and st.board.has_road(hexes[-2], hexes[-1])


def dispersed(tables: Tables, st: GameState, unit: Unit) -> bool:
    """7.2.2 [P]: a tank, assault gun or armoured car is dispersed while it stands in a village, orchard or
    woods hex (derived state, no marker; also when it entered by road in column)."""
    if unit.hex is None or unit.hex not in st.board:
        return False
    return _type(tables, unit).disperses and tables.terrain.classes[st.board.terrain(unit.hex)].disperses_armour


# --- Close combat entry (9.1.1) and the one-hex minimum (7.1) ---------------------------------------------


def close_combat_entry_cost(tables: Tables, st: GameState, unit: Unit, a: Hex, b: Hex) -> float | None:
    """MP to enter the enemy-occupied hex ``b`` from ``a`` for close combat or an overrun (9.1.1, 3.2 [P]).

    ⌈MP/4⌉ of the unit's full allowance (:func:`base_mp`) plus the full terrain cost of ``b`` for its class,
    climb included, never the road rate (9.1.1 [P]); [I] plus the cost of leaving an enemy minefield in
    ``a`` (10.1). None when the terrain is prohibited to the unit's class (13.3: wheeled units in woods).

    Raises:
        ValueError: the hexes are not adjacent.
    """
    _check_adjacent(a, b)
    # Blitzkrieg 9.1.1 [P]: the hex's full cost for the class (in_column=False: never the road rate).
    cost = _raw_cost(tables, st, unit.side, move_class(tables, st, unit), a, b, in_column=False)
    if cost is None:
        return None
    return tables.terrain.movement.close_combat_entry(int(base_mp(tables, st, unit))) + cost


def can_close_combat(
    tables: Tables, st: GameState, unit: Unit, a: Hex, b: Hex, *, mp_left: float, moved: bool
) -> Verdict:
    """May ``unit`` in ``a`` enter the enemy-occupied hex ``b`` for close combat (or an overrun)?

    Args:
        tables: the ruleset tables.
        st: the state.
        unit: the unit that would attack.
        a: the hex it enters from.
        b: the enemy-occupied hex.
        mp_left: the MPs it has left in this action.
        moved: True if it has already moved in this action (9.1.1: the one-hex exception then no longer
            applies).

    Returns:
        A :class:`Verdict` with the entry cost.
    """
    if distance(a, b) != 1:
        return Verdict(False, "close combat enters an adjacent hex (rule 9.1.1)")
    if is_hq(tables, unit):
        return Verdict(False, "an HQ never attacks (rule 6.1)")
    if status(unit).neutralised:
        return Verdict(False, "a neutralised unit cannot attack (rules 8.4, 9.1.1)")
    if status(unit).ooc:
        return Verdict(False, "an out-of-command unit may not initiate close combat (rules 6.2, 9.1.1)")
    if status(unit).carried_by or status(unit).carrying:
        return Verdict(False, "a mounted APC pair must unload before a close combat (rules 9.1.1, 12.1)")
    if b not in enemy_hexes(tables, st, unit.side):
        return Verdict(False, "no enemy unit in that hex: close combat needs one (rule 9.1.1)")
    cost = close_combat_entry_cost(tables, st, unit, a, b)
    if cost is None:
        return Verdict(False, f"{move_class(tables, st, unit)} units may not enter {st.board.terrain(b)} (rule 13.3)")
    if not doctrine_allows(tables, st, unit, a, b):
        return Verdict(False, f"{st.board.label(b)} lies beyond the command distance (rule 3.4)", cost)
    if cost <= mp_left:
        return Verdict(True, f"entry costs {cost:g} MP of {mp_left:g} (rule 9.1.1)", cost)
    if not moved:
        return Verdict(
            True, f"entry costs {cost:g} MP, more than {mp_left:g}: allowed as its only hex (rule 9.1.1)", cost
        )
    return Verdict(False, f"entry costs {cost:g} MP, only {mp_left:g} left: no attack (rule 9.1.1)", cost)


def can_enter_min_one(
    tables: Tables, st: GameState, unit: Unit, a: Hex, b: Hex, *, moved: bool, in_column: bool = False
) -> bool:
    """7.1 [P]: may ``unit`` enter the adjacent ``b`` as its whole move even without the MPs?

    Only a unit that has not moved yet in this action and may move at all (not a neutralised combat unit,
    8.4); never into prohibited terrain, an enemy-occupied hex (close combat has its own exception, 9.1.1)
    or beyond the command distance (3.4). Its move ends in ``b`` (AC-35).
    """
    # Blitzkrieg 7.1 [P]: only as the first step of the action, never where a normal step is illegal.
    if moved or not _may_move(tables, unit) or distance(a, b) != 1:
        return False
    return step_problem(tables, st, unit, a, b, in_column=in_column) is None


def min_one_hexes(tables: Tables, st: GameState, unit: Unit, *, moved: bool, in_column: bool = False) -> list[Hex]:
    """Every hex :func:`can_enter_min_one` allows from the unit's hex, in label order (7.1 [P])."""
    if unit.hex is None:
        return []
    a = unit.hex
    out = [b for b in a.neighbours() if can_enter_min_one(tables, st, unit, a, b, moved=moved, in_column=in_column)]
    return sorted(out, key=st.board.label)


# --- Doctrine and command (3.2, 3.4, 3.5, 10.3) -----------------------------------------------------------


def _hq_gone(st: GameState, unit: Unit) -> bool:
    """3.2: the formation's HQ is overrun (or otherwise off the map)."""
    rec = _formation(st, unit.formation)
    hq = hq_of(st, unit)
    return bool(rec and rec.overrun) or (hq is not None and hq.hex is None)


def command_distance(tables: Tables, st: GameState, unit: Unit) -> int | None:
    """The doctrine distance binding ``unit`` (3.4 [I]: its HQ's printed command range), or None if exempt.

    Exempt: HQs; independent units (10.3); types that are not doctrine-bound (1.1 [I]: motorised units);
    units of a formation without an HQ (4 BCC) or of an independent formation.
    """
    if is_hq(tables, unit) or status(unit).independent or not _type(tables, unit).doctrine_bound:
        return None
    rec = _formation(st, unit.formation)
    hq = hq_of(st, unit)
    if rec is None or rec.independent or hq is None:
        return None
    return _type(tables, hq).command_range


def hq_distance(st: GameState, unit: Unit) -> int | None:
    """Hexes from ``unit`` to its HQ (distance rule of section 0), or None when either is off the map."""
    hq = hq_of(st, unit)
    if hq is None or hq.hex is None or unit.hex is None:
        return None
    return distance(unit.hex, hq.hex)


def doctrine_allows(tables: Tables, st: GameState, unit: Unit, a: Hex, b: Hex) -> bool:
    """3.4 [I]: may ``unit`` voluntarily step from ``a`` into ``b``?

    A bound unit may not enter a hex farther from its HQ than its command distance; one that already is
    farther may only enter hexes that do not increase that distance. Exempt units (see
    :func:`command_distance`) always may; so may units whose HQ is off the map (overrun, 3.2): there is no
    HQ to measure from, and the whole formation is out of command instead.
    """
    cd = command_distance(tables, st, unit)
    hq = hq_of(st, unit)
    if cd is None or hq is None or hq.hex is None or _hq_gone(st, unit):
        return True
    # Blitzkrieg 3.4 [I]: within the distance, or no farther than it already is.
    return distance(hq.hex, b) <= max(cd, distance(hq.hex, a))


def out_of_command(tables: Tables, st: GameState, unit: Unit) -> bool:
    """Does ``unit`` fail the doctrine limits now (3.5)? (The marker itself is placed by :func:`command_check`.)

    Never for HQs, independent units (10.3), units of a formation without HQ, or units off the map. While
    the formation's HQ is overrun every other unit of the formation is out of command (3.2; [I] motorised
    units too: "every unit of the formation"). Otherwise a doctrine-bound unit is out of command when it is
    farther from its HQ than its command distance (3.4).
    """
    if unit.hex is None or is_hq(tables, unit) or status(unit).independent:
        return False
    rec = _formation(st, unit.formation)
    if rec is None or rec.independent or hq_of(st, unit) is None:
        return False
    if _hq_gone(st, unit):
        return True  # Blitzkrieg 3.2: until the overrun HQ returns, the formation is out of command
    cd = command_distance(tables, st, unit)
    d = hq_distance(st, unit)
    return cd is not None and d is not None and d > cd


def command_check(tr: Transition, tables: Tables, units: Iterable[Unit | str] | None = None) -> list[str]:
    """3.5: place or remove out-of-command markers (``Status.ooc``) and emit a ``command`` event for each.

    Args:
        tr: the transition whose state is changed.
        tables: the ruleset tables.
        units: only these units (objects or ids; after a retreat or an overrun, 3.5), or None for every
            combat unit on the map (administration phase step 3, 2.1).

    Returns:
        The ids of the units whose marker changed, in id order.
    """
    st = tr.state
    if units is None:
        ids = [u.id for u in _units(tables, st) if not is_hq(tables, u)]
    else:
        ids = sorted({u if isinstance(u, str) else u.id for u in units})
    changed: list[str] = []
    for uid in ids:
        u = st.units[uid]
        if not _present(tables, u) or is_hq(tables, u):
            continue
        now = out_of_command(tables, st, u)
        if now == bool(status(u).ooc):
            continue
        changed.append(uid)
        if now:
            status(u).ooc = True
            if _hq_gone(st, u):
                why = "its HQ has been overrun (rule 3.2)"
            else:
                why = (
                    f"{hq_distance(st, u)} hexes from its HQ, beyond its command distance of "
                    f"{command_distance(tables, st, u)} (rule 3.4)"
                )
            tr.emit("command", f"{uid} is out of command: {why} (rule 3.5)", unit=uid, ooc=True)
        else:
            status(u).ooc = False
            tr.emit("command", f"{uid} is back in command (rule 3.5)", unit=uid, ooc=False)
    return changed


# --- Stacking (7.3) ---------------------------------------------------------------------------------------


def _weight(tables: Tables, st: GameState, unit: Unit, counted: set[str]) -> int:
    """How many units ``unit`` adds to a stack: 0 for an HQ, 1, plus each company it carries that is not
    already counted (7.3 [P]: a mounted company and its APC count as 2)."""
    if is_hq(tables, unit) or unit.id in counted:
        return 0
    counted.add(unit.id)
    n = 1
    for c in _carried(st, unit):
        if c.id not in counted and not is_hq(tables, c):
            counted.add(c.id)
            n += 1
    return n


def stack_count(st: GameState, h: Hex, tables: Tables | None = None) -> int:
    """Units in ``h`` for the stacking limit (7.3): HQs do not count; a mounted APC pair counts 2.

    ``tables`` defaults to :func:`~engine.rulesets.blitzkrieg1940.data.load_tables`.
    """
    if tables is None:
        tables = load_tables()
    counted: set[str] = set()
    return sum(_weight(tables, st, u, counted) for u in _units_at(tables, st, h))


def stacking_ok(
    tables: Tables,
    st: GameState,
    h: Hex,
    adding: Iterable[Unit],
    present: Mapping[Hex, list[Unit]] | None = None,
) -> bool:
    """May ``adding`` end in ``h`` (7.3: at most ``stacking_limit`` units; HQs do not count)?

    Units of ``adding`` already in ``h`` are not counted twice. Units of any formation may stack together.
    The limit applies at the end of an action and after retreats, never while moving through. ``present``
    (:func:`units_by_hex` of ``st``) may be passed to save work in loops.
    """
    if h not in st.board:
        return False
    # Blitzkrieg 7.3: HQs do not count; a mounted pair counts 2 ([P] 12.1).
    counted: set[str] = set()
    here = _units_at(tables, st, h) if present is None else present.get(h, [])
    total = sum(_weight(tables, st, u, counted) for u in adding)
    total += sum(_weight(tables, st, u, counted) for u in here)
    return total <= tables.sequence.stacking_limit


def units_by_hex(tables: Tables, st: GameState) -> dict[Hex, list[Unit]]:
    """The units present on the map (those :func:`stacking_ok` counts) by hex, each list in id order."""
    out: dict[Hex, list[Unit]] = {}
    for u in _units(tables, st):
        out.setdefault(u.hex, []).append(u)  # type: ignore[arg-type]  # present: on the map
    return out


# --- Reach (7.1, pathing) --------------------------------------------------------------------------------


def weight_fn(tables: Tables, st: GameState, unit: Unit, *, in_column: bool) -> WeightFn:
    """A weight function for :func:`engine.pathing.reachable`: :func:`step_cost` and doctrine (3.4).

    Enemy-occupied hexes and prohibited terrain are impassable (None); friendly stacks may be passed through
    (7.3). The unit's class, the enemy hexes and the doctrine data are fixed when the function is made.
    """
    side = unit.side
    mclass = move_class(tables, st, unit)
    enemies = enemy_hexes(tables, st, side)
    cd = command_distance(tables, st, unit)
    hq = hq_of(st, unit)
    anchor = hq.hex if cd is not None and hq is not None and not _hq_gone(st, unit) else None

    def weight(a: Hex, b: Hex, edge: Mapping[str, Any]) -> float | None:
        if b in enemies:
            return None
        if anchor is not None and cd is not None and distance(anchor, b) > max(cd, distance(anchor, a)):
            return None  # Blitzkrieg 3.4
        return _raw_cost(tables, st, side, mclass, a, b, in_column=in_column)

    return weight


def reachable_hexes(tables: Tables, st: GameState, unit: Unit, mp: float, *, in_column: bool) -> dict[Hex, Reach]:
    """Every hex ``unit`` can reach with ``mp`` MPs (its own hex at cost 0), with one cheapest path each.

    Enemy-occupied hexes are impassable and doctrine limits apply (:func:`weight_fn`). Stacking is not
    checked (7.3: it applies at the end of the action, see :func:`stacking_ok`), nor the one-hex minimum
    (see :func:`min_one_hexes`).
    """
    if unit.hex is None:
        return {}
    return reachable(st.board, unit.hex, mp, weight_fn(tables, st, unit, in_column=in_column))


# --- Retreats (6.3.3, 9.1.5) -----------------------------------------------------------------------------


def _retreat_step(tables: Tables, st: GameState, unit: Unit, mclass: str, a: Hex, b: Hex) -> bool:
    """A retreat may enter ``b`` from ``a``: on the map, terrain allowed (a road may be used, 7.2.1 [P])."""
    return _raw_cost(tables, st, unit.side, mclass, a, b, in_column=True) is not None


def retreat_options(
    tables: Tables,
    st: GameState,
    unit: Unit,
    *,
    forbidden: Collection[Hex] = frozenset(),
    enemies: frozenset[Hex] | None = None,
) -> list[Hex]:
    """The first hexes a retreat of ``unit`` may enter, in label order (6.3.3, 9.1.5).

    Adjacent hexes on the map that hold no enemy unit, whose terrain the unit may enter (13.3; along a road
    in column a wheeled unit may enter woods) and that are not in ``forbidden`` (9.1.5: the hex the attacker
    came from). Stacking is not checked: an overstacked first hex makes the retreat go on
    (:func:`retreat_path`). An empty list after a close combat means the unit is eliminated (9.1.5).
    ``enemies`` (:func:`enemy_hexes` for the unit's side) may be passed to save work in loops.
    """
    if unit.hex is None:
        return []
    a = unit.hex
    mclass = move_class(tables, st, unit)
    if enemies is None:
        enemies = enemy_hexes(tables, st, unit.side)
    out = [
        b
        for b in a.neighbours()
        if b in st.board and b not in enemies and b not in forbidden and _retreat_step(tables, st, unit, mclass, a, b)
    ]
    return sorted(out, key=st.board.label)


def retreat_path(
    tables: Tables,
    st: GameState,
    unit: Unit,
    first: Hex | None = None,
    *,
    forbidden: Collection[Hex] = frozenset(),
) -> list[Hex] | None:
    """The retreat of ``unit`` from its hex to the nearest hex where stacking is legal (6.3.3, 9.1.5).

    The retreat enters ``first`` (one of :func:`retreat_options`; None = any of them) and, if stacking would
    be exceeded there, continues by the shortest way (fewest hexes) to the nearest hex where it is legal,
    even through minefields (6.3.3), never through enemy-occupied, prohibited, ``forbidden`` hexes or back
    into its starting hex.

    Deterministic tie-breaks: among the hexes at the smallest number of steps the one with the lowest label
    is chosen; the path to it is the one found by a breadth-first search that visits hexes in label order.

    Returns:
        The path, starting hex first, or None when no legal hex can be reached (the caller eliminates the
        unit, 9.1.5).
    """
    if unit.hex is None:
        return None
    start = unit.hex
    enemies = enemy_hexes(tables, st, unit.side)
    options = retreat_options(tables, st, unit, forbidden=forbidden, enemies=enemies)
    if first is not None:
        if first not in options:
            return None
        options = [first]
    mclass = move_class(tables, st, unit)
    label = st.board.label
    parent: dict[Hex, Hex] = {h: start for h in options}
    frontier = sorted(options, key=label)
    # Blitzkrieg 6.3.3 / 9.1.5: breadth-first, so the first legal layer is the nearest legal hex.
    while frontier:
        legal = [h for h in frontier if stacking_ok(tables, st, h, [unit])]
        if legal:
            end = min(legal, key=label)
            path = [end]
            while path[-1] != start:
                path.append(parent[path[-1]])
            return path[::-1]
        nxt: list[Hex] = []
        for h in frontier:
            for n in sorted((n for n in h.neighbours() if n in st.board), key=label):
                if n == start or n in parent or n in enemies or n in forbidden:
                    continue
                if not _retreat_step(tables, st, unit, mclass, h, n):
                    continue
                parent[n] = h
                nxt.append(n)
        frontier = sorted(nxt, key=label)
    return None


# --- Demoralised retreat (8.5.1) -------------------------------------------------------------------------


def edge_distance(st: GameState, side: str) -> Callable[[Hex], int]:
    """A function giving the hex distance from a hex to the nearest hex of ``side``'s own map edge.

    The own edge is the map file's ``[edges]`` entry (``board.edges[side]``), e.g. Hannut French = left =
    column 01 (8.5.1, 12.1, 12.2, 13.9).

    Raises:
        ValueError: the map names no edge for ``side``.
    """
    edge = st.board.edges.get(side)
    if edge is None:
        raise ValueError(f"the {st.board.id} map names no own edge for {side} (rule 8.5.1)")
    edge_hexes = [h for h in st.board.edge_hexes(edge) if h in st.board]

    def to_edge(h: Hex) -> int:
        return min(distance(h, e) for e in edge_hexes)

    return to_edge


def demoralised_retreat_mp(tables: Tables, st: GameState, unit: Unit) -> int:
    """The MPs a unit spends in the retreat of a demoralised formation (8.5.1 [P], [I] A24).

    The full allowance; neutralised units and HQs half, rounded down (one halving, also for a neutralised
    HQ); then out-of-command units half again, rounded down. Exhaustion changes nothing. The one-hex minimum
    is applied by :func:`demoralised_retreat_paths`.
    """
    mp = int(base_mp(tables, st, unit))
    if status(unit).neutralised or is_hq(tables, unit):
        mp //= 2
    if status(unit).ooc:
        mp //= 2
    return mp


def _demoralised_path(
    tables: Tables,
    st: GameState,
    unit: Unit,
    mclass: str,
    mp: int,
    to_edge: Callable[[Hex], int],
    edge: frozenset[Hex],
    enemies: frozenset[Hex],
    near_enemy: frozenset[Hex],
) -> list[Hex | None]:
    assert unit.hex is not None
    h = unit.hex
    path: list[Hex | None] = [h]
    left = float(mp)
    moved = False
    seen = {h}
    label = st.board.label
    while True:
        # Blitzkrieg 8.5.1 [P]: a unit on its own edge with MPs left exits (the one-hex minimum counts).
        if h in edge and (left > 0 or not moved):
            path.append(EXIT)
            return path
        here = to_edge(h)
        options: list[tuple[tuple[int, int, float, str], Hex, float]] = []
        for n in h.neighbours():
            if n not in st.board or n in seen or n in enemies:
                continue
            cost = _raw_cost(tables, st, unit.side, mclass, h, n, in_column=True)
            there = to_edge(n)
            if cost is None or there > here:  # never farther from the own edge
                continue
            options.append(((0 if there < here else 1, 1 if n in near_enemy else 0, cost, label(n)), n, cost))
        affordable = [o for o in options if o[2] <= left]
        minimum = False
        if not affordable and not moved and options:
            affordable, minimum = options, True  # Blitzkrieg 7.1 / 8.5.1: at least one hex
        if not affordable:
            break
        _, n, cost = min(affordable, key=lambda o: o[0])
        path.append(n)
        seen.add(n)
        left = 0.0 if minimum else left - cost
        moved = True
        h = n
        if minimum:
            break
    # Blitzkrieg 8.5.1 [P] / 7.3: stacking must be legal at the end; back up along the path until it is.
    while len(path) > 1 and not stacking_ok(tables, st, _hex(path[-1]), [unit]):
        path.pop()
    return path


def _hex(h: Hex | None) -> Hex:
    assert h is not None
    return h


def demoralised_retreat_paths(tables: Tables, st: GameState, fid: str) -> dict[str, list[Hex | None]]:
    """The retreat toward the own map edge of every unit of the demoralised formation ``fid`` (8.5.1 [P]).

    Each unit spends :func:`demoralised_retreat_mp` (at least one hex, 7.1), with the road rate wherever it
    follows a road (column may be declared at no cost, 7.2.1 [P]) and no doctrine limit (the move is not
    voluntary). Every hex entered is closer to the own edge (:func:`edge_distance`) where possible and never
    farther; no hex is entered twice; enemy-occupied hexes are never entered and hexes adjacent to an enemy
    unit are avoided where an alternative exists. A unit standing on its own edge with MPs left exits the
    map: its path ends with :data:`EXIT` (None). If the last hex would be overstacked (7.3) the unit stops at
    the last hex of its path where stacking is legal (or stays). A unit that cannot move stays: its path is
    just its hex. A mounted company (12.1) gets its APC's path.

    Deterministic tie-breaks, in order:

    1. Units move one at a time, nearest to the own edge first, then by unit id; each sees the hexes of
       the units that moved before it. MPs and movement classes are fixed before anyone moves.
    2. Each step takes, among the affordable next hexes: a closer hex before one at the same distance; then
       a hex not adjacent to an enemy unit before one that is; then the cheaper step; then the lowest label.
    3. If no next hex is affordable, a unit that has not moved yet takes the best hex by the same order as
       its only step (one-hex minimum).

    Returns:
        Unit id → path (starting hex first, possibly ending with :data:`EXIT`), for every unit of the
        formation on the map (attached independents included).
    """
    rec = _formation(st, fid)
    if rec is None:
        raise KeyError(f"no formation {fid!r}")
    side = rec.side
    to_edge = edge_distance(st, side)
    edge = frozenset(h for h in st.board.edge_hexes(st.board.edges[side]) if h in st.board)
    enemies = enemy_hexes(tables, st, side)
    near_enemy = frozenset(n for e in enemies for n in e.neighbours())
    members = [u for u in _units(tables, st) if u.formation == fid]
    movers = [u for u in members if not status(u).carried_by]
    mp = {u.id: demoralised_retreat_mp(tables, st, u) for u in movers}
    mclass = {u.id: move_class(tables, st, u) for u in movers}
    work = st.clone()
    result: dict[str, list[Hex | None]] = {}
    for u in sorted(movers, key=lambda u: (to_edge(_hex(u.hex)), u.id)):
        wu = work.units[u.id]
        path = _demoralised_path(tables, work, wu, mclass[u.id], mp[u.id], to_edge, edge, enemies, near_enemy)
        result[u.id] = path
        end = path[-1]
        start = wu.hex
        for moving in [wu, *(c for c in _carried(work, wu) if c.hex == start)]:
            moving.hex = end
            if end is None:
                status(moving).exited = True
            if moving.id != u.id and moving.formation == fid:
                result[moving.id] = list(path)
    for u in members:
        if u.id not in result:
            result[u.id] = [u.hex]  # a mounted company whose APC is not of this formation stays with it
    return result
