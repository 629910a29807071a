"""Provides the fire options of §11 and the choice of ammunition (15.5) as trailing words of ``fire`` in Phase 3b.

``fire UNIT TARGET WEAPON [AMMO] [aimed ROW | rapid | bundled | sustained | doubled]``:

- ``AMMO`` (15.5): the round, where the weapon has several (``AP``, ``HE``); without it the rule of
  ``attack.round_for`` picks one. A named round goes with a plain or a rapid shot; the other options fire the
  round the rule picks (README reading).
- ``aimed ROW`` (11.1): +5, the first damage point strikes the chosen row; only a single weapon's single roll (not a
  pool, a burst or a bundle, README reading), never the ammunition or the fuel tank; of rows alike (same kind, role
  and weapon) the lowest intact one is named.
- ``rapid`` (11.2): +5 (+3 semi-automatic), every roll doubled, jams on a natural 3 too; declared with the unit's
  first shot of the phase for all of them (P); infantry must not have moved.
- a carried mount of several weapons fires as the pools of 11.3 (10, a remainder of 3 or more, the rest one by
  one), counting only the weapons whose soldiers are intact and that are not jammed (``attack.ready_weapons``).
- ``bundled`` (11.5): the WEAPON is the weapon key of two or more mounts of the unit (``MG34V``); they fire as one
  roll eased by ⌊log₂ n⌋, damage capped at n.
- ``sustained`` / ``doubled`` (11.6): the heavy MG of an infantry unit that did not move, the unit's only fire this
  phase: the line through the target's hex (on the MG's level) is attacked, every friendly or sighted enemy unit in
  it takes a roll (one hit plus one per point above the TN); ``doubled`` (MG 42) spends 60 rules shots and rolls
  twice. The line stays in ``Status.line`` until the unit's next activation: :func:`line_covers` and
  :func:`line_aim` say whether it covers a hex and what attack a unit there takes (for the movement interrupt of
  3.2, step 2).

Indirect fire (7) is dispatched to :mod:`.artillery`: a hex as the target, an indirect-only weapon, or a cannon
without LOS to a target a friend has sighted. :func:`refusal`, :func:`fire_actions`, :func:`resolve` and
:func:`odds` are the Fire Phase's entries; ``check`` refuses exactly what :func:`fire_actions` leaves out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.hexgrid import Hex, distance
from engine.odds import Odds, OddsEntry
from engine.rules import Transition
from engine.state import GameState, Unit

from . import artillery, attack, demolition, hits, sheets, sighting
from .attack import Aim, mount_label
from .cache import handed, kept, taken
from .damage import Location, Target, armour_used, effective_dk, infantry_damage, vehicle_damage
from .data import Tables
from .fire import (
    RollOutcome,
    Shot,
    ShotOdds,
    check_aimed_row,
    check_rapid,
    check_sustained,
    hit_roll,
    outcome_band,
    pools,
    resolve_attack,
    shot_odds,
    sustained_attack,
    sustained_hits,
    sustained_rules_shots,
)
from .firedata import TWO_D10, Row
from .model import data, status
from .movement import Refused
from .notation import Fire
from .targetdie import has_moved

__all__ = [
    "OPTIONS",
    "Order",
    "Volley",
    "fire_actions",
    "line_aim",
    "line_covers",
    "line_hexes",
    "odds",
    "order",
    "ready",
    "refusal",
    "resolve",
]

OPTIONS = ("aimed", "rapid", "bundled", "sustained", "doubled", "building", "bridge")
"""The option words of ``fire`` (11.1, 11.2, 11.5, 11.6; ``doubled`` is sustained fire at double ammunition)."""


@dataclass(frozen=True, slots=True)
class Order:
    """A ``fire`` action as the options read it: unit, target (a unit id or a hex), weapon label and the words."""

    unit: str
    target: str | Hex
    label: str
    ammo: str | None = None
    option: str | None = None
    row: int | None = None

    @property
    def plain(self) -> bool:
        """No ammunition named and no option: the ``fire`` of the direct-fire rules alone."""
        return self.ammo is None and self.option is None and self.row is None


@dataclass(frozen=True, slots=True)
class Volley:
    """A direct-fire order made ready: one aim per roll group (pools, single weapons, a bundle), in firing order."""

    aims: tuple[Aim, ...]
    mounts: tuple[int, ...]
    """Every mount that fires (a bundle fires several)."""
    row: int | None = None
    """The aimed row (11.1)."""
    line: tuple[Hex, ...] = ()
    """Sustained fire: the hexes of the line (11.6)."""
    doubled: bool = False


def order(typed: Fire) -> Order:
    """The :class:`Order` of a typed ``fire``."""
    return Order(typed.unit, typed.target, typed.weapon, typed.ammo, typed.option, typed.row)


# --- Why a shot may not be made -------------------------------------------------------------------------------


def refusal(st: GameState, tables: Tables, order: Order) -> Refused | None:
    """Why the ``fire`` order may not be played in 3b now, or None."""
    got = handed(st, ("ready", order), lambda: ready(st, tables, order))  # the apply's order (cache.py)
    return got if isinstance(got, Refused) else None


def ready(st: GameState, tables: Tables, order: Order) -> Volley | artillery.Salvo | demolition.Demolition | Refused:
    """The order made ready (direct fire with its options, or indirect fire), or why it may not be made."""
    firer = st.units.get(order.unit)
    if firer is None:
        return Refused(f"Cannot fire: {order.unit} is not a unit", "3.2")
    if firer.side != st.to_act:
        return Refused(f"Cannot fire: {firer.id} is not a unit of {st.to_act}", "3.2")
    why = _named_round(tables, firer, order)
    if why is not None:
        return why
    if order.option in (demolition.OPTION, demolition.BRIDGE):  # 8.6 P: fire aimed at a building or a bridge
        if not isinstance(order.target, Hex):
            return Refused(f"Cannot fire at a {order.option}: name its hex, not a unit", "8.6")
        return demolition.ready(st, tables, firer, order.target, order.label, order.ammo, order.option)
    if artillery.is_indirect(st, tables, firer, order.target, order.label):
        if order.option is not None:
            return Refused(f"Cannot fire {order.option}: indirect fire takes no fire option", "7.1")
        return artillery.ready(st, tables, firer, order.target, order.label, order.ammo)
    if isinstance(order.target, Hex):
        return Refused("Cannot fire at a hex: only indirect fire (7.4) or smoke is aimed at a hex", "7.4")
    why = _mode_refusal(firer, order)
    if why is not None:
        return why
    if order.option == "bundled":
        return _bundle(st, tables, firer, order)
    base = attack.shot(st, tables, firer, order.target, order.label, order.ammo)
    if isinstance(base, Refused):
        return base
    if order.ammo is not None and order.option not in (None, "rapid"):
        return Refused(
            f"Cannot name the round of a {order.option} shot: it fires the round the rule picks, {base.ammo}",
            "15.5",
        )
    if order.option in ("sustained", "doubled"):
        return _sustained(st, tables, firer, order, base)
    if order.option == "aimed":
        return _aimed(st, tables, firer, order, base)
    if order.row is not None:
        return Refused("Cannot fire: a row is named only for an aimed shot", "11.1")
    return _pooled(tables, firer, base, rapid=order.option == "rapid")


def _named_round(tables: Tables, firer: Unit, order: Order) -> Refused | None:
    """15.5: a round is named only where the weapon has several kinds (else there is nothing to choose)."""
    if order.ammo is None:
        return None
    sheet = tables.sheets[firer.type]
    kinds = {k for m in sheet.mounts if m.weapon.lower() == order.label.split("-")[0].lower() for k in m.ammo}
    if len(kinds) == 1:
        return Refused(f"Cannot name the round: the {order.label} has only {kinds.pop()}; leave it out", "15.5")
    return None


def _mode_refusal(firer: Unit, order: Order) -> Refused | None:
    """11.2 (P): rapid fire is declared with the unit's first shot of the phase, for all of them."""
    s = status(firer)
    rapid = order.option == "rapid"
    if s.fired and s.rapid and not rapid:
        return Refused(f"Cannot fire: {firer.id} fires rapidly this phase; every shot of it is rapid", "11.2")
    if s.fired and not s.rapid and rapid:
        return Refused(
            f"Cannot use rapid fire: {firer.id} has fired without it this phase (rapid fire is declared with the "
            "first shot)",
            "11.2",
        )
    return None


