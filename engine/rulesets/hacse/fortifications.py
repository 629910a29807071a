"""Provides mines and booby traps, barbed wire, AT obstacles, AT ditches (digest 13.3–13.7) and the work of laying
and clearing them (3.2 "work", End Phase step 7).

- Entering a hex: :func:`entry_refusal` and :func:`entry_cost` give the prohibitions and the extra cost of wire,
  obstacles and ditches (13.5–13.7), which the movement code adds to the step (4.3); :func:`on_enter` resolves the
  interrupt of 3.2 step 1 the moment a unit has entered a hex: wire (a tracked vehicle destroys it, a wheeled one
  takes axle damage) and mines (2d10 ≥ 15 − n with the game's dice, the AT-mine damage of 13.4 or a trap's 1d3).
  It says whether the move must stop (the unit is destroyed or immobilised).
- Work (3.2): ``lay`` a mine or trap, ``clear`` a known mine, ``cut`` wire, and a demolition charge against AT
  obstacles (the ``work`` verb on an obstacle hex); :func:`work_refusal` says why not, :func:`start_work` records
  it, :func:`complete_work` does it in the End Phase, step 7, where infantry that stayed all turn in a mined hex
  also finds its mines (13.4). A mine found or triggered becomes known to both sides (``Mine.secret`` off).
- For the fire code: :func:`cover_keys` (the AT-obstacle cover of 13.6, a hit-column key) and
  :func:`obstacle_removed` (13.6, AC-OB-01), :func:`remove_obstacles`. The trench's +3 (13.8) is the ``dug_in``
  flag that ``targetdie.target_die`` and ``sighting`` already read.

The numbers are in ``data/fortifications.toml``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from . import hits, pontoons, sheets
from .bridges import terrain_of
from .cache import kept
from .damage import Allocation, Location, Target, allocate, effects, fixed_hit
from .data import DATA_DIR, MAX, NA, PROHIBITED, Cost, Tables, read_toml, require
from .firedata import Roller
from .model import Mine, data, status
from .morale import damage_trigger
from .movement import Refused

__all__ = [
    "JOBS",
    "FortTable",
    "at_mine_damage",
    "complete_work",
    "cover_keys",
    "entry_cost",
    "entry_refusal",
    "fort_table",
    "immobile",
    "known_mines",
    "mines_against",
    "obstacle_removed",
    "on_enter",
    "record_damage",
    "remove_obstacles",
    "start_work",
    "trigger_tn",
    "work_hexes",
    "work_refusal",
]

JOBS = ("lay", "clear", "cut", "blast")
"""The work of this module (3.2): lay a mine or trap, clear a mine, cut wire, blast AT obstacles with a charge."""


@dataclass(frozen=True, slots=True)
class FortTable:
    """``data/fortifications.toml``."""

    trigger_base: int
    dice: int
    at_damage: int
    at_column: str
    at_destroys_below_t: float
    trap_die: int
    trap_terrain: tuple[str, ...]
    trap_item: str
    at_item: str
    wire_track_mp: int
    wire_wheel_damage: int
    cover_key: str
    min_he: int


@cache
def fort_table() -> FortTable:
    """The values of 13.3–13.7 (read once)."""
    name = "fortifications.toml"
    raw = read_toml(DATA_DIR / name)
    m: Mapping[str, Any] = require(raw, "mines", name)
    w: Mapping[str, Any] = require(raw, "wire", name)
    o: Mapping[str, Any] = require(raw, "obstacles", name)
    return FortTable(
        trigger_base=int(require(m, "trigger_base", f"{name} mines")),
        dice=int(require(m, "dice", f"{name} mines")),
        at_damage=int(require(m, "at_damage", f"{name} mines")),
        at_column=str(require(m, "at_column", f"{name} mines")),
        at_destroys_below_t=float(require(m, "at_destroys_below_t", f"{name} mines")),
        trap_die=int(require(m, "trap_die", f"{name} mines")),
        trap_terrain=tuple(require(m, "trap_terrain", f"{name} mines")),
        trap_item=str(require(m, "trap_item", f"{name} mines")),
        at_item=str(require(m, "at_item", f"{name} mines")),
        wire_track_mp=int(require(w, "track_mp", f"{name} wire")),
        wire_wheel_damage=int(require(w, "wheel_damage", f"{name} wire")),
        cover_key=str(require(o, "cover_key", f"{name} obstacles")),
        min_he=int(require(o, "min_he", f"{name} obstacles")),
    )


# --- Pure rules -----------------------------------------------------------------------------------------------


def trigger_tn(mines: int) -> int:
    """The roll on 2d10 at or above which a mine or trap goes off (13.4 [INTERP]: 15 − mines of the kind).

    >>> [trigger_tn(n) for n in (1, 2, 5, 10)]
    [14, 13, 10, 5]
    """
    return fort_table().trigger_base - mines


def mine_kind_for(unit_type: str) -> str | None:
    """The kind of mine that can affect a unit (13.4): AT mines only vehicles, traps only infantry [PROPOSED]."""
    return {"vehicle": "at", "infantry": "trap"}.get(unit_type)


def mines_against(mines: list[Mine], h: Hex, unit_type: str) -> int:
    """Mines in ``h`` that can go off under a unit of ``unit_type`` (13.4: n of the trigger roll)."""
    kind = mine_kind_for(unit_type)
    return sum(m.count for m in mines if m.hex == h and m.kind == kind)


def known_mines(mines: list[Mine], h: Hex, side: str) -> int:
    """The enemy's mines in ``h`` that ``side`` knows of, those no longer secret (13.4: clearing needs them known;
    a side does not clear its own [INTERP])."""
    return sum(m.count for m in mines if m.hex == h and m.side != side and not m.secret)


def at_mine_damage(target: Target, weight_t: float | None, roller: Roller) -> Allocation | None:
    """An AT mine under a vehicle (13.4): None when it is destroyed outright (under 10 t), else 2 damage with no
    armour check, the first on a track/axle row (a random one if several; a new location if none is left), the
    second on a location of the Side column (15.6) [PROPOSED]."""
    t = fort_table()
    if weight_t is not None and weight_t < t.at_destroys_below_t:
        return None
    tracks = tuple(r.index for r in target.intact(r for r in target.rows if r.kind == "track_axle"))
    first = Location("track_axle", tracks) if tracks else None
    return allocate(target, t.at_column, t.at_damage, roller, first=first)


def wire_axle_damage(target: Target, roller: Roller) -> Allocation:
    """A wheeled vehicle entering wire (13.5): axle damage, 1 point on a track/axle row, no armour check
    [INTERP]."""
    t = fort_table()
    tracks = tuple(r.index for r in target.intact(r for r in target.rows if r.kind == "track_axle"))
    first = Location("track_axle", tracks) if tracks else None
    return allocate(target, t.at_column, t.wire_wheel_damage, roller, first=first)


def obstacle_removed(*, aimed: bool, he: int) -> bool:
    """Whether a hit removes the AT obstacles of its hex (13.6): only an aimed shell (11.1) with HE ≥ 6.

    >>> obstacle_removed(aimed=True, he=3), obstacle_removed(aimed=True, he=6), obstacle_removed(aimed=False, he=6)
    (False, True, False)
    """
    return aimed and he >= fort_table().min_he


def cover_keys(st: GameState, tables: Tables, unit: Unit) -> tuple[str, ...]:
    """Hit-column keys the fortifications of the unit's hex add (6.3): infantry among AT obstacles has cover as in
    rough terrain (13.6; ``fire.toml`` ``at_obstacle``)."""
    if unit.hex in data(st).obstacles and tables.sheets[unit.type].unit_type == "infantry":
        return (fort_table().cover_key,)
    return ()


def immobile(tables: Tables, unit: Unit) -> bool:
    """Whether the unit's rows hit immobilise it (8.5: track/axle, engine or fuel tank hit)."""
    s = status(unit)
    if not s.rows_hit:
        return False
    return effects(sheets.target(tables.sheets[unit.type], s.rows_hit)).immobilised


