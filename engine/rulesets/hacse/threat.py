"""Provides the AI's estimate of the next Fire Phase (3.2 Phase 3b): what each side's units could do to the other's
from where they stand, in victory points (15.9). An AI valuation, not a rule: the evaluation (``evaluation.py``)
weighs it so that a unit keeps its front toward the enemy, stays out of reach of guns it cannot answer and closes
in where its own weapons hit harder than the enemy's.

For every unit able to fire and every enemy unit on the map in range, with a clear line (6.2) and in the weapon's
arc (2.2), each direct-fire weapon's expected damage points (``fire.shot_odds``: the hit roll of 6.3 with the
target's die of 5, penetration and damage of 8) at the target's facing toward the firer are valued at the target's
BV per row of possible damage (2.3); a unit counts its best target. With a weight for rams, each vehicle adds its
best ram of the next turn (12.1, 12.2: a gun or vehicle within its MP, at the damage of a move of all its MP).
What the rules leave to the moment (sighting, ammunition spent, the order of fire) is left out: the estimate is the
same for both sides.

The shots' odds depend on few things (the two sheets, the weapon, the distance, the column, the target's die, the
obstructing terrain), so they are kept once computed; the lines of sight are kept by ``sighting.sight_line``.
"""

from __future__ import annotations

from fractions import Fraction

from engine.errors import IllegalActionError
from engine.hexgrid import Hex, distance
from engine.state import GameState, Unit

from . import sheets
from .attack import die_of, facing_hit, round_for
from .damage import effects
from .data import Mount, Sheet, Tables
from .fire import Shot, hit_roll, range_band, shot_odds
from .geometry import armour_faces, in_arc, theta
from .model import status
from .ramming import ram_damage, ram_shot
from .sighting import sight_line
from .targetdie import TargetDie, has_moved

__all__ = ["exchange", "threat"]

_SHOTS: dict[tuple[object, ...], tuple[Tables, float]] = {}
"""Expected damage points of a shot by its inputs (each with its tables, so that their id is not reused)."""
_LIMIT = 200_000
_RAMS: dict[tuple[int, TargetDie], float] = {}
"""The hit chance of a ram (12.1) by the rammer's base number and the target's die."""


def _line(st: GameState, tables: Tables, a: Hex, b: Hex) -> tuple[str, ...] | None:
    """The obstructing terrain keys of the line from ``a`` to ``b`` (6.2), None if it is blocked."""
    line = sight_line(st, tables, a, b)
    return line.obstructing if line.clear else None


def _expected(
    tables: Tables,
    firer: Sheet,
    m: Mount,
    akey: str,
    experience: str,
    target: Sheet,
    column: str,
    dist: int,
    die: TargetDie,
    moved: bool,
    obstructing: tuple[str, ...],
) -> float:
    key = (id(tables), firer.id, m.row, m.weapon, akey, experience, target.id, column, dist, die, moved, obstructing)
    got = _SHOTS.get(key)
    if got is not None and got[0] is tables:
        return got[1]
    if len(_SHOTS) > _LIMIT:
        _SHOTS.clear()
    weapon = sheets.weapon(tables.weapons[m.weapon])
    value = 0.0
    try:
        range_band(weapon, dist)
        t_inf = target.unit_type == "infantry"
        shot = Shot(
            base_number=sheets.base_number(experience),
            weapon=weapon,
            ammo=sheets.ammo(tables.weapons[m.weapon].ammo[akey]),
            distance=dist,
            target_die=die,
            target_infantry=t_inf,
            firer_moved=moved,
            intervening=obstructing,
            both_infantry=t_inf and firer.unit_type == "infantry",
        )
        if hit_roll(shot).possible:
            odds = shot_odds(shot, sheets.target(target), column)
            value = float(sum((Fraction(n) * p for n, p in odds.damage.items()), Fraction(0)))
    except IllegalActionError:
        value = 0.0
    _SHOTS[key] = (tables, value)
    return value


def _able(tables: Tables, u: Unit) -> bool:
    s = status(u)
    sheet = tables.sheets.get(u.type)
    if sheet is None or u.hex is None or s.destroyed or s.embarked_in or s.towed_by or not sheet.mounts:
        return False
    if sheet.unit_type == "gun" and s.hexes and s.half_mp:
        # 3.2: a gun that changed hex this turn does not fire in 3b; one its tractor brought (no MP of its own spent)
        # counts, as it fires from there from the next turn on: the estimate values deploying it, not moving it by hand
        return False
    return not s.rows_hit or not effects(sheets.target(sheet, s.rows_hit)).out_of_action


def _best(
    st: GameState, tables: Tables, firer: Unit, targets: list[Unit], hidden: float = 1.0, others: float = 0.0
) -> float:
    """The firer's best target: the value of all its direct-fire weapons at one enemy unit; a hidden target (13.2:
    not fired at until sighted) counts ``hidden`` times; every other target in reach adds ``others`` times its
    value (the firer may choose it instead: a second unit in its reach is not free)."""
    values = [_at(st, tables, firer, t) * (hidden if status(t).hidden else 1.0) for t in targets]
    best = max(values, default=0.0)
    return best + others * (sum(values) - best) if others else best