def _possible(aim: Aim) -> Refused | None:
    to_hit = hit_roll(aim.shot)
    if not to_hit.possible:
        return Refused(f"Cannot fire: {to_hit.explain()}, above {to_hit.max_tn}", "6.3")
    return None


def _pooled(tables: Tables, firer: Unit, base: Aim, *, rapid: bool) -> Volley | Refused:
    """A plain or rapid shot: a carried mount of several weapons fires its pools of 11.3, largest first."""
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[base.mount]
    if rapid:
        try:
            check_rapid(infantry=sheet.unit_type == "infantry", moved=has_moved(status(firer).half_mp / 2))
        except IllegalActionError as e:
            return Refused(str(e.args[0]), e.rule or "11.2")
    sizes = pools(attack.ready_weapons(tables, firer, base.mount), base.shot.weapon) if m.mount == "carried" else (1,)
    aims = []
    for size in sizes:
        shot = _varied(base.shot, pooled=size, rapid=rapid)
        if hit_roll(shot).possible:
            aims.append(replace(base, shot=shot))
    if not aims:
        return _possible(replace(base, shot=replace(base.shot, rapid=rapid))) or Refused("Cannot fire", "6.3")
    return Volley(tuple(aims), (base.mount,))


_VARIED: dict[tuple[Shot, tuple[tuple[str, object], ...]], Shot] = {}
"""Shots already varied (:func:`_varied`), by the shot and the changes."""