# --- Entering a hex (3.2 step 1, 4.3) ---------------------------------------------------------------------------


def entry_refusal(
    st: GameState, tables: Tables, unit: Unit, frm: Hex | None, to: Hex, mp_spent: bool
) -> Refused | None:
    """Why ``unit`` may not enter ``to`` from ``frm`` because of obstacles, a ditch or wire (13.5–13.7), or None.
    ``mp_spent``: it has spent MP this turn (wire and a ditch take all its MP, like "max.", 4.3)."""
    d = data(st)
    sheet = tables.sheets[unit.type]
    label = st.board.label(to)
    if sheet.unit_type == "vehicle" and to in d.obstacles:
        return Refused(f"Cannot move: vehicles cannot enter the AT obstacles in {label}", "13.6")
    if to in d.ditches and to not in d.pontoons:  # 4.8: a pontoon makes it a stream crossing
        if tables.movement.base["at_ditch"][sheet.move_class] == PROHIBITED:
            return Refused(f"Cannot move: a {sheet.move_class} unit cannot cross the AT ditch in {label}", "13.7")
        if mp_spent:
            return Refused(
                f"Cannot move: crossing the AT ditch in {label} takes all its MP, and it has spent MP", "13.7"
            )
    if sheet.move_class == "foot" and mp_spent and (to in d.wire or (frm is not None and frm in d.wire)):
        where = label if to in d.wire else st.board.label(frm) if frm is not None else label
        verb = "entering" if to in d.wire else "leaving"
        return Refused(
            f"Cannot move: {verb} the barbed wire in {where} takes all its MP, and it has spent MP this turn", "13.5"
        )
    return None


