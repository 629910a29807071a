"""Provides steps 2 and 3 of the Execution Phase: Suppression fire, Open fire (with group fire, 6.6, and Adjust fire,
9.11), Fire at location (6.9), fire at structures (9.18.8) and smoke (3.9).

Every fire order of a step is rolled from the state at the start of the step and the hits applied together (2.4,
6.4, 6.5); group fire's extra attacks are rolled right after the primary one. The firer's side picks each follow-up
target of a group, the HQ's side whether it adjusts a miss, and the firer's side smoke's second hex (15.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.hexgrid import distance

from ..combat import bravery_test, location_attacks, ranged_attack, roll_attack, structure_attack
from ..frames import Attack, FireStep, HitEach, HitItem, Shot, SmokeStep
from ..gamedata import data
from ..model import card, hex_label_of, is_on_board, smoke
from ..records import status
from ..sight import line_of_sight
from .common import active, by_side, can_act, destroy_bridge, destroy_dugout, hit_pontoon, ordered, unit_options
from .machine import Handler, Run

__all__ = ["HANDLERS", "run_fire_step", "run_smoke"]


def run_fire_step(x: Run, f: FireStep) -> None:
    """Steps 2 and 3: plan every fire order, roll them one after the other (group fire and Adjust fire with
    each), then apply the hits together."""
    if f.stage == "plan":
        _plan(x, f)
        f.stage = "roll"
    while f.stage in ("roll", "adjust", "group"):
        if f.stage == "roll":
            if f.at >= len(f.shots):
                f.stage = "structures"
                break
            f.got, f.misses = roll_attack(x.tr, x.rs.tables, f.shots[f.at].attack)
            f.stage = "adjust"
        if f.stage == "adjust":
            if not _adjust(x, f):
                return
            f.stage = "group"
        if f.stage == "group":
            if not _group_fire(x, f):
                return
            f.at += 1
            f.stage = "roll"
    if f.stage == "structures":
        for attack in f.structure_shots:
            got, _ = roll_attack(x.tr, x.rs.tables, attack)
            f.structure_hits[attack.target] = f.structure_hits.get(attack.target, 0) + got
        purpose = "suppression fire" if f.order == "suppress" else "open fire"
        items = [HitItem(tid, f.hits[tid], purpose) for tid in by_side(x.rs, x.st, f.hits)]
        f.stage = "after"
        x.push(HitEach(items, "lost"))
        return
    _after(x, f, set(x.returned()))
    x.done(f)


def _plan(x: Run, f: FireStep) -> None:
    """Every fire order of the step worked out from the state at its start (ammunition spent, 3.7, 3.8); orders
    that cannot be carried out are lost (the ammunition too)."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    kind = f.order
    cost = int(t.rules["ammo"][kind])
    purpose = "suppression fire" if kind == "suppress" else "open fire"
    structures = data(st).structures
    for u, o in ordered(rs, st, {kind} | ({"location"} if kind == "fire" else set())):
        if not can_act(u):
            tr.emit("order", f"{u.id}'s {o.kind} order is dropped (suppressed) (rule 3.8)", unit=u.id)
            continue
        s = status(u)
        s.ammo = max(0, s.ammo - cost)
        if o.kind == "location":
            assert o.hex is not None
            area, reason, rule = location_attacks(rs, st, u, o.hex)
            if reason:
                tr.emit("order", f"{u.id}'s fire at {st.board.label(o.hex)} is lost: {reason} (rule {rule})", unit=u.id)
            f.shots.extend(Shot(a) for a in area)
            targets = set(structures.bridges) | set(structures.dugouts) | set(structures.pontoons)
            if not reason and card(t, u).has("attack_structures") and o.hex in targets:
                sattack, _r, _ru = structure_attack(rs, st, u, o.hex)
                if sattack is not None:
                    f.structure_shots.append(sattack)
            continue
        if o.structure is not None:
            sattack, reason, rule = structure_attack(rs, st, u, o.structure)
            if sattack is None:
                label = st.board.label(o.structure)
                tr.emit("order", f"{u.id}'s fire at {label} is lost: {reason} (rule {rule})", unit=u.id)
            else:
                f.structure_shots.append(sattack)
            continue
        assert o.target is not None
        tgt = st.units[o.target]
        attack, reason, rule = ranged_attack(rs, st, u, tgt, purpose, kind)
        if attack is None:
            tr.emit("order", f"{u.id}'s fire at {tgt.id} is lost: {reason} (rule {rule}); ammunition spent", unit=u.id)
            continue
        if kind == "suppress" and tgt.id not in f.tested:
            f.tested.append(tgt.id)
        assert tgt.hex is not None
        in_hex = [x for x in st.units.values() if x.side == tgt.side and is_on_board(x) and x.hex == tgt.hex]
        extra: list[str] = []
        if len(in_hex) >= int(t.rules["fire"]["group_fire_min_units"]):
            # 6.6: extra targets of the primary target's type; the firer picks them (by id, the preset, 15.2).
            extra = [
                x.id for x in in_hex
                if x.id != tgt.id and card(t, x).type == card(t, tgt).type and not status(x).concealed
            ]  # fmt: skip
        f.shots.append(Shot(attack, extra))


