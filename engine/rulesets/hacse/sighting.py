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

from dataclasses import dataclass
from fractions import Fraction

from engine.board import Board
from engine.events import Modifier
from engine.hexgrid import Hex, distance
from engine.los import LosPolicy, line_of_sight
from engine.rules import Transition
from engine.state import GameState, Unit

from . import fires, searchlights
from .bridges import terrain_of
from .buildings import occupied
from .cache import remember
from .communication import all_round
from .data import Tables
from .firedata import mod, total
from .model import data, status
from .targetdie import has_moved, movement_modifier
from .weather import SightEffect, condition, sight_table

__all__ = [
    "SightLine",
    "aided",
    "automatic",
    "check",
    "checks_by",
    "checks_of",
    "fire_phase_checks",
    "firing",
    "los_policy",
    "los_policy_now",
    "persistence",
    "reveal",
    "rubble_hexes",
    "sight_line",
    "sight_roll",
    "sight_tn",
    "sights",
    "smoke_now",
]


_POLICIES: dict[int, tuple[Tables, LosPolicy]] = {}
"""The policy of each tables object (kept with it), made once."""


def los_policy(tables: Tables) -> LosPolicy:
    """Higher ground and buildings block (§6.2 [PROPOSED]); the other terrain is weighed by :func:`sight_line`."""
    return remember(_POLICIES, id(tables), lambda: _los_policy(tables), tables)


def _los_policy(tables: Tables) -> LosPolicy:
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


@dataclass(frozen=True)
class _RubblePolicy(LosPolicy):
    """The LOS policy with building hexes turned to rubble (4.9 P): such a hex no longer blocks as a building;
    :func:`sight_line` weighs it as rubble (6.3: 1 level high, +1). Its ``id`` names the hexes, so the board's LOS
    cache never serves a line traced before a hex fell."""

    rubble: frozenset[Hex] = frozenset()

    def blocks(self, board: Board, x: Hex, high: Hex, low: Hex) -> str | None:
        reason = LosPolicy.blocks(self, board, x, high, low)
        return None if reason == "obstacle" and x in self.rubble else reason


_RUBBLE_POLICIES: dict[tuple[int, tuple[Hex, ...]], tuple[Tables, LosPolicy]] = {}


def rubble_hexes(st: GameState, tables: Tables) -> tuple[Hex, ...]:
    """The building hexes whose buildings are all destroyed (4.9 P: rubble now) and that count as rubble for LOS: a
    hex that fell in this turn's Attack Phase does so only after it (3.2 P); in a fixed order."""
    d = data(st)
    if not d.buildings_lost:
        return ()
    fresh = st.turn if st.phase == "attack" else None
    out = (h for h in d.buildings_lost if terrain_of(st, tables, h).key == "rubble" and d.rubble_turn.get(h) != fresh)
    return tuple(sorted(out, key=lambda h: (h.q, h.r)))


def los_policy_now(st: GameState, tables: Tables) -> LosPolicy:
    """The LOS policy for the board of ``st`` now: :func:`los_policy`, with the rubble hexes not blocking (4.9)."""
    rubble = rubble_hexes(st, tables)
    if not rubble:
        return los_policy(tables)
    base = los_policy(tables)

    def make() -> LosPolicy:
        where = ",".join(f"{h.q}.{h.r}" for h in rubble)
        return _RubblePolicy(**{**base.__dict__, "id": f"{base.id}:rubble:{where}", "rubble": frozenset(rubble)})

    return remember(_RUBBLE_POLICIES, (id(tables), rubble), make, tables)


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


_LINES: dict[tuple[object, ...], tuple[object, object, SightLine]] = {}
"""Lines already drawn, by board, tables, blown bridges (4.10), rubble (4.9), smoke (7.1) and the two
hexes: nothing else changes a line. Each entry holds its board and tables, so that their ids are not reused while it
is kept."""
_LINES_KEPT = 100_000