def entry_cost(st: GameState, tables: Tables, unit: Unit, frm: Hex | None, to: Hex) -> Cost:
    """The part of a step's cost (4.3) due to wire and ditches: "max." for a unit on foot entering or leaving wire
    (13.5 [PROPOSED]) or crossing a ditch (13.7, 4.3 row), +1 MP for a tracked vehicle entering wire; "n/a" when
    there is none."""
    d = data(st)
    move_class = tables.sheets[unit.type].move_class
    if to in d.ditches and to not in d.pontoons:  # 4.8: with a pontoon, the hex's own cost says it
        ditch = tables.movement.base["at_ditch"][move_class]
        if ditch in (MAX, PROHIBITED):
            return ditch
    wired = to in d.wire or (frm is not None and frm in d.wire)
    if move_class == "foot" and wired:
        return MAX
    if move_class == "track" and to in d.wire:
        return float(fort_table().wire_track_mp)
    return NA


def on_enter(tr: Transition, tables: Tables, unit: Unit) -> bool:
    """The interrupt of 3.2 step 1 when ``unit`` has entered its hex: wire (13.5), then mines and traps (13.4).
    True when its move must stop (destroyed or immobilised)."""
    st = tr.state
    h = unit.hex
    assert h is not None
    sheet = tables.sheets[unit.type]
    d = data(st)
    if h in d.wire and sheet.move_class in ("track", "wheel"):
        _wire(tr, tables, unit, h)
    if status(unit).destroyed:
        return True
    n = mines_against(d.mines, h, sheet.unit_type)
    if n:
        _mines(tr, tables, unit, h, n)
    return status(unit).destroyed or (sheet.unit_type == "vehicle" and immobile(tables, unit))


def _roller(tr: Transition, unit: Unit, why: str, visible_to: tuple[str, ...] | None = None) -> Roller:
    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        return tr.roll(sides, count, f"{unit.id} {why}: {purpose}", visible_to=visible_to)

    return roller


def _wire(tr: Transition, tables: Tables, unit: Unit, h: Hex) -> None:
    st = tr.state
    label = st.board.label(h)
    if tables.sheets[unit.type].move_class == "track":
        data(st).wire.remove(h)
        tr.emit("wire", f"{unit.id} crushes the barbed wire in {label} (rule 13.5)", _seen(unit), unit=unit.id)
        if status(unit).hidden:
            tr.emit("wire", f"The barbed wire in {label} is destroyed (rule 13.5)", st.enemies_of(unit.side))
        return
    target = sheets.target(tables.sheets[unit.type], status(unit).rows_hit)
    got = wire_axle_damage(target, _roller(tr, unit, "drives into barbed wire", _seen(unit)))
    record_damage(tr, tables, unit, got.rows, f"drives into the barbed wire in {label}: axle damage (rule 13.5)")


