"""Provides Art of Tactic scenario checks and the initial state (digest 11.1–11.2).

Scenario keys read here: each unit's ``status`` (``facing`` as a hex label, ``deployed``, ``concealed``,
``aboard`` = the transport's id, ``ammo``); ``[control]`` with each side's initial hexes (``columns = [a, b]``
and ``hexes``); ``[victory]`` with ``hexes`` (the objectives) and ``otherwise`` (``draw``, ``losses`` or a side).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.board import Board
from engine.dice import DiceSource
from engine.errors import Problem
from engine.hexgrid import Hex, hex_label, hex_to_offset, parse_hex
from engine.scenario import Scenario, UnitSpec
from engine.state import GameState, Unit

from .forces import add_structure, fort, hex_list, unit_status
from .gamedata import AotData
from .model import Rules
from .purchase import prepare_purchase
from .records import Bridge, Minefield, Special, Structures, Victory, status
from .sight import facing_of
from .weights import check_overrides

__all__ = ["check_scenario", "initial_state"]

_STATUS_KEYS = {
    "facing", "deployed", "concealed", "aboard", "ammo", "suppressed", "entrenched", "mines", "towed_by",
    "cargo_ammo", "cargo_mines", "airfield",
}  # fmt: skip


Found = list[tuple[str, str]]
"""Problems found in a scenario: (where in the file, what is wrong)."""


def check_scenario(rs: Rules, sc: Scenario) -> list[Problem]:
    """Sides, card sides, facings, transports, stacking, structures, purchase, control and victory keys."""
    file = sc.path or f"{sc.ruleset}/{sc.id}"
    return [Problem(file, where, msg) for check in _CHECKS for where, msg in check(rs, sc)]


def _sides(rs: Rules, sc: Scenario) -> Found:
    ids, sides = sc.side_ids(), rs.tables.sides
    if sorted(ids) != sorted(sides):
        return [("sides", f"expected the sides {', '.join(sides)} (rule 1.2), got {', '.join(ids)}")]
    return []


def _unit_problems(rs: Rules, sc: Scenario) -> Found:
    """Each unit: its card's side and size, its statuses, its facing, where it starts (11.1)."""
    t = rs.tables
    by_id = {u.id: u for u in sc.units}
    out: Found = []
    for i, u in enumerate(sc.units):
        c = t.units[u.type]
        where = f"units[{i}] ({u.id})"
        if c.side != u.side:
            out.append((where, f"card {u.type} belongs to the {c.side} side, not {u.side}"))
        if u.steps is not None and u.steps > c.size:
            out.append((where, f"steps {u.steps} exceed the card's size {c.size}"))
        for key in u.status:
            if key not in _STATUS_KEYS:
                expected = ", ".join(sorted(_STATUS_KEYS))
                out.append((f"{where}.status", f"unknown status {key!r} (expected one of {expected})"))
        out += _facing(u, where)
        out += _start(rs, sc, by_id, u, where)
        if c.field_of_fire and u.hex is not None and u.status.get("facing") is None:
            out.append((f"{where}.status.facing", f"{u.type} has a field of fire: give its facing hex (rule 5.5)"))
    return out


def _facing(u: UnitSpec, where: str) -> Found:
    """5.5: a facing is the label of a hex next to the unit's."""
    f = u.status.get("facing")
    if f is None:
        return []
    try:
        fh = parse_hex(str(f))
    except ValueError:
        return [(f"{where}.status.facing", f"expected a hex label, got {f!r}")]
    if u.hex is None or facing_of(u.hex, fh) is None:
        return [(f"{where}.status.facing", f"the facing hex {f} must be next to the unit's hex")]
    return []


