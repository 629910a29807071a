"""Provides the AI's use of indirect fire at any hex (7.4 in two steps, ``shelling.py``): a player's harassing fire.

- **Which units.** In 3b a unit with a weapon that fires only indirectly (a mortar, 7.1) and no fire of its own
  listed (no enemy it may fire at) may ``shell`` with its round of the most HE (random hits need it, 7.3), one round
  per unit, when some hex it may shell is *safe*: no unit of
  its side in it or next to it (a miss lands one hex too far or too short, 7.4, and a random hit strikes any unit in
  the hex, 7.3 INTERP). Smoke and a searchlight's ``aim`` are left to players. A gun that fires both ways keeps its
  HE for the targets it sees: with the Shermans shelling too, ``ai:normal`` as US in H-1 lost 9 of the first 100
  games of seed 2026 against greedy that it had won, and won 3 it had lost (91 of 100, 97 before).
- **Its worth.** ``Hacse.ai_score`` values a ``shell`` at the position as it stands plus ``shell`` of ``data/ai.toml``
  (PROPOSED): above ceasing fire, which gives nothing.
- **Which hex.** Once aimed, the one candidate is the safe hex where hidden enemies are likeliest as the side sees
  it (its view only: no hidden unit is read): an objective hex (``shell_objective``), a hex with cover (a height, a
  building: ``shell_cover``), nearer the side's own units (``shell_near`` less per hex to the nearest); ties by column
  and row. Without a safe hex the aim is cancelled (the first step offers none then).
"""

from __future__ import annotations

from engine.actions import Action
from engine.hexgrid import Hex, distance
from engine.state import GameState, Unit

from . import artillery, sheets, shelling
from .bridges import terrain_of
from .data import Tables
from .model import data, status
from .weights import side_weights

__all__ = ["ai_shells", "shell_bonus"]


def _own_near(st: GameState, side: str) -> set[Hex]:
    """The hexes where a unit of ``side`` stands and their neighbours."""
    out: set[Hex] = set()
    for u in st.units.values():
        s = status(u)
        if u.side == side and u.hex is not None and not s.destroyed:
            out.add(u.hex)
            out.update(u.hex.neighbours())
    return out


def _he(tables: Tables, unit: Unit, label: str, ammo: str) -> int:
    """The HE value of the round (7.3: random hits need it; 0 for smoke or a round without HE)."""
    index = artillery._mount(tables, unit, label)
    if index is None:
        return 0
    weapon = tables.weapons[tables.sheets[unit.type].mounts[index].weapon]
    if weapon.fire_mode != "indirect" or ammo not in weapon.ammo or weapon.ammo[ammo].smoke:
        return 0  # a gun keeps its HE for targets it sees (module docstring)
    return int(sheets.ammo(weapon.ammo[ammo]).he)


def _has_safe_hex(st: GameState, tables: Tables, unit: Unit, label: str, ammo: str, unsafe: set[Hex]) -> bool:
    """Whether the unit may shell some safe hex with this weapon and round (the nearest first, as ``shelling``)."""
    assert unit.hex is not None
    memo: artillery.Memo = {("anywhere",): True}
    return any(
        h not in unsafe and shelling._ok(st, tables, unit, h, label, ammo, memo)
        for h in shelling._by_distance(st, unit.hex)
    )


def _first_step(tables: Tables, st: GameState, actions: list[Action]) -> list[Action]:
    firing = {a.args[0] for a in actions if a.verb == "fire"}
    side = st.viewer or st.to_act or ""
    best: dict[str, tuple[int, Action]] = {}  # per unit: its round with the most HE
    for a in actions:
        if a.verb == "shell" and a.args[0] not in firing and (unit := st.units.get(str(a.args[0]))) is not None:
            he = _he(tables, unit, str(a.args[1]), str(a.args[2]))
            if he > 0 and he > best.get(unit.id, (0, a))[0]:
                best[unit.id] = (he, a)
    unsafe = _own_near(st, side) if best else set()
    keep = {
        a
        for uid, (_, a) in best.items()
        if _has_safe_hex(st, tables, st.units[uid], str(a.args[1]), str(a.args[2]), unsafe)
    }
    return [a for a in actions if a.verb not in ("shell", "aim") or a in keep]


def _worth(tables: Tables, st: GameState, h: Hex, side: str, w: dict[str, float]) -> float:
    d = data(st)
    cls = terrain_of(st, tables, h)
    own = [u.hex for u in st.units.values() if u.side == side and u.hex is not None and not status(u).destroyed]
    near = min((distance(h, x) for x in own), default=0)
    objective = w["shell_objective"] if h in d.points and d.control.get(h) != side else 0.0
    cover = w["shell_cover"] if cls.height > 0 or cls.building is not None else 0.0
    return objective + cover - w["shell_near"] * near


def _second_step(tables: Tables, st: GameState, actions: list[Action]) -> list[Action]:
    side = st.viewer or st.to_act or ""
    unsafe = _own_near(st, side)
    w = dict(side_weights(st, side))
    best: tuple[float, int, int, Action] | None = None
    for a in actions:
        if a.verb != "fire":
            continue
        h = st.board.parse(str(a.args[1]))
        if h in unsafe:
            continue
        key = (-_worth(tables, st, h, side, w), h.q, h.r, a)
        best = key if best is None or key[:3] < best[:3] else best
    if best is not None:
        return [best[3]]
    return [a for a in actions if a.verb == "cancel"] or actions


def ai_shells(tables: Tables, st: GameState, actions: list[Action]) -> list[Action]:
    """The AI's candidates among ``actions`` for 7.4 in two steps (see the module docstring); others pass as they
    are."""
    if data(st).shelling:
        return _second_step(tables, st, actions)
    if not any(a.verb in ("shell", "aim") for a in actions):
        return actions
    return _first_step(tables, st, actions)


def shell_bonus(st: GameState, side: str) -> float:
    """What taking a ``shell``'s aim adds to the position's value for ``side`` (``shell`` of ``data/ai.toml``, or of
    the scenario's ``[ai.<side>]``)."""
    return float(side_weights(st, side)["shell"])
