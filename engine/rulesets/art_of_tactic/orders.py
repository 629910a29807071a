"""Provides the Planning Phase of Art of Tactic (digest 2.3, 2.9 PLANNING): notation, checks and legal orders.

Each side writes one order per unit in secret (``data["orders"][side]``), then ``commit``. Every order is
checked against the board as the side sees it now; a refusal names the unit, the reason and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import IllegalActionError, InvalidActionError
from engine.hexgrid import Hex, distance
from engine.state import GameState, Unit

from .combat import location_attacks, ranged_attack, structure_attack
from .data import load_tables
from .model import card, enemies_in_hex, is_on_board, refuse, side_units, visible_enemy
from .movement import check_path, destinations, move_allowance, step_rule
from .sight import facing_of, line_of_sight

if TYPE_CHECKING:
    from .ruleset import ArtOfTactic

__all__ = [
    "ATTACK_ORDERS",
    "MOVE_ORDERS",
    "VERBS",
    "check_order",
    "iter_orders",
    "order_from_action",
    "parse",
    "policies",
    "policy_rows",
]

VERBS: dict[str, str] = {
    "defend": "defend UNIT FACING-HEX RANGE [POLICY]: guard the field of fire up to RANGE, fire once at a mover "
    "(3.6); POLICY first (the nearest, default) or prefer-CLASS (15.2)",
    "ambush": "ambush UNIT FACING-HEX RANGE [POLICY]: hide and fire once at a mover entering the field of fire "
    "(3.11); POLICY first (the nearest, default), prefer-CLASS or hold (never fire, stay hidden) (15.2)",
    "suppress": "suppress UNIT TARGET: suppression fire, 3 ammunition, firepower × 1.5 (3.7)",
    "fire": "fire UNIT TARGET: open fire, 1 ammunition (3.8)",
    "move": "move UNIT HEX...: cautious movement along the written path, with its defence bonus (4.2)",
    "march": "march UNIT HEX...: march along the path; + road bonus if every step follows the road (4.3)",
    "hold": "hold UNIT: stay and do nothing this round (4.4)",
    "reconnoitre": "reconnoitre UNIT: in step 9, reveal every hidden enemy unit and concealed HQ in sight within "
    "3 hexes (G19)",
    "firemove": "firemove UNIT TARGET FIRE-HEX HEX...: move, firing once from FIRE-HEX (the start or a path hex) (4.5)",
    "assault": "assault UNIT TARGET HEX...: move along the route into the target's hex and fight (3.10, 7)",
    "mount": "mount UNIT TRANSPORT: board a transport in the same hex (4.6)",
    "dismount": "dismount UNIT: leave the transport (give it to the passenger and to the transport, 4.6)",
    "facing": "facing UNIT HEX: change the field of fire to face HEX (9.4)",
    "deploy": "deploy UNIT FACING-HEX [HEX]: set up facing FACING-HEX, moving first to the adjacent HEX (9.2)",
    "withdraw": "withdraw UNIT [HEX]: limber up to move, moving first to the adjacent HEX (time boxes, 9.3)",
    "location": "location UNIT HEX: fire at every enemy unit in HEX (two-row cards: the hexes next to it too) (6.9)",
    "smoke": "smoke UNIT HEX SECOND-HEX: smoke shells on HEX and the adjacent SECOND-HEX, 1 smoke point (3.9)",
    "merge": "merge UNIT OTHER: merge two units of the same card in one hex (give it to both) (9.5)",
    "entrench": "entrench UNIT FACING-HEX: dig a trench facing FACING-HEX (time boxes; defence 0 meanwhile) (9.10)",
    "supply": "supply UNIT [TRANSPORT]: receive supply from TRANSPORT in the hex; the transport names none (9.16)",
    "tow": "tow UNIT OTHER: hitch a limbered unit to a transport in the hex (give it to both) (9.9)",
    "mines": "mines UNIT at|ap|dummy: engineers lay a minefield in their hex (time boxes; secret kind) (9.6)",
    "clearmines": "clearmines UNIT: engineers clear the revealed minefield in their hex (time boxes) (9.7)",
    "unteeth": "unteeth UNIT HEX: engineers remove the dragon's teeth between their hex and HEX (time boxes) (9.10)",
    "clearpath": "clearpath UNIT: engineers cut a path through the woods hex they stand in (time boxes) (9.10)",
    "pontoon": "pontoon UNIT HEX: engineers (manpower) build a pontoon bridge in the river hex HEX (9.10)",
    "load": "load UNIT: a transport on its side's supply edge refills its ammunition cargo (time boxes) (9.16)",
    "intercept": "intercept UNIT ENEMY ENTRY-HEX: a fighter flies in from the edge to fight an enemy aircraft (9.15.2)",
    "patrol": "patrol UNIT CENTRE RADIUS ROUNDS ENTRY-HEX: a fighter guards the hexes around CENTRE (9.15.5)",
    "recon": "recon UNIT CENTRE RADIUS ROUNDS ENTRY-HEX: a recon aircraft observes around CENTRE: finds hidden "
    "units, directs artillery (9.15.3)",
    "drop": "drop UNIT HEX CARGO ENTRY-HEX: a transport aircraft drops CARGO units of supplies in a crate at HEX "
    "(step 9) (9.15.6)",
    "airland": "airland UNIT HEX PARATROOPERS ENTRY-HEX: a transport aircraft flies the paratroopers to HEX; they "
    "land in step 6 (9.15.4)",
    "escort": "escort UNIT FRIEND: a fighter flies with a friendly aircraft and fights off its attackers (9.15.7)",
    "airstrike": "airstrike UNIT HEX ENTRY-HEX: the aircraft flies in from the edge hex and bombs HEX (9.15.1)",
    "unwire": "unwire UNIT HEX: engineers remove the barbed wire between their hex and HEX, in step 8 (9.10)",
    "demolish": "demolish UNIT: engineers blow up the bridge in their hex (time boxes, once a game) (9.8)",
    "cancel": "cancel UNIT: take back the order given to UNIT this Planning Phase (2.3)",
    "commit": "commit: your orders are final; the other side plans, then all orders execute (2.3)",
}

ATTACK_ORDERS = frozenset({"defend", "suppress", "fire", "ambush", "fire_on_move", "smoke", "location"})
"""Orders counting as attack orders for the Deploy rule (3.5, PROPOSED extension included)."""
MOVE_ORDERS = frozenset({"cautious", "march", "fire_on_move"})


def _policy_classes() -> dict[str, Any]:
    """15.2 item 4: the classes of a ``prefer-CLASS`` reaction policy (``rules.toml`` ``[policy_classes]``), each
    with the target rows of the cards (3.1) it prefers and its words."""
    return dict(load_tables().rules["policy_classes"])


def _policy_help() -> str:
    names = ", ".join(f"prefer-{c}" for c in _policy_classes())
    return (
        f"the reaction policy (rule 15.2) is first (the nearest, the default), {names}, "
        "or hold (Ambush only: never fire)"
    )


def policies(verb: str) -> list[tuple[str, str]]:
    """15.2 item 4: the reaction policies of ``defend`` or ``ambush`` with what each does, the default first."""
    out = [("first", "fire at the nearest eligible mover (the default)")]
    out += [
        (f"prefer-{c}", f"fire at the nearest {v['words']}, else the nearest") for c, v in _policy_classes().items()
    ]
    if verb == "ambush":
        out.append(("hold", "hold fire: never fire, stay hidden"))
    return out


def policy_rows(policy: str) -> tuple[str, ...]:
    """The target rows a ``prefer-CLASS`` policy prefers; () for ``first`` and ``hold``."""
    if not policy.startswith("prefer-"):
        return ()
    got = _policy_classes().get(policy.removeprefix("prefer-"))
    return tuple(got["rows"]) if got else ()


_KIND = {"firemove": "fire_on_move", "move": "cautious",
         "suppress": "suppress", "fire": "fire", "march": "march", "hold": "hold", "reconnoitre": "reconnoitre",
         "defend": "defend", "assault": "assault", "mount": "mount", "dismount": "dismount",
         "facing": "facing", "deploy": "deploy", "withdraw": "withdraw",
         "unwire": "remove_wire", "demolish": "demolition", "smoke": "smoke", "merge": "merge",
         "ambush": "ambush", "entrench": "entrench", "supply": "supply", "tow": "tow",
         "location": "location", "mines": "lay_mines", "clearmines": "clear_mines",
         "unteeth": "remove_obstacle", "clearpath": "clear_path", "pontoon": "pontoon",
         "load": "load_supply", "airstrike": "air_strike", "intercept": "intercept",
         "patrol": "patrol", "escort": "escort", "recon": "recon", "drop": "supply_drop",
         "airland": "airborne_landing"}  # fmt: skip


def parse(rs: ArtOfTactic, st: GameState, text: str) -> Action:
    """Read notation (the exact inverse of ``str(action)``)."""
    from engine.actions import parse_notation  # noqa: PLC0415

    a = parse_notation(text)
    if a.verb not in VERBS:
        raise InvalidActionError(f"unknown verb {a.verb!r}: art_of_tactic knows {', '.join(sorted(VERBS))}")
    n = len(a.args)
    need = {"commit": (0, 0), "hold": (1, 1), "reconnoitre": (1, 1), "cancel": (1, 1), "withdraw": (1, 2),
            "dismount": (1, 1), "demolish": (1, 1), "unwire": (2, 2), "smoke": (3, 3), "merge": (2, 2),
            "entrench": (2, 2),
            "supply": (1, 2), "tow": (2, 2), "location": (2, 2), "mines": (2, 2), "clearmines": (1, 1),
            "unteeth": (2, 2), "clearpath": (1, 1), "pontoon": (2, 2), "load": (1, 1), "airstrike": (3, 3),
            "intercept": (3, 3), "patrol": (5, 5), "recon": (5, 5), "drop": (4, 4), "airland": (4, 4), "escort": (2, 2),
            "fire": (2, 2), "suppress": (2, 2), "mount": (2, 2), "facing": (2, 2), "deploy": (2, 3),
            "defend": (3, 4), "ambush": (3, 4), "move": (2, 99), "march": (2, 99), "assault": (2, 99),
            "firemove": (4, 99)}[a.verb]  # fmt: skip
    if not need[0] <= n <= need[1]:
        raise InvalidActionError(f"{a.verb}: wrong number of arguments; usage: {VERBS[a.verb]}")
    if n and a.verb != "commit" and a.args[0] not in st.units:
        raise InvalidActionError(f"{a.verb}: no unit {a.args[0]!r}")
    for h in _hex_args(a):
        try:
            st.board.parse(h)
        except ValueError as err:
            raise InvalidActionError(f"{a.verb}: {err}") from None
    if a.verb == "mines" and a.args[1] not in ("at", "ap", "dummy"):
        raise InvalidActionError(f"mines: the kind must be at, ap or dummy, got {a.args[1]!r}")
    if a.verb in ("patrol", "recon") and not (a.args[2].isdigit() and a.args[3].isdigit()):
        raise InvalidActionError(f"{a.verb}: the radius and the number of rounds must be numbers")
    if a.verb == "drop" and not a.args[2].isdigit():
        raise InvalidActionError(f"drop: the cargo must be a number of cargo units, got {a.args[2]!r}")
    if a.verb in ("defend", "ambush") and not a.args[2].isdigit():
        raise InvalidActionError(f"{a.verb}: the range must be a number of hexes, got {a.args[2]!r}")
    if a.verb in ("defend", "ambush") and n == 4 and not (a.args[3] in ("first", "hold") or policy_rows(a.args[3])):
        raise InvalidActionError(f"{a.verb}: unknown policy {a.args[3]!r}; {_policy_help()}")
    return a


def _hex_args(a: Action) -> list[str]:
    if a.verb == "firemove":
        return list(a.args[2:])
    if a.verb in ("move", "march"):
        return list(a.args[1:])
    if a.verb == "assault":
        return list(a.args[2:])
    if a.verb in ("deploy", "withdraw", "airstrike"):
        return list(a.args[1:])
    if a.verb == "intercept":
        return [a.args[2]]
    if a.verb in ("patrol", "recon"):
        return [a.args[1], a.args[4]]
    if a.verb in ("drop", "airland"):
        return [a.args[1], a.args[3]]
    if a.verb in ("defend", "ambush", "facing", "unwire", "entrench", "location", "unteeth", "pontoon"):
        return [a.args[1]]
    if a.verb == "smoke":
        return [a.args[1], a.args[2]]
    if a.verb == "fire" and is_label(a.args[1]):
        return [a.args[1]]
    return []


def order_from_action(st: GameState, a: Action) -> dict[str, Any]:
    """The order record written on the card for a planning action."""
    kind = _KIND[a.verb]
    o: dict[str, Any] = {"kind": kind, "notation": str(a)}
    if a.verb in ("move", "march"):
        o["path"] = list(a.args[1:])
    elif a.verb == "fire" and is_label(a.args[1]):
        o["structure"] = a.args[1]
    elif a.verb in ("fire", "suppress"):
        o["target"] = a.args[1]
    elif a.verb in ("unwire", "unteeth", "pontoon"):
        o["hex"] = a.args[1]
    elif a.verb == "smoke":
        o["hex"], o["second"] = a.args[1], a.args[2]
    elif a.verb in ("merge", "tow"):
        o["partner"] = a.args[1]
    elif a.verb == "entrench":
        o["facing_hex"] = a.args[1]
    elif a.verb == "location":
        o["hex"] = a.args[1]
    elif a.verb == "mines":
        o["mine"] = {"at": "anti_tank", "ap": "anti_personnel", "dummy": "dummy"}[a.args[1]]
    elif a.verb == "supply" and len(a.args) == 2:
        o["partner"] = a.args[1]
    elif a.verb == "drop":
        o["hex"], o["cargo"], o["entry"] = a.args[1], int(a.args[2]), a.args[3]
    elif a.verb == "airland":
        o["hex"], o["para"], o["entry"] = a.args[1], a.args[2], a.args[3]
    elif a.verb == "assault":
        o["target"] = a.args[1]
        o["path"] = list(a.args[2:])
    elif a.verb == "firemove":
        o["target"] = a.args[1]
        o["fire_hex"] = a.args[2]
        o["path"] = list(a.args[3:])
    elif a.verb == "mount":
        o["transport"] = a.args[1]
    elif a.verb == "facing":
        o["facing_hex"] = a.args[1]
    elif a.verb == "deploy":
        o["facing_hex"] = a.args[1]
        if len(a.args) == 3:
            o["to"] = a.args[2]
    elif a.verb == "withdraw" and len(a.args) == 2:
        o["to"] = a.args[1]
    elif a.verb == "airstrike":
        o["hex"], o["entry"] = a.args[1], a.args[2]
    elif a.verb == "intercept":
        o["target"], o["entry"] = a.args[1], a.args[2]
    elif a.verb == "escort":
        o["partner"] = a.args[1]
    elif a.verb in ("patrol", "recon"):
        o["hex"], o["radius"], o["rounds"], o["entry"] = a.args[1], int(a.args[2]), int(a.args[3]), a.args[4]
    elif a.verb in ("defend", "ambush"):
        o["facing_hex"] = a.args[1]
        o["range"] = int(a.args[2])
        if len(a.args) == 4 and a.args[3] != "first":
            o["policy"] = a.args[3]  # 15.2 item 4; absent = "first", as in orders written before policies
    return o


def _unit_can_take_orders(rs: ArtOfTactic, st: GameState, u: Unit, side: str) -> None:
    if u.side != side:
        raise refuse(f"{u.id} is not a {side} unit", "2.3")
    if card(rs.tables, u).type == "AIR" and u.steps > 0:
        if u.status.get("air") or int(u.status.get("prep", 4)) < 4:
            raise refuse(f"{u.id} is not ready on its airfield (box IV not marked)", "9.12")
    elif u.steps <= 0 or (u.hex is None and not u.status.get("carried_by")):
        raise refuse(f"{u.id} is not on the board", "2.3")
    if u.status.get("flag"):
        raise refuse(f"{u.id} is suppressed (flag marked) and cannot be given any order this round", "8.3")
    if u.status.get("no_order"):
        raise refuse(f"{u.id} stood in smoke and cannot be given an order this round", "3.9")


def check_order(rs: ArtOfTactic, st: GameState, a: Action) -> None:
    """Raise IllegalActionError if the planning action ``a`` is not allowed now (2.9 PLANNING checks)."""
    side = st.to_act
    assert side is not None
    sheet: dict[str, Any] = st.data["orders"].setdefault(side, {})
    if a.verb == "commit":
        return
    u = st.units[a.args[0]]
    if a.verb == "cancel":
        if u.side != side or u.id not in sheet:
            raise refuse(f"{u.id} has no order of yours to cancel", "2.3")
        return
    _unit_can_take_orders(rs, st, u, side)
    if u.id in sheet:
        raise refuse(f"{u.id} already has an order this round ({sheet[u.id]['notation']}); cancel it first", "2.3")
    kind = _KIND[a.verb]
    try:
        _check_common(rs, st, u, a, kind)
        handler = _CHECKS.get(kind)
        if handler is not None:
            handler(rs, st, u, a)
    except IllegalActionError as err:
        if u.id in err.message:
            raise
        # Every refusal names the unit the order was for (the rule cited stays).
        raise IllegalActionError(f"{u.id}: {err.message}", err.rule) from None


def _check_common(rs: ArtOfTactic, st: GameState, u: Unit, a: Action, kind: str) -> None:
    """The checks every order of ``kind`` shares: passengers, card, bound units, ammunition, Deploy/Withdraw."""
    c = card(rs.tables, u)
    if u.status.get("towed") and kind != "deploy":
        raise refuse(f"{u.id} is towed by {u.status['carried_by']}: Take position (deploy) is its only order", "9.9")
    if u.status.get("carried_by") and not u.status.get("towed") and kind != "dismount":
        raise refuse(f"{u.id} rides on {u.status['carried_by']}: Dismount is its only order", "4.6")
    if kind == "dismount" and not u.status.get("carried_by") and not u.status.get("carrying"):
        raise refuse(f"{u.id} neither carries nor rides on a transport", "4.6")
    if not c.can_order(kind):
        raise refuse(f"{u.id} ({c.name}) has no {a.verb} order on its card", "3.2")
    if u.status.get("bound"):
        _check_bound(rs, st, u, a, kind)
    ammo = int(u.status.get("ammo", 0))
    cost = int(rs.tables.rules["ammo"].get(kind, 0))
    if kind == "assault":
        cost = int(rs.tables.rules["ammo"]["assault_minimum"])
    if kind != "defend" and ammo < cost:
        raise refuse(f"{u.id} has {ammo} ammunition; {a.verb} needs {cost}", "2.9")
    lists_withdraw, lists_deploy = c.can_order("withdraw"), c.can_order("deploy")
    ongoing = u.status.get("ongoing", {}).get("kind")
    if kind in MOVE_ORDERS and lists_withdraw and u.status.get("deployed"):
        raise refuse(f"{u.id} is deployed: it must complete Withdraw before it can move", "9.3")
    if kind in ATTACK_ORDERS and lists_deploy and (not u.status.get("deployed") or ongoing in ("deploy", "withdraw")):
        raise refuse(f"{u.id} is not deployed: it may be given attack orders only once Deploy is complete", "9.2")


def _check_bound(rs: ArtOfTactic, st: GameState, u: Unit, a: Action, kind: str) -> None:
    """7.7: a bound unit gets only Assault on an enemy in its own hex, or a 1-hex move (withdrawal)."""
    if kind == "assault":
        tgt = st.units.get(a.args[1])
        if tgt is None or tgt.hex != u.hex or len(a.args) != 2:
            raise refuse(f"{u.id} is bound in close combat: its Assault must name an enemy in its own hex", "7.7")
        return
    if kind in ("cautious", "march"):
        if len(a.args) != 2:
            raise refuse(f"{u.id} is bound in close combat: it may withdraw only to an adjacent hex", "7.8")
        return
    if kind != "hold":
        raise refuse(f"{u.id} is bound in close combat: only Assault or a 1-hex withdrawal", "7.7")


def _target(rs: ArtOfTactic, st: GameState, u: Unit, tid: str) -> Unit:
    t = st.units.get(tid)
    if t is None or t.side == u.side or not visible_enemy(st, t):
        raise refuse(f"{tid} is not an enemy unit you can see on the board", "3.8")
    return t


def is_label(text: str) -> bool:
    """True for a hex label (``0805``) rather than a unit id."""
    return text.isdigit() and len(text) in (4, 6)


def _check_fire(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    if a.verb == "fire" and is_label(a.args[1]):
        attack, reason, rule = structure_attack(rs, st, u, a.args[1])
        if attack is None:
            raise refuse(f"{u.id} cannot fire at {a.args[1]}: {reason}", rule)
        return
    t = _target(rs, st, u, a.args[1])
    kind = "suppress" if a.verb == "suppress" else "fire"
    attack, reason, rule = ranged_attack(rs, st, u, t, a.verb, kind)
    if attack is None:
        raise refuse(f"{u.id} cannot {a.verb} at {t.id}: {reason}", rule)


def _check_ambush(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """3.11: the terrain of the unit's hex must allow Ambush for its type."""
    assert u.hex is not None
    tc = rs.tables.terrain[st.board.terrain(u.hex)]
    ctype = card(rs.tables, u).type
    if ctype not in tc.ambush:
        raise refuse(f"{u.id} ({ctype}) may not be given Ambush in {tc.name}", "3.11")
    _check_defend(rs, st, u, a)


