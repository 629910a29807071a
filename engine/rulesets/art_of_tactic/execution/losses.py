"""Provides hits and losses as frames of the execution (6.1 steps 8–9, 6.3, 4.6, 9.9, 9.16): a transport's owner
decides which passenger takes each loss and which cargo its losses take first (15.2), so the losses of a unit are
a frame that can wait for those answers.

- :class:`~..frames.Hit` (``apply_hits``): the hits first lower the defence, each remaining hit is a loss;
- :class:`~..frames.Losses` (``take_losses``): size symbols crossed off, then the cargo (9.16), a towed unit (9.9)
  and the passengers (4.6), one loss at a time;
- :class:`~..frames.HitEach`: the hits of a step applied side by side (first side first, then by id), each
  followed by what the step does with it (a bravery test, a mark for the bravery step, the units that lost).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..combat import bravery_test, defence_now, destroy
from ..frames import Hit, HitEach, Losses
from ..records import status
from .machine import Handler, Run

__all__ = ["HANDLERS", "run_hit", "run_hit_each", "run_losses"]


def run_hit(x: Run, f: Hit) -> None:
    """6.1 steps 8–9, 6.3: hits first lower the defence, each remaining hit is a loss."""
    st, tr = x.st, x.tr
    u = st.units[f.unit]
    x.done(f)
    if f.hits <= 0 or u.steps <= 0:
        return
    value, mods = defence_now(x.rs, st, u, f.role)
    absorbed = min(f.hits, value)
    status(u).absorbed += absorbed
    lost = f.hits - absorbed
    tr.emit(
        "defence",
        f"{u.id}: {f.hits} hit{'s' if f.hits != 1 else ''} against defence {value}: {absorbed} absorbed, {lost} "
        f"loss{'es' if lost != 1 else ''}",
        unit=u.id,
        hits=f.hits,
        defence=value,
        modifiers=[[m.value, m.reason] for m in mods],
    )
    if lost:
        x.push(Losses(u.id, lost, f.cause))


def run_losses(x: Run, f: Losses) -> None:
    """Cross off size symbols; passengers take the same number (4.6), a towed unit too (9.9); cargo is lost with
    them (9.16)."""
    u = x.st.units[f.unit]
    if f.stage == "start":
        n = min(f.n, u.steps)
        if n <= 0:
            x.done(f)
            return
        f.n, f.before = n, u.steps
        u.steps -= n
        x.tr.emit(
            "loss", f"{u.id} takes {n} loss{'es' if n != 1 else ''} ({f.why}); {u.steps} left", unit=u.id, losses=n
        )
        f.stage = "cargo"
    if f.stage == "cargo":
        if not _cargo_loss(x, f):
            return
        f.stage = "towed"
    if f.stage == "towed":
        _towed_losses(x, f)
        f.stage = "riders"
    if f.stage == "riders":
        if not _rider_losses(x, f):
            return
        f.stage = "end"
    s = status(u)
    s.carrying = tuple(p for p in f.everyone if x.st.units[p].steps > 0)
    x.done(f)
    if u.steps <= 0:
        destroy(x.tr, x.st, u, f.why)


def _cargo_loss(x: Run, f: Losses) -> bool:
    """9.16: per loss a transport loses its cargo per vehicle (ammunition + 2 per mine, divided by the size before
    the loss, rounded up). The owner's choice; preset: ammunition first, then mines. False while it waits."""
    u = x.st.units[f.unit]
    s = status(u)
    ammo, mines = s.cargo_ammo, s.cargo_mines
    if ammo + mines == 0 or f.before <= 0:
        return True
    lose = math.ceil((ammo + 2 * mines) / f.before) * f.n
    first: str | None = "ammo"
    if ammo and mines and lose < ammo + 2 * mines:  # a choice only when not all of the cargo goes
        first = x.decide(
            side=u.side,
            kind="cargo_loss",
            question=f"{u.id} loses {lose} cargo unit(s) of {ammo} ammunition and {mines} mine(s): which first?",
            rule="9.16",
            options=[
                ("ammo", "ammunition first, then mines"),
                ("mines", "mines first (2 units each), then ammunition"),
            ],
            units=[u],
        )
        if first is None:
            return False
    s.cargo_lost += lose  # permanent capacity loss (9.16)
    if first == "mines":
        while lose > 1 and mines > 0:
            mines -= 1
            lose -= 2
    take = min(ammo, lose)
    ammo -= take
    lose -= take
    while lose > 0 and mines > 0:
        mines -= 1
        lose -= 2
    s.cargo_ammo, s.cargo_mines = ammo, mines
    x.tr.emit("cargo", f"{u.id} loses cargo: {ammo} ammunition and {mines} mines left (rule 9.16)", unit=u.id)
    return True