def _varied(shot: Shot, **changes: object) -> Shot:
    """``replace(shot, **changes)``, kept: the Fire Phase lists the same variants (round, pool, rapid, aimed) of the
    same shots at every decision, and a shot is a value."""
    key = (shot, tuple(changes.items()))
    got = _VARIED.get(key)
    if got is None:
        if len(_VARIED) >= 50_000:
            _VARIED.clear()
        got = _VARIED[key] = replace(shot, **changes)  # type: ignore[arg-type]
    return got


def alike(rows: tuple[Row, ...], sheet_rows: tuple[object, ...], hit: frozenset[int] | set[int]) -> dict[int, int]:
    """Row → the row an aimed shot names for it (11.1 reading): the lowest intact visible row of the same kind,
    role and weapon; only intact visible rows are keys."""
    out: dict[int, int] = {}
    first: dict[tuple[str, str, str], int] = {}
    for r, raw in zip(rows, sheet_rows, strict=True):
        if r.index in hit or r.kind in ("ammunition", "fuel_tank"):
            continue
        key = (r.kind, r.role, str(getattr(raw, "weapon", "")))
        out[r.index] = first.setdefault(key, r.index)
    return out


def _alike(st: GameState, tables: Tables, target: Unit) -> dict[int, int]:
    """:func:`alike` for the target's sheet and rows hit, found once per listing (read only)."""
    tsheet = tables.sheets[target.type]
    make = lambda: alike(sheets.rows(tsheet), tsheet.rows, set(status(target).rows_hit))  # noqa: E731
    return kept(st, ("alike", target.id), make, target)


def _aimed(st: GameState, tables: Tables, firer: Unit, order: Order, base: Aim) -> Volley | Refused:
    """11.1: a single weapon's single roll at +5; the first point strikes the row named."""
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[base.mount]
    if base.shot.weapon.burst or (m.mount == "carried" and attack.ready_weapons(tables, firer, base.mount) > 1):
        return Refused(
            f"Cannot aim the {order.label}: an aimed shot is one weapon's single roll, not a burst or a pool", "11.1"
        )
    target = st.units[str(order.target)]
    tsheet = tables.sheets[target.type]
    if order.row is None:
        return Refused("Cannot aim: name the row to aim at (fire UNIT TARGET WEAPON aimed ROW)", "11.1")
    row = next((r for r in sheets.rows(tsheet) if r.index == order.row), None)
    if row is None:
        return Refused(f"Cannot aim at row {order.row}: {target.id} has rows 1 to {len(tsheet.rows)}", "11.1")
    try:
        check_aimed_row(row)
    except IllegalActionError as e:
        return Refused(str(e.args[0]), e.rule or "11.1")
    names = _alike(st, tables, target)
    if row.index not in names:
        return Refused(f"Cannot aim at row {row.index} of {target.id}: it is already hit", "11.1")
    if names[row.index] != row.index:
        return Refused(
            f"Cannot aim at row {row.index} of {target.id}: it is like row {names[row.index]} ({row.role}); aim at "
            f"row {names[row.index]}",
            "11.1",
        )
    aimed = replace(base, shot=_varied(base.shot, aimed=True, pooled=1))
    return _possible(aimed) or Volley((aimed,), (base.mount,), row=row.index)


