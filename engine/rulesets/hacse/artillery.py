"""Provides indirect fire (§7) as ``fire`` actions of Phase 3b, on the calculators of ``indirect.py``.

- **With sight (7.2)**: ``fire UNIT TARGET WEAPON [AMMO]`` with a weapon that fires only indirectly (the mortar), or
  a cannon (fire mode ``both``) without LOS or sight of its own: the target must be sighted by the firer or by a
  friendly unit it can communicate with (10.1; that unit passes the sighting, 10.3: a send and a receive, +1). The
  hit roll is at +2, from above, doubled ranges for cannons (7.1), possible up to TN 40; a miss with 2 × roll ≥ TN
  checks random hits in the hex (7.3).
- **Without sight (7.4)**: ``fire UNIT HEX WEAPON [AMMO]``: TN = base number + 10 (+1 relay, + the firer's moved and
  shaken); a missed hex scatters one hex beyond (even d10) or short (odd) along the line from the firer; the
  shell's random hits are checked where it lands (burst weapons: 2 × HE, 2 rules shots). Allowed when the hex or 3
  of its neighbours could be seen (sighting TN ≤ 20 from the firer, or from a unit it communicates with: +1 relay),
  the firer communicates with a map station, or an enemy unit there has fired this turn or last.
- **Smoke (7.1)**: a smoke round is fired at a hex by the same procedure; it does no damage and puts smoke there for
  its HE value in turns (``Data.smoke``, counted down in the End Phase, step 8).

Readings (README): hex fire is offered at the hexes of known enemy units and at the objective hexes the side does not
control, with or without a known enemy there (and only with smoke where an enemy there is sighted: fire at the unit
then, 7.2), and at any hex meeting 7.4 once the side has played ``shell`` (``shelling.py``, :func:`aiming`); a
natural 2 jams the weapon (6.6) and the shell has no effect (7.2 P); random hits strike any unit in
the hex, of either side (7.3 INTERP); ballistic fire takes no intervening terrain or vehicles.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.events import Modifier
from engine.hexgrid import Hex, distance
from engine.odds import Odds, OddsEntry
from engine.rules import Transition
from engine.state import GameState, Unit

from . import attack, fires, hits, searchlights, sheets
from .attack import mount_label
from .bridges import terrain_of
from .cache import kept, remember
from .communication import Party, can_communicate, may_send, party
from .damage import Target, range_dk
from .data import Sheet, Tables
from .fire import Shot, hit_roll, range_band, rules_shots
from .firedata import TWO_D10, Roller, chance_at_least, fire_table, mod
from .indirect import (
    HexHits,
    check_without_sight,
    hex_fire,
    indirect_odds,
    random_hit_tn,
    random_hits_in_hex,
    resolve_indirect,
    smoke_turns,
    without_sight_tn,
)
from .model import data, status
from .movement import Refused
from .sighting import aided, rubble_hexes, sight_line, sight_tn, sights, smoke_now
from .targetdie import has_moved
from .weather import condition

__all__ = ["Salvo", "aiming", "fire", "has_indirect_shot", "indirect_actions", "is_indirect", "odds", "ready"]


@dataclass(frozen=True, slots=True)
class Salvo:
    """Indirect fire made ready (7): with sight at a unit (``shot``), or without sight at a hex (``tn``)."""

    firer: str
    mount: int
    label: str
    ammo: str
    hex: Hex
    target: str | None = None
    """The unit fired at with sight (7.2); None for fire at a hex (7.4)."""
    shot: Shot | None = None
    tn: int = 0
    modifiers: tuple[Modifier, ...] = ()
    spotter: str | None = None
    """The friendly unit that passes its sighting to the firer (10.3), if one does."""
    hex_burst: bool = False
    smoke: int = 0
    """Turns of smoke the round leaves (7.1); 0 for a round that does damage."""
    dk_range: int = 0


def _mount(tables: Tables, unit: Unit, label: str) -> int | None:
    sheet = tables.sheets[unit.type]
    return next((i for i in range(len(sheet.mounts)) if mount_label(sheet, i).lower() == label.lower()), None)


def is_indirect(st: GameState, tables: Tables, firer: Unit, target: str | Hex, label: str) -> bool:
    """Whether this ``fire`` is indirect (7.1): at a hex; with a weapon that fires only indirectly; or with a cannon
    that fires both ways at a unit it has neither sighted nor in its line of sight (found once per listing)."""
    if isinstance(target, Hex):
        return True
    return kept(st, ("indirect", firer.id, target, label), lambda: _indirect(st, tables, firer, target, label), firer)


def _indirect(st: GameState, tables: Tables, firer: Unit, target: str, label: str) -> bool:
    if not _indirect_mounts(tables, firer):
        return False
    index = _mount(tables, firer, label)
    if index is None:
        return False
    mode = tables.weapons[tables.sheets[firer.type].mounts[index].weapon].fire_mode
    if mode != "both":
        return mode == "indirect"
    other = st.units.get(target)
    s = status(firer)
    if other is None or other.hex is None or firer.hex is None or other.side == firer.side:
        return False
    if target not in s.sighted and target not in s.shared:
        return any(target in status(u).sighted for u in st.units.values() if u.side == firer.side)
    return not sight_line(st, tables, firer.hex, other.hex).clear


# --- Why indirect fire may not be made --------------------------------------------------------------------------


Memo = dict[tuple[object, ...], object]
"""What fire at a hex found once for a hex (who sights a unit there, the precondition of 7.4), kept while one unit's
actions are listed (the hex's answer is the same for every weapon and round)."""


def ready(
    st: GameState,
    tables: Tables,
    firer: Unit,
    target: str | Hex,
    label: str,
    ammo: str | None,
    memo: Memo | None = None,
) -> Salvo | Refused:
    """The indirect fire of ``firer``'s weapon ``label`` at ``target`` (a unit id or a hex), or why not."""
    why = attack.phase_refusal(st, tables, firer)
    if why is not None:
        return why
    index = _mount(tables, firer, label)
    if index is None:
        return Refused(f"Cannot fire: {firer.id} has no weapon {label}", "2.3")
    why = _mount_refusal(tables, firer, index)
    if why is not None:
        return why
    return _aimed_at(st, tables, firer, index, target, ammo, memo)


def _mount_refusal(tables: Tables, firer: Unit, index: int) -> Refused | None:
    """Why mount ``index`` may not fire indirectly now (6.8 step 1, 7.1, 2.1), whatever the target."""
    why = attack.weapon_refusal(tables, firer, index, indirect=True)
    if why is not None:
        return why
    sheet = tables.sheets[firer.type]
    weapon = tables.weapons[sheet.mounts[index].weapon]
    if weapon.fire_mode == "direct":
        return Refused(f"Cannot fire indirectly: the {mount_label(sheet, index)} fires only directly", "7.1")
    if sheet.unit_type == "gun" and status(firer).hexes:
        return Refused(f"Cannot fire: {firer.id} is a gun that changed hex this turn", "2.1")
    return None


def _aimed_at(
    st: GameState, tables: Tables, firer: Unit, index: int, target: str | Hex, ammo: str | None, memo: Memo | None
) -> Salvo | Refused:
    kinds = tables.sheets[firer.type].mounts[index].ammo
    if isinstance(target, Hex) and ammo is None and len(kinds) > 1:
        return Refused(f"Cannot fire at a hex without naming the round: {' or '.join(kinds)}", "15.5")
    at_hex = isinstance(target, Hex)  # the same answer for every target (kept per listing)
    akey = kept(st, ("ammo", firer.id, index, ammo, at_hex), lambda: _ammo(tables, firer, index, ammo, at_hex), firer)
    if isinstance(akey, Refused):
        return akey
    if isinstance(target, Hex):
        return _at_hex(st, tables, firer, index, akey, target, {} if memo is None else memo)
    return _at_unit(st, tables, firer, index, akey, target, memo)


def _ammo(tables: Tables, firer: Unit, index: int, ammo: str | None, at_hex: bool) -> str | Refused:
    """The round (15.5): named, else the one with the highest HE; smoke only at a hex; rounds left (a burst weapon
    on a hex spends 2, 7.4 P)."""
    s = status(firer)
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[index]
    weapon = tables.weapons[m.weapon]
    label = mount_label(sheet, index)
    left = {k: n - s.spent.get(f"{index}.{k}", 0) for k, n in m.ammo.items()}
    if ammo is None:
        usable = [k for k in m.ammo if not weapon.ammo[k].smoke and left[k] > 0]
        if not usable:
            return Refused(f"Cannot fire: the {label} of {firer.id} has no ammunition left", "15.5")
        ammo = max(usable, key=lambda k: (weapon.ammo[k].he, weapon.ammo[k].dk or 0))
    if ammo not in m.ammo:
        return Refused(f"Cannot fire: the {label} of {firer.id} has no {ammo} ammunition ({', '.join(m.ammo)})", "15.5")
    if weapon.ammo[ammo].smoke and not at_hex:
        return Refused(f"Cannot fire {ammo} at a unit: smoke rounds are fired at a hex", "7.1")
    need = rules_shots(1, hex_burst=weapon.burst and at_hex)
    if left[ammo] < need:
        return Refused(f"Cannot fire: the {label} of {firer.id} has not {need} {ammo} rounds left", "15.5")
    return ammo


def _spotter(
    st: GameState, tables: Tables, firer: Unit, tid: str, memo: Memo | None = None
) -> tuple[int, str | None] | None:
    """Who gives the firer sight of ``tid`` (7.2, 10.3): itself (0 relays), a sighting it received (+1), or a
    friendly unit that has it sighted and may send to the firer now (+1, that unit's id); None if nobody."""
    if memo is None:
        return _spotter_now(st, tables, firer, tid)
    if ("spotter", tid) not in memo:
        memo[("spotter", tid)] = _spotter_now(st, tables, firer, tid)
    got = memo[("spotter", tid)]
    return got if isinstance(got, tuple) else None


def _spotter_now(st: GameState, tables: Tables, firer: Unit, tid: str) -> tuple[int, str | None] | None:
    s = status(firer)
    if tid in s.sighted:
        return 0, None
    if tid in s.shared:
        return s.shared[tid], None
    assert firer.hex is not None
    me = _party(st, tables, firer)
    for u in _sighters(st, firer.side).get(tid, ()):
        if u.id != firer.id and may_send(_party(st, tables, u), me, status(u).sent, s.received) is None:
            return 1, u.id
    return None


def _sighters(st: GameState, side: str) -> dict[str, list[Unit]]:
    """Unit id → the side's units on the map, not destroyed, that have it sighted, by id (kept per listing)."""

    def make() -> dict[str, list[Unit]]:
        out: dict[str, list[Unit]] = {}
        for u in sorted(st.units.values(), key=lambda u: u.id):
            us = status(u)
            if u.side == side and u.hex is not None and not us.destroyed:
                for tid in us.sighted:
                    out.setdefault(tid, []).append(u)
        return out

    return kept(st, ("sighters", side), make)


def _party(st: GameState, tables: Tables, unit: Unit) -> Party:
    """``communication.party`` of the unit, found once per listing."""
    return kept(st, ("party", unit.id), lambda: party(st, tables, unit), unit)


def _hex_roll(firer: Unit, relays: int) -> tuple[int, tuple[Modifier, ...]]:
    """The TN of fire at a hex (7.4) and its terms: the same for every hex and round of the firer."""
    return without_sight_tn(sheets.base_number(status(firer).experience), relays=relays, firer=_firer_mods(firer))


def _firer_mods(firer: Unit) -> tuple[Modifier, ...]:
    """The firer's own modifiers (7.4 P): moved +2, shaken +5."""
    s = status(firer)
    hit = fire_table().hit
    out = []
    if has_moved(s.half_mp / 2):
        out.append(mod(hit["firer_moved"], "firer moved this turn", "6.3"))
    if s.shaken:
        out.append(mod(hit["shaken"], "firer shaken", "9.5"))
    return tuple(out)


def _band(tables: Tables, firer: Unit, index: int, where: Hex) -> str | Refused:
    assert firer.hex is not None
    key = (id(tables), firer.type, index, distance(firer.hex, where))
    got = _BANDS.get(key)
    if got is None or got[0] is not tables:
        got = _BANDS[key] = (tables, _band_now(tables, firer, index, key[3]))
    return got[1]


_BANDS: dict[tuple[int, str, int, int], tuple[Tables, str | Refused]] = {}
"""Indirect-fire range bands (or why out of range) by tables (kept with each), sheet, mount and distance: all they
depend on."""


def _band_now(tables: Tables, firer: Unit, index: int, dist: int) -> str | Refused:
    weapon = sheets.weapon(tables.weapons[tables.sheets[firer.type].mounts[index].weapon])
    try:
        return range_band(weapon, dist, indirect=True)
    except IllegalActionError as e:
        return Refused(str(e.args[0]), e.rule or "7.1")


def _at_unit(
    st: GameState, tables: Tables, firer: Unit, index: int, akey: str, tid: str, memo: Memo | None = None
) -> Salvo | Refused:
    """7.2: the hit roll at the unit, +2, from above, TN up to 40."""
    target = st.units.get(tid)
    if target is None or target.side == firer.side or target.hex is None or status(target).hidden:
        return Refused(f"Cannot fire: {tid} is not an enemy unit on the map", "6.8")  # hidden: not in the view
    ts = status(target)
    if ts.destroyed:
        return Refused(f"Cannot fire: {tid} is already destroyed", "3.2")
    if ts.embarked_in or ts.towed_by:
        return Refused(f"Cannot fire at {tid}: it is carried by {ts.embarked_in or ts.towed_by}", "4.5")
    seen = _spotter(st, tables, firer, tid, memo)
    if seen is None:
        return Refused(f"Cannot fire at {tid}: neither {firer.id} nor a unit it can communicate with sights it", "7.2")
    band = _band(tables, firer, index, target.hex)
    if isinstance(band, Refused):
        return band
    assert firer.hex is not None
    s = status(firer)
    m = tables.sheets[firer.type].mounts[index]
    shot = Shot(
        base_number=sheets.base_number(s.experience),
        weapon=sheets.weapon(tables.weapons[m.weapon]),
        ammo=sheets.ammo(tables.weapons[m.weapon].ammo[akey]),
        distance=distance(firer.hex, target.hex),
        target_die=attack.die_of(st, tables, target),
        target_infantry=tables.sheets[target.type].unit_type == "infantry",
        firer_moved=has_moved(s.half_mp / 2),
        indirect=True,
        shaken=s.shaken,
        relays=seen[0],
    )
    to_hit = hit_roll(shot)
    if not to_hit.possible:
        return Refused(f"Cannot fire: {to_hit.explain()}, above {to_hit.max_tn}", "7.2")
    dk, _ = range_dk(shot.ammo.dk, to_hit.band)
    label = mount_label(tables.sheets[firer.type], index)
    return Salvo(
        firer.id, index, label, akey, target.hex, tid, shot, to_hit.tn, to_hit.modifiers, seen[1], False, 0, dk
    )


_HEX_TNS: dict[tuple[object, ...], tuple[object, int]] = {}
"""Sighting TNs of hexes already found (:func:`_hex_tn`), by everything they depend on (the board kept with each)."""


def _hex_tn(st: GameState, tables: Tables, observer: Unit, where: Hex, sight: object = None) -> int:
    """The sighting TN of a hex (7.4 P): base number + distance + the terrain of the line and of the hex, from
    ``observer``; 99 without LOS. ``sight``: :func:`_sight_key` of the state, if the caller has it."""
    assert observer.hex is not None
    if where == observer.hex:
        return 0
    base = tables.experience[status(observer).experience].base_number
    glasses = tables.sheets[observer.type].equipment.get("binoculars", 0) > 0
    key = (_sight_key(st, tables) if sight is None else sight, observer.hex, base, glasses, where)
    return remember(_HEX_TNS, key, lambda: _hex_tn_now(st, tables, observer, where), st.board, limit=100_000)


def _sight_key(st: GameState, tables: Tables) -> tuple[object, ...]:
    """What the sighting TN of a hex depends on besides the observer and the hex (7.4 P): the board, blown bridges,
    buildings lost (a hex whose buildings all fell is rubble, 4.9), smoke (where it is, and where it blocks sight
    now: smoke laid in this Fire Phase does not yet, 3.2 P), the turn's condition and, when it is not clear, the
    fires and searchlights that light hexes (6.1: a sighting aid, ``fires.lit``, ``searchlights.lit``)."""
    d = data(st)
    lost = tuple(sorted(d.buildings_lost.items()))
    c = condition(st).name
    lit: list[Hex] = []
    if c != "clear":  # fires and searchlights light hexes (6.1 P)
        lit = sorted({*fires.fire_hexes(st, tables), *searchlights.lit_hexes(st, tables)}, key=lambda h: (h.q, h.r))
    lights = tuple(lit)
    rubble = rubble_hexes(st, tables)  # 3.2 P: rubble of this Attack Phase counts for LOS only after it
    return (id(st.board), tuple(d.blown), lost, rubble, tuple(sorted(d.smoke)), smoke_now(st), c, lights)


def _hex_tn_now(st: GameState, tables: Tables, observer: Unit, where: Hex) -> int:
    assert observer.hex is not None
    line = sight_line(st, tables, observer.hex, where)
    if not line.clear:
        return 99
    key = "smoke" if where in data(st).smoke else terrain_of(st, tables, where).key
    tn, _ = sight_tn(
        base=tables.experience[status(observer).experience].base_number,
        distance=distance(observer.hex, where),
        binoculars=tables.sheets[observer.type].equipment.get("binoculars", 0) > 0,
        terrain=line.obstructing,
        target_terrain=key,
        higher=st.board.level(observer.hex) - st.board.level(where),
        conditions=condition(st),
        lit=aided(st, tables, where, binoculars=tables.sheets[observer.type].equipment.get("binoculars", 0) > 0),
    )
    return tn


def _watchers(st: GameState, tables: Tables, firer: Unit) -> Iterator[tuple[Unit, int]]:
    """The firer (0 relays), then the friendly units it can communicate with (+1, 7.4 P)."""
    yield firer, 0
    me = _party(st, tables, firer)
    for u in sorted(st.units.values(), key=lambda u: u.id):
        us = status(u)
        if u.side != firer.side or u.id == firer.id or u.hex is None or us.destroyed or us.embarked_in:
            continue
        if can_communicate(_party(st, tables, u), me) is None:
            yield u, 1


def _station(st: GameState, tables: Tables, firer: Unit) -> str | None:
    """A map station the firer is, or communicates with (7.4 P), if one is."""
    me = _party(st, tables, firer)
    for u in sorted(st.units.values(), key=lambda u: u.id):
        station = u.side == firer.side and sights(u) and "map_station" in tables.sheets[u.type].traits
        if station and (u.id == firer.id or can_communicate(_party(st, tables, u), me) is None):
            return u.id
    return None


def _precondition(st: GameState, tables: Tables, firer: Unit, where: Hex, memo: Memo) -> tuple[int, str] | None:
    """Which precondition of 7.4 holds (relays, why), or None: the cheap ones (a map station in contact, an enemy
    that fired from the hex) first, then the hex or 3 neighbours in sight of the firer or of a unit it reaches.
    What does not depend on the hex (the map station, the units that look) is kept in ``memo``."""
    if ("station",) not in memo:
        memo[("station",)] = _station(st, tables, firer)
    station = memo[("station",)]
    if isinstance(station, str):
        return 0, f"in contact with the map station {station}"
    shooter = _fired_from(st, firer.side).get(where)
    if shooter is not None:
        return 0, f"{shooter} fired from it"  # a hidden unit is not known to have fired (13.2: the view)
    if ("watchers",) not in memo:
        memo[("watchers",)] = list(_watchers(st, tables, firer))
        memo[("sight",)] = kept(st, ("sight key",), lambda: _sight_key(st, tables))  # once per listing
    watchers = memo[("watchers",)]
    assert isinstance(watchers, list)
    for u, relays in watchers:
        if _could_see(st, tables, u, where, memo[("sight",)]):
            return relays, f"{u.id} could see it"
    return None


def _fired_from(st: GameState, side: str) -> dict[Hex, str]:
    """Hex → the first enemy unit (by id) not hidden that fired from it (7.4 precondition 3), kept per listing."""

    def make() -> dict[Hex, str]:
        out: dict[Hex, str] = {}
        for u in st.units.values():
            us = status(u)
            if u.side != side and u.hex is not None and not us.hidden and max(us.fired_dk, us.fired_dk_last) >= 0:
                out.setdefault(u.hex, u.id)
        return out

    return kept(st, ("fired from", side), make)


_SEEN: dict[tuple[object, ...], tuple[object, bool]] = {}
"""Answers of :func:`_could_see`, by everything they depend on (the board kept with each, as ``_HEX_TNS``)."""


def _could_see(st: GameState, tables: Tables, observer: Unit, where: Hex, sight: object) -> bool:
    """7.4 precondition 1 from ``observer``: ``where`` or at least 3 of its neighbours could be sighted (TN ≤ 20);
    ``sight`` is :func:`_sight_key` of the state. Kept, as the TNs it reads are (the same answer, found once)."""
    base = tables.experience[status(observer).experience].base_number
    glasses = tables.sheets[observer.type].equipment.get("binoculars", 0) > 0
    key = (sight, observer.hex, base, glasses, where)
    kept = _SEEN.get(key)
    if kept is not None and kept[0] is st.board:
        return kept[1]
    if len(_SEEN) >= 100_000:
        _SEEN.clear()
    tn = _hex_tn(st, tables, observer, where, sight)
    around: list[int] = []
    seen = _sightable(tn, around)
    if not seen:  # the neighbours one by one, until enough of them are seen (more can only help: the same answer)
        for n in where.neighbours():
            if n in st.board:
                around.append(_hex_tn(st, tables, observer, n, sight))
                seen = _sightable(tn, around)
                if seen:
                    break
    _SEEN[key] = (st.board, seen)
    return seen


def _sightable(tn: int, around: list[int]) -> bool:
    try:
        check_without_sight(hex_tn=tn, neighbour_tns=around)
    except IllegalActionError:
        return False
    return True


def _sighted_there(st: GameState, tables: Tables, firer: Unit, where: Hex, memo: Memo) -> str | None:
    """An enemy unit in ``where`` that the firer could fire at with sight (7.2), if one is."""
    key = ("sighted", where)
    if key not in memo:
        memo[key] = next(
            (
                u.id
                for u in sorted(st.units.values(), key=lambda u: u.id)
                if u.hex == where
                and u.side != firer.side
                and not status(u).hidden
                and _spotter(st, tables, firer, u.id, memo) is not None
            ),
            None,
        )
    got = memo[key]
    return got if isinstance(got, str) else None


def _at_hex(
    st: GameState, tables: Tables, firer: Unit, index: int, akey: str, where: Hex, memo: Memo
) -> Salvo | Refused:
    """7.4: the hex only, TN = base number + 10 (+ relay, + the firer's own modifiers)."""
    if where not in st.board:
        return Refused("Cannot fire: that hex is off the map", "7.4")
    if where == firer.hex:
        return Refused(f"Cannot fire indirectly at {st.board.label(where)}: it is {firer.id}'s own hex", "7.4")
    if ("known",) not in memo:
        memo[("known",)] = set(_aims(st, firer.side))
    known = memo[("known",)]
    anywhere = memo.get(("anywhere",)) or aiming(st, tables, firer, index, akey)  # 7.4 in two steps (shelling.py)
    if not isinstance(known, set) or (where not in known and not anywhere):
        return Refused(
            f"Cannot fire indirectly at {st.board.label(where)}: fire at a hex is aimed where an enemy unit is known "
            "or at an objective hex the side does not control; shell first to aim at any other hex",
            "7.4",
        )
    band = _band(tables, firer, index, where)
    if isinstance(band, Refused):
        return band
    sheet = tables.sheets[firer.type]
    weapon = tables.weapons[sheet.mounts[index].weapon]
    smoke = weapon.ammo[akey].smoke
    seen = None if smoke else _sighted_there(st, tables, firer, where, memo)
    if seen is not None:
        return Refused(f"Cannot fire at the hex: {seen} there is sighted; fire at it (rule 7.2)", "7.4")
    if ("pre", where) not in memo:
        memo[("pre", where)] = _precondition(st, tables, firer, where, memo)
    why = memo[("pre", where)]
    if not isinstance(why, tuple):
        return Refused(
            f"Cannot fire indirectly at {st.board.label(where)}: neither it nor 3 of its neighbours can be seen, no "
            "map station is in contact and nobody fired from it",
            "7.4",
        )
    relays, _ = why
    tn, mods = kept(st, ("without sight", firer.id, relays), lambda: _hex_roll(firer, relays), firer)
    ammo = sheets.ammo(weapon.ammo[akey])
    dk, _ = range_dk(ammo.dk, band)
    turns = smoke_turns(ammo)
    label = mount_label(sheet, index)
    return Salvo(firer.id, index, label, akey, where, None, None, tn, mods, None, weapon.burst, turns, dk)


def aiming(st: GameState, tables: Tables, firer: Unit, index: int, ammo: str) -> bool:
    """Whether the side chooses the hex of this weapon's and round's ``shell`` now (7.4: any hex meeting the
    preconditions, ``shelling.py``)."""
    aim = data(st).shelling
    return bool(aim) and aim[0] == firer.id and aim[2] == ammo and _mount(tables, firer, aim[1]) == index


# --- What a unit may fire indirectly ------------------------------------------------------------------------------


def _known(st: GameState, side: str) -> list[Hex]:
    """The hexes of the enemy units the side knows of (on the map, not hidden, 13.2), in a fixed order (kept per
    listing; a new list each time)."""
    return list(kept(st, ("known", side), lambda: _known_now(st, side)))


def _known_now(st: GameState, side: str) -> list[Hex]:
    return sorted(
        {
            u.hex
            for u in st.units.values()
            if u.side != side and u.hex is not None and not (status(u).hidden or status(u).destroyed)
        },
        key=lambda h: (h.q, h.r),
    )


def _aims(st: GameState, side: str) -> list[Hex]:
    """The hexes fire at a hex may be aimed at (7.4, README reading): those of the enemy units the side knows of,
    and the objective hexes (15.9) the side does not control, with or without a known enemy, in a fixed order."""
    d = data(st)
    known = set(_known(st, side)) | {h for h in d.points if d.control.get(h) != side}
    return sorted(known, key=lambda h: (h.q, h.r))


def _indirect_mounts(tables: Tables, unit: Unit) -> list[int]:
    sheet = tables.sheets[unit.type]
    got = _MOUNTS.get(id(sheet))
    if got is None or got[0] is not sheet:
        mounts = [i for i, m in enumerate(sheet.mounts) if tables.weapons[m.weapon].fire_mode in ("indirect", "both")]
        got = _MOUNTS[id(sheet)] = (sheet, tuple(mounts))
    return list(got[1])


_MOUNTS: dict[int, tuple[Sheet, tuple[int, ...]]] = {}
"""The mounts of each sheet (kept with it) that fire indirectly (7.1)."""


def _each(st: GameState, tables: Tables, unit: Unit) -> Iterator[Action]:
    s = status(unit)
    mounts = _indirect_mounts(tables, unit)
    if unit.hex is None or not s.may_fire or s.fire_done or not mounts:
        return
    sheet = tables.sheets[unit.type]
    seen = sorted({t for u in st.units.values() if u.side == unit.side for t in status(u).sighted} | {*s.shared})
    known = _aims(st, unit.side)
    memo: Memo = {}
    if attack.phase_refusal(st, tables, unit) is not None:
        return
    for i in mounts:
        if _mount_refusal(tables, unit, i) is not None:
            continue
        label = mount_label(sheet, i)
        kinds = list(sheet.mounts[i].ammo)
        words: list[tuple[str, ...]] = [(), *((k,) for k in kinds)] if len(kinds) > 1 else [()]
        for tid in seen:
            if not is_indirect(st, tables, unit, tid, label):
                continue
            for w in words:
                if not isinstance(_aimed_at(st, tables, unit, i, tid, w[0] if w else None, memo), Refused):
                    yield Action("fire", (unit.id, tid, label, *w))
        for h in known:
            for w in words if len(kinds) == 1 else words[1:]:  # at a hex the round is named (15.5, README)
                if not isinstance(_aimed_at(st, tables, unit, i, h, w[0] if w else None, memo), Refused):
                    yield Action("fire", (unit.id, st.board.label(h), label, *w))


def indirect_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Every indirect ``fire`` the unit may make now: at units sighted by its side, at the hexes of known enemy
    units and at the objective hexes it does not control (7.4); a named round where the weapon has several."""
    return list(_each(st, tables, unit))


def has_indirect_shot(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether the unit has an indirect shot now (the first found ends the search)."""
    return next(_each(st, tables, unit), None) is not None


attack.SHOT_SOURCES.append(has_indirect_shot)


# --- Resolution ----------------------------------------------------------------------------------------------------


def _victims(st: GameState, where: Hex) -> list[Unit]:
    """The units a random hit may strike in a hex (7.3): not carried, not wrecks; of either side (INTERP)."""
    return [
        u
        for u in sorted(st.units.values(), key=lambda u: u.id)
        if u.hex == where and not (status(u).destroyed or status(u).embarked_in or status(u).towed_by)
    ]


def _targets(st: GameState, tables: Tables, units: list[Unit]) -> list[Target]:
    return [hits.target_of(st, tables, u) for u in units]


def _along(a: Hex, b: Hex, steps: int) -> Hex:
    """The hex ``steps`` hexes from ``a`` along the line through ``b`` (scatter, 7.4)."""
    n = distance(a, b)
    t = steps / n
    q = a.q + (b.q - a.q) * t + 1e-6
    r = a.r + (b.r - a.r) * t + 2e-6
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def fire(tr: Transition, tables: Tables, firer: Unit, salvo: Salvo) -> None:
    """Make the indirect fire with the game's dice and record it: rounds, a jam, the hits, the random hits, smoke."""
    st = tr.state
    s = status(firer)
    if salvo.spotter is not None and salvo.target is not None:  # 10.3: the sighting is passed on, a send and receive
        spotter = st.units[salvo.spotter]
        status(spotter).sent += 1
        s.received += 1
        s.shared[salvo.target] = 1
        tr.emit(
            "message", f"{spotter.id} passes its sighting of {salvo.target} to {firer.id} (rule 10.3)", (firer.side,)
        )
    s.fired.append(salvo.mount)
    s.rapid = False  # 11.2: indirect fire is not rapid; the unit's other shots this phase are not either
    if salvo.shot is not None:
        _with_sight(tr, tables, firer, salvo)
    else:
        _without_sight(tr, tables, firer, salvo)


def _readers(st: GameState, units: list[Unit]) -> tuple[str, ...] | None:
    """Who may read a random-hit check among ``units`` (13.2): its TN counts every group in the hex, so only the
    sides that know them all (a hidden unit is known to its side only); None: everybody."""
    hidden = {u.side for u in units if status(u).hidden}
    return None if not hidden else tuple(s for s in st.sides if hidden <= {s})


def _roller(
    tr: Transition, who: str, where: str, rtn: int, explain: str, tn: int, readers: tuple[str, ...] | None = None
) -> Roller:
    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        if purpose in ("hit roll", "hit roll on the hex"):
            return tr.roll(sides, count, f"{who} fires indirectly at {where}: {explain}", target=tn, compare="at_least")
        if purpose == "random-hit roll":
            text = f"random hit in {where}: TN {rtn} = 25 − HE − groups (rule 7.3)"
            return tr.roll(sides, count, text, target=rtn, compare="at_least", visible_to=readers)
        if purpose == "scatter":
            return tr.roll(sides, count, f"{who} at {where}: {purpose} (rule 7.4)")
        return tr.roll(sides, count, f"{who} at {where}: {purpose} (rule 7.3)", visible_to=readers)  # 13.2

    return roller


def _spend(firer: Unit, salvo: Salvo, rolls: int) -> None:
    s = status(firer)
    key = f"{salvo.mount}.{salvo.ammo}"
    s.spent[key] = s.spent.get(key, 0) + rolls


def _with_sight(tr: Transition, tables: Tables, firer: Unit, salvo: Salvo) -> None:
    """7.2: the attack on the unit and the random hits of its near misses, each recorded."""
    st = tr.state
    assert salvo.shot is not None and salvo.target is not None
    units = _victims(st, salvo.hex)
    index = next(i for i, u in enumerate(units) if u.id == salvo.target)
    rtn = random_hit_tn(he=salvo.shot.ammo.he, groups=len(units))
    explain = hit_roll(salvo.shot).explain()
    roller = _roller(tr, firer.id, salvo.target, rtn, explain, salvo.tn, _readers(st, units))
    got = resolve_indirect(salvo.shot, _targets(st, tables, units), index, roller, groups=len(units), burst=True)
    _spend(firer, salvo, len(got.attack.rolls))
    status(firer).fired_dk = max(status(firer).fired_dk, salvo.shot.ammo.dk)
    rolls = ", ".join(f"{o.roll}" + (" jam" if o.jammed else " hit" if o.hit else " miss") for o in got.attack.rolls)
    tr.emit(
        "fire",
        f"{firer.id} fires its {salvo.label} ({salvo.ammo}) indirectly at {salvo.target}: {rolls} against "
        f"{explain}; a miss reaching half the TN checks random hits (rule 7.2)",
        unit=firer.id,
    )
    if got.attack.jammed:
        attack.jam(tr, tables, firer, salvo.mount, salvo.label)
    attack.record_damage(tr, tables, units[index], got.attack.rows_hit, "top")
    hits.carried_damage(tr, tables, units[index], got.attack.hits, attack.record_damage)
    for found in got.hex_hits:
        _report_random(tr, tables, units, found, st.board.label(salvo.hex))


def _report_random(tr: Transition, tables: Tables, units: list[Unit], found: HexHits, where: str) -> None:
    """Log a random-hit check (7.3) and record the damage of each unit it struck, carried-over damage last. The
    roll and TN only to the sides that know every unit in the hex (13.2, ``_readers``); the others read only that a
    unit they know of was struck."""
    readers = _readers(tr.state, units)
    if not found.hits:
        tr.emit("fire", f"Random hit in {where}: {found.roll} against {found.tn}, nobody struck (rule 7.3)", readers)
        return
    for k, (i, hit) in enumerate(found.hits):
        if status(units[i]).hidden:  # INTERP (13.2): a hidden unit a shell strikes is revealed
            status(units[i]).hidden = False
            tr.reveal()
            tr.emit("reveal", f"{units[i].id} is struck in {where} and revealed (rule 13.2)", unit=units[i].id)
        how = (
            "carried over, from the side"
            if k
            else ("from above, full damage" if hit.kind == "above" else f"from the side, variable damage, Dk {hit.dk}")
        )
        said = f"{units[i].id} struck {how}: {hit.damage} damage (rule 7.3)"
        tr.emit("fire", f"Random hit in {where} ({found.roll} against {found.tn}): {said}", readers, unit=units[i].id)
        others = [x for x in tr.state.sides if readers is not None and x not in readers]
        if others and not status(units[i]).hidden:
            tr.emit("fire", f"Random hit in {where}: {said}", others, unit=units[i].id)
        attack.record_damage(tr, tables, units[i], hit.allocation.rows, hit.column)


def _without_sight(tr: Transition, tables: Tables, firer: Unit, salvo: Salvo) -> None:
    """7.4: the hex roll, the scatter, then smoke or the random hits where the shell lands."""
    st = tr.state
    board = st.board
    aim_at = board.label(salvo.hex)
    explain = f"TN {salvo.tn} = " + " ".join(str(m) for m in salvo.modifiers)
    ammo = sheets.ammo(tables.weapons[tables.sheets[firer.type].mounts[salvo.mount].weapon].ammo[salvo.ammo])
    roll, where = hex_fire(salvo.tn, _roller(tr, firer.id, aim_at, 0, explain, salvo.tn))
    _spend(firer, salvo, rules_shots(1, hex_burst=salvo.hex_burst))
    status(firer).fired_dk = max(status(firer).fired_dk, ammo.dk)
    if where == "jam":
        tr.emit("fire", f"{firer.id} fires its {salvo.label} at {aim_at}: {roll}, jammed, no effect (rule 7.4)")
        attack.jam(tr, tables, firer, salvo.mount, salvo.label)
        return
    assert firer.hex is not None
    n = distance(firer.hex, salvo.hex)
    landing = {
        "target": salvo.hex,
        "beyond": _along(firer.hex, salvo.hex, n + 1),
        "short": _along(firer.hex, salvo.hex, n - 1),
    }[where]
    place = board.label(landing) if landing in board else "off the map"
    tr.emit(
        "fire",
        f"{firer.id} fires its {salvo.label} ({salvo.ammo}) at {aim_at} without sight: {roll} against {explain}; "
        f"the shell lands {'in the hex' if where == 'target' else 'one hex ' + where}: {place} (rule 7.4)",
        unit=firer.id,
    )
    if landing not in board:
        return
    if salvo.smoke:
        d = data(st)
        d.smoke[landing] = max(d.smoke.get(landing, 0), salvo.smoke)
        if d.smoke_turn != st.turn:
            d.smoke_new, d.smoke_turn = [], st.turn
        d.smoke_new.append(landing)  # 3.2 P: it counts for LOS after this Fire Phase
        tr.emit("smoke", f"Smoke in {place} for {salvo.smoke} turns (rule 7.1)")
        return
    units = _victims(st, landing)
    if not units:
        return
    rtn = random_hit_tn(he=ammo.he, groups=len(units), hex_burst=salvo.hex_burst)
    roller = _roller(tr, firer.id, place, rtn, explain, salvo.tn, _readers(st, units))
    found = random_hits_in_hex(
        _targets(st, tables, units),
        roller,
        ammo=ammo,
        dk_range=salvo.dk_range,
        groups=len(units),
        hex_burst=salvo.hex_burst,
    )
    _report_random(tr, tables, units, found, place)


# --- Odds --------------------------------------------------------------------------------------------------------


def odds(st: GameState, tables: Tables, action: Action, salvo: Salvo) -> Odds:
    """Exact odds of indirect fire: with sight, hit / random hit / no effect / jam (7.2, 7.3); without sight, where
    the shell lands and the random hit there (7.4), or the smoke."""
    if salvo.shot is not None:
        to_hit = hit_roll(salvo.shot)
        groups = len(_victims(st, salvo.hex))
        got = indirect_odds(to_hit, he=salvo.shot.ammo.he, groups=groups)
        rtn = random_hit_tn(he=salvo.shot.ammo.he, groups=groups)
        note = f"{to_hit.explain()}; random hit TN {rtn} ({groups} groups); first roll only, from above"
        return Odds(action, tuple(OddsEntry(k, v) for k, v in got.items() if v), note=note)
    firer = st.units[salvo.firer]
    assert firer.hex is not None
    n = distance(firer.hex, salvo.hex)
    jam = sum((p for r, p in TWO_D10.items() if r in fire_table().jam), Fraction(0))
    hit = sum((p for r, p in TWO_D10.items() if r >= salvo.tn and r not in fire_table().jam), Fraction(0))
    miss = 1 - hit - jam
    half = Fraction(1, 2)  # even or odd on the d10
    places = [("target", salvo.hex, hit), ("beyond", _along(firer.hex, salvo.hex, n + 1), miss * half)]
    places.append(("short", _along(firer.hex, salvo.hex, n - 1), miss * half))
    entries: list[OddsEntry] = [OddsEntry("jam", jam)]
    weapon = tables.weapons[tables.sheets[firer.type].mounts[salvo.mount].weapon]
    he = weapon.ammo[salvo.ammo].he
    for name, where, p in places:
        label = st.board.label(where) if where in st.board else "off the map"
        groups = len(_victims(st, where)) if where in st.board else 0
        if salvo.smoke or not groups:
            entries.append(OddsEntry(f"lands {name} ({label})", p))
            continue
        q = chance_at_least(random_hit_tn(he=he, groups=groups, hex_burst=salvo.hex_burst))
        entries.append(OddsEntry(f"random hit {name} ({label})", p * q, 1.0))
        entries.append(OddsEntry(f"lands {name} ({label}), no hit", p * (1 - q)))
    note = f"TN {salvo.tn} = " + " ".join(str(m) for m in salvo.modifiers)
    note += "; a miss lands one hex beyond (even d10) or short (odd)"
    if salvo.smoke:
        note += f"; smoke for {salvo.smoke} turns where it lands"
    return Odds(action, tuple(e for e in entries if e.probability), note=note)