def _mines(tr: Transition, tables: Tables, unit: Unit, h: Hex, n: int) -> None:
    """The trigger roll (13.4); its dice are seen only by the owners of secret mines until one goes off."""
    st = tr.state
    d = data(st)
    sheet = tables.sheets[unit.type]
    kind = mine_kind_for(sheet.unit_type)
    entries = [m for m in d.mines if m.hex == h and m.kind == kind]
    secret = any(m.secret for m in entries)
    seen = _roll_seen(unit, entries)
    tn = trigger_tn(n)
    what = "AT mines" if kind == "at" else "booby traps"
    label = st.board.label(h)
    roll = sum(
        tr.roll(
            10,
            fort_table().dice,
            f"{what} in {label} under {unit.id} (rule 13.4)",
            target=tn,
            compare="at_least",
            visible_to=seen,
        )
    )
    if roll < tn:
        return
    first = entries[0]
    d.mines = [m for m in d.mines if m.hex != h or m.kind != kind]
    d.mines += [replace(m, count=m.count - (m is first), secret=False) for m in entries if m.count - (m is first) > 0]
    if secret:
        tr.reveal()
    tr.emit("mine", f"{'An AT mine' if kind == 'at' else 'A booby trap'} goes off in {label} (rule 13.4)")
    target = hits.target_of(st, tables, unit)  # with the groups aboard (a cargo-bed point strikes one, 8.5)
    roller = _roller(tr, unit, f"{what} in {label}", _seen(unit))
    if kind == "trap":
        (hurt,) = roller(fort_table().trap_die, 1, "booby-trap damage")
        rows = fixed_hit(target, "side", hurt, roller, dk=None).allocation.rows
        record_damage(tr, tables, unit, rows, f"takes {hurt} damage from a booby trap (rule 13.4)")
        return
    got = at_mine_damage(target, sheet.weight_t, roller)
    if got is None:
        why = f"an AT mine destroys it outright, under {fort_table().at_destroys_below_t:g} t (rule 13.4)"
        _destroy(tr, unit, why, tables)
        return
    record_damage(tr, tables, unit, got.rows, "hits an AT mine: 2 damage, the first on a track/axle (rule 13.4)")
    _cargo(tr, tables, unit, got.cargo_hits, roller)


def _cargo(tr: Transition, tables: Tables, vehicle: Unit, points: int, roller: Roller) -> None:
    """Cargo-bed points of an AT mine (8.5 P, 4.5): each deals 1 damage to a random group inside the vehicle, on its
    lowest intact soldier row. (No roster vehicle of 10 t or more has a cargo bed; the rule is kept general.)"""
    for _ in range(points):
        if vehicle.hex is None:
            return
        inside = [g for g in hits.passengers(tr.state, tables, vehicle)[0] if g.steps > 0]
        if not inside:
            return
        group = inside[0] if len(inside) == 1 else inside[roller(len(inside), 1, "which group inside is hit")[0] - 1]
        row = _lowest_soldier(tables, group)
        if row is not None:
            record_damage(
                tr, tables, group, (row,), f"takes 1 damage inside {vehicle.id} from its cargo bed (rule 8.5)"
            )


def _lowest_soldier(tables: Tables, unit: Unit) -> int | None:
    hit = set(status(unit).rows_hit)
    return next((r.index for r in tables.sheets[unit.type].rows if r.kind == "soldier" and r.index not in hit), None)


def _roll_seen(unit: Unit, entries: list[Mine]) -> tuple[str, ...] | None:
    """Who sees a trigger roll (13.2, 13.4): the owners of secret mines (the mover's side would learn of them), and
    of those only the mover's side while it is hidden (the owner would learn where it is); everybody otherwise."""
    hidden = status(unit).hidden
    if not any(m.secret for m in entries):
        return (unit.side,) if hidden else None
    owners = {m.side for m in entries}
    return tuple(sorted(owners & {unit.side} if hidden else owners))


def _seen(unit: Unit) -> tuple[str, ...] | None:
    """Who sees the details of ``unit``'s misfortune: its own side while it is hidden (13.2)."""
    return (unit.side,) if status(unit).hidden else None


