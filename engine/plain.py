"""Provides :func:`copy_plain`: a fast deep copy of plain data (the ruleset data and unit statuses kept as dicts)."""

from __future__ import annotations

import copy
from typing import Any

from .hexgrid import Hex

__all__ = ["copy_plain"]


def copy_plain(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars), much faster than ``copy.deepcopy``.

    Only the containers are copied (dicts and lists at any depth, a set at the top); scalars, tuples and any other
    value are shared. A dict or list holding no container is copied whole in C (its value types are checked in C
    too); otherwise only its nested containers are copied one by one.
    """
    if isinstance(value, dict):
        out = dict(value)
        if not _LEAVES.issuperset(map(type, out.values())):
            for k, v in out.items():
                if isinstance(v, (dict, list)):
                    out[k] = copy_plain(v)  # replaces a value: the dict keeps its size and order while iterated
        return out
    if isinstance(value, list):
        if _LEAVES.issuperset(map(type, value)):
            return list(value)
        return [copy_plain(v) if isinstance(v, (dict, list)) else v for v in value]
    return copy.deepcopy(value) if isinstance(value, set) else value


_LEAVES = frozenset({str, int, bool, float, type(None), tuple, Hex})
"""Value types :func:`copy_plain` shares as they are (exact types: a subclass of dict or list is still copied)."""
