"""Provides Art of Tactic scenario checks and the initial state (digest 11.1–11.2).

Scenario keys read here: each unit's ``status`` (``facing`` as a hex label, ``deployed``, ``concealed``,
``aboard`` = the transport's id, ``ammo``); ``[control]`` with each side's initial hexes (``columns = [a, b]``
and ``hexes``); ``[victory]`` with ``hexes`` (the objectives) and ``otherwise`` (``draw``, ``losses`` or a side).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.board import Board
from engine.dice import DiceSource
from engine.errors import Problem
from engine.hexgrid import Hex, hex_label, hex_to_offset, parse_hex
from engine.scenario import Scenario
from engine.state import GameState, Unit

from .sight import facing_of

if TYPE_CHECKING:
    from .ruleset import ArtOfTactic

__all__ = ["check_scenario", "initial_state"]

_STATUS_KEYS = {
    "facing", "deployed", "concealed", "aboard", "ammo", "suppressed", "entrenched", "mines", "towed_by",
    "cargo_ammo", "cargo_mines", "airfield",
}  # fmt: skip


def check_scenario(rs: ArtOfTactic, sc: Scenario) -> list[Problem]:
    """Sides, card sides, facings, transports, stacking, control and victory keys."""
    t = rs.tables
    out: list[Problem] = []
    file = sc.path or f"{rs.id}/{sc.id}"

    def add(where: str, msg: str) -> None:
        out.append(Problem(file, where, msg))

    ids = sc.side_ids()
    if sorted(ids) != sorted(t.sides):
        add("sides", f"expected the sides {', '.join(t.sides)} (rule 1.2), got {', '.join(ids)}")
    by_id = {u.id: u for u in sc.units}
    for i, u in enumerate(sc.units):
        c = t.units[u.type]
        where = f"units[{i}] ({u.id})"
        if c.side != u.side:
            add(where, f"card {u.type} belongs to the {c.side} side, not {u.side}")
        if u.steps is not None and u.steps > c.size:
            add(where, f"steps {u.steps} exceed the card's size {c.size}")
        for key in u.status:
            if key not in _STATUS_KEYS:
                add(f"{where}.status", f"unknown status {key!r} (expected one of {', '.join(sorted(_STATUS_KEYS))})")
        f = u.status.get("facing")
        if f is not None:
            try:
                fh = parse_hex(str(f))
            except ValueError:
                add(f"{where}.status.facing", f"expected a hex label, got {f!r}")
            else:
                if u.hex is None or facing_of(u.hex, fh) is None:
                    add(f"{where}.status.facing", f"the facing hex {f} must be next to the unit's hex")
        aboard = u.status.get("aboard")
        if aboard is not None:
            tp = by_id.get(str(aboard))
            if tp is None or tp.side != u.side or not t.units[tp.type].has("transport"):
                add(f"{where}.status.aboard", f"{aboard!r} is not a friendly transport")
            elif t.units[u.type].type not in t.units[tp.type].carries:
                add(f"{where}.status.aboard", f"{tp.id} cannot carry {u.type}")
            elif u.hex != tp.hex:
                add(f"{where}.hex", f"a passenger stands in its transport's hex ({tp.id})")
        elif u.status.get("airfield"):
            if not t.units[u.type].has("paratrooper"):
                add(f"{where}.status.airfield", "only paratroopers wait on the airfield (rule 9.15.4)")
        elif u.hex is None and u.arrives is None:
            add(where, "expected hex, arrives or status.aboard")
        if u.arrives is not None and u.arrives > 1 and not u.entry and u.hex is None:
            add(f"{where}.entry", "a reinforcement needs entry hexes (or a hex)")
        if u.arrives is not None and u.arrives > sc.turns:
            add(f"{where}.arrives", f"arrives in round {u.arrives}, after the last round ({sc.turns})")
        if c.field_of_fire and u.hex is not None and f is None:
            add(f"{where}.status.facing", f"{u.type} has a field of fire: give its facing hex (rule 5.5)")
    # Transport capacity (4.6) and stacking (4.9).
    load: dict[str, int] = {}
    for u in sc.units:
        a = u.status.get("aboard")
        if a is not None:
            load[str(a)] = load.get(str(a), 0) + (u.steps or t.units[u.type].size)
    for tid, n in load.items():
        tp = by_id.get(tid)
        if tp is not None and n > (tp.steps or t.units[tp.type].size):
            add(f"units ({tid})", f"{tid} carries size {n}, more than its size (rule 4.6)")
    stacks: dict[tuple[str, str, bool], int] = {}
    for u in sc.units:
        if u.hex is None or u.status.get("aboard") is not None or (u.arrives or 1) > 1:
            continue
        veh = t.is_vehicle(t.units[u.type].type)
        stack = (u.side, hex_label(u.hex), veh)
        stacks[stack] = stacks.get(stack, 0) + 1
    for (side, label, veh), n in stacks.items():
        lim = int(t.rules["stacking"]["vehicles" if veh else "infantry_artillery"])
        if n > lim:
            add(
                "units", f"{side} stacks {n} {'vehicle' if veh else 'infantry'} units in {label}, over {lim} (rule 4.9)"
            )
    placed = [u for u in sc.units if u.hex is not None and (u.arrives or 1) <= 1]
    for label in {hex_label(u.hex) for u in placed if u.hex is not None}:
        if len({u.side for u in placed if u.hex is not None and hex_label(u.hex) == label}) > 1:
            add("units", f"units of both sides share {label} (rule 4.9)")
    for i, item in enumerate(sc.raw.get("structures", [])):
        where = f"structures[{i}]"
        kind = item.get("kind") if isinstance(item, dict) else None
        if kind in ("wire", "teeth"):
            pair = _hex_list(item.get("between"))
            ok = len(pair) == 2
            if ok:
                try:
                    a, b = (parse_hex(x) for x in pair)
                    ok = b in a.neighbours()
                except ValueError:
                    ok = False
            if not ok:
                add(f"{where}.between", "expected two adjacent hexes: the hexside the obstacle lies on (rule 9.18)")
        elif kind == "minefield":
            if item.get("mine", "anti_tank") not in ("anti_tank", "anti_personnel", "dummy"):
                add(f"{where}.mine", "expected anti_tank, anti_personnel or dummy (rule 9.6)")
            if item.get("side") not in sc.side_ids():
                add(f"{where}.side", "a minefield needs the side that laid it (rule 9.6)")
        elif kind in ("trench", "dugout"):
            try:
                h, f = parse_hex(str(item.get("hex"))), parse_hex(str(item.get("facing")))
                if facing_of(h, f) is None:
                    add(f"{where}.facing", f"the {kind}'s facing hex must be next to its hex (rule 9.18.5, 9.18.6)")
                elif kind == "dugout" and sc.map.terrain.get(h, ("",))[0] in ("~", "="):
                    add(f"{where}.hex", "a dugout may not stand in a river hex (rule 9.18.6)")
            except ValueError:
                add(where, 'expected hex = "CCRR" and facing = "CCRR" (rule 9.18.5, 9.18.6)')
        else:
            add(f"{where}.kind", f"expected wire, teeth, trench, dugout or minefield, got {kind!r}")
    out.extend(Problem(file, where, msg) for where, msg in check_purchase(rs, sc))
    v = sc.raw.get("victory", {})
    if not isinstance(v, dict) or not v.get("hexes"):
        add("victory", "expected [victory] with hexes = the objectives (rule 11.2)")
    elif v.get("otherwise", "draw") not in ("draw", "losses", *ids):
        add("victory.otherwise", f"expected draw, losses or a side, got {v.get('otherwise')!r}")
    control = sc.raw.get("control", {})
    if not isinstance(control, dict) or any(s not in ids for s in control):
        add("control", "expected [control.<side>] tables with columns = [first, last] and/or hexes")
    if "ai" in sc.raw:
        from .evaluation import check_overrides  # noqa: PLC0415

        for where, msg in check_overrides(sc.raw["ai"], tuple(ids)):
            add(where, msg)
    return out


def purchase_cost(rs: ArtOfTactic, sc: Scenario, side: str) -> int:
    """Strength points a side's force and fortifications cost (12.2 errata costs, 11.1 fortification costs)."""
    t = rs.tables
    cost = sum(t.units[u.type].cost for u in sc.units if u.side == side)
    cost += sum(t.units[u.type].mine_cost for u in sc.units if u.side == side and u.status.get("mines"))
    for item in sc.raw.get("structures", []):
        kind = {"teeth": "dragons_teeth"}.get(str(item.get("kind")), str(item.get("kind")))
        if isinstance(item, dict) and item.get("side") == side and kind in t.fortifications:
            cost += int(t.fortifications[kind]["cost"])
    return cost


