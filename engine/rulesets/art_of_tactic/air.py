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

from engine.state import Unit

from .model import Rules, card, current_bravery
from .records import status

__all__ = ["first_choosers", "fleets_of", "is_chooser", "is_fighter", "pair_duels", "pairing"]


def is_fighter(rs: Rules, u: Unit) -> bool:
    """9.14 PROPOSED: a fighter's card has Intercept, Air patrol or Escort."""
    c = card(rs.tables, u)
    return any(c.can_order(k) for k in ("intercept", "patrol", "escort"))


def is_chooser(u: Unit) -> bool:
    """An aircraft flying a fighter mission (it attacks; a bomber on its strike only defends itself)."""
    air = status(u).air
    return air is not None and (air.patrol or air.escorting is not None or air.intercept)


def _escorted(u: Unit, pool: Sequence[Unit]) -> bool:
    return any((air := status(e).air) is not None and air.escorting == u.id and e.steps > 0 for e in pool)


Choose = Callable[[Unit, list[Unit]], Unit | None]
"""``choose(chooser, candidates)``: the enemy aircraft the chooser fights, from the candidates the rule leaves it
(the preset's first); execution asks the chooser's side there (15.2), and None means it has not answered yet."""


def pairing(
    rs: Rules, fleets: dict[str, list[Unit]], first: str, choose: Choose | None = None
) -> dict[str, str] | None:
    """Aircraft id → the id of the enemy aircraft it fires at, the side ``first`` choosing first (9.14 step 1); None
    if ``choose`` has no answer yet. Without ``choose`` every chooser takes the preset's choice."""
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
        if pick is None:
            return None
        fires_at[c.id] = pick.id
        attackers[pick.id] = attackers.get(pick.id, 0) + 1
        if pick.id not in fires_at:
            fires_at[pick.id] = c.id  # the chosen aircraft fires at the first that chose it
            attackers[c.id] = attackers.get(c.id, 0) + 1
    return fires_at


def fleets_of(aircraft: Sequence[Unit]) -> dict[str, list[Unit]]:
    """The aircraft of an air combat by side, in the order given."""
    fleets: dict[str, list[Unit]] = {}
    for u in aircraft:
        fleets.setdefault(u.side, []).append(u)
    return fleets


def first_choosers(rs: Rules, fleets: dict[str, list[Unit]]) -> list[str]:
    """The side whose aircraft choose first (9.14 step 1): the one with the bravest chooser; the tied sides when
    the best choosers are tied and the order would change the pairing (then dice decide); none when no duel can
    be fought."""
    t = rs.tables
    if len(fleets) < 2:
        return []
    best = {s: max((current_bravery(t, u) for u in f if is_chooser(u)), default=None) for s, f in fleets.items()}
    ranked = sorted((b, s) for s, b in best.items() if b is not None)
    if not ranked:
        return []
    top = ranked[-1][0]
    tied = [s for s, b in best.items() if b == top]
    if len(tied) == 1:
        return tied
    options = {s: pairing(rs, fleets, s) for s in tied}
    same = len({tuple(sorted((p or {}).items())) for p in options.values()}) == 1
    return tied[:1] if same else tied  # no roll when the order changes nothing


def pair_duels(
    rs: Rules, aircraft: Sequence[Unit], roll_off: Callable[[list[str]], str], choose: Choose | None = None
) -> dict[str, str]:
    """Aircraft id → the id of the enemy aircraft it fires at this round (9.14 step 1).

    ``roll_off(sides)`` is called only when the choosing order matters and the best choosers are tied; it
    returns the side that chooses first. ``choose`` picks each chooser's opponent among those the rule allows
    (it must answer); whether the order matters is judged with the preset choices.
    """
    fleets = fleets_of(aircraft)
    firsts = first_choosers(rs, fleets)
    if not firsts:
        return {}
    first = firsts[0] if len(firsts) == 1 else roll_off(firsts)
    got = pairing(rs, fleets, first, choose)
    assert got is not None, "choose gave no answer"
    return got