def _bundle(st: GameState, tables: Tables, firer: Unit, order: Order) -> Volley | Refused:
    """11.5: every mount of the weapon key that may fire at the target, as one roll (at least 2)."""
    sheet = tables.sheets[firer.type]
    same = [i for i, m in enumerate(sheet.mounts) if m.weapon.lower() == order.label.lower()]
    if len(same) < 2:
        return Refused(
            f"Cannot fire bundled: name a weapon key of which {firer.id} has two or more mounts "
            f"(it has {', '.join(mount_label(sheet, i) for i in range(len(sheet.mounts)))})",
            "11.5",
        )
    if order.ammo is not None or order.row is not None:
        return Refused("Cannot fire bundled with a round or a row named: bundled weapons fire their own", "11.5")
    aims: list[Aim] = []
    first: Refused | None = None
    for i in same:
        got = attack.shot(st, tables, firer, str(order.target), mount_label(sheet, i))
        if isinstance(got, Refused):
            first = first or got
        else:
            aims.append(got)
    if len(aims) < 2:
        why = f" ({first.text})" if first is not None else ""
        return Refused(f"Cannot fire bundled: fewer than 2 {order.label} of {firer.id} can fire at it{why}", "11.5")
    lead = aims[0]
    bundle = replace(lead, shot=replace(lead.shot, pooled=1, bundled=len(aims)))
    return _possible(bundle) or Volley((bundle,), tuple(a.mount for a in aims))


def _sustained(st: GameState, tables: Tables, firer: Unit, order: Order, base: Aim) -> Volley | Refused:
    """11.6: the heavy MG of an infantry unit that did not move, its only fire; the target's hex on its level."""
    s = status(firer)
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[base.mount]
    doubled = order.option == "doubled"
    try:
        check_sustained(
            base.shot.weapon, infantry=sheet.unit_type == "infantry", moved=has_moved(Fraction(s.half_mp, 2))
        )
        cost, _ = sustained_rules_shots(base.shot.weapon, doubled=doubled)
    except IllegalActionError as e:
        return Refused(str(e.args[0]), e.rule or "11.6")
    if order.row is not None:
        return Refused("Cannot fire: a row is named only for an aimed shot", "11.1")
    if s.fired:
        return Refused(f"Cannot fire sustained: {firer.id} has fired other weapons this phase", "11.6")
    left = m.ammo.get(base.ammo, 0) - s.spent.get(f"{base.mount}.{base.ammo}", 0)
    if left < cost:
        return Refused(f"Cannot fire sustained: it needs {cost} rules shots, the {order.label} has {left}", "11.6")
    target = st.units[str(order.target)]
    assert firer.hex is not None and target.hex is not None
    if target.hex == firer.hex:
        return Refused(f"Cannot fire sustained at {target.id}: a line needs a hex other than the MG's own", "11.6")
    if st.board.level(target.hex) != st.board.level(firer.hex):
        return Refused(f"Cannot fire sustained at {target.id}: its hex is not on the MG's level", "11.6")
    hexes = line_hexes(st, tables, firer, target.hex, base.shot.weapon.long_max)
    return Volley((base,), (base.mount,), line=hexes, doubled=doubled)


# --- The sustained-fire line (11.6) -------------------------------------------------------------------------------


def _along(a: Hex, b: Hex, steps: int) -> Iterator[Hex]:
    """The hexes 1 … ``steps`` along the line from ``a`` through ``b`` (cube interpolation, nudged like
    ``engine.hexgrid.hex_line``)."""
    n = distance(a, b)
    eps = (1e-6, 2e-6, -3e-6)
    for i in range(1, steps + 1):
        t = i / n
        q = a.q + (b.q - a.q) * t + eps[0]
        r = a.r + (b.r - a.r) * t + eps[1]
        s = -a.q - a.r + ((-b.q - b.r) - (-a.q - a.r)) * t + eps[2]
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        yield Hex(int(rq), int(rr))


def line_hexes(st: GameState, tables: Tables, mg: Unit, through: Hex, reach: int) -> tuple[Hex, ...]:
    """The hexes a sustained-fire line attacks (11.6): along the line from the MG's hex through ``through`` out to
    ``reach`` hexes, those on the MG's level; lower ones are passed over (P), the line ends before the first higher
    hex or at the map's edge."""
    assert mg.hex is not None
    board = st.board
    own = board.level(mg.hex)
    out: list[Hex] = []
    for h in _along(mg.hex, through, reach):
        if h not in board or board.level(h) > own:
            break
        if board.level(h) == own:
            out.append(h)
    return tuple(out)