def _start(rs: Rules, sc: Scenario, by_id: dict[str, UnitSpec], u: UnitSpec, where: str) -> Found:
    """Where a unit starts: aboard a friendly transport in its hex (4.6), on the airfield (paratroopers, 9.15.4),
    on the map, or arriving later at its entry hexes (11.1)."""
    t = rs.tables
    out: Found = []
    aboard = u.status.get("aboard")
    if aboard is not None:
        tp = by_id.get(str(aboard))
        if tp is None or tp.side != u.side or not t.units[tp.type].has("transport"):
            out.append((f"{where}.status.aboard", f"{aboard!r} is not a friendly transport"))
        elif t.units[u.type].type not in t.units[tp.type].carries:
            out.append((f"{where}.status.aboard", f"{tp.id} cannot carry {u.type}"))
        elif u.hex != tp.hex:
            out.append((f"{where}.hex", f"a passenger stands in its transport's hex ({tp.id})"))
    elif u.status.get("airfield"):
        if not t.units[u.type].has("paratrooper"):
            out.append((f"{where}.status.airfield", "only paratroopers wait on the airfield (rule 9.15.4)"))
    elif u.hex is None and u.arrives is None:
        out.append((where, "expected hex, arrives or status.aboard"))
    if u.arrives is not None and u.arrives > 1 and not u.entry and u.hex is None:
        out.append((f"{where}.entry", "a reinforcement needs entry hexes (or a hex)"))
    if u.arrives is not None and u.arrives > sc.turns:
        out.append((f"{where}.arrives", f"arrives in round {u.arrives}, after the last round ({sc.turns})"))
    return out


def _transports(rs: Rules, sc: Scenario) -> Found:
    """4.6: a transport carries at most its size."""
    t = rs.tables
    by_id = {u.id: u for u in sc.units}
    load: dict[str, int] = {}
    for u in sc.units:
        a = u.status.get("aboard")
        if a is not None:
            load[str(a)] = load.get(str(a), 0) + (u.steps or t.units[u.type].size)
    out: Found = []
    for tid, n in load.items():
        tp = by_id.get(tid)
        if tp is not None and n > (tp.steps or t.units[tp.type].size):
            out.append((f"units ({tid})", f"{tid} carries size {n}, more than its size (rule 4.6)"))
    return out


def _stacking(rs: Rules, sc: Scenario) -> Found:
    """4.9: the stacking limits of each side at the start; the two sides never share a hex."""
    t = rs.tables
    stacks: dict[tuple[str, str, bool], int] = {}
    for u in sc.units:
        if u.hex is None or u.status.get("aboard") is not None or (u.arrives or 1) > 1:
            continue
        veh = t.is_vehicle(t.units[u.type].type)
        stack = (u.side, hex_label(u.hex), veh)
        stacks[stack] = stacks.get(stack, 0) + 1
    out: Found = []
    for (side, label, veh), n in stacks.items():
        lim = int(t.rules["stacking"]["vehicles" if veh else "infantry_artillery"])
        if n > lim:
            what = "vehicle" if veh else "infantry"
            out.append(("units", f"{side} stacks {n} {what} units in {label}, over {lim} (rule 4.9)"))
    placed = [u for u in sc.units if u.hex is not None and (u.arrives or 1) <= 1]
    for label in {hex_label(u.hex) for u in placed if u.hex is not None}:
        if len({u.side for u in placed if u.hex is not None and hex_label(u.hex) == label}) > 1:
            out.append(("units", f"units of both sides share {label} (rule 4.9)"))
    return out


def _hexside(sc: Scenario, item: Mapping[str, Any], where: str) -> Found:
    """9.18.3, 9.18.4: wire and dragon's teeth lie on the hexside of two adjacent hexes."""
    pair = hex_list(item.get("between"))
    ok = len(pair) == 2
    if ok:
        try:
            a, b = (parse_hex(x) for x in pair)
            ok = b in a.neighbours()
        except ValueError:
            ok = False
    if not ok:
        return [(f"{where}.between", "expected two adjacent hexes: the hexside the obstacle lies on (rule 9.18)")]
    return []


