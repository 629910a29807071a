"""Provides the words of the Art of Tactic orders (2.3, 3.5): each verb's help line, the order box it writes on the
card, the reaction policies of Defend and Ambush (15.2 item 4), and the classes of orders other rules name."""

from __future__ import annotations

from collections.abc import Mapping

from engine.notation import Notation

from ..data import MineKind, OrderKind, load_tables
from ..notation import (
    Airland,
    Airstrike,
    Ambush,
    Assault,
    ClearMines,
    ClearPath,
    Defend,
    Demolish,
    Deploy,
    Dismount,
    Drop,
    Entrench,
    Escort,
    Facing,
    Fire,
    FireMove,
    Hold,
    Intercept,
    LoadSupply,
    Location,
    March,
    Merge,
    Mines,
    Mount,
    Move,
    Patrol,
    Pontoon,
    Recon,
    Reconnoitre,
    Smoke,
    Supply,
    Suppress,
    Tow,
    Unteeth,
    Unwire,
    Withdraw,
)

__all__ = ["ATTACK_ORDERS", "KINDS", "MINE_KINDS", "MOVE_ORDERS", "VERBS", "policies", "policy_help"]

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

ATTACK_ORDERS: frozenset[OrderKind] = frozenset(
    {"defend", "suppress", "fire", "ambush", "fire_on_move", "smoke", "location"}
)
"""Orders counting as attack orders for the Deploy rule (3.5, PROPOSED extension included)."""
MOVE_ORDERS: frozenset[OrderKind] = frozenset({"cautious", "march", "fire_on_move"})
"""Orders that move the unit along a written path in step 10 (4.2, 4.3, 4.5)."""

KINDS: Mapping[type[Notation], OrderKind] = {
    FireMove: "fire_on_move", Move: "cautious", Suppress: "suppress", Fire: "fire", March: "march", Hold: "hold",
    Reconnoitre: "reconnoitre", Defend: "defend", Assault: "assault", Mount: "mount", Dismount: "dismount",
    Facing: "facing", Deploy: "deploy", Withdraw: "withdraw", Unwire: "remove_wire", Demolish: "demolition",
    Smoke: "smoke", Merge: "merge", Ambush: "ambush", Entrench: "entrench", Supply: "supply", Tow: "tow",
    Location: "location", Mines: "lay_mines", ClearMines: "clear_mines", Unteeth: "remove_obstacle",
    ClearPath: "clear_path", Pontoon: "pontoon", LoadSupply: "load_supply", Airstrike: "air_strike",
    Intercept: "intercept", Patrol: "patrol", Escort: "escort", Recon: "recon", Drop: "supply_drop",
    Airland: "airborne_landing",
}  # fmt: skip
"""Each order's notation → the order box it writes on the card (``data.ORDER_KINDS``)."""

MINE_KINDS: Mapping[str, MineKind] = {"at": "anti_tank", "ap": "anti_personnel", "dummy": "dummy"}
"""``mines UNIT at|ap|dummy``: the minefield card each word lays (12.4)."""


def _policy_classes() -> Mapping[str, Mapping[str, object]]:
    """15.2 item 4: the classes of a ``prefer-CLASS`` reaction policy (``rules.toml`` ``[policy_classes]``), each
    with the target rows of the cards (3.1) it prefers and its words."""
    return dict(load_tables().rules["policy_classes"])


def policy_help() -> str:
    """What the reaction policies are, for a refusal."""
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
