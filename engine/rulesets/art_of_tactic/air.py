"""Provides the pairing of aircraft into duels for air combat (digest 9.14, DR-20).

Only aircraft flying a fighter mission (Intercept, Air patrol, Escort) choose an opponent; the one with the
highest current bravery chooses first (HQs do not count, 9.14), then the sides alternate by descending bravery.
When the best choosers of both sides are tied and the order would change the pairing, dice decide (PROPOSED: each
side rolls 1d6, the higher chooses first, ties rerolled). A chooser takes an unengaged enemy fighter first (an
escorted aircraft counts only after its escorts, 9.15.7), then an unengaged bomber; once every enemy is in a
duel it joins the duel with the fewest attackers. An aircraft that was chosen fires at the first enemy that
chose it: several interceptors of one target fight it together and it fires at the first of them. Those choices
are the preset (15.2); execution lets a side with ``prompts on`` pick among the same candidates (``choose``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engine.state import Unit

from .model import card, current_bravery

if TYPE_CHECKING:
    from .ruleset import ArtOfTactic

__all__ = ["is_chooser", "is_fighter", "pair_duels"]


def is_fighter(rs: ArtOfTactic, u: Unit) -> bool:
    """9.14 PROPOSED: a fighter's card has Intercept, Air patrol or Escort."""
    c = card(rs.tables, u)
    return any(c.can_order(k) for k in ("intercept", "patrol", "escort"))


def is_chooser(u: Unit) -> bool:
    """An aircraft flying a fighter mission (it attacks; a bomber on its strike only defends itself)."""
    air = u.status.get("air") or {}
    return bool(air.get("patrol") or air.get("escorting") or air.get("intercept"))


def _escorted(u: Unit, pool: Sequence[Unit]) -> bool:
    return any((e.status.get("air") or {}).get("escorting") == u.id and e.steps > 0 for e in pool)


Choose = Callable[[Unit, list[Unit]], Unit]
"""``choose(chooser, candidates)``: the enemy aircraft the chooser fights, from the candidates the rule leaves it
(the preset's first); execution asks the chooser's side there (15.2)."""


def _pairing(
    rs: ArtOfTactic, fleets: dict[str, list[Unit]], first: str, choose: Choose | None = None
) -> dict[str, str]:
    t = rs.tables
    key = {u.id: (-current_bravery(t, u), u.id) for f in fleets.values() for u in f}
    queues = {s: sorted((u for u in f if is_chooser(u)), key=lambda u: key[u.id]) for s, f in fleets.items()}
    order: list[Unit] = []
    sides = [first, *[s for s in fleets if s != first]]
    while any(queues.values()):
        for s in sides:
            if queues[s]:
                order.append(queues[s].pop(0))
    fires_at: dict[str, str] = {}
    attackers: dict[str, int] = {}
    for c in order:
        if c.id in fires_at:
            continue
        enemies = [e for s, f in fleets.items() if s != c.side for e in f]
        if not enemies:
            continue
        free = [e for e in enemies if e.id not in fires_at and not attackers.get(e.id)]
        tier0 = [e for e in free if is_fighter(rs, e) and not _escorted(e, enemies)]
        pool = tier0 or free
        if pool:
            candidates = sorted(pool, key=lambda e: key[e.id])
        else:  # every enemy is in a duel: share one (9.14 step 1)
            candidates = sorted(enemies, key=lambda e: (attackers.get(e.id, 0), *key[e.id]))
        pick = candidates[0] if choose is None or len(candidates) == 1 else choose(c, candidates)
        fires_at[c.id] = pick.id
        attackers[pick.id] = attackers.get(pick.id, 0) + 1
        if pick.id not in fires_at:
            fires_at[pick.id] = c.id  # the chosen aircraft fires at the first that chose it
            attackers[c.id] = attackers.get(c.id, 0) + 1
    return fires_at


def pair_duels(
    rs: ArtOfTactic, aircraft: Sequence[Unit], roll_off: Callable[[list[str]], str], choose: Choose | None = None
) -> dict[str, str]:
    """Aircraft id → the id of the enemy aircraft it fires at this round (9.14 step 1).

    ``roll_off(sides)`` is called only when the choosing order matters and the best choosers are tied; it
    returns the side that chooses first. ``choose`` (execution's 15.2 decisions) picks each chooser's opponent
    among those the rule allows; whether the order matters is judged with the preset choices.
    """
    t = rs.tables
    fleets: dict[str, list[Unit]] = {}
    for u in aircraft:
        fleets.setdefault(u.side, []).append(u)
    if len(fleets) < 2:
        return {}
    best = {s: max((current_bravery(t, u) for u in f if is_chooser(u)), default=None) for s, f in fleets.items()}
    ranked = sorted((b, s) for s, b in best.items() if b is not None)
    if not ranked:
        return {}
    top = ranked[-1][0]
    tied = [s for s, b in best.items() if b == top]
    if len(tied) == 1:
        return _pairing(rs, fleets, tied[0], choose)
    options = {s: _pairing(rs, fleets, s) for s in tied}
    same = len({tuple(sorted(p.items())) for p in options.values()}) == 1
    first = tied[0] if same else roll_off(tied)  # no roll when the order changes nothing
    return options[first] if choose is None else _pairing(rs, fleets, first, choose)