def _check_defend(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    fh = st.board.parse(a.args[1])
    if facing_of(u.hex, fh) is None:
        raise refuse(f"the facing hex {a.args[1]} must be next to {u.id}'s hex", "3.6")
    r = int(a.args[2])
    top = max(card(rs.tables, u).max_range, 1)
    if not 1 <= r <= top:
        raise refuse(f"the engagement range must be 1 to {top} ({u.id}'s maximum range)", "3.6")
    if a.verb == "defend" and len(a.args) == 4 and a.args[3] == "hold":
        # 3.6: a defender "opens fire automatically"; 15.2 offers Defend the same policies, but not hold fire.
        raise refuse(
            "Defend opens fire automatically at a mover: the policy hold (never fire) is for Ambush only", "3.6"
        )


def _relocation(rs: ArtOfTactic, st: GameState, u: Unit, label: str, rule: str) -> Hex:
    """9.2, 9.3 PROPOSED: the unit's own hex or an adjacent hex it may enter, with no enemy and no smoke."""
    assert u.hex is not None
    to = st.board.parse(label)
    if to == u.hex:
        return to
    if to not in u.hex.neighbours():
        raise refuse(f"{label} must be {u.id}'s hex or next to it", rule)
    step = step_rule(rs.tables, st.board, card(rs.tables, u).move_as, u.hex, to, "cautious", rs.obstacles(st))
    if not step.allowed:
        raise refuse(f"{u.id} cannot move into {label}: {step.reason}", step.rule)
    if any(e.side != u.side and visible_enemy(st, e) and e.hex == to for e in st.units.values()):
        raise refuse(f"{label} holds an enemy unit", rule)
    _stack_ok(rs, st, u, to)
    return to


def _check_facing(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    where = u.hex
    if a.verb == "deploy" and len(a.args) == 3:
        where = _relocation(rs, st, u, a.args[2], "9.2")
    if facing_of(where, st.board.parse(a.args[1])) is None:
        raise refuse(f"the facing hex {a.args[1]} must be next to {u.id}'s hex", "9.4")
    if a.verb == "deploy" and u.status.get("deployed"):
        raise refuse(f"{u.id} is already deployed", "9.2")


def _check_unwire(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    pair = sorted([st.board.label(u.hex), a.args[1]])
    if pair not in st.data.get("structures", {}).get("wire", []):
        raise refuse(f"there is no barbed wire between {u.id}'s hex and {a.args[1]}", "9.10")


def _check_demolish(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    structures = st.data.get("structures", {})
    bridge = structures.get("bridges", {}).get(st.board.label(u.hex))
    dugout = st.board.label(u.hex) in structures.get("dugouts", {})
    if (bridge is None or bridge.get("destroyed")) and not dugout:
        raise refuse(f"{u.id} must stand on an intact bridge or in a dugout's hex to demolish it", "9.8")
    if u.status.get("charges_used"):
        raise refuse(f"{u.id} has used its one demolition charge", "9.8")


def _check_smoke(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """3.9: a smoke point, the target hex on the range chart and in the field of fire, an observer, and a second
    hex next to the target hex."""
    assert u.hex is not None
    from .combat import accuracy_at  # noqa: PLC0415
    from .sight import in_field_of_fire  # noqa: PLC0415

    if int(u.status.get("smoke_ammo", 0)) < 1:
        raise refuse(f"{u.id} has no smoke shells left", "3.9")
    h, second = st.board.parse(a.args[1]), st.board.parse(a.args[2])
    if second not in h.neighbours():
        raise refuse(f"the second smoke hex {a.args[2]} must be next to {a.args[1]}", "3.9")
    acc, _ = accuracy_at(rs, st, u, h)
    if acc is None:
        raise refuse(f"{a.args[1]} is out of {u.id}'s range chart (or an X field)", "3.9")
    if rs.has_fof(u) and not in_field_of_fire(u.hex, int(u.status["facing"]), h):
        raise refuse(f"{a.args[1]} is outside {u.id}'s field of fire", "3.9")
    if not any(
        x.side == u.side and is_on_board(x) and x.hex is not None
        and line_of_sight(st.board, rs.policy, x.hex, h, rs.smoke(st)).visible
        for x in st.units.values()
    ):  # fmt: skip
        raise refuse(f"no friendly unit sees {a.args[1]} (smoke needs an observer)", "3.9")


def _check_merge(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    other = st.units.get(a.args[1])
    if other is None or other.id == u.id or other.side != u.side or not is_on_board(other) or other.hex != u.hex:
        raise refuse(f"{a.args[1]} is not a friendly unit in {u.id}'s hex", "9.5")
    if other.type != u.type:
        raise refuse(f"only units of the same card may merge ({u.type} and {other.type})", "9.5")
    size = card(rs.tables, u).size
    if u.steps + other.steps > size:
        raise refuse(f"{u.steps} + {other.steps} exceeds the initial size {size}", "9.5")
    if other.status.get("flag") or other.status.get("bound") or u.status.get("bound"):
        raise refuse("both units must be able to receive orders (not suppressed, not bound)", "9.5")


def _check_mines(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    if a.args[1] != "dummy" and not u.status.get("mines"):
        raise refuse(f"{u.id} has no real minefield left (bought at the start or received from a transport)", "9.6")
    if st.board.label(u.hex) in st.data.get("minefields", {}):
        raise refuse(f"there is a minefield in {st.board.label(u.hex)} already", "9.6")


def _check_clearmines(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    field = st.data.get("minefields", {}).get(st.board.label(u.hex))
    if field is None or not field.get("revealed"):
        raise refuse(f"there is no revealed minefield in {u.id}'s hex", "9.7")


def _check_unteeth(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    if sorted([st.board.label(u.hex), a.args[1]]) not in st.data.get("structures", {}).get("teeth", []):
        raise refuse(f"there are no dragon's teeth between {u.id}'s hex and {a.args[1]}", "9.10")


def _check_clearpath(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    tc = rs.tables.terrain[st.board.terrain(u.hex)]
    if tc.key != "woods" or st.board.label(u.hex) in st.data.get("structures", {}).get("paths", []):
        raise refuse(f"{u.id} must stand in a woods hex without a path", "9.10")


def _check_pontoon(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    h = st.board.parse(a.args[1])
    if h not in u.hex.neighbours() or st.board.terrain(h) != "river":
        raise refuse(f"{a.args[1]} must be a river hex next to {u.id}", "9.10")
    if a.args[1] in st.data.get("structures", {}).get("pontoons", []):
        raise refuse(f"there is a pontoon bridge at {a.args[1]} already", "9.10")


def _check_load(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    edge = st.board.places.get(f"{u.side.title()} supply edge", ())
    if u.hex not in edge:
        raise refuse(f"{u.id} must stand on the {u.side} supply edge to load supply", "9.16")
    cap = int(card(rs.tables, u).cargo.get("ammo", 0)) - int(u.status.get("cargo_lost", 0))
    if int(u.status.get("cargo_ammo", 0)) >= cap:
        raise refuse(f"{u.id} is fully loaded", "9.16")


def _check_airstrike(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.11–9.13: an unsuppressed own HQ on the board; the target hex seen by a friendly ground unit; the entry
    hex on the edge of the map."""
    t = rs.tables
    if not any(
        x.side == u.side and is_on_board(x) and card(t, x).has("hq") and not x.status.get("suppressed")
        for x in st.units.values()
    ):
        raise refuse("aircraft take off only while an unsuppressed HQ of yours is on the board", "9.11")
    target, entry = st.board.parse(a.args[1]), st.board.parse(a.args[2])
    if not any(
        x.side == u.side and is_on_board(x) and x.hex is not None
        and line_of_sight(st.board, rs.policy, x.hex, target, rs.smoke(st)).visible
        for x in st.units.values()
    ):  # fmt: skip
        raise refuse(f"no unit of yours sees {a.args[1]}: an air strike needs its target in sight", "9.11")
    edges = {h for e in ("top", "right", "bottom", "left") for h in st.board.edge_hexes(e)}
    if entry not in edges:
        raise refuse(f"{a.args[2]} is not on the edge of the map: aircraft enter at an edge", "9.13")


def _check_intercept(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.15.2: an enemy aircraft still in the game; the HQ condition; an entry hex on the map's edge."""
    t = rs.tables
    enemy = st.units.get(a.args[1])
    if enemy is None or enemy.side == u.side or enemy.steps <= 0 or card(t, enemy).type != "AIR":
        raise refuse(f"{a.args[1]} is not an enemy aircraft", "9.15.2")
    if not any(
        x.side == u.side and is_on_board(x) and card(t, x).has("hq") and not x.status.get("suppressed")
        for x in st.units.values()
    ):
        raise refuse("aircraft take off only while an unsuppressed HQ of yours is on the board", "9.11")
    edges = {h for e in ("top", "right", "bottom", "left") for h in st.board.edge_hexes(e)}
    if st.board.parse(a.args[2]) not in edges:
        raise refuse(f"{a.args[2]} is not on the edge of the map: aircraft enter at an edge", "9.13")


def _check_patrol(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.15.5: radius and duration within the card's maxima; the centre seen by an own ground unit (9.13)."""
    c = card(rs.tables, u)
    if not 0 <= int(a.args[2]) <= c.patrol_radius:
        raise refuse(f"the patrol radius may be 0 to {c.patrol_radius}", "9.15.5")
    if not 1 <= int(a.args[3]) <= c.flight_duration:
        raise refuse(f"the flight duration may be 1 to {c.flight_duration} rounds", "9.15.5")
    _check_airstrike(rs, st, u, Action("airstrike", (u.id, a.args[1], a.args[4])))


def _check_recon(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.15.3: radius within the card's observation zone, duration within its time boxes; the centre seen by an
    own ground unit (9.13)."""
    c = card(rs.tables, u)
    if not 0 <= int(a.args[2]) <= min(c.observation_zone, len(c.detection) - 1):
        raise refuse(f"the observation radius may be 0 to {c.observation_zone}", "9.15.3")
    if not 1 <= int(a.args[3]) <= c.flight_duration:
        raise refuse(f"the flight duration may be 1 to {c.flight_duration} rounds", "9.15.3")
    _check_airstrike(rs, st, u, Action("airstrike", (u.id, a.args[1], a.args[4])))


def _check_drop(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.15.6: at most the card's cargo limit; the drop hex seen by an own ground unit (9.13)."""
    c = card(rs.tables, u)
    if not 1 <= int(a.args[2]) <= c.cargo_limit:
        raise refuse(f"the cargo may be 1 to {c.cargo_limit} cargo units", "9.15.6")
    _check_airstrike(rs, st, u, Action("airstrike", (u.id, a.args[1], a.args[3])))


def _check_airland(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.15.4: paratroopers of the side waiting on the airfield, of a size at most the aircraft's; the landing hex
    seen by an own ground unit (9.13)."""
    para = st.units.get(a.args[2])
    if para is None or para.side != u.side or not card(rs.tables, para).has("paratrooper"):
        raise refuse(f"{a.args[2]} is not a paratrooper unit of yours", "9.15.4")
    if not para.status.get("airfield") or para.steps <= 0:
        raise refuse(f"{para.id} is not waiting on the airfield", "9.15.4")
    if para.steps > u.steps:
        raise refuse(f"{para.id} (size {para.steps}) is larger than {u.id} (size {u.steps})", "9.15.4")
    if any(o.get("para") == para.id for o in st.data["orders"].get(u.side, {}).values()):
        raise refuse(f"{para.id} already has a transport this round", "9.15.4")
    _check_airstrike(rs, st, u, Action("airstrike", (u.id, a.args[1], a.args[3])))


def _check_escort(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.15.7: a friendly aircraft, Ready on its airfield (it must fly this round for the escort to launch)."""
    friend = st.units.get(a.args[1])
    if friend is None or friend.side != u.side or friend.id == u.id or card(rs.tables, friend).type != "AIR":
        raise refuse(f"{a.args[1]} is not a friendly aircraft", "9.15.7")
    if friend.steps <= 0 or friend.status.get("air") or int(friend.status.get("prep", 4)) < 4:
        raise refuse(f"{a.args[1]} is not ready to fly", "9.15.7")
    if not any(
        x.side == u.side and is_on_board(x) and card(rs.tables, x).has("hq") and not x.status.get("suppressed")
        for x in st.units.values()
    ):
        raise refuse("aircraft take off only while an unsuppressed HQ of yours is on the board", "9.11")


def _check_location(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    _attacks, reason, rule = location_attacks(rs, st, u, a.args[1])
    if reason:
        raise refuse(f"{u.id} cannot fire at {a.args[1]}: {reason}", rule)


def _check_entrench(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    assert u.hex is not None
    if facing_of(u.hex, st.board.parse(a.args[1])) is None:
        raise refuse(f"the trench's facing hex {a.args[1]} must be next to {u.id}'s hex", "9.10")
    if st.board.label(u.hex) in st.data.get("structures", {}).get("trenches", {}):
        raise refuse(f"there is a trench in {st.board.label(u.hex)} already", "9.10")


def _check_supply(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.16: the recipient names a friendly transport with ammunition in its hex; the transport names nobody."""
    c = card(rs.tables, u)
    if len(a.args) == 1:
        if not c.has("supply_carrier"):
            raise refuse(f"{u.id} carries no supplies: name the transport (supply UNIT TRANSPORT)", "9.16")
        return
    if a.args[1] == "crate":  # 9.15.6, G24: a dropped crate is a stationary transport, for either side
        label = st.board.label(u.hex) if u.hex is not None else ""
        if int(st.data.get("crates", {}).get(label, 0)) <= 0:
            raise refuse(f"there is no supply crate in {u.id}'s hex", "9.15.6")
        if int(u.status.get("ammo", 0)) >= c.ammo:
            raise refuse(f"{u.id} already has its full ammunition", "9.16")
        return
    tp = st.units.get(a.args[1])
    if tp is None or tp.side != u.side or not is_on_board(tp) or tp.hex != u.hex:
        raise refuse(f"{a.args[1]} is not a friendly transport in {u.id}'s hex", "9.16")
    wants_mine = c.has("engineer") and not u.status.get("mines") and int(tp.status.get("cargo_mines", 0)) > 0
    if not card(rs.tables, tp).has("supply_carrier") or (int(tp.status.get("cargo_ammo", 0)) <= 0 and not wants_mine):
        raise refuse(f"{tp.id} has nothing to give", "9.16")
    if int(u.status.get("ammo", 0)) >= c.ammo and not wants_mine:
        raise refuse(f"{u.id} already has its full ammunition", "9.16")


def _check_tow(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    """9.9: tower and towed in one hex; the towed unit has withdrawn; its size is not above the tower's."""
    other = st.units.get(a.args[1])
    if other is None or other.side != u.side or not is_on_board(other) or other.hex != u.hex:
        raise refuse(f"{a.args[1]} is not a friendly unit in {u.id}'s hex", "9.9")
    t = rs.tables
    tower, towed = (u, other) if card(t, u).has("tow") else (other, u)
    if not card(t, tower).has("tow") or card(t, towed).has("tow"):
        raise refuse("one of the two must be a transport that tows and the other the unit it tows", "9.9")
    if towed.status.get("deployed") or towed.status.get("ongoing"):
        raise refuse(f"{towed.id} must complete Withdraw before it can be towed", "9.9")
    if towed.steps > tower.steps or any(st.units[p].status.get("towed") for p in tower.status.get("carrying", [])):
        raise refuse(f"{tower.id} cannot tow {towed.id} (one unit, of a size not above its own)", "9.9")


def _check_withdraw(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    if not u.status.get("deployed"):
        raise refuse(f"{u.id} is not deployed", "9.3")
    if len(a.args) == 2:
        _relocation(rs, st, u, a.args[1], "9.3")


def _stack_ok(rs: ArtOfTactic, st: GameState, u: Unit, end: Hex) -> None:
    """4.9 PROPOSED: the end hex may not then hold more than 3 vehicle and 6 INF/ART units of one side."""
    t = rs.tables
    sheet = st.data["orders"].get(u.side, {})
    vehicles = infantry = 0
    for x in side_units(st, u.side):
        if x.id == u.id:
            continue
        o = sheet.get(x.id)
        where = st.board.parse(o["path"][-1]) if o and o["kind"] in ("cautious", "march", "fire_on_move") else x.hex
        if where == end:
            if t.is_vehicle(card(t, x).type):
                vehicles += 1
            else:
                infantry += 1
    lim = t.rules["stacking"]
    if t.is_vehicle(card(t, u).type):
        if vehicles + 1 > int(lim["vehicles"]):
            raise refuse(f"{st.board.label(end)} would hold more than {lim['vehicles']} vehicle units", "4.9")
    elif infantry + 1 > int(lim["infantry_artillery"]):
        raise refuse(f"{st.board.label(end)} would hold more than {lim['infantry_artillery']} infantry units", "4.9")


def _check_fire_on_move(rs: ArtOfTactic, st: GameState, u: Unit, a: Action, stacking: bool = True) -> None:
    """4.5: a target in LOS now, that the card may fire at; the firing hex is the start or on the path."""
    assert u.hex is not None
    t = _target(rs, st, u, a.args[1])
    assert t.hex is not None
    tables = rs.tables
    c = card(tables, u)
    row = tables.target_row(card(tables, t).type)
    if row in c.cc_only or not c.dice(row, 0):
        raise refuse(f"{u.id} cannot fire at {row} units (rule 3.1)", "3.1")
    if not line_of_sight(st.board, rs.policy, u.hex, t.hex, rs.smoke(st)).visible:
        raise refuse(f"{t.id} is not in {u.id}'s line of sight now", "4.5")
    fire_hex = st.board.parse(a.args[2])
    if fire_hex != u.hex and a.args[2] not in a.args[3:]:
        raise refuse(f"the firing hex {a.args[2]} must be the start hex or a hex of the path", "4.5")
    _check_move(rs, st, u, Action("firemove", (u.id, *a.args[3:])), stacking)


def _check_move(rs: ArtOfTactic, st: GameState, u: Unit, a: Action, stacking: bool = True) -> None:
    assert u.hex is not None
    c = card(rs.tables, u)
    kind = _KIND[a.verb]
    path = [st.board.parse(h) for h in a.args[1:]]
    mode, allowance, bonus = move_allowance(rs, c, kind)
    check_path(rs.tables, st.board, c.move_as, u.hex, path, mode, allowance, bonus, rs.obstacles(st), u.id)
    for h in path:
        blockers = [e for e in st.units.values() if e.side != u.side and visible_enemy(st, e) and e.hex == h]
        if blockers and not u.status.get("bound"):
            raise refuse(
                f"{u.id} cannot move into {st.board.label(h)}, held by {blockers[0].id}: "
                "only Assault may enter an enemy hex",
                "3.10",
            )
        if blockers:
            raise refuse(f"{u.id} may withdraw only to a hex without enemy units", "7.8")
    if stacking:
        _stack_ok(rs, st, u, path[-1])


def assault_route_problem(rs: ArtOfTactic, st: GameState, u: Unit, target: Unit, route: list[Hex]) -> None:
    """4.11 item 7: the hexes before the target's follow Cautious rules within the assault distance."""
    assert u.hex is not None and target.hex is not None
    c = card(rs.tables, u)
    if not route or route[-1] != target.hex:
        raise refuse(f"{u.id}'s route must end in {target.id}'s hex {st.board.label(target.hex)}", "3.10")
    before = route[:-1]
    prev = before[-1] if before else u.hex
    if distance(prev, target.hex) != 1:
        raise refuse(f"write every hex of {u.id}'s route: the last one must be next to the target's hex", "3.10")
    last = step_rule(rs.tables, st.board, c.move_as, prev, target.hex, "assault", rs.obstacles(st))
    if not last.allowed:
        raise refuse(f"{u.id} cannot assault into {st.board.label(target.hex)}: {last.reason}", last.rule)
    if last.capped and before:
        raise refuse(f"the step into the target's hex allows {u.id} only a 1-hex move: assault from next to it", "4.11")
    if before:
        distance_ = c.order("assault", "distance")
        check_path(rs.tables, st.board, c.move_as, u.hex, before, "assault", distance_, 0, rs.obstacles(st), u.id)
        for h in before:
            if any(e.side != u.side and visible_enemy(st, e) and e.hex == h for e in st.units.values()):
                raise refuse(f"{u.id}'s route passes through the enemy in {st.board.label(h)}", "3.10")


def _check_assault(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    t = _target(rs, st, u, a.args[1])
    assert u.hex is not None and t.hex is not None
    tables = rs.tables
    c = card(tables, u)
    row = tables.target_row(card(tables, t).type)
    if c.dice(row, 0) is None and c.cc_dice != "art":
        raise refuse(f"{u.id} cannot attack {row} units (not a target type on its card)", "7.3")
    if t.status.get("hidden"):
        raise refuse(f"{t.id} is hidden and cannot be assaulted", "3.11")
    if c.type == "INF" and tables.is_armour(card(tables, t).type):
        here = tables.terrain[st.board.terrain(u.hex)]
        if here.no_assault_on_armour:
            raise refuse(f"infantry in {here.name} may not be ordered to assault armoured vehicles or tanks", "7.3")
    if u.status.get("bound"):
        return
    route = [st.board.parse(h) for h in a.args[2:]]
    assault_route_problem(rs, st, u, t, route)


def _check_mount(rs: ArtOfTactic, st: GameState, u: Unit, a: Action) -> None:
    tr = st.units.get(a.args[1])
    t = rs.tables
    if tr is None or tr.side != u.side or not is_on_board(tr) or tr.hex != u.hex:
        raise refuse(f"{a.args[1]} is not a friendly transport in {u.id}'s hex", "4.6")
    tc = card(t, tr)
    if not tc.has("transport") or card(t, u).type not in tc.carries:
        raise refuse(f"{tr.id} cannot carry {u.id}", "4.6")
    aboard = sum(st.units[p].steps for p in tr.status.get("carrying", []))
    if aboard + u.steps > tr.steps:
        raise refuse(
            f"{tr.id} (size {tr.steps}) has room for {tr.steps - aboard} more, {u.id} has size {u.steps}", "4.6"
        )


_CHECKS = {
    "fire": _check_fire,
    "suppress": _check_fire,
    "defend": _check_defend,
    "ambush": _check_ambush,
    "facing": _check_facing,
    "deploy": _check_facing,
    "withdraw": _check_withdraw,
    "remove_wire": _check_unwire,
    "entrench": _check_entrench,
    "location": _check_location,
    "air_strike": _check_airstrike,
    "intercept": _check_intercept,
    "patrol": _check_patrol,
    "recon": _check_recon,
    "supply_drop": _check_drop,
    "airborne_landing": _check_airland,
    "escort": _check_escort,
    "remove_obstacle": _check_unteeth,
    "clear_path": _check_clearpath,
    "pontoon": _check_pontoon,
    "load_supply": _check_load,
    "lay_mines": _check_mines,
    "clear_mines": _check_clearmines,
    "supply": _check_supply,
    "tow": _check_tow,
    "smoke": _check_smoke,
    "merge": _check_merge,
    "demolition": _check_demolish,
    "cautious": _check_move,
    "march": _check_move,
    "fire_on_move": _check_fire_on_move,
    "assault": _check_assault,
    "mount": _check_mount,
}


def _entry_hex(st: GameState, side: str, target: Hex) -> Hex:
    """The aircraft's canonical entry hex: the hex of its side's map edge nearest the target (9.13)."""
    edge = st.board.edges.get(side, "left")
    return min(st.board.edge_hexes(edge), key=lambda h: (distance(h, target), h))


def _around(st: GameState, u: Unit) -> list[str]:
    assert u.hex is not None
    return [st.board.label(n) for n in u.hex.neighbours() if n in st.board.cells]


def _candidates(rs: ArtOfTactic, st: GameState, u: Unit) -> Iterator[Action]:
    """Candidate orders for one unit (each is then checked)."""
    c = card(rs.tables, u)
    uid = u.id
    if u.status.get("towed"):
        yield from (Action("deploy", (uid, label)) for label in _around(st, u))
        return
    if u.status.get("carried_by"):
        yield Action("dismount", (uid,))
        return
    if c.type == "AIR":
        if c.can_order("intercept"):
            for e in sorted(st.units.values(), key=lambda x: x.id):
                if e.side != u.side and e.steps > 0 and card(rs.tables, e).type == "AIR":
                    entry = st.board.edge_hexes(st.board.edges.get(u.side, "right"))[0]
                    yield Action("intercept", (uid, e.id, st.board.label(entry)))
        if c.can_order("patrol"):
            for h in sorted({x.hex for x in st.units.values() if x.side == u.side and is_on_board(x) and x.hex}):
                lbl = st.board.label(h)
                yield Action("patrol", (uid, lbl, str(c.patrol_radius), str(c.flight_duration),
                                        st.board.label(_entry_hex(st, u.side, h))))  # fmt: skip
        if c.can_order("recon"):
            for h in sorted({x.hex for x in st.units.values() if x.side == u.side and is_on_board(x) and x.hex}):
                lbl = st.board.label(h)
                yield Action("recon", (uid, lbl, "1", str(c.flight_duration),
                                       st.board.label(_entry_hex(st, u.side, h))))  # fmt: skip
        if c.can_order("supply_drop"):
            for h in sorted({x.hex for x in st.units.values() if x.side == u.side and is_on_board(x) and x.hex}):
                yield Action("drop", (uid, st.board.label(h), str(c.cargo_limit),
                                      st.board.label(_entry_hex(st, u.side, h))))  # fmt: skip
        if c.can_order("airborne_landing"):
            for p in sorted(st.units.values(), key=lambda x: x.id):
                if p.side == u.side and p.status.get("airfield") and 0 < p.steps <= u.steps:
                    for h in sorted({x.hex for x in side_units(st, u.side) if x.hex}):
                        yield Action("airland", (uid, st.board.label(h), p.id,
                                                 st.board.label(_entry_hex(st, u.side, h))))  # fmt: skip
        if c.can_order("escort"):
            for f in sorted(st.units.values(), key=lambda x: x.id):
                if f.side == u.side and f.id != uid and f.steps > 0 and card(rs.tables, f).type == "AIR":
                    yield Action("escort", (uid, f.id))
        if c.can_order("air_strike"):
            for h in sorted({e.hex for e in st.units.values() if e.side != u.side and visible_enemy(st, e) and e.hex}):
                yield Action("airstrike", (uid, st.board.label(h), st.board.label(_entry_hex(st, u.side, h))))
        return
    assert u.hex is not None
    yield Action("hold", (uid,))
    if c.can_order("reconnoitre"):
        yield Action("reconnoitre", (uid,))
    enemies = [e for e in st.units.values() if e.side != u.side and visible_enemy(st, e)]
    label = st.board.label
    obstacles = rs.obstacles(st)
    neighbours = [n for n in u.hex.neighbours() if n in st.board.cells]
    for verb in ("defend", "ambush"):
        if c.can_order(verb):
            top = max(c.max_range, 1)
            for n in neighbours:
                for r in range(1, top + 1):
                    yield Action(verb, (uid, label(n), str(r)))
    for verb in ("fire", "suppress"):
        if c.can_order(verb):
            for e in enemies:
                yield Action(verb, (uid, e.id))
    if c.can_order("fire") and c.has("attack_structures"):
        for b, rec in sorted(st.data.get("structures", {}).get("bridges", {}).items()):
            if not rec.get("destroyed"):
                yield Action("fire", (uid, b))
        for d in sorted(st.data.get("structures", {}).get("dugouts", {})):
            yield Action("fire", (uid, d))
    if c.can_order("location"):
        seen: set[Hex] = set()
        for e in enemies:
            if e.hex is not None and e.hex not in seen:
                seen.add(e.hex)
                yield Action("location", (uid, label(e.hex)))
        for lbl in sorted(st.data.get("last_seen", {}).values()):
            h = st.board.parse(lbl)
            if h not in seen:
                seen.add(h)
                yield Action("location", (uid, lbl))
    if c.can_order("lay_mines"):
        for kind in ("at", "ap", "dummy"):
            yield Action("mines", (uid, kind))
    if c.can_order("clear_mines"):
        yield Action("clearmines", (uid,))
    if c.can_order("remove_obstacle"):
        for n in neighbours:
            if sorted([label(u.hex), label(n)]) in st.data.get("structures", {}).get("teeth", []):
                yield Action("unteeth", (uid, label(n)))
    if c.can_order("clear_path"):
        yield Action("clearpath", (uid,))
    if c.can_order("pontoon"):
        for n in neighbours:
            if st.board.terrain(n) == "river":
                yield Action("pontoon", (uid, label(n)))
    if c.can_order("load_supply"):
        yield Action("load", (uid,))
    if c.can_order("remove_wire"):
        for n in neighbours:
            if sorted([label(u.hex), label(n)]) in st.data.get("structures", {}).get("wire", []):
                yield Action("unwire", (uid, label(n)))
    if c.can_order("demolition"):
        yield Action("demolish", (uid,))
    if c.can_order("entrench"):
        for n in neighbours:
            yield Action("entrench", (uid, label(n)))
    if c.can_order("supply"):
        if c.has("supply_carrier"):
            yield Action("supply", (uid,))
        for x in side_units(st, u.side):
            if x.id != uid and x.hex == u.hex and card(rs.tables, x).has("supply_carrier"):
                yield Action("supply", (uid, x.id))
        if int(st.data.get("crates", {}).get(label(u.hex), 0)) > 0 and int(u.status.get("ammo", 0)) < c.ammo:
            yield Action("supply", (uid, "crate"))
    if c.can_order("tow"):
        for x in side_units(st, u.side):
            if x.id != uid and x.hex == u.hex and card(rs.tables, x).can_order("tow"):
                yield Action("tow", (uid, x.id))
    if c.can_order("merge"):
        for x in side_units(st, u.side):
            if x.id != uid and x.hex == u.hex and x.type == u.type:
                yield Action("merge", (uid, x.id))
    if c.can_order("smoke") and int(u.status.get("smoke_ammo", 0)) > 0:
        for e in enemies:
            if e.hex is not None:
                second = min(n for n in e.hex.neighbours() if n in st.board.cells)
                yield Action("smoke", (uid, label(e.hex), label(second)))
    if u.status.get("bound"):
        for e in enemies_in_hex(st, u):
            yield Action("assault", (uid, e.id))
        for n in neighbours:
            for verb, kind in (("move", "cautious"), ("march", "march")):
                if c.can_order(kind):
                    yield Action(verb, (uid, label(n)))
        return
    for verb, kind in (("move", "cautious"), ("march", "march")):
        if c.can_order(kind):
            bonus = int(rs.tables.rules["march"]["road_bonus"].get(c.move_as, 0)) if kind == "march" else 0
            dest = destinations(rs.tables, st.board, c.move_as, u.hex, kind, c.order(kind, "range"), bonus, obstacles)
            for _h, path in sorted(dest.items()):
                yield Action(verb, (uid, *(label(h) for h in path)))
    if c.can_order("fire_on_move"):
        fom_range = c.order("fire_on_move", "range")
        dest = destinations(rs.tables, st.board, c.move_as, u.hex, "cautious", fom_range, 0, obstacles)
        reach_of_fire = len(c.range) - 1
        for e in enemies:
            assert e.hex is not None
            if not line_of_sight(st.board, rs.policy, u.hex, e.hex, rs.smoke(st)).visible:
                continue
            for _h, path in sorted(dest.items()):
                if 1 <= distance(path[-1], e.hex) <= reach_of_fire:
                    yield Action("firemove", (uid, e.id, label(path[-1]), *(label(h) for h in path)))
    if c.can_order("assault"):
        dist = c.order("assault", "distance")
        reach = destinations(rs.tables, st.board, c.move_as, u.hex, "assault", dist, 0, obstacles)
        for e in enemies:
            assert e.hex is not None
            best: tuple[int, tuple[Hex, ...]] | None = None
            for n in sorted(e.hex.neighbours()):
                before = () if n == u.hex else reach.get(n)
                if before is None:
                    continue
                cand = (len(before), (*before, e.hex))
                if best is None or cand < best:
                    best = cand
            if best is not None:
                yield Action("assault", (uid, e.id, *(label(h) for h in best[1])))
    if c.can_order("mount"):
        for x in side_units(st, u.side):
            if x.id != uid and x.hex == u.hex and card(rs.tables, x).has("transport"):
                yield Action("mount", (uid, x.id))
    if c.can_order("dismount") and u.status.get("carrying"):
        yield Action("dismount", (uid,))
    for verb in ("facing", "deploy"):
        if c.can_order(verb):
            for n in neighbours:
                yield Action(verb, (uid, label(n)))
    if c.can_order("withdraw"):
        yield Action("withdraw", (uid,))
        for n in neighbours:
            yield Action("withdraw", (uid, label(n)))


def _end_counts(rs: ArtOfTactic, st: GameState, side: str) -> dict[Hex, list[int]]:
    """Where the side's units will end the round as ordered so far: {hex: [vehicles, infantry]} (4.9)."""
    t = rs.tables
    sheet = st.data["orders"].get(side, {})
    out: dict[Hex, list[int]] = {}
    for x in side_units(st, side):
        o = sheet.get(x.id)
        where = st.board.parse(o["path"][-1]) if o and o["kind"] in ("cautious", "march", "fire_on_move") else x.hex
        assert where is not None
        out.setdefault(where, [0, 0])[0 if t.is_vehicle(card(t, x).type) else 1] += 1
    return out


def _signature(st: GameState) -> str:
    """What the legal orders of a unit depend on, apart from the side's own order sheet."""
    units = [(u.id, u.hex, u.steps, sorted(u.status.items())) for u in st.units.values()]
    d = st.data
    return repr((st.turn, st.viewer, units, d.get("smoke"), d.get("structures"), d.get("last_seen")))


def _unit_orders(rs: ArtOfTactic, st: GameState, u: Unit) -> list[tuple[Action, Hex | None]]:
    """A unit's legal orders before stacking, each with the hex its move ends in (None if it does not move)."""
    out: list[tuple[Action, Hex | None]] = []
    enemy_hexes = {e.hex for e in st.units.values() if e.side != u.side and visible_enemy(st, e)}
    common: dict[str, bool] = {}
    for a in _candidates(rs, st, u):
        kind = _KIND[a.verb]
        if kind not in common:
            try:
                _check_common(rs, st, u, a, kind)
                common[kind] = True
            except IllegalActionError:
                common[kind] = False
        if not common[kind]:
            continue
        if kind == "fire_on_move":
            try:
                _check_fire_on_move(rs, st, u, a, stacking=False)
            except IllegalActionError:
                continue
            out.append((a, st.board.parse(a.args[-1])))
            continue
        if kind in ("cautious", "march") and not u.status.get("bound"):
            path = [st.board.parse(h) for h in a.args[1:]]
            if not any(h in enemy_hexes for h in path):
                out.append((a, path[-1]))
            continue
        handler = _CHECKS.get(kind)
        if handler is not None:
            try:
                handler(rs, st, u, a)
            except IllegalActionError:
                continue
        out.append((a, None))
    return out


def iter_orders(rs: ArtOfTactic, st: GameState) -> Iterator[Action]:
    """Every legal planning action of the side to act, in a deterministic order.

    Generated paths are legal by construction (:func:`destinations`), so only what changes with the units
    (enemies on the path, stacking at its end) is checked for them. Orders never move units while a side
    plans, so each unit's orders are kept (per board, for the latest position) and only stacking, which
    depends on the orders already given, is checked again at each decision.
    """
    side = st.to_act
    assert side is not None
    t = rs.tables
    sheet = st.data["orders"].get(side, {})
    ends = _end_counts(rs, st, side)
    lim = t.rules["stacking"]
    key = ("aot-legal", side, st.viewer)
    sig = _signature(st)
    slot = st.board.cache.get(key)
    if slot is None or slot[0] != sig:
        slot = (sig, {})
        st.board.cache[key] = slot
    per_unit: dict[str, list[tuple[Action, Hex | None]]] = slot[1]
    for u in st.units.values():
        aircraft = card(t, u).type == "AIR"
        if u.side != side or u.steps <= 0 or (u.hex is None and not u.status.get("carried_by") and not aircraft):
            continue
        if u.id in sheet:
            yield Action("cancel", (u.id,))
            continue
        try:
            _unit_can_take_orders(rs, st, u, side)
        except IllegalActionError:
            continue
        acts = per_unit.get(u.id)
        if acts is None:
            acts = _unit_orders(rs, st, u)
            per_unit[u.id] = acts
        veh = t.is_vehicle(card(t, u).type)
        room = int(lim["vehicles" if veh else "infantry_artillery"])
        for a, end in acts:
            if end is not None and ends.get(end, [0, 0])[0 if veh else 1] + 1 > room:
                continue
            yield a
    yield Action("commit", ())