def line_covers(st: GameState, unit: Unit, where: Hex) -> bool:
    """Whether ``unit``'s sustained-fire line (11.6) covers the hex ``where`` now (for the movement interrupt of
    3.2, step 2: a unit moving into or through it is attacked, once per activation, P)."""
    s = status(unit)
    return bool(s.line) and where in s.line and unit.hex is not None and not s.destroyed and not s.shaken


def line_aim(st: GameState, tables: Tables, mg: Unit, target: Unit) -> Aim | Refused:
    """The attack a unit in ``mg``'s sustained-fire line takes (11.6): a normal hit roll with the range of its hex,
    no burst, with the target's die as it stands; resolve it with ``fire.sustained_attack`` (``doubled`` from
    ``Status.line_doubled``). Refused when the MG cannot reach it (range, LOS, TN above 20)."""
    s = status(mg)
    if s.line_mount < 0:
        return Refused(f"{mg.id} has no sustained-fire line", "11.6")
    return attack.line_shot(st, tables, mg, target, s.line_mount)


def _line_targets(st: GameState, mg: Unit, line: tuple[Hex, ...]) -> list[Unit]:
    """The units a line attacks (11.6): every friendly unit, and every enemy unit, in its hexes (the caller checks
    sighting); not those carried, not the destroyed."""
    out = []
    for h in line:
        for u in sorted(st.units.values(), key=lambda u: u.id):
            us = status(u)
            if u.hex == h and not (us.destroyed or us.embarked_in or us.towed_by) and u.id != mg.id:
                out.append(u)
    return out


# --- What a unit may fire ---------------------------------------------------------------------------------------


def fire_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Every ``fire`` the unit may make now, options included where they differ (a named round only where the
    weapon has several, aimed only for single rolls, bundled where two mounts can, sustained for heavy MGs)."""
    out: list[Action] = []
    s = status(unit)
    if unit.hex is None or not s.may_fire or s.fire_done:
        return out
    sheet = tables.sheets[unit.type]
    for tid in sorted({*s.sighted, *s.shared}):
        for i in range(len(sheet.mounts)):
            out += _variants(st, tables, unit, tid, mount_label(sheet, i))
        out += _bundles(st, tables, unit, tid)
    out += artillery.indirect_actions(st, tables, unit)
    out += demolition.actions(st, tables, unit)
    return out


def _ok(st: GameState, tables: Tables, order: Order) -> bool:
    return not isinstance(ready(st, tables, order), Refused)


def _variants(st: GameState, tables: Tables, unit: Unit, tid: str, label: str) -> list[Action]:
    """The unit's shots with weapon ``label`` at ``tid``: plain, each round where it has several, rapid, aimed
    at each row that differs, sustained; the same answers as :func:`ready` gives, from one aim."""
    if attack.beyond(st, tables, unit, tid, label) or artillery.is_indirect(st, tables, unit, tid, label):
        return []
    base = attack.shot(st, tables, unit, tid, label)
    if isinstance(base, Refused):
        return []
    s = status(unit)
    m = tables.sheets[unit.type].mounts[base.mount]
    weapon = tables.weapons[m.weapon]
    aims: list[tuple[tuple[str, ...], Aim]] = [((), base)]
    if len(m.ammo) > 1:
        for k in m.ammo:
            if not weapon.ammo[k].smoke and s.spent.get(f"{base.mount}.{k}", 0) < m.ammo[k]:
                aims.append(((k,), replace(base, ammo=k, shot=_varied(base.shot, ammo=sheets.ammo(weapon.ammo[k])))))
    modes = (s.rapid,) if s.fired else (False, True)
    out: list[Action] = []
    for words, aim in aims:
        for rapid in modes:
            if not isinstance(_pooled(tables, unit, aim, rapid=rapid), Refused):
                out.append(Action("fire", (unit.id, tid, label, *words, *(("rapid",) if rapid else ()))))
    if s.fired and s.rapid:
        return out
    target = st.units[tid]
    rows = sorted(set(_alike(st, tables, target).values()))
    if rows and not isinstance(
        _aimed(st, tables, unit, Order(unit.id, tid, label, None, "aimed", rows[0]), base), Refused
    ):
        out += [Action("fire", (unit.id, tid, label, "aimed", str(r))) for r in rows]
    for line in ("sustained", "doubled") if base.shot.weapon.heavy else ():
        if not isinstance(_sustained(st, tables, unit, Order(unit.id, tid, label, None, line), base), Refused):
            out.append(Action("fire", (unit.id, tid, label, line)))
    return out


def _has_bundle(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether the unit has a bundled shot (11.5) now: bundling may ease a roll no single mount could make."""
    sheet = tables.sheets[unit.type]
    if len({m.weapon for m in sheet.mounts}) == len(sheet.mounts):
        return False
    s = status(unit)
    return any(_bundles(st, tables, unit, tid) for tid in sorted({*s.sighted, *s.shared}))