def _adjust(x: Run, f: FireStep) -> bool:
    """The primary attack's hits, after Adjust fire of a miss (9.11); False while the HQ's side decides."""
    shot = f.shots[f.at]
    attack = shot.attack
    if f.got == 0 and f.order == "fire":
        use = _adjust_fire(x, attack)
        if use is None:
            return False
        if use:
            f.got, f.misses = roll_attack(x.tr, x.rs.tables, attack)
    f.hits[attack.target] = f.hits.get(attack.target, 0) + f.got
    f.pool = attack.dice
    f.extra = list(shot.extra)
    return True


def _adjust_fire(x: Run, attack: Attack) -> bool | None:
    """9.11 Adjust fire: once a round an HQ on Defend (or Ambush), not suppressed, lets one artillery unit in its
    command range reroll a fire test with no hit at a target the HQ sees (the HQ's side decides; preset: always).
    None while it decides."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    firer, target = st.units[attack.firer], st.units.get(attack.target)
    if card(t, firer).type != "ART" or firer.hex is None or target is None or target.hex is None:
        return False
    orders = active(st)
    for hq in st.units.values():
        c = card(t, hq)
        o = orders.get(hq.id)
        if (
            hq.side != firer.side
            or not c.has("adjust_fire")
            or not is_on_board(hq)
            or hq.hex is None
            or status(hq).suppressed
            or status(hq).adjust_used
            or o is None
            or o.kind not in ("defend", "ambush")
            or distance(hq.hex, firer.hex) > c.command_range
            or not line_of_sight(st.board, rs.policy, hq.hex, target.hex, smoke(st)).visible
        ):
            continue
        # 9.11: "may" adjust; preset: always (15.2). Declining leaves the HQ's Adjust fire for later this round.
        use = x.decide(
            side=hq.side,
            kind="adjust",
            question=f"{firer.id}'s fire at {target.id} scored no hit: does {hq.id} adjust it (reroll, once a round)?",
            rule="9.11",
            options=[("yes", f"yes: {hq.id} adjusts, the fire test is rolled again"), ("no", "no: the miss stands")],
            units=[hq, firer, target],
        )
        if use is None:
            return None
        if use != "yes":
            tr.emit("adjust", f"{hq.id} does not adjust {firer.id}'s fire (rule 9.11)", unit=hq.id)
            return False
        status(hq).adjust_used = True
        tr.emit("adjust", f"{hq.id} adjusts {firer.id}'s fire: the fire test is rolled again (rule 9.11)", unit=hq.id)
        return True
    return False


def _group_fire(x: Run, f: FireStep) -> bool:
    """6.6: half the misses (rounded up) go at the next unit of the group, the firer's pick (preset: by id), until
    the group is done or a pool of one die was rolled. False while the firer's side decides."""
    st, tr, t = x.st, x.tr, x.rs.tables
    attack = f.shots[f.at].attack
    while f.extra:
        if f.pool == 1:
            break  # the one-die attack was the last
        pool = (f.misses + 1) // 2
        if pool == 0:
            break
        firer = st.units[attack.firer]
        extra = [st.units[i] for i in f.extra]
        at = hex_label_of(st, extra[0])
        pick = x.decide(
            side=firer.side,
            kind="group_fire",
            question=f"group fire: {firer.id} fires {pool} more dice at {at}: at which unit?",
            rule="6.6",
            options=unit_options(t, extra),
            units=[firer, *extra],
        )
        if pick is None:
            return False
        f.pool = pool
        f.extra.remove(pick)
        more = Attack(attack.firer, pick, pool, attack.accuracy, f"group fire (rule 6.6): {attack.firer} at {pick}")
        got, f.misses = roll_attack(tr, t, more)
        f.hits[pick] = f.hits.get(pick, 0) + got
        if got and f.order == "suppress" and pick not in f.tested:
            f.tested.append(pick)
    return True


