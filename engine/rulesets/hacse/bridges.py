"""Provides bridges and their demolition charges (digest 4.10, 15.10.5): the terrain a destroyed bridge leaves, work
activations that attach or remove a charge (3.2 "work", completed in the End Phase, step 7), and blowing a bridge
(End Phase, step 1).

Readings [PROPOSED] where the digest is silent: a charge is attached by an infantry unit carrying one (status
``charges``) in the bridge hex or next to it; an infantry unit of the other side working in the bridge hex removes
one (15.10.5 names the Soviets in H-3; any side but the owner here). The infantry on a blown bridge takes 1d6
damage, each point removing its lowest intact soldier row (15.6); a unit with no row left is destroyed.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from .cache import remember
from .data import Tables, TerrainClass
from .model import data, status
from .movement import Refused

__all__ = [
    "blow",
    "blowable",
    "bridge_hexes",
    "complete_work",
    "damage",
    "road_between",
    "terrain_of",
    "work_hexes",
    "work_refusal",
]


def terrain_of(st: GameState, tables: Tables, h: Hex) -> TerrainClass:
    """The terrain class of ``h`` now: a blown bridge is water (4.10); a building hex whose buildings are all
    destroyed is rubble (4.9 P; ``hits.damage_building``)."""
    d = data(st)
    if h in d.blown:
        return tables.terrain["water"]
    kind = tables.terrain[st.board.terrain(h)]
    if d.buildings_lost and kind.building and d.buildings_lost.get(h, 0) >= tables.buildings[kind.building].per_hex:
        return tables.terrain["rubble"]
    return kind


def bridge_hexes(st: GameState, tables: Tables) -> list[Hex]:
    """The bridges standing now (4.10: not blown), in a fixed order."""
    board = st.board
    every = remember(
        _BRIDGES,
        (id(board), id(tables)),
        lambda: [h for h in board.cells if tables.terrain[board.terrain(h)].bridge],
        board,
    )
    blown = data(st).blown
    return sorted((h for h in every if h not in blown), key=lambda h: (h.q, h.r))


_BRIDGES: dict[tuple[int, int], tuple[object, list[Hex]]] = {}


def damage(tr: Transition, tables: Tables, h: Hex, points: int, cause: str) -> bool:
    """``points`` of damage to the bridge ``h`` (8.6 P); at 25 (4.10) it is destroyed as a blown bridge is (the
    units on it fall, the hex is water). Whether it was destroyed."""
    d = data(tr.state)
    d.bridge_damage[h] = d.bridge_damage.get(h, 0) + points
    done, need = d.bridge_damage[h], int(tables.bridge["destroyed_at"])
    where = tr.state.board.label(h)
    tr.emit("fire", f"{cause}: the bridge {where} takes {points} damage ({done} of {need}; rule 8.6)")
    if done < need:
        return False
    blow(tr, tables, h)
    return True


def road_between(st: GameState, a: Hex, b: Hex) -> bool:
    """Whether a road joins ``a`` and ``b`` now (a blown bridge carries none)."""
    blown = data(st).blown
    return a not in blown and b not in blown and st.board.has_road(a, b)


def _job(st: GameState, unit: Unit, h: Hex) -> str | None:
    """``attach`` or ``remove`` for ``unit`` at bridge ``h``, or None."""
    d = data(st)
    owner = d.charge_side.get(h)
    if owner in (None, unit.side):
        return "attach"
    return "remove"


def work_refusal(st: GameState, tables: Tables, unit: Unit, h: Hex) -> Refused | None:
    """Why ``unit`` may not work on the bridge ``h`` this turn (4.10), or None."""
    d = data(st)
    if tables.sheets[unit.type].unit_type != "infantry":
        return Refused(f"Cannot work: only infantry groups work on bridges ({unit.id} is not infantry)", "4.10")
    if h not in d.charges or h in d.blown:
        return Refused(f"Cannot work: {st.board.label(h)} is not a bridge that takes charges", "4.10")
    if unit.hex is None or distance(unit.hex, h) > 1:
        return Refused(f"Cannot work: {unit.id} is not in or next to {st.board.label(h)}", "4.10")
    if _job(st, unit, h) == "attach":
        if status(unit).charges <= 0:
            return Refused(f"Cannot work: {unit.id} carries no demolition charge", "4.10")
        return None
    if unit.hex != h or d.charges[h] <= 0:
        return Refused(
            f"Cannot work: removing a charge takes a unit in {st.board.label(h)} with charges there", "15.10.5"
        )
    return None


def work_hexes(st: GameState, tables: Tables, unit: Unit) -> Iterator[Hex]:
    """The bridges ``unit`` may work on this turn."""
    for h in data(st).charges:
        if work_refusal(st, tables, unit, h) is None:
            yield h


def start_work(st: GameState, unit: Unit, h: Hex) -> str:
    """Record the unit's work (completed in the End Phase) and say what it is."""
    s = status(unit)
    s.work, s.work_hex = _job(st, unit, h), h
    return f"{unit.id} works on the bridge {st.board.label(h)}: it will {s.work} a demolition charge (rule 4.10)"


def complete_work(tr: Transition) -> None:
    """End Phase step 7 (3.2): each unit's work of the turn is done."""
    st = tr.state
    d = data(st)
    for u in st.units.values():
        s = status(u)
        if s.work is None or s.work_hex is None or s.destroyed or s.work_hex in d.blown:
            continue
        h = s.work_hex
        if s.work == "attach":
            d.charges[h] = d.charges.get(h, 0) + 1
            d.charge_side[h] = u.side
            s.charges -= 1
        else:
            d.charges[h] = max(0, d.charges[h] - 1)
        done = "attaches" if s.work == "attach" else "removes"
        where = st.board.label(h)
        tr.emit("work", f"{u.id} {done} a charge: {d.charges[h]} on the bridge {where} (rule 4.10)", unit=u.id)
        s.work, s.work_hex = None, None


def blowable(st: GameState, tables: Tables) -> Hex | None:
    """A bridge whose owner may blow it now and has not been asked this End Phase (4.10, 15.10.5), if any."""
    d = data(st)
    need = int(tables.bridge["charges_to_blow"])
    for h, n in d.charges.items():
        if n >= need and h not in d.blown and h not in d.asked and st.turn >= d.blow_from and h in d.charge_side:
            return h
    return None


def blow(tr: Transition, tables: Tables, h: Hex) -> None:
    """The bridge is destroyed (4.10): vehicles and guns on it are destroyed, each infantry unit takes 1d6 damage
    and is in the water; the hex is water from now on."""
    st = tr.state
    d = data(st)
    d.blown.append(h)
    tr.emit("blow", f"The bridge {st.board.label(h)} is blown (rule 4.10)")
    for u in [u for u in st.units.values() if u.hex == h]:
        s = status(u)
        if tables.sheets[u.type].unit_type != "infantry":
            _destroy(tr, u, "on the blown bridge")
            continue
        s.embarked_in = None
        (hurt,) = tr.roll(6, 1, f"{u.id} falls with the bridge: 1d6 damage (rule 4.10)")
        u.steps = max(0, u.steps - hurt)
        if u.steps == 0:
            _destroy(tr, u, f"{hurt} damage")
        else:
            tr.emit("damage", f"{u.id} takes {hurt} damage, {u.steps} rows left (rule 4.10)", unit=u.id)


def _destroy(tr: Transition, unit: Unit, why: str) -> None:
    s = status(unit)
    s.destroyed, s.embarked_in, s.towed_by = True, None, None
    unit.hex = None
    tr.emit("destroyed", f"{unit.id} is destroyed: {why} (rule 4.10)", unit=unit.id)
