"""Provides a memo for one listing of legal actions (DESIGN §11: ``legal_actions`` p95 ≤ 0.5 ms).

While a state's actions are listed nothing changes that state, so what the listing finds for it once (a unit's
shot at a target, a target's die, the hexes of the known enemy units) may be kept until the listing ends and
asked for again at no cost: the Fire Phase asks the same questions for every weapon, round and option of every
unit. :func:`listing` opens the memo for one state (``Hacse.legal_actions``); :func:`kept` answers from it, or
computes and keeps. Outside a listing, or for another state (a view, a transition's state while an action is
applied), :func:`kept` only computes: nothing is kept that a change could make stale.

Only what depends on the state and the tables alone is kept (keys name every other argument); the memo is per
thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from engine.state import GameState, Unit

__all__ = ["applying", "checking", "handed", "keeping", "kept", "listing", "remember", "taken"]

_T = TypeVar("_T")

_NOW = threading.local()
"""``memo``: (the state being listed, its memo), or None; ``checked``: (the state last checked, what its check handed
on to the action's apply), or None; ``taking``: the same while that state's action is applied, or None."""


class listing:
    """Keep what is found for ``st`` until the block ends (a listing inside a listing of ``st`` shares its memo).
    Named and used like a function (``with listing(st):``); a class rather than a generator, as it is entered at
    every ``legal_actions``."""

    __slots__ = ("_outer", "_st")

    def __init__(self, st: GameState) -> None:
        self._st = st
        self._outer: tuple[GameState, dict[Hashable, object]] | None = None

    def __enter__(self) -> None:
        outer = getattr(_NOW, "memo", None)
        self._outer = outer
        if outer is None or outer[0] is not self._st:
            _NOW.memo = (self._st, {})

    def __exit__(self, *exc: object) -> None:
        _NOW.memo = self._outer


def keeping(st: GameState) -> bool:
    """Whether :func:`kept` keeps what is found for ``st`` now (a listing of it is open): a caller that would find
    a whole table to keep may ask for one entry alone otherwise."""
    now = getattr(_NOW, "memo", None)
    return now is not None and now[0] is st


def kept(st: GameState, key: Hashable, make: Callable[[], _T], *units: Unit) -> _T:
    """``make()``, found once per listing of ``st`` for ``key`` (computed every time outside one); ``units`` are the
    units the answer is about, named in ``key`` by id: it is kept only when they are the state's own."""
    now = getattr(_NOW, "memo", None)
    if now is None or now[0] is not st:
        return make()
    for u in units:
        if st.units.get(u.id) is not u:
            return make()
    memo: dict[Hashable, object] = now[1]
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    got = make()
    memo[key] = got
    return got


def remember(store: dict[Any, tuple[Any, _T]], key: Hashable, make: Callable[[], _T], owner: object,
             limit: int = 0) -> _T:  # fmt: skip
    """``make()``, kept in ``store`` under ``key`` for as long as the program runs, with ``owner``: the object the
    answer is derived from (a roster record, the tables, the board), so that a key naming an object by its id is
    made anew when that id has been reused by another object. ``limit``: the store is emptied when it holds that
    many answers (0: no limit). For values of the data and the board, which no action changes (unlike
    :func:`kept`)."""
    got = store.get(key)
    if got is not None and got[0] is owner:
        return got[1]
    value = make()
    if limit and len(store) >= limit:
        store.clear()
    store[key] = (owner, value)
    return value


# --- From a check to its apply -------------------------------------------------------------------------------------


class checking:
    """While ``st``'s action is checked (``Hacse.check``), what :func:`handed` finds is kept for the apply of that
    action to ``st`` itself, which follows at once in a replay (``Game`` checks an action, then applies it to the
    state or to a copy: a copy finds nothing handed on). Used like :class:`listing`."""

    __slots__ = ("_st",)

    def __init__(self, st: GameState) -> None:
        self._st = st

    def __enter__(self) -> None:
        _NOW.checked = (self._st, {})

    def __exit__(self, *exc: object) -> None:
        pass  # kept for the apply that follows; the next check or apply replaces it


class applying:
    """While an action is applied to ``st``: what the check of ``st`` just before handed on may be taken, once per
    key, before the action changes anything (:func:`taken`); whatever comes next, it is then dropped."""

    __slots__ = ("_st",)

    def __init__(self, st: GameState) -> None:
        self._st = st

    def __enter__(self) -> None:
        got = getattr(_NOW, "checked", None)
        _NOW.checked = None
        _NOW.taking = got if got is not None and got[0] is self._st else None

    def __exit__(self, *exc: object) -> None:
        _NOW.taking = None


def handed(st: GameState, key: Hashable, make: Callable[[], _T]) -> _T:
    """``make()``, handed on to the apply of the action being checked on ``st`` (:class:`checking`); ``key`` names
    the action's own values it depends on (its unit, path, target, weapon), as the state is the same."""
    got = make()
    now = getattr(_NOW, "checked", None)
    if now is not None and now[0] is st:
        now[1][key] = got
    return got


def taken(st: GameState, key: Hashable, make: Callable[[], _T]) -> _T:
    """What the check of this very state handed on under ``key`` (once), else ``make()``: to be asked only before
    the action being applied changes ``st``."""
    now = getattr(_NOW, "taking", None)
    if now is not None and now[0] is st and key in now[1]:
        return now[1].pop(key)  # type: ignore[no-any-return]
    return make()