def record_damage(tr: Transition, tables: Tables, unit: Unit, rows: tuple[int, ...], why: str) -> None:
    """Rows hit and their effects (8.5) at once (the Movement Phase has no simultaneous fire); the morale roll it
    causes is owed (``morale_due``): the move makes it at once (``activation._mine_morale``, 3.2), a hidden unit
    with those of the Fire Phase (9.3)."""
    s = status(unit)
    sheet = tables.sheets[unit.type]
    s.rows_hit = sorted(set(s.rows_hit) | set(rows))
    after = sheets.target(sheet, s.rows_hit)
    unit.steps = max(0, after.possible_damage - after.damage_taken)
    eff = effects(after)
    hit = f"rows {', '.join(map(str, rows))} hit" if rows else "no row left to hit"
    flags = ", immobilised" if eff.immobilised and sheet.unit_type == "vehicle" else ""
    tr.emit("damage", f"{unit.id} {why}: {hit}{flags}", _seen(unit), unit=unit.id)
    if eff.destroyed:
        _destroy(tr, unit, "its damage (rule 8.5)", tables)
    elif damage_trigger(after.possible_damage, after.damage_taken) and "damage" not in s.morale_due:
        s.morale_due.append("damage")


def _destroy(tr: Transition, unit: Unit, why: str, tables: Tables) -> None:
    """The unit is destroyed and leaves the map now (8.5 P): its towed gun with it, and its passengers when its
    ammunition exploded; otherwise they get out in its hex and each takes 1 damage (as ``attack.leave``)."""
    st = tr.state
    s = status(unit)
    s.destroyed = True
    hexed, unit.hex = unit.hex, None
    tr.emit("destroyed", f"{unit.id} is destroyed: {why}", unit=unit.id)
    exploded = any(r.kind == "ammunition" and r.index in s.rows_hit for r in tables.sheets[unit.type].rows)
    for p in sorted(st.units.values(), key=lambda u: u.id):
        ps = status(p)
        if unit.id not in (ps.embarked_in, ps.towed_by):
            continue
        if ps.embarked_in and not exploded and hexed is not None:
            ps.embarked_in, ps.outside, p.hex = None, False, hexed
            tr.emit("dismount", f"{p.id} gets out of the wreck of {unit.id} (rule 8.5)", _seen(unit), unit=p.id)
            row = _lowest_soldier(tables, p)
            if row is not None:
                record_damage(tr, tables, p, (row,), "takes 1 damage getting out (rule 8.5)")
            continue
        ps.destroyed, ps.embarked_in, ps.towed_by = True, None, None
        p.hex = None
        tr.emit("destroyed", f"{p.id} is destroyed with {unit.id} (rule 8.5)", unit=p.id)


# --- Work (3.2, 13.3–13.6) -------------------------------------------------------------------------------------


def _left(tables: Tables, unit: Unit, item: str) -> int:
    return tables.sheets[unit.type].equipment.get(item, 0) - status(unit).used.get(item, 0)


def lay_kinds(tables: Tables, unit: Unit) -> tuple[str, ...]:
    """What the unit can lay (13.3 [PROPOSED]): an AT mine if it carries ``at_mines``, a trap if it has a hand
    grenade left, a pontoon if it carries one (4.8 P)."""
    t = fort_table()
    kinds = tuple(k for k, item in (("at", t.at_item), ("trap", t.trap_item)) if _left(tables, unit, item) > 0)
    return kinds + (("pontoon",) if pontoons.carried(tables, unit) > 0 else ())


def work_refusal(
    st: GameState, tables: Tables, unit: Unit, job: str, h: Hex, kind: str | None = None
) -> Refused | None:
    """Why ``unit`` may not do ``job`` (one of :data:`JOBS`) on ``h`` this turn, or None (3.2, 13.3–13.6)."""
    sheet = tables.sheets[unit.type]
    label = st.board.label(h)
    rule = {"lay": "13.3", "clear": "13.4", "cut": "13.5", "blast": "13.6"}[job]
    if sheet.unit_type != "infantry":
        return Refused(f"Cannot {job}: only infantry does this work ({unit.id} is not infantry)", rule)
    if unit.hex is None or (h != unit.hex and not (job == "lay" and distance(unit.hex, h) == 1)):
        where = "in or next to" if job == "lay" else "in"
        return Refused(f"Cannot {job}: {unit.id} is not {where} {label}", rule)
    if job == "lay":
        return _lay_refusal(st, tables, unit, h, kind)
    d = data(st)
    if job == "clear" and not known_mines(d.mines, h, unit.side):
        return Refused(f"Cannot clear: {unit.side} knows of no enemy mine in {label}", rule)
    if job == "cut" and h not in d.wire:
        return Refused(f"Cannot cut: there is no barbed wire in {label}", rule)
    if job == "blast":
        if h not in d.obstacles:
            return Refused(f"Cannot blast: there are no AT obstacles in {label}", rule)
        if status(unit).charges <= 0 and _left(tables, unit, "demolition_charges") <= 0:
            return Refused(f"Cannot blast: {unit.id} carries no demolition charge", rule)
    return None


