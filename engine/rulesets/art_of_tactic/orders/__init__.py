"""Provides the orders of Art of Tactic while a side plans (digest 2.3, 3.5): one handler per order kind (what its
notation writes on the card, its checks, its candidates among the legal orders), the checks every order shares,
and the Planning Phase's reading, checking and listing of orders (:mod:`.planning`)."""

from __future__ import annotations

from .common import OrderType
from .planning import check_order, iter_orders, parse, record
from .registry import ORDERS
from .verbs import ATTACK_ORDERS, KINDS, MOVE_ORDERS, VERBS, policies

__all__ = [
    "ATTACK_ORDERS",
    "KINDS",
    "MOVE_ORDERS",
    "ORDERS",
    "VERBS",
    "OrderType",
    "check_order",
    "iter_orders",
    "parse",
    "policies",
    "record",
]