attack.SHOT_SOURCES.append(_has_bundle)


def _bundles(st: GameState, tables: Tables, unit: Unit, tid: str) -> list[Action]:
    sheet = tables.sheets[unit.type]
    keys = sorted({m.weapon for m in sheet.mounts if sum(1 for x in sheet.mounts if x.weapon == m.weapon) > 1})
    return [
        Action("fire", (unit.id, tid, key, "bundled"))
        for key in keys
        if _ok(st, tables, Order(unit.id, tid, key, None, "bundled"))
    ]


# --- Resolution ------------------------------------------------------------------------------------------------


def resolve(tr: Transition, tables: Tables, order: Order) -> None:
    """Make the order's fire with the game's dice, record it, and pass on when the unit is done (3.2 3b)."""
    st = tr.state
    firer = st.units[order.unit]
    got = taken(st, ("ready", order), lambda: ready(st, tables, order))  # as its check found
    assert not isinstance(got, Refused)
    data(st).active = firer.id
    if isinstance(got, Volley) and not got.line and not isinstance(order.target, Hex):
        again = _armour_morale(tr, tables, firer, st.units[order.target], order, got)
        if again is None:
            if status(firer).destroyed or not attack.has_shot(st, tables, firer):
                attack.end_fire_unit(tr, tables, firer)
            return
        got = again
    if isinstance(got, artillery.Salvo):
        artillery.fire(tr, tables, firer, got)
    elif isinstance(got, demolition.Demolition):
        demolition.fire(tr, tables, firer, got)
    elif got.line:
        _fire_line(tr, tables, firer, order, got)
    else:
        _fire_volley(tr, tables, firer, order, got)
    if not attack.has_shot(st, tables, firer) or got_line(got):
        attack.end_fire_unit(tr, tables, firer)


def _armour_morale(
    tr: Transition, tables: Tables, firer: Unit, target: Unit, order: Order, got: Volley
) -> Volley | None:
    """9.3: infantry firing at an armoured vehicle in its hex or next to it rolls morale first (once a turn); shaken,
    it fires at +5 (the order made ready again; if that TN is above 20 the shot is not made); dissolved, not at
    all. None when no shot is made."""
    if not attack.armour_morale_due(tr.state, tables, firer, target):
        return got
    result = attack.armour_morale(tr, tables, firer, target)
    if result == "dissolved":
        return None
    again = ready(tr.state, tables, order)
    if isinstance(again, Refused):
        tr.emit("fire", f"{firer.id} cannot make the shot now: {again.text} (rule {again.rule})", unit=firer.id)
        return None
    assert isinstance(again, Volley)
    return again


def got_line(got: Volley | artillery.Salvo | demolition.Demolition) -> bool:
    """Sustained fire is the unit's only fire of the phase (11.6)."""
    return isinstance(got, Volley) and bool(got.line)


def _fire_volley(tr: Transition, tables: Tables, firer: Unit, order: Order, volley: Volley) -> None:
    st = tr.state
    s = status(firer)
    target = st.units[str(order.target)]
    s.rapid = order.option == "rapid"
    word = f" ({order.option})" if order.option else ""
    for aim in volley.aims:
        now = replace(aim, target=hits.target_of(st, tables, target))
        to_hit = hit_roll(now.shot)
        explain = to_hit.explain()
        size = f"{now.shot.pooled} {now.shot.weapon.key}" if now.shot.pooled > 1 else order.label
        if now.shot.bundled > 1:
            size = f"{now.shot.bundled} {now.shot.weapon.key} bundled"

        def roller(
            sides: int, count: int, purpose: str, size: str = size, explain: str = explain, tn: int = to_hit.tn
        ) -> tuple[int, ...]:
            if purpose == "hit roll":
                what = f"{firer.id} fires {size}{word} at {target.id}: {explain}"
                return tr.roll(sides, count, what, target=tn, compare="at_least")
            return tr.roll(sides, count, f"{firer.id} at {target.id}: {purpose}")

        result = resolve_attack(now.shot, now.target, now.column, roller, burst=now.weapon_burst, aimed_row=volley.row)
        for index in volley.mounts:
            key = f"{index}.{now.ammo}"
            s.spent[key] = s.spent.get(key, 0) + len(result.rolls)
        s.fired_dk = max(s.fired_dk, now.shot.ammo.dk)
        rolls = ", ".join(f"{o.roll}" + (" jam" if o.jammed else " hit" if o.hit else " miss") for o in result.rolls)
        aimed = f" aimed at row {volley.row}" if volley.row is not None else ""
        tr.emit(
            "fire",
            f"{firer.id} fires {size}{word}{aimed} ({now.ammo}) at {target.id}: {rolls} against {explain} (rule 6.8)",
            unit=firer.id,
        )
        if result.jammed:
            attack.jam(tr, tables, firer, volley.mounts[0], mount_label(tables.sheets[firer.type], volley.mounts[0]))
        attack.record_damage(tr, tables, target, result.rows_hit, now.column)
        hits.carried_damage(tr, tables, target, result.hits, attack.record_damage)
        hits.near_misses(tr, tables, target, now.shot, result.building_hits)
        attack.flamed(tables, target, tables.sheets[firer.type].mounts[volley.mounts[0]].weapon)  # 9.3
    s.fired.extend(volley.mounts)


