"""Provides a scenario's own purchase and secret set-up (digest 11.6, 11.1, 12.2, 15.1): P-3 "Stützpunkt".

A scenario with ``[purchase.<side>]`` starts in the ``setup`` phase. Each purchasing side, in the order given by
``order`` (11.6: the Soviets first, then the Germans), buys cards within its strength points and places them in
its set-up zone (``columns = [first, last]``), buys fortifications if ``fortifications = true`` and engineer
mines if ``mines = true``, then ``commit``s; ``default`` takes the scenario file's force and set-up for that side
instead (the ruleset's ``default_setup_verb``). Purchases and placements are the owner's secret (15.1): the
other side's view holds none of them and the events recording them are visible to the owner only, until both
sides are done and the set-up is revealed together; then Round 1 begins.

Scenario keys of ``[purchase.<side>]``: ``points``, ``max_copies``, ``limits`` (card → copies),
``exactly_one`` (cards the force must hold exactly once), ``optional_allowed``, ``order``, ``columns``,
``fortifications``, ``mines``. The file's units and ``[[structures]]`` of the side are its default purchase.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import InvalidActionError
from engine.hexgrid import Hex, hex_to_offset, parse_hex
from engine.rules import Transition
from engine.scenario import Scenario
from engine.state import GameState, Unit, copy_plain

from .model import refuse
from .sight import facing_of

if TYPE_CHECKING:
    from .ruleset import ArtOfTactic

__all__ = [
    "SETUP_VERBS",
    "apply_setup",
    "check_setup",
    "hide_setup",
    "parse_setup",
    "prepare_purchase",
    "setup_actions",
    "spent",
]

RULE = "11.6"

SETUP_VERBS: dict[str, str] = {
    "buy": "buy CARD [HEX [FACING-HEX]] [mines]: set-up: buy a card and place it in your zone; aircraft take no hex, "
    "engineers may add mines (11.6)",
    "fortify": "fortify trench|dugout HEX FACING-HEX, fortify wire|teeth HEX HEX: set-up: buy a fortification in "
    "your zone (11.6, 9.18)",
    "sell": "sell UNIT, sell KIND HEX [HEX]: set-up: take back a unit or fortification bought this set-up (11.6)",
    "default": "default: set-up: take the scenario file's purchase and set-up for your side, ending it (11.6)",
}

_KINDS = ("trench", "dugout", "wire", "teeth")
_COST_KEY = {"teeth": "dragons_teeth"}
_PREFIX = {"german": "ger", "soviet": "sov"}


# --- State -------------------------------------------------------------------------------------------------


def prepare_purchase(rs: ArtOfTactic, sc: Scenario, st: GameState) -> None:
    """Take every purchasing side's units off the state as its default purchase and open the set-up (11.6)."""
    spec = dict(sc.raw.get("purchase", {}))
    sides = sorted(spec, key=lambda s: (int(spec[s].get("order", 99)), rs.tables.sides.index(s)))
    default: dict[str, Any] = {}
    for side in sides:
        units = [u for u in st.units.values() if u.side == side]
        items = [dict(i) for i in sc.raw.get("structures", []) if isinstance(i, dict) and i.get("side") == side]
        default[side] = {"units": [u.to_dict() for u in units], "structures": copy_plain(items)}
        for u in units:
            del st.units[u.id]
    rules = {
        side: {
            "points": int(s.get("points", 0)),
            "max_copies": int(s.get("max_copies", 99)),
            "limits": {str(k): int(v) for k, v in dict(s.get("limits", {})).items()},
            "exactly_one": [str(x) for x in s.get("exactly_one", [])],
            "optional_allowed": bool(s.get("optional_allowed", False)),
            "columns": [int(x) for x in s.get("columns", [1, 99])],
            "fortifications": bool(s.get("fortifications", False)),
            "mines": bool(s.get("mines", False)),
        }
        for side, s in spec.items()
    }
    st.data["setup"] = {"sides": sides, "done": [], "rules": rules, "default": default,
                        "structures": {s: [] for s in sides}}  # fmt: skip
    st.phase = "setup"
    st.to_act = sides[0]


def start_setup(rs: ArtOfTactic, tr: Transition) -> None:
    """The first set-up event (public: who sets up first)."""
    sides = tr.state.data["setup"]["sides"]
    tr.emit(
        "setup",
        f"Set-up (rule {RULE}): {', then '.join(sides)} buy and place their forces in secret; "
        "both are revealed together",
    )


