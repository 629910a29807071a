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

from collections.abc import Callable, Iterator, Mapping

from engine.actions import Action
from engine.errors import IllegalActionError, InvalidActionError
from engine.hexgrid import Hex, hex_to_offset
from engine.notation import Notation
from engine.rules import Transition
from engine.scenario import Scenario
from engine.state import GameState, Unit
from engine.typed import clone

from . import execution
from .forces import add_structure, can_stand, fort, unit_status
from .gamedata import data
from .model import Rules, refuse
from .notation import Buy, Commit, Default, FortifyHexside, FortifyPosition, SellFortification, SellUnit
from .records import DefaultForce, DefaultUnit, Fort, FortKind, PurchaseRules, Setup, status
from .sight import facing_of

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

_KINDS: tuple[FortKind, ...] = ("trench", "dugout", "wire", "teeth")
_COST_KEY = {"teeth": "dragons_teeth"}
_PREFIX = {"german": "ger", "soviet": "sov"}


# --- State -------------------------------------------------------------------------------------------------


def prepare_purchase(rs: Rules, sc: Scenario, st: GameState) -> None:
    """Take every purchasing side's units off the state as its default purchase and open the set-up (11.6)."""
    spec = dict(sc.raw.get("purchase", {}))
    sides = sorted(spec, key=lambda s: (int(spec[s].get("order", 99)), rs.tables.sides.index(s)))
    default: dict[str, DefaultForce] = {}
    for side in sides:
        units = [u for u in st.units.values() if u.side == side]
        items = [fort(i) for i in sc.raw.get("structures", []) if isinstance(i, dict) and i.get("side") == side]
        force = [DefaultUnit(u.id, u.type, u.side, u.hex, u.steps, u.formation, status(u)) for u in units]
        default[side] = DefaultForce(force, items)
        for u in units:
            del st.units[u.id]
    rules = {
        side: PurchaseRules(
            points=int(s.get("points", 0)),
            max_copies=int(s.get("max_copies", 99)),
            limits={str(k): int(v) for k, v in dict(s.get("limits", {})).items()},
            exactly_one=[str(x) for x in s.get("exactly_one", [])],
            optional_allowed=bool(s.get("optional_allowed", False)),
            columns=_columns(s.get("columns", [1, 99])),
            fortifications=bool(s.get("fortifications", False)),
            mines=bool(s.get("mines", False)),
        )
        for side, s in spec.items()
    }
    data(st).setup = Setup(sides, [], rules, default, {s: [] for s in sides})
    st.phase = "setup"
    st.to_act = sides[0]


def _columns(value: list[int]) -> tuple[int, int]:
    a, b = value
    return int(a), int(b)


def _setup(st: GameState) -> Setup:
    got = data(st).setup
    assert got is not None, "not in the set-up (11.6)"
    return got


def start_setup(rs: Rules, tr: Transition) -> None:
    """The first set-up event (public: who sets up first)."""
    sides = _setup(tr.state).sides
    tr.emit(
        "setup",
        f"Set-up (rule {RULE}): {', then '.join(sides)} buy and place their forces in secret; "
        "both are revealed together",
    )


def spent(rs: Rules, st: GameState, side: str) -> int:
    """Strength points the side's purchase costs so far: cards (12.2 errata costs), engineer mines (9.6) and
    fortifications (11.1)."""
    t = rs.tables
    total = 0
    for u in st.units.values():
        if u.side == side:
            c = t.units[u.type]
            total += c.cost + (c.mine_cost if status(u).mines else 0)
    for item in _setup(st).structures.get(side, []):
        total += _fort_cost(rs, item.kind)
    return total


def _fort_cost(rs: Rules, kind: str) -> int:
    return int(rs.tables.fortifications[_COST_KEY.get(kind, kind)]["cost"])


def _rules(st: GameState, side: str) -> PurchaseRules:
    return _setup(st).rules[side]