def _minefield(sc: Scenario, item: Mapping[str, Any], where: str) -> Found:
    """9.6: a minefield card of a known kind, laid by a side."""
    out: Found = []
    if item.get("mine", "anti_tank") not in ("anti_tank", "anti_personnel", "dummy"):
        out.append((f"{where}.mine", "expected anti_tank, anti_personnel or dummy (rule 9.6)"))
    if item.get("side") not in sc.side_ids():
        out.append((f"{where}.side", "a minefield needs the side that laid it (rule 9.6)"))
    return out


def _position(sc: Scenario, item: Mapping[str, Any], where: str) -> Found:
    """9.18.5, 9.18.6: a trench or dugout in a hex, facing an adjacent hex; no dugout in a river hex."""
    kind = item.get("kind")
    try:
        h, f = parse_hex(str(item.get("hex"))), parse_hex(str(item.get("facing")))
    except ValueError:
        return [(where, 'expected hex = "CCRR" and facing = "CCRR" (rule 9.18.5, 9.18.6)')]
    if facing_of(h, f) is None:
        return [(f"{where}.facing", f"the {kind}'s facing hex must be next to its hex (rule 9.18.5, 9.18.6)")]
    if kind == "dugout" and sc.map.terrain.get(h, ("",))[0] in ("~", "="):
        return [(f"{where}.hex", "a dugout may not stand in a river hex (rule 9.18.6)")]
    return []


_STRUCTURE_CHECKS: dict[str, Callable[[Scenario, Mapping[str, Any], str], Found]] = {
    "wire": _hexside,
    "teeth": _hexside,
    "minefield": _minefield,
    "trench": _position,
    "dugout": _position,
}
"""Each kind of ``[[structures]]`` item → its check."""


def _structures_found(rs: Rules, sc: Scenario) -> Found:
    out: Found = []
    for i, item in enumerate(sc.raw.get("structures", [])):
        where = f"structures[{i}]"
        kind = item.get("kind") if isinstance(item, dict) else None
        check = _STRUCTURE_CHECKS.get(kind) if isinstance(kind, str) else None
        if check is None:
            out.append((f"{where}.kind", f"expected wire, teeth, trench, dugout or minefield, got {kind!r}"))
        else:
            out += check(sc, item, where)
    return out


def _victory(rs: Rules, sc: Scenario) -> Found:
    v = sc.raw.get("victory", {})
    if not isinstance(v, dict) or not v.get("hexes"):
        return [("victory", "expected [victory] with hexes = the objectives (rule 11.2)")]
    if v.get("otherwise", "draw") not in ("draw", "losses", *sc.side_ids()):
        return [("victory.otherwise", f"expected draw, losses or a side, got {v.get('otherwise')!r}")]
    return []


def _control_found(rs: Rules, sc: Scenario) -> Found:
    """11.2: each side's initial hexes: ``columns = [first, last]`` within the map and/or ``hexes`` on it."""
    control = sc.raw.get("control", {})
    if not isinstance(control, dict) or any(
        s not in sc.side_ids() or not isinstance(v, dict) for s, v in control.items()
    ):
        return [("control", "expected [control.<side>] tables with columns = [first, last] and/or hexes")]
    out: Found = []
    width = sc.map.cols
    for side, spec in control.items():
        cols = spec.get("columns")
        if cols is not None and not (
            isinstance(cols, list)
            and len(cols) == 2
            and all(type(c) is int and 1 <= c <= width for c in cols)
            and cols[0] <= cols[1]
        ):
            out.append((f"control.{side}.columns", f"expected columns = [first, last], map columns 1 to {width}"))
        for label in hex_list(spec.get("hexes")):
            try:
                h = parse_hex(label)
            except ValueError:
                h = None
            if h is None or h not in sc.map.terrain:
                out.append((f"control.{side}.hexes", f"{label!r} is not a hex of the map (rule 11.2)"))
    return out