def _lay_refusal(st: GameState, tables: Tables, unit: Unit, h: Hex, kind: str | None) -> Refused | None:
    if kind == "pontoon":  # 4.8 P
        return pontoons.refusal(st, tables, unit, h)
    kinds = kept(st, ("lay kinds", unit.id), lambda: lay_kinds(tables, unit), unit)  # each hex of a listing asks
    if not kinds:
        return Refused(f"Cannot lay: {unit.id} carries no AT mine and no hand grenade for a trap", "13.3")
    if kind not in kinds:
        return Refused(
            f"Cannot lay: {unit.id} carries nothing to make {'an AT mine' if kind == 'at' else 'a trap'}", "13.3"
        )
    if kind == "trap" and terrain_of(st, tables, h).key not in fort_table().trap_terrain:
        return Refused(f"Cannot lay: traps may only be laid in forest or buildings, not in {st.board.label(h)}", "13.4")
    return None


def work_hexes(st: GameState, tables: Tables, unit: Unit, job: str) -> Iterator[tuple[Hex, str | None]]:
    """The hexes (and, for ``lay``, the kinds) where ``unit`` may do ``job`` now."""
    if unit.hex is None or tables.sheets[unit.type].unit_type != "infantry":
        return
    hexes = [unit.hex] + ([n for n in unit.hex.neighbours() if n in st.board] if job == "lay" else [])
    kinds: tuple[str | None, ...] = lay_kinds(tables, unit) if job == "lay" else (None,)
    for h in hexes:
        for k in kinds:
            if work_refusal(st, tables, unit, job, h, k) is None:
                yield h, k


def start_work(st: GameState, tables: Tables, unit: Unit, job: str, h: Hex, kind: str | None = None) -> str:
    """Record the unit's work of this turn (done in the End Phase, step 7) and say what it is (to its own side)."""
    s = status(unit)
    s.work, s.work_hex = job, h
    s.lay_kind = (kind or lay_kinds(tables, unit)[0]) if job == "lay" else None
    label = st.board.label(h)
    laid = {"at": "an AT mine", "pontoon": "a pontoon"}.get(s.lay_kind or "", "a booby trap")
    what = {
        "lay": f"lays {laid} in {label} (rule {'4.8' if s.lay_kind == 'pontoon' else '13.3'})",
        "clear": f"clears a mine in {label} (rule 13.4)",
        "cut": f"cuts the barbed wire in {label} (rule 13.5)",
        "blast": f"attaches a demolition charge to the AT obstacles in {label} (rule 13.6)",
    }[job]
    return f"{unit.id} {what}"


def remove_obstacles(tr: Transition, h: Hex, why: str) -> None:
    """The AT obstacles of ``h`` are gone (13.6: one charge, or an aimed hit with HE ≥ 6, :func:`obstacle_removed`)."""
    d = data(tr.state)
    if h in d.obstacles:
        d.obstacles.remove(h)
        tr.emit("obstacle", f"The AT obstacles in {tr.state.board.label(h)} are removed: {why} (rule 13.6)")