def _towed_losses(x: Run, f: Losses) -> None:
    """9.9: the towed unit takes the same number of losses."""
    st, tr = x.st, x.tr
    u = st.units[f.unit]
    f.everyone = list(status(u).carrying)
    f.riders = [p for p in f.everyone if not status(st.units[p]).towed]
    f.left, f.turn = f.n, 0
    for pid in f.everyone:
        p = st.units[pid]
        ps = status(p)
        if ps.towed and p.steps > 0:
            k = min(f.n, p.steps)
            p.steps -= k
            tr.emit(
                "loss", f"{p.id} towed by {u.id} takes {k} loss(es) (rule 9.9); {p.steps} left", unit=p.id, losses=k
            )
            if p.steps == 0:
                ps.carried_by = None
                ps.towed = False
                p.hex = None
                tr.emit("destroyed", f"{p.id} is destroyed while towed by {u.id}", unit=p.id)


def _rider_losses(x: Run, f: Losses) -> bool:
    """4.6: the owner splits the losses among the passengers; preset: one at a time in id order, round and round
    (15.2). False while it waits."""
    st, tr = x.st, x.tr
    u = st.units[f.unit]
    riders = [st.units[p] for p in f.riders]
    while f.left > 0 and any(p.steps > 0 for p in riders):
        alive = [p for p in riders if p.steps > 0]
        preset = next(p for p in riders[f.turn :] + riders[: f.turn] if p.steps > 0)
        key = x.decide(
            side=u.side,
            kind="passenger_loss",
            question=f"{u.id} takes {f.n} loss(es): which passenger takes the next one ({f.left} to share)?",
            rule="4.6",
            options=[(p.id, f"{p.id} (size {p.steps})") for p in [preset, *(q for q in alive if q is not preset)]],
            units=[u, *alive],
        )
        if key is None:
            return False
        p = st.units[key]
        f.turn = riders.index(preset) + 1
        p.steps -= 1
        f.left -= 1
        tr.emit("loss", f"{p.id} aboard {u.id} takes 1 loss (rule 4.6); {p.steps} left", unit=p.id, losses=1)
        if p.steps == 0:
            status(p).carried_by = None
            p.hex = None
            tr.emit("destroyed", f"{p.id} is destroyed aboard {u.id}", unit=p.id)
    return True


def run_hit_each(x: Run, f: HitEach) -> None:
    """The hits of a step, one unit after the other (``items``, in the order given), each followed by what the step
    does with it (``then``): ``lost`` hands back the units that lost size, ``test`` tests the bravery of each unit
    hit that survives (8.1) and hands back those that failed, ``mark`` marks a bravery test for the bravery step
    of a unit that lost size and survives (8.1), ``aircraft`` the same for aircraft only (8.6)."""
    st = x.st
    while f.at < len(f.items):
        item = f.items[f.at]
        u = st.units[item.unit]
        if f.before < 0:
            f.before = u.steps
            x.push(Hit(item.unit, item.hits, item.cause, item.role))
            return
        lost = f.before - u.steps
        f.before = -1
        f.at += 1
        if (f.then == "lost" and lost) or (
            f.then == "test" and u.steps > 0 and not bravery_test(x.rs, x.tr, st, u, f.why)
        ):
            f.out.append(u.id)
        elif f.then == "mark" and lost and u.steps > 0:
            status(u).pending = True
        elif f.then == "aircraft" and lost and u.steps > 0 and x.rs.tables.units[u.type].type == "AIR":
            status(u).pending = True  # losses from reaction fire: tested in step 7 (8.6)
    x.done(f, f.out)


HANDLERS: Mapping[type, Handler] = {Hit: run_hit, Losses: run_losses, HitEach: run_hit_each}
"""The frames of this module and their handlers."""