def _after(x: Run, f: FireStep, lost: set[str]) -> None:
    """The structures' hits (9.18), the suppression tests of the targets (3.7), the bravery tests due (8.1)."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    structures = data(st).structures
    for label, got in sorted(f.structure_hits.items()):
        h = st.board.parse(label)
        dugout = structures.dugouts.get(h)
        if dugout is not None:
            dugout.hits += got
            if got:
                tr.emit("structure", f"the dugout at {label} takes {got} hit(s): {dugout.hits} of 2", hex=label)
            if dugout.hits >= int(t.fortifications["dugout"]["hits"]):
                destroy_dugout(tr, h, "hit by fire (rule 9.18.6)", kill=False)
            continue
        if h in structures.pontoons and h not in structures.bridges:
            hit_pontoon(rs, tr, h, got)
            continue
        bridge = structures.bridges[h]
        bridge.hits += got
        need = int(t.structures["bridge"]["hits"])
        if got:
            tr.emit("structure", f"the bridge at {label} takes {got} hit(s): {bridge.hits} of {need}", hex=label)
        if bridge.hits >= need:
            destroy_bridge(tr, h, "hit by fire (rule 9.18.8)")
    if f.order == "suppress":
        for tid in sorted(f.tested):
            u = st.units[tid]
            if u.steps > 0:
                bravery_test(rs, tr, st, u, "target of suppression fire, rule 3.7")
        lost -= set(f.tested)
    for tid in lost:
        u = st.units[tid]
        if u.steps > 0 and not status(u).suppressed:
            status(u).pending = True


def run_smoke(x: Run, f: SmokeStep) -> None:
    """3.9: smoke shells land after the step's fire (the firer chooses the adjacent hex in step 3; preset: the one
    written in the order, 15.2); units caught in smoke lose their remaining orders."""
    rs, st, tr = x.rs, x.st, x.tr
    if not f.started:
        f.todo = [u.id for u, _o in ordered(rs, st, {"smoke"})]
        f.started = True
    orders = active(st)
    label = st.board.label
    while f.todo:
        u = st.units[f.todo[0]]
        o = orders[u.id]
        s = status(u)
        if not can_act(u) or s.smoke_ammo < 1:
            f.todo.pop(0)
            continue
        assert o.hex is not None and o.second is not None
        near = sorted(n for n in o.hex.neighbours() if n in st.board.cells)
        written = label(o.second)
        second = x.decide(
            side=u.side,
            kind="smoke",
            question=f"{u.id}'s smoke lands on {label(o.hex)}: which adjacent hex takes the second shell?",
            rule="3.9",
            options=[(written, f"{written} (as written)"), *((label(h), label(h)) for h in near if h != o.second)],
            units=[u],
        )
        if second is None:
            return
        f.todo.pop(0)
        s.smoke_ammo -= int(rs.tables.rules["ammo"]["smoke"])
        for h in (o.hex, st.board.parse(second)):
            data(st).smoke[h] = st.turn
            f.placed.append(h)
        tr.emit("smoke", f"{u.id} lays smoke on {label(o.hex)} and {second} (rule 3.9)", unit=u.id)
    for u in st.units.values():
        if is_on_board(u) and u.hex is not None and u.hex in f.placed and u.id in orders:
            orders.pop(u.id)
            tr.emit("order", f"{u.id} is caught in smoke: its remaining orders are lost (rule 3.9)", unit=u.id)
    x.done(f)


HANDLERS: Mapping[type, Handler] = {FireStep: run_fire_step, SmokeStep: run_smoke}
"""The frames of this module and their handlers."""