def complete_work(tr: Transition, tables: Tables) -> None:
    """End Phase step 7 (3.2): infantry that stayed all turn in a mined hex finds its mines (13.4), then each unit's
    work of this module is done: a mine or trap laid, a known mine cleared, wire cut, obstacles blasted."""
    st = tr.state
    _discover(tr, tables)
    for u in sorted(st.units.values(), key=lambda u: u.id):
        s = status(u)
        if s.work not in JOBS:
            continue
        h, job = s.work_hex, s.work
        s.work, s.work_hex = None, None
        if h is None or s.destroyed or u.hex is None or s.embarked_in:
            continue
        if job == "lay":
            _lay(tr, tables, u, h)
        elif job == "clear":
            _clear(tr, u, h)
        elif job == "cut" and h in data(st).wire:
            data(st).wire.remove(h)
            tr.emit("wire", f"{u.id} has cut the barbed wire in {st.board.label(h)} (rule 13.5)")
        elif job == "blast":
            _use_charge(tables, u)
            remove_obstacles(tr, h, f"{u.id}'s demolition charge")


def _use_charge(tables: Tables, unit: Unit) -> None:
    s = status(unit)
    if s.charges > 0:
        s.charges -= 1
    else:
        s.used["demolition_charges"] = s.used.get("demolition_charges", 0) + 1


def _discover(tr: Transition, tables: Tables) -> None:
    """Infantry that spent the whole turn in its hex (no MP spent, no hex entered) knows the enemy's mines and traps
    there now; found, they are known to both sides (13.4). Its own side's mines it knew already."""
    st = tr.state
    d = data(st)
    finders: dict[tuple[Hex, str], str] = {}
    for u in sorted(st.units.values(), key=lambda u: u.id):
        s = status(u)
        if u.hex is None or s.destroyed or s.embarked_in or s.half_mp or s.hexes:
            continue
        if tables.sheets[u.type].unit_type == "infantry":
            finders.setdefault((u.hex, u.side), u.id)

    def finder(m: Mine) -> str | None:
        return next((uid for (h, side), uid in finders.items() if h == m.hex and side != m.side), None)

    found = [(m, who) for m in d.mines if m.secret and (who := finder(m)) is not None]
    if not found:
        return
    d.mines = [replace(m, secret=False) if any(m is f for f, _ in found) else m for m in d.mines]
    tr.reveal()
    for m, who in found:
        what = "AT mines" if m.kind == "at" else "booby traps"
        tr.emit("mine", f"{who} finds {m.count} {what} in {st.board.label(m.hex)} (rule 13.4)")


def _lay(tr: Transition, tables: Tables, unit: Unit, h: Hex) -> None:
    """A mine or trap laid (13.3): openly when an enemy unit has the layer sighted, else secretly, with only the
    announcement that "mines were laid"."""
    st = tr.state
    d = data(st)
    s = status(unit)
    kind = s.lay_kind or "trap"
    if kind == "pontoon":  # 4.8 P: laid openly
        s.lay_kind = None
        pontoons.lay(tr, unit, h)
        return
    t = fort_table()
    item = t.at_item if kind == "at" else t.trap_item
    s.used[item] = s.used.get(item, 0) + 1
    s.lay_kind = None
    seen = any(unit.id in status(e).sighted for e in st.units.values() if e.side != unit.side)
    d.mines.append(Mine(h, 1, unit.side, kind, secret=not seen))
    what = "an AT mine" if kind == "at" else "a booby trap"
    label = st.board.label(h)
    if seen:
        tr.emit("mine", f"{unit.id} lays {what} in {label}, in sight of the enemy (rule 13.3)")
        return
    tr.emit("mine", f"{unit.id} has laid {what} in {label}, secretly (rule 13.3)", (unit.side,))
    tr.emit("mine", f"{unit.side}: mines were laid (rule 13.3)", st.enemies_of(unit.side))


def _clear(tr: Transition, unit: Unit, h: Hex) -> None:
    """One known enemy mine of the hex removed (13.4: an infantry group clears one mine per turn); AT mines first."""
    st = tr.state
    d = data(st)
    known = [m for m in d.mines if m.hex == h and m.side != unit.side and not m.secret]
    if not known:
        return
    pick = min(known, key=lambda m: m.kind)
    i = d.mines.index(pick)
    if pick.count > 1:
        d.mines[i] = replace(pick, count=pick.count - 1)
    else:
        del d.mines[i]
    tr.emit("mine", f"{unit.id} clears a mine in {st.board.label(h)}: {pick.count - 1} left there (rule 13.4)")