def check_purchase(rs: ArtOfTactic, sc: Scenario) -> list[tuple[str, str]]:
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


def _hex_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [x for x in value.replace(",", " ").split() if x]
    return [str(x) for x in value or []]


def _structures(rs: ArtOfTactic, sc: Scenario, board: Board, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Bridges from the map (9.18.1), wire, dragon's teeth and trenches from ``[[structures]]`` (9.18); a side
    in ``skip`` buys its own (11.6) and gets the file's only as its default set-up."""
    out: dict[str, Any] = {
        "wire": [], "teeth": [], "trenches": {}, "bridges": {}, "paths": [], "pontoons": [], "dugouts": {},
    }  # fmt: skip
    for h, cell in sorted(board.cells.items()):
        if cell.terrain == "bridge":
            out["bridges"][board.label(h)] = {"hits": 0, "destroyed": False}
    for item in sc.raw.get("structures", []):
        if item.get("side") not in skip:
            add_structure(out, item)
    return out


def add_structure(out: dict[str, Any], item: Mapping[str, Any]) -> None:
    """Put one ``[[structures]]`` item (wire, teeth, trench or dugout) into the state's structures (9.18)."""
    kind = item.get("kind")
    if kind in ("wire", "teeth"):
        a, b = sorted(_hex_list(item.get("between")))
        out[kind].append([a, b])
    elif kind == "trench":
        out["trenches"][str(item["hex"])] = facing_of(parse_hex(str(item["hex"])), parse_hex(str(item["facing"])))
    elif kind == "dugout":
        facing = facing_of(parse_hex(str(item["hex"])), parse_hex(str(item["facing"])))
        out["dugouts"][str(item["hex"])] = {"facing": facing, "hits": 0}


def unit_status(rs: ArtOfTactic, code: str, where: Hex | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """A new unit's status from its card and the scenario's ``status`` (11.1, G51, 9.6, 9.11)."""
    c = rs.tables.units[code]
    st: dict[str, Any] = {"ammo": int(given.get("ammo", c.ammo))}
    if c.smoke:
        st["smoke_ammo"] = c.smoke
    if c.cargo:
        st["cargo_ammo"] = int(given.get("cargo_ammo", c.cargo.get("ammo", 0)))
        st["cargo_mines"] = int(given.get("cargo_mines", c.cargo.get("mines", 0)))
    if c.has("concealment"):
        st["concealed"] = bool(given.get("concealed", True))  # 9.11: starts concealed
    if c.can_order("deploy"):
        st["deployed"] = bool(given.get("deployed", True))  # G51: deployed unless said otherwise
    f = given.get("facing")
    st["facing"] = facing_of(where, parse_hex(str(f))) if (f is not None and where is not None) else None
    if given.get("suppressed"):
        st["suppressed"] = True
    if given.get("entrenched"):
        st["entrenched"] = True
    if c.has("engineer"):
        st["mines"] = bool(given.get("mines", False))  # 9.6: the real minefield must be bought
    return st


def initial_state(rs: ArtOfTactic, sc: Scenario, board: Board, dice: DiceSource) -> GameState:
    t = rs.tables
    units: dict[str, Unit] = {}
    for spec in sc.units:
        c = t.units[spec.type]
        st = unit_status(rs, spec.type, spec.hex, spec.status)
        steps = spec.steps if spec.steps is not None else c.size
        where = spec.hex
        if c.type == "AIR":
            st["prep"] = 4  # 11.1: aircraft start on their airfield with box IV (Ready) marked
            units[spec.id] = Unit(spec.id, spec.type, spec.side, None, steps, spec.formation, st)
            continue
        if spec.status.get("airfield"):  # 9.15.4: paratroopers wait on the airfield for their transport
            st["airfield"] = True
            units[spec.id] = Unit(spec.id, spec.type, spec.side, None, steps, spec.formation, st)
            continue
        if (spec.arrives is not None and spec.arrives > 1) or spec.hex is None:
            st["arrives"] = int(spec.arrives or 1)
            st["entry"] = [board.label(h) for h in (spec.entry or ((spec.hex,) if spec.hex is not None else ()))]
            where = None
        units[spec.id] = Unit(spec.id, spec.type, spec.side, where, steps, spec.formation, st)
    for spec in sc.units:
        tw = spec.status.get("towed_by")
        if tw is not None and str(tw) in units:
            u, tp = units[spec.id], units[str(tw)]
            u.status.update(carried_by=tp.id, towed=True, deployed=False)
            u.hex = tp.hex
            tp.status["carrying"] = [*tp.status.get("carrying", []), u.id]
        a = spec.status.get("aboard")
        if a is not None:
            u, tp = units[spec.id], units[str(a)]
            u.status["carried_by"] = tp.id
            u.hex = tp.hex
            tp.status["carrying"] = [*tp.status.get("carrying", []), u.id]
    control: dict[str, str] = {}
    for side, spec in dict(sc.raw.get("control", {})).items():
        cols = spec.get("columns")
        if cols:
            for h in board.cells:
                col, _row = hex_to_offset(h)
                if int(cols[0]) <= col <= int(cols[1]):
                    control[board.label(h)] = side
        for label in _hex_list(spec.get("hexes")):
            control[label] = side
    v = dict(sc.raw.get("victory", {}))
    purchasing = frozenset(dict(sc.raw.get("purchase", {})))
    data = {
        "rounds": sc.turns,
        "orders": {s: {} for s in sc.side_ids()},
        "committed": [],
        "control": dict(sorted(control.items())),
        "victory": {
            "hexes": _hex_list(v.get("hexes")),
            "otherwise": str(v.get("otherwise", "draw")),
            "bridge_intact": _hex_list(v.get("bridge_intact")),
        },
        "smoke": {},
        "structures": _structures(rs, sc, board, purchasing),
        "minefields": {
            str(m["hex"]): {"owner": str(m["side"]), "kind": str(m.get("mine", "anti_tank"))}
            for m in sc.raw.get("structures", [])
            if isinstance(m, dict) and m.get("kind") == "minefield"
        },
        "special": {k: v for k, v in dict(sc.raw.get("special", {})).items() if isinstance(v, (int, str, bool))},
    }
    ai = {str(s): {str(k): float(v) for k, v in dict(over).items()} for s, over in dict(sc.raw.get("ai", {})).items()}
    if ai:  # the scenario's AI weights per side (not rules; evaluation.side_weights)
        data["ai"] = ai
    state = GameState(rs.id, sc.id, tuple(sc.side_ids()), board, units, 1, "planning", t.sides[0], data, dice)
    if purchasing:
        from .purchase import prepare_purchase  # noqa: PLC0415

        prepare_purchase(rs, sc, state)
    return state