def smoke_now(st: GameState) -> tuple[Hex, ...]:
    """The hexes whose smoke counts for sight now (7.1, 6.3: 4 levels high, +5 to sight): smoke laid in this turn's
    Fire Phase takes effect for LOS only after it (3.2 P); in a fixed order."""
    d = data(st)
    if not d.smoke:
        return ()
    new = tuple(d.smoke_new) if st.phase == "attack" and d.smoke_turn == st.turn else ()
    key = (tuple(d.smoke), new)
    got = _SMOKE.get(key)  # every line and sighting check asks it
    if got is None:
        if len(_SMOKE) >= _SMOKE_KEPT:
            _SMOKE.clear()
        fresh = set(new)
        got = _SMOKE[key] = tuple(sorted((h for h in d.smoke if h not in fresh), key=lambda h: (h.q, h.r)))
    return got


_SMOKE: dict[tuple[tuple[Hex, ...], tuple[Hex, ...]], tuple[Hex, ...]] = {}
"""The smoke that counts, by the smoke laid and that laid in this Fire Phase (a value of the two)."""
_SMOKE_KEPT = 1000


def sight_line(st: GameState, tables: Tables, a: Hex, b: Hex) -> SightLine:
    """The line of sight from ``a`` to ``b`` (§6.2); the firer's hex never counts, the target's hex neither."""
    board = st.board
    d = data(st)
    if d.blown or d.buildings_lost or d.smoke:
        key: tuple[object, ...] = (id(board), id(tables), tuple(d.blown), rubble_hexes(st, tables), smoke_now(st), a, b)
    else:  # nothing laid, lost or blown yet: the same line as the board's own (the usual case, asked most)
        key = (id(board), id(tables), a, b)
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
    result = line_of_sight(board, a, b, los_policy_now(st, tables))
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
    if searchlights.shining(st, tables, target):
        return "its searchlight shines (rule 6.1)"
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
    lit: bool = False,
) -> tuple[int, list[Modifier]]:
    """The sighting TN of §6.1 (clear weather unless ``conditions`` say otherwise) with its terms, the base number
    first: distance (per full 5 hexes, 7 with binoculars; ``lit``: the target's hex or a neighbour lit by a fire or
    a searchlight, +1 per full 2 hexes where that is less, 6.1 P), the Sight entries of the obstructing hexes and
    of the target's hex, infantry in a building, the target's profile, infantry's MP kept, dug in, observer moved,
    under all-round armour, levels (``higher``: observer's level less the target's), an enemy that fired
    (−(2 + Dk), §6.3 note c).

    >>> sight_tn(base=4, distance=12, binoculars=True, target_terrain="light_forest", kept=3, moved=True,
    ...          all_round=True)[0]
    16
    """
    t = sight_table()
    terms = [mod(base, "base number", "6.1")]
    far = _distance_term(distance, binoculars, conditions, lit)
    if far is not None:
        terms.append(far)
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


def _distance_term(distance: int, binoculars: bool, conditions: SightEffect | None, lit: bool) -> Modifier | None:
    """The distance term of the sighting TN (6.1): by the weather and light, with binoculars; a sighting aid (a fire
    or searchlight lighting the target's hex or its neighbours) gives +1 per full 2 hexes where that is less (6.1 P:
    the lowest distance modifier)."""
    t = sight_table()
    glass = ", binoculars" if binoculars else ""
    if conditions is not None and conditions.name != "clear":  # weather and light (6.1, weather.py)
        value = conditions.modifier(distance, binoculars=binoculars)
        step = conditions.binocular_step if binoculars else conditions.step
        name = conditions.name.replace("_", " ")
        what = f"{distance} hexes, {name} (+{conditions.factor} per full {step}{glass})"
    else:
        per = int(t["binocular_step" if binoculars else "distance_step"])
        value, what = distance // per, f"{distance} hexes (+1 per full {per}{glass})"
    aid = int(t["aid_step"])
    if lit and distance // aid < value:
        value, what = distance // aid, f"{distance} hexes, the target lit (+1 per full {aid})"
    return mod(value, what, "6.1") if value else None


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
        lit=_aided(st, tables, target, binoculars=osheet.equipment.get("binoculars", 0) > 0),
    )