def _ai(rs: Rules, sc: Scenario) -> Found:
    return check_overrides(sc.raw["ai"], tuple(sc.side_ids())) if "ai" in sc.raw else []


def purchase_cost(rs: Rules, sc: Scenario, side: str) -> int:
    """Strength points a side's force and fortifications cost (12.2 errata costs, 11.1 fortification costs)."""
    t = rs.tables
    cost = sum(t.units[u.type].cost for u in sc.units if u.side == side)
    cost += sum(t.units[u.type].mine_cost for u in sc.units if u.side == side and u.status.get("mines"))
    for item in sc.raw.get("structures", []):
        kind = {"teeth": "dragons_teeth"}.get(str(item.get("kind")), str(item.get("kind")))
        if isinstance(item, dict) and item.get("side") == side and kind in t.fortifications:
            cost += int(t.fortifications[kind]["cost"])
    return cost


def check_purchase(rs: Rules, sc: Scenario) -> list[tuple[str, str]]:
    """11.6: a purchased force keeps within its points, its copy limits and its required cards."""
    out: list[tuple[str, str]] = []
    for side, spec in dict(sc.raw.get("purchase", {})).items():
        where = f"purchase.{side}"
        if side not in sc.side_ids() or not isinstance(spec, dict):
            out.append((where, "expected [purchase.<side>] with points"))
            continue
        points = int(spec.get("points", 0))
        cost = purchase_cost(rs, sc, side)
        if cost > points:
            out.append((where, f"the {side} force costs {cost} strength points, more than its {points} (rule 11.6)"))
        counts: dict[str, int] = {}
        for u in sc.units:
            if u.side == side:
                counts[u.type] = counts.get(u.type, 0) + 1
        limits = {**{k: int(spec.get("max_copies", 99)) for k in counts}, **dict(spec.get("limits", {}))}
        for code, n in sorted(counts.items()):
            if n > int(limits.get(code, 99)):
                out.append((where, f"{n} copies of {code}, more than the {limits[code]} allowed (rule 11.6)"))
            if rs.tables.units[code].optional and not spec.get("optional_allowed"):
                out.append((where, f"{code} is optional: allowed only if both players agree (rule 11.6)"))
        for code in spec.get("exactly_one", []):
            if counts.get(code, 0) != 1:
                out.append((where, f"the force must include exactly one {code} (rule 11.6)"))
        cols = spec.get("columns")
        if cols is not None:
            if not (isinstance(cols, list) and len(cols) == 2 and all(isinstance(c, int) for c in cols)):
                out.append((f"{where}.columns", "expected columns = [first, last]: the set-up zone (rule 11.6)"))
                continue
            for u in sc.units:
                if u.side == side and u.hex is not None and not cols[0] <= hex_to_offset(u.hex)[0] <= cols[1]:
                    out.append((f"{where}.columns", f"{u.id} stands outside the set-up zone (rule 11.6)"))
    return out


_CHECKS: tuple[Callable[[Rules, Scenario], Found], ...] = (
    _sides, _unit_problems, _transports, _stacking, _structures_found, check_purchase, _victory, _control_found, _ai,
)  # fmt: skip
"""The checks of a scenario, in the order their problems are reported."""


def _structures(sc: Scenario, board: Board, skip: frozenset[str] = frozenset()) -> Structures:
    """Bridges from the map (9.18.1), wire, dragon's teeth and trenches from ``[[structures]]`` (9.18); a side
    in ``skip`` buys its own (11.6) and gets the file's only as its default set-up."""
    out = Structures()
    for h, cell in sorted(board.cells.items()):
        if cell.terrain == "bridge":
            out.bridges[h] = Bridge()
    for item in sc.raw.get("structures", []):
        if item.get("side") not in skip:
            add_structure(out, fort(item))
    return out