def _counts(st: GameState, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in st.units.values():
        if u.side == side:
            out[u.type] = out.get(u.type, 0) + 1
    return out


def _in_zone(st: GameState, side: str, h: Hex) -> bool:
    a, b = _rules(st, side).columns
    return h in st.board.cells and a <= hex_to_offset(h)[0] <= b


def _zone_text(st: GameState, side: str) -> str:
    a, b = _rules(st, side).columns
    return f"columns {a:02d}-{b:02d}"


def _missing_required(rs: Rules, st: GameState, side: str, buying: str | None = None) -> int:
    """Strength points still needed for the cards the force must include (11.6: exactly one HQ)."""
    counts = _counts(st, side)
    return sum(
        rs.tables.units[code].cost
        for code in _rules(st, side).exactly_one
        if counts.get(code, 0) == 0 and code != buying
    )


def _pending(st: GameState) -> list[Fort]:
    side = st.to_act
    assert side is not None
    return _setup(st).structures.setdefault(side, [])


def _fort_key(item: Fort) -> tuple[object, ...]:
    if item.kind in ("wire", "teeth"):
        return (item.kind, item.between)
    return (item.kind, item.hex)


# --- Notation ----------------------------------------------------------------------------------------------


def parse_setup(rs: Rules, st: GameState, a: Action) -> Action:
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


def check_setup(rs: Rules, st: GameState, typed: Notation) -> None:
    """Refuse a set-up action that breaks a rule, naming what and the rule."""
    side = st.to_act
    assert side is not None
    check = _CHECKS.get(type(typed))
    if check is None:
        raise refuse(f"{typed.verb}: orders are given from Round 1; now buy and place your force (buy, fortify, sell, "
                     "default, commit)", RULE)  # fmt: skip
    check(rs, st, side, typed)


def _check_default(rs: Rules, st: GameState, side: str, typed: Notation) -> None:
    """11.6: the scenario file's set-up may always be taken."""


def _check_commit(rs: Rules, st: GameState, side: str, typed: Notation) -> None:
    """11.6: the force must include its required cards (exactly one HQ)."""
    for code in _rules(st, side).exactly_one:
        if _counts(st, side).get(code, 0) != 1:
            raise refuse(f"cannot end the set-up: the {side} force must include exactly one {code}", RULE)


def _afford(rs: Rules, st: GameState, side: str, what: str, cost: int, buying: str | None = None) -> None:
    points = _rules(st, side).points
    left = points - spent(rs, st, side)
    if cost > left:
        raise refuse(f"{what} costs {cost} strength points; only {left} of the {points} are left", RULE)
    need = _missing_required(rs, st, side, buying)
    if left - cost < need:
        missing = [c for c in _rules(st, side).exactly_one if c != buying and _counts(st, side).get(c, 0) == 0]
        raise refuse(
            f"{what} would leave {left - cost} strength points, too few for the {', '.join(missing)} the force "
            f"must include ({need})",
            RULE,
        )


def _card_problem(rs: Rules, st: GameState, side: str, code: str) -> str | None:
    t = rs.tables
    c = t.units.get(code)
    if c is None:
        return f"no card {code!r} in the roster (rule 12.3)"
    if c.side != side:
        return f"{code} is a {c.side} card, not {side} (rule 12.3)"
    if c.generic:
        return f"{code} is a generic card, not in the roster (rule 12.5)"
    r = _rules(st, side)
    if c.optional and not r.optional_allowed:
        return f"{code} is optional: allowed only if both players agree (rule {RULE})"
    n = _counts(st, side).get(code, 0)
    if code in r.exactly_one and n >= 1:
        return f"the force must include exactly one {code}; it has one already (rule {RULE})"
    limit = r.limits.get(code, r.max_copies)
    if n >= limit:
        return f"at most {limit} copies of {code} (rule {RULE})"
    return None


def _refusal(problem: str, head: str) -> IllegalActionError:
    """A problem sentence ending with its rule, as a refusal starting with ``head``."""
    text, rule = problem.rsplit(" (rule ", 1)
    return refuse(f"{head}: {text}", rule.rstrip(")"))


def _check_buy(rs: Rules, st: GameState, side: str, typed: Notation) -> None:
    """11.6, 12.3: a card of the side's roster within its limits and points, placed in its zone (4.8, 4.9) facing
    an adjacent hex if it has a field of fire (5.5); aircraft on their airfield (9.12); mines for engineers (9.6)."""
    assert isinstance(typed, Buy)
    code = typed.card
    problem = _card_problem(rs, st, side, code)
    if problem:
        raise _refusal(problem, f"cannot buy {code}")
    c = rs.tables.units[code]
    mines = typed.mines is not None
    if mines:
        if not c.has("engineer") or not c.mine_cost:
            raise refuse(f"cannot buy {code} with mines: only engineers lay mines", "9.6")
        if not _rules(st, side).mines:
            raise refuse(f"cannot buy mines: the {side} side buys no engineer mines in this scenario", RULE)
    if c.type == "AIR":
        if typed.hex is not None:
            raise refuse(f"cannot place {code}: aircraft start on their airfield off the board; write no hex", "9.12")
    else:
        _check_placed(rs, st, side, typed)
    _afford(rs, st, side, f"{code}{' with mines' if mines else ''}", c.cost + (c.mine_cost if mines else 0), code)


def _check_placed(rs: Rules, st: GameState, side: str, typed: Buy) -> None:
    code, h, f = typed.card, typed.hex, typed.facing_hex
    if h is None:
        raise refuse(f"cannot buy {code}: give the hex to place it in ({_zone_text(st, side)})", RULE)
    label = st.board.label
    problem = _place_problem(rs, st, side, code, h)
    if problem:
        raise _refusal(problem, f"cannot place {code} at {label(h)}")
    if rs.tables.units[code].field_of_fire:
        if f is None:
            raise refuse(f"cannot buy {code}: it has a field of fire; give the hex it faces", "5.5")
        if facing_of(h, f) is None:
            raise refuse(f"cannot buy {code}: the facing hex {label(f)} is not next to {label(h)}", "5.5")
    elif f is not None:
        raise refuse(f"cannot buy {code} facing {label(f)}: {code} has no field of fire on its card", "5.5")


def _place_problem(rs: Rules, st: GameState, side: str, code: str, h: Hex) -> str | None:
    t = rs.tables
    label = st.board.label(h)
    if not _in_zone(st, side, h):
        return f"{label} is outside the {side} set-up zone ({_zone_text(st, side)}) (rule {RULE})"
    terrain = st.board.cells[h].terrain
    if not can_stand(rs.tables, code, terrain):
        return f"{code} cannot stand in {terrain} at {label} (rule 4.8)"
    veh = t.is_vehicle(t.units[code].type)
    lim = int(t.rules["stacking"]["vehicles" if veh else "infantry_artillery"])
    here = [u for u in st.units.values() if u.side == side and u.hex == h and t.is_vehicle(t.units[u.type].type) == veh]
    if len(here) >= lim:
        return f"{label} already holds {len(here)} {'vehicle' if veh else 'infantry'} units, the limit (rule 4.9)"
    return None


def _fort_item(side: str, kind: FortKind, x: Hex, y: Hex) -> Fort:
    """The fortification ``kind`` written with the hexes ``x`` and ``y``: a hexside's two hexes, or a hex and the
    hex it faces."""
    if kind in ("wire", "teeth"):
        return Fort(kind, side, between=(x, y) if x <= y else (y, x))
    return Fort(kind, side, hex=x, facing=y)


def _fort_problem(rs: Rules, st: GameState, side: str, item: Fort) -> str | None:
    kind = item.kind
    label = st.board.label
    if not _rules(st, side).fortifications:
        return f"the {side} side buys no fortifications in this scenario (rule {RULE})"
    if item.between is not None:
        a, b = item.between
        if b not in a.neighbours():
            return "the two hexes must be next to each other: the obstacle lies on their hexside (rule 9.18)"
        hexes = [a, b]
    else:
        h, f = item.hex, item.facing
        assert h is not None and f is not None
        if facing_of(h, f) is None:
            return f"the facing hex {label(f)} is not next to {label(h)} (rule 9.18.5)"
        hexes = [h]
        if kind == "dugout" and st.board.cells[h].terrain in ("river", "ford", "bridge"):
            return f"a dugout may not stand in a river hex ({label(h)}) (rule 9.18.6)"
    for h in hexes:
        if not _in_zone(st, side, h):
            return f"{label(h)} is outside the {side} set-up zone ({_zone_text(st, side)}) (rule {RULE})"
    key = _fort_key(item)
    bought = _setup(st).structures.get(side, [])
    if any(_fort_key(i) == key for i in bought):
        return f"a {kind} is there already (rule 9.18)"
    if kind in ("trench", "dugout"):
        for other in bought:
            if other.kind in ("trench", "dugout") and other.hex == item.hex:
                assert item.hex is not None
                return f"{label(item.hex)} holds a {other.kind} already (rule 9.18)"
    return None


def _fortified(side: str, typed: Notation) -> Fort:
    """The fortification a ``fortify`` (or a ``sell`` of one) writes."""
    assert isinstance(typed, (FortifyPosition, FortifyHexside, SellFortification))
    other = typed.facing_hex if isinstance(typed, FortifyPosition) else typed.other_hex
    assert other is not None
    return _fort_item(side, typed.kind, typed.hex, other)


def _check_fortify(rs: Rules, st: GameState, side: str, typed: Notation) -> None:
    """11.6, 9.18: a fortification the side may buy, in its zone, within its points."""
    assert isinstance(typed, (FortifyPosition, FortifyHexside))
    problem = _fort_problem(rs, st, side, _fortified(side, typed))
    if problem:
        raise _refusal(problem, f"cannot buy the {typed.kind}")
    _afford(rs, st, side, f"the {typed.kind}", _fort_cost(rs, typed.kind))


def _check_sell_unit(rs: Rules, st: GameState, side: str, typed: Notation) -> None:
    assert isinstance(typed, SellUnit)
    u = st.units.get(typed.unit)
    if u is None or u.side != side:
        raise refuse(f"cannot sell {typed.unit}: not a unit of your purchase", RULE)


def _check_sell_fortification(rs: Rules, st: GameState, side: str, typed: Notation) -> None:
    assert isinstance(typed, SellFortification)
    if typed.other_hex is None:
        raise refuse(f"cannot sell the {typed.kind}: write its kind and two hexes, as bought", RULE)
    key = _fort_key(_fortified(side, typed))
    if not any(_fort_key(i) == key for i in _setup(st).structures.get(side, [])):
        where = " ".join(typed.action(st.board).args[1:])
        raise refuse(f"cannot sell the {typed.kind} at {where}: you have not bought it", RULE)


_CHECKS: Mapping[type[Notation], Callable[[Rules, GameState, str, Notation], None]] = {
    Default: _check_default,
    Commit: _check_commit,
    Buy: _check_buy,
    FortifyPosition: _check_fortify,
    FortifyHexside: _check_fortify,
    SellUnit: _check_sell_unit,
    SellFortification: _check_sell_fortification,
}
"""Each set-up action's form → its checks."""


# --- Legal actions ----------------------------------------------------------------------------------------


def setup_actions(rs: Rules, st: GameState) -> Iterator[Action]:
    """Every set-up action of the side to act: default, commit, sales, purchases with their placements,
    fortifications."""
    side = st.to_act
    assert side is not None
    yield Action("default", ())
    counts = _counts(st, side)
    if all(counts.get(code, 0) == 1 for code in _rules(st, side).exactly_one):
        yield Action("commit", ())
    yield from _sales(st, side)
    zone = sorted((h for h in st.board.cells if _in_zone(st, side, h)), key=st.board.label)
    yield from _purchases(rs, st, side, zone)
    yield from _fortifications(rs, st, side, zone)


def _sales(st: GameState, side: str) -> Iterator[Action]:
    """Taking back every unit and fortification bought (11.6)."""
    for u in st.units.values():
        if u.side == side:
            yield Action("sell", (u.id,))
    label = st.board.label
    for item in _setup(st).structures.get(side, []):
        if item.between is not None:
            yield Action("sell", (item.kind, *(label(h) for h in item.between)))
        else:
            assert item.hex is not None and item.facing is not None
            yield Action("sell", (item.kind, label(item.hex), label(item.facing)))


def _purchases(rs: Rules, st: GameState, side: str, zone: list[Hex]) -> Iterator[Action]:
    """Every card the side may still buy within its points (leaving enough for its required cards), in every hex
    of its zone it may stand in, facing each neighbour if it has a field of fire, with mines if it may."""
    t = rs.tables
    r = _rules(st, side)
    left = r.points - spent(rs, st, side)
    name = st.board.label
    for code in sorted(t.units):
        c = t.units[code]
        if c.side != side or _card_problem(rs, st, side, code) is not None:
            continue
        if left - c.cost < _missing_required(rs, st, side, code):
            continue
        if c.type == "AIR":
            yield Action("buy", (code,))
            continue
        mines = c.has("engineer") and c.mine_cost and r.mines
        mines = mines and left - c.cost - c.mine_cost >= _missing_required(rs, st, side, code)
        for h in zone:
            if _place_problem(rs, st, side, code, h) is not None:
                continue
            label = name(h)
            if c.field_of_fire:
                for n in sorted(st.board.graph.neighbors(h), key=name):
                    yield Action("buy", (code, label, name(n)))
            else:
                yield Action("buy", (code, label))
                if mines:
                    yield Action("buy", (code, label, "mines"))


def _fortifications(rs: Rules, st: GameState, side: str, zone: list[Hex]) -> Iterator[Action]:
    """Every fortification the side may buy in its zone (9.18, 11.6)."""
    if not _rules(st, side).fortifications:
        return
    left = _rules(st, side).points - spent(rs, st, side)
    need = _missing_required(rs, st, side)
    name = st.board.label
    for kind in _KINDS:
        if left - _fort_cost(rs, kind) < need:
            continue
        for h in zone:
            label = name(h)
            for n in sorted(st.board.graph.neighbors(h), key=name):
                nl = name(n)
                if kind in ("wire", "teeth") and nl < label:
                    continue
                if _fort_problem(rs, st, side, _fort_item(side, kind, h, n)) is None:
                    yield Action("fortify", (kind, label, nl))


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


def apply_setup(rs: Rules, tr: Transition, typed: Notation) -> None:
    """Carry out a checked set-up action (events visible to the side only, until the reveal)."""
    side = tr.state.to_act
    assert side is not None
    _APPLY[type(typed)](rs, tr, side, typed)


def _buy(rs: Rules, tr: Transition, side: str, typed: Notation) -> None:
    assert isinstance(typed, Buy)
    st = tr.state
    code = typed.card
    c = rs.tables.units[code]
    given: dict[str, object] = {}
    if typed.facing_hex is not None:
        given["facing"] = st.board.label(typed.facing_hex)
    if typed.mines is not None:
        given["mines"] = True
    s = unit_status(rs.tables, code, typed.hex, given)
    if c.type == "AIR":
        s.prep = 4  # 11.1: aircraft start on their airfield with box IV (Ready) marked
    uid = _new_id(st, side, code)
    st.units[uid] = Unit(uid, code, side, typed.hex, c.size, None, s)
    where = f" at {st.board.label(typed.hex)}" if typed.hex is not None else " on its airfield"
    st.units = dict(sorted(st.units.items()))
    tr.emit("setup", f"{side} buys {uid} ({code}){where} (rule {RULE})", visible_to=[side], unit=uid)


def _fortify(rs: Rules, tr: Transition, side: str, typed: Notation) -> None:
    st = tr.state
    _pending(st).append(_fortified(side, typed))
    written = " ".join(typed.action(st.board).args[1:])
    kind = getattr(typed, "kind")  # noqa: B009 - both forms of fortify name the kind first
    tr.emit("setup", f"{side} buys a {kind} at {written} (rule {RULE})", visible_to=[side])


def _sell(rs: Rules, tr: Transition, side: str, typed: Notation) -> None:
    st = tr.state
    if isinstance(typed, SellUnit):
        del st.units[typed.unit]
    else:
        key = _fort_key(_fortified(side, typed))
        _setup(st).structures[side] = [i for i in _pending(st) if _fort_key(i) != key]
    tr.emit("setup", f"{side} takes back {' '.join(typed.action(st.board).args)} (rule {RULE})", visible_to=[side])


def _default(rs: Rules, tr: Transition, side: str, typed: Notation) -> None:
    st = tr.state
    for uid in [u.id for u in st.units.values() if u.side == side]:
        del st.units[uid]
    default = _setup(st).default[side]
    for d in default.units:
        st.units[d.id] = Unit(d.id, d.type, d.side, d.hex, d.steps, d.formation, clone(d.status))
    st.units = dict(sorted(st.units.items()))
    _setup(st).structures[side] = [clone(i) for i in default.structures]
    tr.emit("setup", f"{side} takes the scenario file's purchase and set-up (rule {RULE})", visible_to=[side])
    _finish(rs, tr, side)


def _commit(rs: Rules, tr: Transition, side: str, typed: Notation) -> None:
    st = tr.state
    tr.emit(
        "setup", f"{side} buys for {spent(rs, st, side)} of {_rules(st, side).points} strength points "
        f"(rule {RULE})", visible_to=[side],
    )  # fmt: skip
    _finish(rs, tr, side)


_APPLY: Mapping[type[Notation], Callable[[Rules, Transition, str, Notation], None]] = {
    Buy: _buy,
    FortifyPosition: _fortify,
    FortifyHexside: _fortify,
    SellUnit: _sell,
    SellFortification: _sell,
    Default: _default,
    Commit: _commit,
}
"""Each set-up action's form → what it does."""


def _finish(rs: Rules, tr: Transition, side: str) -> None:
    st = tr.state
    setup = _setup(st)
    setup.done.append(side)
    tr.emit("commit", f"{side} has finished its set-up (rule {RULE})", side=side)
    rest = [s for s in setup.sides if s not in setup.done]
    if rest:
        st.to_act = rest[0]
        return
    _reveal(rs, tr)


def _reveal(rs: Rules, tr: Transition) -> None:
    """11.6: both set-ups are revealed together; fortifications go on the map, then Round 1 begins."""
    st = tr.state
    d = data(st)
    setup = _setup(st)
    d.setup = None
    t = rs.tables
    trench_hexes: set[Hex] = set()
    for side in setup.sides:
        for item in setup.structures.get(side, []):
            add_structure(d.structures, item)
            if item.kind == "trench" and item.hex is not None:
                trench_hexes.add(item.hex)
    # 9.18.5 (reading): foot units bought into their side's new trench start in it.
    default_ids = {u.id for s in setup.sides for u in setup.default[s].units}
    for u in st.units.values():
        if u.id in default_ids or u.hex is None or t.is_vehicle(t.units[u.type].type):
            continue
        s = status(u)
        if u.hex in trench_hexes and s.facing is None:
            s.entrenched = True
            s.facing = d.structures.trenches[u.hex]
    st.units = dict(sorted(st.units.items()))  # the state's order: by id (engine.state)
    for side in setup.sides:
        force = [
            f"{u.id} {st.board.label(u.hex) if u.hex is not None else 'airfield'}"
            for u in st.units.values()
            if u.side == side and not status(u).concealed
        ]
        # 9.11: a concealed HQ is on the other side's map as an unidentified unit; say so, without naming it.
        unknown = sum(1 for u in st.units.values() if u.side == side and status(u).concealed)
        if unknown:
            force.append(f"{unknown} unidentified unit{'s' if unknown > 1 else ''} (rule 9.11)")
        tr.emit("setup", f"{side} set-up revealed (rule {RULE}): {', '.join(force) or 'nothing visible'}")
    execution.start_round(rs, tr)


# --- Views -------------------------------------------------------------------------------------------------


def hide_setup(rs: Rules, v: GameState, side: str) -> None:
    """15.1: during the set-up a side's view holds none of the other side's purchase or placement; its own
    fortifications bought so far show on its map."""
    d = data(v)
    setup = d.setup
    if setup is None:
        return
    secret = [s for s in setup.sides if s != side]
    v.units = {k: u for k, u in v.units.items() if u.side not in secret}
    setup.default = {s: f for s, f in setup.default.items() if s not in secret}
    setup.structures = {s: f for s, f in setup.structures.items() if s not in secret}
    for item in setup.structures.get(side, []):
        add_structure(d.structures, item)