def _aided(st: GameState, tables: Tables, target: Unit, *, binoculars: bool) -> bool:
    """Whether a fire lights the target (6.1), asked only where the light could lower the distance term: when the
    weather and light give more than +1 per 2 hexes (at night)."""
    return aided(st, tables, target.hex, binoculars=binoculars)


def aided(st: GameState, tables: Tables, where: Hex | None, *, binoculars: bool) -> bool:
    """Whether a fire lights the hex ``where`` (6.1: it or a neighbour burns), asked only where the light could
    lower the distance term (at night); the sighting of a unit and the hex check of 7.4 P both read it."""
    c = condition(st)
    step = c.binocular_step if binoculars else c.step
    if c.factor * int(sight_table()["aid_step"]) <= step:
        return False
    return fires.lit(st, tables, where) or searchlights.lit(st, tables, where)


def sights(unit: Unit) -> bool:
    """Whether the unit can observe: on the map, not destroyed, not carried (§6.1)."""
    s = status(unit)
    return unit.hex is not None and not s.destroyed and not s.embarked_in and not s.towed_by


def _readers(observer: Unit, target: Unit) -> tuple[str, ...]:
    """Who may read ``observer``'s check of ``target`` (13.2: a hidden unit's existence is known to its side only):
    the observer's side when the target is known to it, else the target's side when the observer is known to that
    side, else nobody (the referee's log)."""
    if not status(target).hidden:
        return (observer.side,)
    return () if status(observer).hidden else (target.side,)


def _phase_key(st: GameState) -> str:
    return f"{st.turn}:{st.phase}"


def _rolled(st: GameState, observer: Unit, target: Unit) -> bool:
    """Whether ``observer`` has already rolled to sight ``target`` in this phase (6.1 P: one roll per pair)."""
    o = status(observer)
    return o.looked_in == _phase_key(st) and target.id in o.looked


def _mark_rolled(st: GameState, observer: Unit, target: Unit) -> None:
    o = status(observer)
    key = _phase_key(st)
    if o.looked_in != key:
        o.looked_in, o.looked = key, []
    o.looked.append(target.id)


def _lose(tr: Transition, observer: Unit, target: Unit) -> None:
    o = status(observer)
    if target.id in o.sighted:
        o.sighted.remove(target.id)
        text = f"{observer.id} loses sight of {target.id} (rule 6.1)"
        tr.emit("sight", text, _readers(observer, target), unit=observer.id)


def _roll(tr: Transition, tables: Tables, observer: Unit, target: Unit, line: SightLine, fired: bool) -> str | None:
    """The sighting roll (6.1): why the observer sights the target, or None. One roll per pair and phase (6.1 P),
    except the check a hidden unit's fire calls for (13.2); a TN above 20 cannot be made and one of 2 or less
    cannot be missed, so neither is rolled."""
    st = tr.state
    if not fired and _rolled(st, observer, target):
        return None
    tn, terms = sight_roll(st, tables, observer, target, line)
    explain = " ".join(str(m) for m in terms)
    if tn > int(sight_table()["roll_max"]):
        return None
    if tn <= int(sight_table()["roll_min"]):
        return f"TN {tn} = {explain}, no roll needed"
    _mark_rolled(st, observer, target)
    readers = _readers(observer, target)
    roll = sum(
        tr.roll(
            10,
            2,
            f"sighting: {observer.id} looks for {target.id}",
            target=tn,
            compare="at_least",
            modifiers=(),
            shifts=terms,
            visible_to=readers,
        )
    )
    if roll < tn:
        text = f"{observer.id} does not sight {target.id}: {roll} against TN {tn} = {explain}"
        tr.emit("sight", text, readers, unit=observer.id)
        return None
    return f"{roll} against TN {tn} = {explain}"