def _control(sc: Scenario, board: Board) -> dict[Hex, str]:
    """11.2: each side's initial hexes (``[control.<side>]``: columns and hexes), by label."""
    control: dict[Hex, str] = {}
    for side, spec in dict(sc.raw.get("control", {})).items():
        cols = spec.get("columns")
        if cols:
            for h in board.cells:
                col, _row = hex_to_offset(h)
                if int(cols[0]) <= col <= int(cols[1]):
                    control[h] = side
        for label in hex_list(spec.get("hexes")):
            control[parse_hex(label)] = side
    return dict(sorted(control.items(), key=lambda kv: board.label(kv[0])))


def _units(rs: Rules, sc: Scenario, board: Board) -> dict[str, Unit]:
    """The scenario's units (11.1): aircraft on their airfield (9.12), paratroopers waiting for their transport
    (9.15.4), reinforcements off the map until they arrive, passengers and towed units with their transport."""
    t = rs.tables
    units: dict[str, Unit] = {}
    for spec in sc.units:
        c = t.units[spec.type]
        s = unit_status(t, spec.type, spec.hex, spec.status)
        steps = spec.steps if spec.steps is not None else c.size
        where = spec.hex
        if c.type == "AIR":
            s.prep = 4  # 11.1: aircraft start on their airfield with box IV (Ready) marked
            where = None
        elif spec.status.get("airfield"):  # 9.15.4: paratroopers wait on the airfield for their transport
            s.airfield = True
            where = None
        elif (spec.arrives is not None and spec.arrives > 1) or spec.hex is None:
            s.arrives = int(spec.arrives or 1)
            s.entry = tuple(spec.entry or ((spec.hex,) if spec.hex is not None else ()))
            where = None
        units[spec.id] = Unit(spec.id, spec.type, spec.side, where, steps, spec.formation, s)
    for spec in sc.units:
        tw = spec.status.get("towed_by")
        if tw is not None and str(tw) in units:
            u, tp = units[spec.id], units[str(tw)]
            us = status(u)
            us.carried_by, us.towed, us.deployed = tp.id, True, False
            u.hex = tp.hex
            status(tp).carrying += (u.id,)
        a = spec.status.get("aboard")
        if a is not None:
            u, tp = units[spec.id], units[str(a)]
            status(u).carried_by = tp.id
            u.hex = tp.hex
            status(tp).carrying += (u.id,)
    return units


def initial_state(rs: Rules, sc: Scenario, board: Board, dice: DiceSource) -> GameState:
    """The state at the start of the scenario (11.1): Round 1's Planning Phase, or the set-up (11.6)."""
    t = rs.tables
    v = dict(sc.raw.get("victory", {}))
    purchasing = frozenset(dict(sc.raw.get("purchase", {})))
    special = dict(sc.raw.get("special", {}))
    until = special.get("bridge_draw_until")
    d = AotData(
        rounds=sc.turns,
        orders={s: {} for s in sc.side_ids()},
        control=_control(sc, board),
        victory=Victory(
            hexes=tuple(parse_hex(x) for x in hex_list(v.get("hexes"))),
            otherwise=str(v.get("otherwise", "draw")),
            bridge_intact=tuple(parse_hex(x) for x in hex_list(v.get("bridge_intact"))),
        ),
        structures=_structures(sc, board, purchasing),
        minefields={
            parse_hex(str(m["hex"])): Minefield(str(m["side"]), m.get("mine", "anti_tank"))
            for m in sc.raw.get("structures", [])
            if isinstance(m, dict) and m.get("kind") == "minefield"
        },
        special=Special(bridge_draw_until=int(until) if isinstance(until, int) else None),
        # The scenario's AI weights per side (not rules; weights.side_weights).
        ai={
            str(s): {str(k): float(x) for k, x in dict(over).items()} for s, over in dict(sc.raw.get("ai", {})).items()
        },
    )
    units = _units(rs, sc, board)
    state = GameState(sc.ruleset, sc.id, tuple(sc.side_ids()), board, units, 1, "planning", t.sides[0], d, dice)
    if purchasing:
        prepare_purchase(rs, sc, state)
    return state