def spent(rs: ArtOfTactic, st: GameState, side: str) -> int:
    """Strength points the side's purchase costs so far: cards (12.2 errata costs), engineer mines (9.6) and
    fortifications (11.1)."""
    t = rs.tables
    total = 0
    for u in st.units.values():
        if u.side == side:
            c = t.units[u.type]
            total += c.cost + (c.mine_cost if u.status.get("mines") else 0)
    for item in st.data["setup"]["structures"].get(side, []):
        total += _fort_cost(rs, str(item["kind"]))
    return total


def _fort_cost(rs: ArtOfTactic, kind: str) -> int:
    return int(rs.tables.fortifications[_COST_KEY.get(kind, kind)]["cost"])


def _rules(st: GameState, side: str) -> dict[str, Any]:
    got = st.data["setup"]["rules"][side]
    assert isinstance(got, dict)
    return got


def _counts(st: GameState, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in st.units.values():
        if u.side == side:
            out[u.type] = out.get(u.type, 0) + 1
    return out


def _in_zone(st: GameState, side: str, h: Hex) -> bool:
    a, b = _rules(st, side)["columns"]
    return h in st.board.cells and a <= hex_to_offset(h)[0] <= b


def _zone_text(st: GameState, side: str) -> str:
    a, b = _rules(st, side)["columns"]
    return f"columns {a:02d}-{b:02d}"


def _missing_required(rs: ArtOfTactic, st: GameState, side: str, buying: str | None = None) -> int:
    """Strength points still needed for the cards the force must include (11.6: exactly one HQ)."""
    counts = _counts(st, side)
    return sum(
        rs.tables.units[code].cost
        for code in _rules(st, side)["exactly_one"]
        if counts.get(code, 0) == 0 and code != buying
    )


def _pending(st: GameState) -> list[dict[str, Any]]:
    side = st.to_act
    assert side is not None
    got = st.data["setup"]["structures"].setdefault(side, [])
    assert isinstance(got, list)
    return got


def _fort_key(item: Mapping[str, Any]) -> tuple[str, ...]:
    if item["kind"] in ("wire", "teeth"):
        return (str(item["kind"]), *sorted(str(item["between"]).split()))
    return (str(item["kind"]), str(item["hex"]))


# --- Notation ----------------------------------------------------------------------------------------------


def parse_setup(rs: ArtOfTactic, st: GameState, a: Action) -> Action:
    """Check the shape of a set-up action (verb, number of arguments, hex labels)."""
    n = len(a.args)
    usage = SETUP_VERBS[a.verb]
    if a.verb == "default" and n:
        raise InvalidActionError(f"default takes no arguments; usage: {usage}")
    if a.verb == "buy":
        if not 1 <= n <= 4:
            raise InvalidActionError(f"buy: wrong number of arguments; usage: {usage}")
        labels = [x for x in a.args[1:] if x != "mines"]
    elif a.verb == "fortify":
        if n != 3 or a.args[0] not in _KINDS:
            raise InvalidActionError(f"fortify: expected a kind ({', '.join(_KINDS)}) and two hexes; usage: {usage}")
        labels = list(a.args[1:])
    elif a.verb == "sell":
        if n == 1:
            labels = []
        elif n in (2, 3) and a.args[0] in _KINDS:
            labels = list(a.args[1:])
        else:
            raise InvalidActionError(f"sell: expected a unit, or a fortification's kind and hexes; usage: {usage}")
    else:
        labels = []
    for label in labels:
        try:
            st.board.parse(label)
        except ValueError as err:
            raise InvalidActionError(f"{a.verb}: {err}") from None
    return a


# --- Checks ------------------------------------------------------------------------------------------------


def check_setup(rs: ArtOfTactic, st: GameState, a: Action) -> None:
    """Refuse a set-up action that breaks a rule, naming what and the rule."""
    side = st.to_act
    assert side is not None
    if a.verb == "default":
        return
    if a.verb == "commit":
        for code in _rules(st, side)["exactly_one"]:
            if _counts(st, side).get(code, 0) != 1:
                raise refuse(f"cannot end the set-up: the {side} force must include exactly one {code}", RULE)
        return
    if a.verb == "buy":
        _check_buy(rs, st, side, a)
    elif a.verb == "fortify":
        _check_fortify(rs, st, side, a)
    elif a.verb == "sell":
        _check_sell(st, side, a)
    else:
        raise refuse(f"{a.verb}: orders are given from Round 1; now buy and place your force (buy, fortify, sell, "
                     "default, commit)", RULE)  # fmt: skip


def _afford(rs: ArtOfTactic, st: GameState, side: str, what: str, cost: int, buying: str | None = None) -> None:
    points = int(_rules(st, side)["points"])
    left = points - spent(rs, st, side)
    if cost > left:
        raise refuse(f"{what} costs {cost} strength points; only {left} of the {points} are left", RULE)
    need = _missing_required(rs, st, side, buying)
    if left - cost < need:
        missing = [c for c in _rules(st, side)["exactly_one"] if c != buying and _counts(st, side).get(c, 0) == 0]
        raise refuse(
            f"{what} would leave {left - cost} strength points, too few for the {', '.join(missing)} the force "
            f"must include ({need})",
            RULE,
        )


def _card_problem(rs: ArtOfTactic, st: GameState, side: str, code: str) -> str | None:
    t = rs.tables
    c = t.units.get(code)
    if c is None:
        return f"no card {code!r} in the roster (rule 12.3)"
    if c.side != side:
        return f"{code} is a {c.side} card, not {side} (rule 12.3)"
    if c.generic:
        return f"{code} is a generic card, not in the roster (rule 12.5)"
    r = _rules(st, side)
    if c.optional and not r["optional_allowed"]:
        return f"{code} is optional: allowed only if both players agree (rule {RULE})"
    n = _counts(st, side).get(code, 0)
    if code in r["exactly_one"] and n >= 1:
        return f"the force must include exactly one {code}; it has one already (rule {RULE})"
    limit = int(r["limits"].get(code, r["max_copies"]))
    if n >= limit:
        return f"at most {limit} copies of {code} (rule {RULE})"
    return None


def _check_buy(rs: ArtOfTactic, st: GameState, side: str, a: Action) -> None:
    t = rs.tables
    code = a.args[0]
    problem = _card_problem(rs, st, side, code)
    if problem:
        text, rule = problem.rsplit(" (rule ", 1)
        raise refuse(f"cannot buy {code}: {text}", rule.rstrip(")"))
    c = t.units[code]
    rest = list(a.args[1:])
    mines = bool(rest) and rest[-1] == "mines"
    if mines:
        rest.pop()
        if not c.has("engineer") or not c.mine_cost:
            raise refuse(f"cannot buy {code} with mines: only engineers lay mines", "9.6")
        if not _rules(st, side)["mines"]:
            raise refuse(f"cannot buy mines: the {side} side buys no engineer mines in this scenario", RULE)
    if c.type == "AIR":
        if rest:
            raise refuse(f"cannot place {code}: aircraft start on their airfield off the board; write no hex", "9.12")
    else:
        if not rest:
            raise refuse(f"cannot buy {code}: give the hex to place it in ({_zone_text(st, side)})", RULE)
        h = st.board.parse(rest[0])
        _check_place(rs, st, side, code, h, rest[0])
        if c.field_of_fire:
            if len(rest) < 2:
                raise refuse(f"cannot buy {code}: it has a field of fire; give the hex it faces", "5.5")
            if facing_of(h, st.board.parse(rest[1])) is None:
                raise refuse(f"cannot buy {code}: the facing hex {rest[1]} is not next to {rest[0]}", "5.5")
        elif len(rest) > 1:
            raise refuse(f"cannot buy {code} facing {rest[1]}: {code} has no field of fire on its card", "5.5")
    _afford(rs, st, side, f"{code}{' with mines' if mines else ''}", c.cost + (c.mine_cost if mines else 0), code)


def _place_problem(rs: ArtOfTactic, st: GameState, side: str, code: str, h: Hex) -> str | None:
    t = rs.tables
    label = st.board.label(h)
    if not _in_zone(st, side, h):
        return f"{label} is outside the {side} set-up zone ({_zone_text(st, side)}) (rule {RULE})"
    terrain = st.board.cells[h].terrain
    if not rs.can_stand(code, terrain):
        return f"{code} cannot stand in {terrain} at {label} (rule 4.8)"
    veh = t.is_vehicle(t.units[code].type)
    lim = int(t.rules["stacking"]["vehicles" if veh else "infantry_artillery"])
    here = [u for u in st.units.values() if u.side == side and u.hex == h and t.is_vehicle(t.units[u.type].type) == veh]
    if len(here) >= lim:
        return f"{label} already holds {len(here)} {'vehicle' if veh else 'infantry'} units, the limit (rule 4.9)"
    return None


def _check_place(rs: ArtOfTactic, st: GameState, side: str, code: str, h: Hex, label: str) -> None:
    problem = _place_problem(rs, st, side, code, h)
    if problem:
        text, rule = problem.rsplit(" (rule ", 1)
        raise refuse(f"cannot place {code} at {label}: {text}", rule.rstrip(")"))


def _fort_item(st: GameState, side: str, a: Action) -> dict[str, Any]:
    kind, x, y = a.args[0], a.args[1], a.args[2]
    if kind in ("wire", "teeth"):
        return {"kind": kind, "side": side, "between": " ".join(sorted((x, y)))}
    return {"kind": kind, "side": side, "hex": x, "facing": y}


def _fort_problem(rs: ArtOfTactic, st: GameState, side: str, item: Mapping[str, Any]) -> str | None:
    kind = str(item["kind"])
    if not _rules(st, side)["fortifications"]:
        return f"the {side} side buys no fortifications in this scenario (rule {RULE})"
    if kind in ("wire", "teeth"):
        a, b = (parse_hex(x) for x in str(item["between"]).split())
        if b not in a.neighbours():
            return "the two hexes must be next to each other: the obstacle lies on their hexside (rule 9.18)"
        hexes = [a, b]
    else:
        h, f = parse_hex(str(item["hex"])), parse_hex(str(item["facing"]))
        if facing_of(h, f) is None:
            return f"the facing hex {item['facing']} is not next to {item['hex']} (rule 9.18.5)"
        hexes = [h]
        if kind == "dugout" and st.board.cells[h].terrain in ("river", "ford", "bridge"):
            return f"a dugout may not stand in a river hex ({item['hex']}) (rule 9.18.6)"
    for h in hexes:
        if not _in_zone(st, side, h):
            return f"{st.board.label(h)} is outside the {side} set-up zone ({_zone_text(st, side)}) (rule {RULE})"
    key = _fort_key(item)
    if any(_fort_key(i) == key for i in st.data["setup"]["structures"].get(side, [])):
        return f"a {kind} is there already (rule 9.18)"
    if kind in ("trench", "dugout"):
        for other in st.data["setup"]["structures"].get(side, []):
            if other["kind"] in ("trench", "dugout") and other["hex"] == item["hex"]:
                return f"{item['hex']} holds a {other['kind']} already (rule 9.18)"
    return None


def _check_fortify(rs: ArtOfTactic, st: GameState, side: str, a: Action) -> None:
    item = _fort_item(st, side, a)
    problem = _fort_problem(rs, st, side, item)
    if problem:
        text, rule = problem.rsplit(" (rule ", 1)
        raise refuse(f"cannot buy the {a.args[0]}: {text}", rule.rstrip(")"))
    _afford(rs, st, side, f"the {a.args[0]}", _fort_cost(rs, a.args[0]))


def _check_sell(st: GameState, side: str, a: Action) -> None:
    if len(a.args) == 1:
        u = st.units.get(a.args[0])
        if u is None or u.side != side:
            raise refuse(f"cannot sell {a.args[0]}: not a unit of your purchase", RULE)
        return
    if len(a.args) != 3:
        raise refuse(f"cannot sell the {a.args[0]}: write its kind and two hexes, as bought", RULE)
    key = _fort_key(_fort_item(st, side, a))
    if not any(_fort_key(i) == key for i in st.data["setup"]["structures"].get(side, [])):
        raise refuse(f"cannot sell the {a.args[0]} at {' '.join(a.args[1:])}: you have not bought it", RULE)


# --- Legal actions ----------------------------------------------------------------------------------------


def setup_actions(rs: ArtOfTactic, st: GameState) -> Iterator[Action]:
    """Every set-up action of the side to act: default, commit, sales, purchases with their placements."""
    side = st.to_act
    assert side is not None
    t = rs.tables
    yield Action("default", ())
    r = _rules(st, side)
    counts = _counts(st, side)
    if all(counts.get(code, 0) == 1 for code in r["exactly_one"]):
        yield Action("commit", ())
    for u in st.units.values():
        if u.side == side:
            yield Action("sell", (u.id,))
    for item in st.data["setup"]["structures"].get(side, []):
        if item["kind"] in ("wire", "teeth"):
            yield Action("sell", (str(item["kind"]), *str(item["between"]).split()))
        else:
            yield Action("sell", (str(item["kind"]), str(item["hex"]), str(item["facing"])))
    left = int(r["points"]) - spent(rs, st, side)
    zone = sorted((h for h in st.board.cells if _in_zone(st, side, h)), key=st.board.label)
    for code in sorted(t.units):
        c = t.units[code]
        if c.side != side or _card_problem(rs, st, side, code) is not None:
            continue
        if left - c.cost < _missing_required(rs, st, side, code):
            continue
        if c.type == "AIR":
            yield Action("buy", (code,))
            continue
        mines = c.has("engineer") and c.mine_cost and r["mines"]
        mines = mines and left - c.cost - c.mine_cost >= _missing_required(rs, st, side, code)
        for h in zone:
            if _place_problem(rs, st, side, code, h) is not None:
                continue
            label = st.board.label(h)
            if c.field_of_fire:
                for n in sorted(st.board.graph.neighbors(h), key=st.board.label):
                    yield Action("buy", (code, label, st.board.label(n)))
            else:
                yield Action("buy", (code, label))
                if mines:
                    yield Action("buy", (code, label, "mines"))
    if not r["fortifications"]:
        return
    need = _missing_required(rs, st, side)
    for kind in _KINDS:
        if left - _fort_cost(rs, kind) < need:
            continue
        for h in zone:
            label = st.board.label(h)
            for n in sorted(st.board.graph.neighbors(h), key=st.board.label):
                nl = st.board.label(n)
                if kind in ("wire", "teeth") and nl < label:
                    continue
                a = Action("fortify", (kind, label, nl))
                if _fort_problem(rs, st, side, _fort_item(st, side, a)) is None:
                    yield a


# --- Apply -------------------------------------------------------------------------------------------------


def _new_id(st: GameState, side: str, code: str) -> str:
    prefix = _PREFIX.get(side, side[:3])
    used = {u.id for u in st.units.values()}
    n = 1
    while True:
        uid = f"{prefix}-{n}-{code.split('-', 1)[-1].lower()}"
        if uid not in used and not any(u.id.startswith(f"{prefix}-{n}-") for u in st.units.values()):
            return uid
        n += 1


def apply_setup(rs: ArtOfTactic, tr: Transition, a: Action) -> None:
    """Carry out a checked set-up action (events visible to the side only, until the reveal)."""
    from .setup import unit_status  # noqa: PLC0415

    st = tr.state
    side = st.to_act
    assert side is not None
    secret = [side]
    if a.verb == "buy":
        code = a.args[0]
        c = rs.tables.units[code]
        rest = [x for x in a.args[1:] if x != "mines"]
        h = st.board.parse(rest[0]) if rest else None
        given: dict[str, Any] = {}
        if len(rest) > 1:
            given["facing"] = rest[1]
        if "mines" in a.args[1:]:
            given["mines"] = True
        status = unit_status(rs, code, h, given)
        if c.type == "AIR":
            status["prep"] = 4  # 11.1: aircraft start on their airfield with box IV (Ready) marked
        uid = _new_id(st, side, code)
        st.units[uid] = Unit(uid, code, side, h, c.size, None, status)
        where = f" at {rest[0]}" if rest else " on its airfield"
        st.units = dict(sorted(st.units.items()))
        tr.emit("setup", f"{side} buys {uid} ({code}){where} (rule {RULE})", visible_to=secret, unit=uid)
    elif a.verb == "fortify":
        item = _fort_item(st, side, a)
        _pending(st).append(item)
        tr.emit("setup", f"{side} buys a {a.args[0]} at {' '.join(a.args[1:])} (rule {RULE})", visible_to=secret)
    elif a.verb == "sell":
        if len(a.args) == 1:
            del st.units[a.args[0]]
        else:
            key = _fort_key(_fort_item(st, side, a))
            st.data["setup"]["structures"][side] = [i for i in _pending(st) if _fort_key(i) != key]
        tr.emit("setup", f"{side} takes back {' '.join(a.args)} (rule {RULE})", visible_to=secret)
    elif a.verb == "default":
        for uid in [u.id for u in st.units.values() if u.side == side]:
            del st.units[uid]
        default = st.data["setup"]["default"][side]
        for d in default["units"]:
            h = st.board.parse(d["hex"]) if d["hex"] is not None else None
            st.units[d["id"]] = Unit(d["id"], d["type"], d["side"], h, d["steps"], d["formation"],
                                     copy_plain(d["status"]))  # fmt: skip
        st.units = dict(sorted(st.units.items()))
        st.data["setup"]["structures"][side] = copy_plain(default["structures"])
        tr.emit("setup", f"{side} takes the scenario file's purchase and set-up (rule {RULE})", visible_to=secret)
        _finish(rs, tr, side)
    elif a.verb == "commit":
        tr.emit(
            "setup", f"{side} buys for {spent(rs, st, side)} of {_rules(st, side)['points']} strength points "
            f"(rule {RULE})", visible_to=secret,
        )  # fmt: skip
        _finish(rs, tr, side)


def _finish(rs: ArtOfTactic, tr: Transition, side: str) -> None:
    st = tr.state
    setup = st.data["setup"]
    setup["done"].append(side)
    tr.emit("commit", f"{side} has finished its set-up (rule {RULE})", side=side)
    rest = [s for s in setup["sides"] if s not in setup["done"]]
    if rest:
        st.to_act = rest[0]
        return
    _reveal(rs, tr)


def _reveal(rs: ArtOfTactic, tr: Transition) -> None:
    """11.6: both set-ups are revealed together; fortifications go on the map, then Round 1 begins."""
    from . import execution  # noqa: PLC0415
    from .setup import add_structure  # noqa: PLC0415

    st = tr.state
    setup = st.data.pop("setup")
    t = rs.tables
    trench_hexes: set[str] = set()
    for side in setup["sides"]:
        for item in setup["structures"].get(side, []):
            add_structure(st.data["structures"], item)
            if item["kind"] == "trench":
                trench_hexes.add(str(item["hex"]))
    # 9.18.5 (reading): foot units bought into their side's new trench start in it.
    default_ids = {d["id"] for s in setup["sides"] for d in setup["default"][s]["units"]}
    for u in st.units.values():
        if u.id in default_ids or u.hex is None or t.is_vehicle(t.units[u.type].type):
            continue
        if st.board.label(u.hex) in trench_hexes and u.status.get("facing") is None:
            u.status["entrenched"] = True
            u.status["facing"] = st.data["structures"]["trenches"][st.board.label(u.hex)]
    st.units = dict(sorted(st.units.items()))  # the state's order: by id (engine.state)
    for side in setup["sides"]:
        force = [
            f"{u.id} {st.board.label(u.hex) if u.hex is not None else 'airfield'}"
            for u in st.units.values()
            if u.side == side and not u.status.get("concealed")
        ]
        # 9.11: a concealed HQ is on the other side's map as an unidentified unit; say so, without naming it.
        unknown = sum(1 for u in st.units.values() if u.side == side and u.status.get("concealed"))
        if unknown:
            force.append(f"{unknown} unidentified unit{'s' if unknown > 1 else ''} (rule 9.11)")
        tr.emit("setup", f"{side} set-up revealed (rule {RULE}): {', '.join(force) or 'nothing visible'}")
    execution.start_round(rs, tr)


# --- Views -------------------------------------------------------------------------------------------------


def hide_setup(rs: ArtOfTactic, v: GameState, side: str) -> None:
    """15.1: during the set-up a side's view holds none of the other side's purchase or placement; its own
    fortifications bought so far show on its map."""
    from .setup import add_structure  # noqa: PLC0415

    setup = v.data.get("setup")
    if not isinstance(setup, dict):
        return
    secret = [s for s in setup["sides"] if s != side]
    v.units = {k: u for k, u in v.units.items() if u.side not in secret}
    setup["default"] = {s: d for s, d in setup["default"].items() if s not in secret}
    setup["structures"] = {s: d for s, d in setup["structures"].items() if s not in secret}
    for item in setup["structures"].get(side, []):
        add_structure(v.data["structures"], item)