def check(tr: Transition, tables: Tables, observer: Unit, target: Unit, fired: bool = False) -> bool:
    """One sighting check of ``target`` by ``observer`` (§6.1): sight is lost without LOS; kept or gained by the
    automatic conditions; else 2d10 ≥ the sighting TN (:func:`_roll`). A hidden target that is sighted is revealed
    (13.2), and then every other enemy unit checks it (6.1 P). Returns whether the observer sees it."""
    st = tr.state
    o = status(observer)
    assert observer.hex is not None and target.hex is not None
    line = sight_line(st, tables, observer.hex, target.hex)
    if not line.clear or not sights(target) or not sights(observer):
        _lose(tr, observer, target)
        return False
    if status(target).hidden:  # 6.1: sight is lost when the target becomes hidden
        _lose(tr, observer, target)
    why = automatic(st, tables, observer, target, line)
    if why is None:
        why = _roll(tr, tables, observer, target, line, fired)
        if why is None:
            return False
    if target.id not in o.sighted:
        hidden = status(target).hidden
        o.sighted.append(target.id)
        if hidden:
            reveal(tr, target, "an enemy unit sights it")
        tr.emit("sight", f"{observer.id} sights {target.id}: {why}", _readers(observer, target), unit=observer.id)
        if hidden:
            checks_of(tr, tables, target)
    return True


def reveal(tr: Transition, unit: Unit, why: str) -> None:
    """The hidden unit is revealed (13.2): shown to the other side from now on."""
    status(unit).hidden = False
    tr.reveal()
    where = tr.state.board.label(unit.hex) if unit.hex is not None else "off the map"
    tr.emit("reveal", f"{unit.id} is revealed at {where}: {why} (rule 13.2)", unit=unit.id)


def _enemies(st: GameState, side: str) -> list[Unit]:
    return [u for u in sorted(st.units.values(), key=lambda u: u.id) if u.side != side and sights(u)]


def checks_of(tr: Transition, tables: Tables, target: Unit, fired: bool = False) -> None:
    """Every enemy unit checks ``target`` (6.1 P: it entered a hex or was revealed; 13.2: a hidden unit fired, with
    ``fired``). Each observer's line to the target's hex is drawn once (``sight_line`` keeps it)."""
    if not sights(target):
        return
    for observer in _enemies(tr.state, target.side):
        if target.hex is None or not sights(target):
            return
        check(tr, tables, observer, target, fired)


def checks_by(tr: Transition, tables: Tables, observer: Unit) -> None:
    """``observer`` checks every enemy unit (6.1 P: at the end of its activation)."""
    if not sights(observer):
        return
    for target in _enemies(tr.state, observer.side):
        check(tr, tables, observer, target)


def firing(tr: Transition, firer: Unit) -> bool:
    """A unit is about to fire: a hidden one is revealed (13.2; its fire names it). Whether it was hidden: then,
    after the fire, every enemy unit checks it with the "enemy fired" modifier (13.2, 6.3 note c:
    ``checks_of(..., fired=True)``)."""
    if not status(firer).hidden:
        return False
    reveal(tr, firer, "it fires")
    return True


def persistence(tr: Transition, tables: Tables) -> None:
    """End Phase step 9 (3.2): the sighting persistence check; each unit loses sight of the enemy units it no
    longer has a line of sight to (new smoke counts now), without rolls (6.1)."""
    st = tr.state
    for observer in sorted(st.units.values(), key=lambda u: u.id):
        o = status(observer)
        for tid in list(o.sighted):
            target = st.units.get(tid)
            if target is None or not sights(observer) or not sights(target):
                o.sighted.remove(tid)
                continue
            assert observer.hex is not None and target.hex is not None
            if not sight_line(st, tables, observer.hex, target.hex).clear:
                _lose(tr, observer, target)


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