def _fire_line(tr: Transition, tables: Tables, firer: Unit, order: Order, volley: Volley) -> None:
    """11.6: every unit in the line, friend or sighted enemy (unsighted enemies may be sighted first), is attacked."""
    st = tr.state
    s = status(firer)
    base = volley.aims[0]
    cost, _ = sustained_rules_shots(base.shot.weapon, doubled=volley.doubled)
    key = f"{base.mount}.{base.ammo}"
    s.spent[key] = s.spent.get(key, 0) + cost
    s.fired.append(base.mount)
    s.rapid = False
    s.fired_dk = max(s.fired_dk, base.shot.ammo.dk)
    s.line, s.line_mount, s.line_doubled = list(volley.line), base.mount, volley.doubled
    where = " ".join(st.board.label(h) for h in volley.line)
    kind = f"{'doubled ' if volley.doubled else ''}sustained fire ({cost} rules shots)"  # 11.6: from fire.toml
    tr.emit("fire", f"{firer.id} lays {kind} with its {order.label} along {where} (rule 11.6)", unit=firer.id)
    for u in _line_targets(st, firer, volley.line):
        if u.side != firer.side and u.id not in s.sighted and not sighting.check(tr, tables, firer, u):
            continue
        got = line_aim(st, tables, firer, u)
        if isinstance(got, Refused):
            continue
        _line_attack(tr, tables, firer, u, got, volley.doubled)


def _line_attack(tr: Transition, tables: Tables, firer: Unit, target: Unit, aim: Aim, doubled: bool) -> None:
    line_volley(
        tr,
        tables,
        firer,
        target,
        aim,
        doubled,
        rolled=f"{firer.id}'s sustained fire at {target.id}",
        said=f"{target.id} in the line of {firer.id}",
    )


def line_volley(
    tr: Transition,
    tables: Tables,
    firer: Unit,
    target: Unit,
    aim: Aim,
    doubled: bool,
    *,
    rolled: str,
    said: str,
    announce_end: bool = False,
) -> None:
    """One unit in a sustained-fire line takes its attack (11.6), in the Fire Phase or while moving into the line
    (``lines.py``): the rolls (logged as ``rolled``), the hits (``said``), a jam that ends the line (said so when
    ``announce_end``), the damage and what it does to a group carried."""
    to_hit = hit_roll(replace(aim.shot, rapid=False, pooled=1, bundled=1))
    explain = to_hit.explain()

    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        if purpose == "sustained fire":
            return tr.roll(sides, count, f"{rolled}: {explain}", target=to_hit.tn, compare="at_least")
        return tr.roll(sides, count, f"{firer.id} at {target.id}: {purpose}")

    result = sustained_attack(aim.shot, aim.target, aim.column, roller, doubled=doubled)
    parts = [f"{o.roll}: " + ("jam" if o.jammed else f"{sustained_hits(o)} hits") for o in result.rolls]
    tr.emit("fire", f"{said}: {', '.join(parts)} against {explain} (rule 11.6)", unit=target.id)
    if result.jammed:
        attack.jam(tr, tables, firer, aim.mount, mount_label(tables.sheets[firer.type], aim.mount))
        status(firer).line = []
        if announce_end:
            tr.emit("line", f"The sustained-fire line of {firer.id} ends: its MG jammed (rule 11.6)", unit=firer.id)
    attack.record_damage(tr, tables, target, result.rows_hit, aim.column)
    hits.carried_damage(tr, tables, target, result.hits, attack.record_damage)