def _at(st: GameState, tables: Tables, firer: Unit, t: Unit) -> float:
    """The value of all the firer's direct-fire weapons at ``t`` (0 without a clear line, 6.2)."""
    sheet = tables.sheets[firer.type]
    s = status(firer)
    assert firer.hex is not None and t.hex is not None
    dist = distance(firer.hex, t.hex)
    obstructing = _line(st, tables, firer.hex, t.hex) if dist else ()
    if obstructing is None:
        return 0.0
    moved = has_moved(Fraction(s.half_mp, 2))
    tsheet = tables.sheets[t.type]
    armoured = any((tsheet.armour.front, tsheet.armour.side, tsheet.armour.rear))
    column = facing_hit(tables, firer, t)
    die = die_of(st, tables, t)
    points = 0.0
    for index, m in enumerate(sheet.mounts):
        weapon = tables.weapons[m.weapon]
        if weapon.physical or weapon.fire_mode == "indirect" or index in s.jammed:
            continue
        if m.row in s.rows_hit or m.crew in s.rows_hit:
            continue
        if s.facing is not None and dist and not in_arc(m.arc, theta(firer.hex, s.facing, t.hex)):
            continue
        akey = round_for(tables, m, armoured, {}, index)  # the round it would choose, rounds spent aside
        if akey is not None:
            points += _expected(tables, sheet, m, akey, s.experience, tsheet, column, dist, die, moved, obstructing)
    return points * tsheet.bv / max(1, tsheet.possible_damage)


def _ram_chance(base: int, die: TargetDie) -> float:
    got = _RAMS.get((base, die))
    if got is None:
        if len(_RAMS) > _LIMIT:
            _RAMS.clear()
        to_hit = hit_roll(ram_shot(base, die, moved=True))
        got = _RAMS[(base, die)] = float(to_hit.chance) if to_hit.possible else 0.0
    return got


def _best_ram(st: GameState, tables: Tables, rammer: Unit, targets: list[Unit], ram: float) -> float:
    """A vehicle's best ram next turn (12.1, 12.2): a gun or vehicle within its MP, struck at the armour it turns
    toward the rammer after a move of all its MP (the damage grows with the hexes moved), times the hit chance
    (``ramming.ram_shot``), valued in BV per row like fire; ``ram`` weighs it (``data/ai.toml``)."""
    sheet = tables.sheets[rammer.type]
    s = status(rammer)
    if not ram or sheet.unit_type != "vehicle" or rammer.hex is None or s.shaken:
        return 0.0
    if s.rows_hit and effects(sheets.target(sheet, s.rows_hit)).immobilised:
        return 0.0
    best = 0.0
    for t in targets:
        tsheet = tables.sheets[t.type]
        facing = status(t).facing
        if tsheet.unit_type == "infantry" or t.hex is None or not 0 < distance(rammer.hex, t.hex) <= sheet.mp:
            continue
        faces = armour_faces(theta(t.hex, facing, rammer.hex)) if facing is not None else ("front",)
        points = ram_damage(
            v=sheet.mp,
            w_own=sheet.weight_t or 0.0,
            w_enemy=tsheet.weight_t or 0.0,
            a_enemy=max(getattr(tsheet.armour, f) for f in faces),
            a_own=sheet.armour.front,
        ).to_enemy
        left = tsheet.possible_damage - len(status(t).rows_hit)
        if points and left > 0:
            chance = _ram_chance(sheets.base_number(s.experience), die_of(st, tables, t))
            best = max(best, chance * min(points, left) * tsheet.bv / max(1, tsheet.possible_damage))
    return ram * best


def threat(
    st: GameState, tables: Tables, side: str, ram: float = 0.0, hidden: float = 1.0, others: float = 0.0
) -> float:
    """What ``side``'s units could do to the enemy's in one Fire Phase from where they stand, in VP (see the
    module), and with ``ram`` its vehicles' best rams of the next turn, weighed so; an enemy unit still hidden
    (13.2: only a side's own hidden units are in its view) counts ``hidden`` times as a target, and each target
    beyond a unit's best ``others`` times."""
    mine = [u for u in st.units.values() if u.side == side and _able(tables, u)]
    theirs = [
        u
        for u in st.units.values()
        if u.side != side
        and u.hex is not None
        and not (s := status(u)).destroyed
        and not s.embarked_in
        and not s.towed_by
    ]
    if not theirs:
        return 0.0
    return sum(_best(st, tables, u, theirs, hidden, others) + _best_ram(st, tables, u, theirs, ram) for u in mine)


def exchange(
    st: GameState, tables: Tables, side: str, ram: float = 0.0, hidden: float = 1.0, others: float = 0.0
) -> float:
    """``side``'s threat less its enemies' (see the module); ``side``'s hidden units draw ``hidden`` times the
    enemy's fire (13.2); each target beyond a unit's best counts ``others`` times."""
    mine = threat(st, tables, side, ram, others=others)
    return mine - sum(threat(st, tables, s, ram, hidden, others) for s in st.sides if s != side)