# --- Odds ---------------------------------------------------------------------------------------------------------


def odds(st: GameState, tables: Tables, action: Action, order: Order) -> Odds | None:
    """Exact odds of a ``fire`` with its options: the first roll's hit chance with every modifier, penetration and
    damage (aimed: at the chosen row; sustained: the hits the named target takes)."""
    got = ready(st, tables, order)
    if isinstance(got, Refused):
        return None
    if isinstance(got, artillery.Salvo):
        return artillery.odds(st, tables, action, got)
    if isinstance(got, demolition.Demolition):
        return demolition.odds(action, got)
    first = got.aims[0]
    if got.line:
        return _line_odds(action, first, got.doubled)
    odds_of = _aimed_odds(first, got.row) if got.row is not None else shot_odds(first.shot, first.target, first.column)
    firer = st.units[order.unit]
    morale = None if got.line else attack.armour_morale_odds(st, tables, firer, st.units[str(order.target)])
    note = odds_of.to_hit.explain() + f"; hits the {first.column}, {first.ammo}"
    if got.row is not None:
        note += f"; aimed at row {got.row}"
    rest = [a.shot.pooled for a in got.aims[1:]]
    if rest:
        note += "; then " + ", ".join(f"a pool of {n}" if n > 1 else "1 single roll" for n in rest)
    if first.shot.rapid or (first.weapon_burst and first.shot.weapon.burst):
        note += "; every roll repeated (burst or rapid fire)"
    if morale is None:
        return Odds(action, tuple(odds_of.entries()), note=note)
    shaken = replace(first, shot=replace(first.shot, shaken=True))
    odds_shaken = (
        _aimed_odds(shaken, got.row) if got.row is not None else shot_odds(shaken.shot, shaken.target, shaken.column)
    )
    note += "; infantry firing at armour this close rolls morale first (rule 9.3)"
    return Odds(action, attack.weigh_morale(odds_of, odds_shaken, morale), note=note)


def _aimed_odds(aim: Aim, row: int) -> ShotOdds:
    """The odds of an aimed single roll (11.1): the first point on ``row``, its armour (half on a track/axle)."""
    to_hit = hit_roll(aim.shot)
    o = to_hit.odds()
    target: Target = aim.target
    kind = next(r.kind for r in target.rows if r.index == row)
    location = Location(kind, (row,))
    armour = armour_used(target, aim.column, location)
    damage: dict[int, Fraction] = {}
    penetrate = Fraction(0)
    for roll, p in TWO_D10.items():
        outcome = to_hit.outcome(roll)
        amount = 0
        if outcome.hit:
            dk, _ = effective_dk(aim.shot.ammo.dk, outcome_band(aim.shot), roll=roll, tn=to_hit.tn)
            if target.unit_type == "infantry":
                amount = infantry_damage(he=aim.shot.ammo.he, margin=outcome.margin)
            else:
                got = vehicle_damage(dk, armour, he=aim.shot.ammo.he, is_ap=aim.shot.ammo.is_ap)
                amount = got.amount if got.penetrates else 0
        damage[amount] = damage.get(amount, Fraction(0)) + p
        penetrate += p if amount else 0
    return ShotOdds(to_hit, o["hit"], o["jam"], penetrate, dict(sorted(damage.items())), {kind: Fraction(1)})


def _line_odds(action: Action, aim: Aim, doubled: bool) -> Odds:
    """The first roll of sustained fire at the named target (11.6): jam, miss, or 1 + margin hits."""
    to_hit = hit_roll(replace(aim.shot, rapid=False, pooled=1, bundled=1))
    out: dict[str, Fraction] = {}
    for roll, p in TWO_D10.items():
        o: RollOutcome = to_hit.outcome(roll)
        name = "jam" if o.jammed else f"{sustained_hits(o)} hits" if o.hit else "miss"
        out[name] = out.get(name, Fraction(0)) + p
    entries = [OddsEntry(k, v, float(k.split()[0]) if k.endswith("hits") else 0.0) for k, v in out.items()]
    note = to_hit.explain() + "; each hit a normal hit; every unit in the line takes such a roll"
    if doubled:
        note += ", twice (doubled)"
    return Odds(action, tuple(entries), note=note)
