"""Provides step 6 of the Execution Phase: airborne landings (9.15.4), air strikes (9.15.1), Assault movement to
contact with counter-attacks (7.4, 7.9) and simultaneous close combat (7).

Assaulting units move one hex a sub-step, together; a minefield on the way stops the mover and may explode (9.7);
then every hex where enemies share the board is a close combat (:class:`~..frames.CloseCombat`), where each
defender's side picks the assaulter it fires at (7.4 item 5, 15.2).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from engine.hexgrid import Hex, distance
from engine.state import GameState, Unit

from ..combat import bravery_test, roll_attack
from ..frames import AssaultStep, Attack, CloseCombat, HitEach, HitItem, MineEntry
from ..gamedata import data
from ..model import Rules, card, enemies_in_hex, has_field_of_fire, is_on_board, losses
from ..records import status
from ..sight import attack_side
from .common import active, by_side, can_act, carry_passengers, cross_wire, entry, ordered, step, unit_options
from .machine import Handler, Run

__all__ = ["HANDLERS", "run_assault", "run_close_combat", "start"]


def start(x: Run) -> None:
    """Step 6 begins: the header, the landings, the air strikes' dice; their hits and the assault are frames."""
    step(x.rs, x.tr, 6, "Assault and air strikes")
    _landings(x)
    x.push(AssaultStep())


def _landings(x: Run) -> None:
    """9.15.4: the paratroopers of a transport over its landing hex (not attacked by enemy aircraft) land there,
    having taken as many losses as the transport did on the way. PROPOSED: a hex holding enemy units or full
    (4.9) cannot be landed in: they stay aboard and fly home. Paratroopers of a transport that turned back stay on
    the airfield, with the transport's losses."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    for u, o in ordered(rs, st, {"airborne_landing"}):
        para = st.units.get(o.para or "")
        if para is None or not status(para).airfield or o.size is None:
            continue
        lost = o.size - max(0, u.steps)
        if lost > 0:
            para.steps = max(0, para.steps - lost)
            tr.emit(
                "loss", f"{para.id} takes {lost} loss(es) with {u.id}; {para.steps} left (rule 9.15.4)", unit=para.id
            )
        air = status(u).air
        if para.steps <= 0 or u.steps <= 0 or air is None or air.struck:
            continue
        assert o.hex is not None
        h = o.hex
        label = st.board.label(h)
        lim = int(t.rules["stacking"]["infantry_artillery"])
        here = [v for v in st.units.values() if is_on_board(v) and v.hex == h]
        if any(v.side != para.side for v in here) or sum(1 for v in here if not t.is_vehicle(card(t, v).type)) >= lim:
            tr.emit("air", f"{para.id} cannot land at {label}: enemy units or no room there (rule 9.15.4)")
            continue
        status(para).airfield = False
        para.hex = h
        air.para = None
        tr.emit("air", f"{para.id} lands at {label} from {u.id} (rule 9.15.4)", unit=para.id, hex=label)


def _air_strikes(x: Run, f: AssaultStep) -> None:
    """9.15.1: each aircraft over its target attacks every enemy unit in the hex (1 ammunition); units there on
    Defend with an AIR row fire back at the same time (their one Defend shot); every enemy unit attacked tests
    bravery in step 7 (PROPOSED: whether or not it took losses). The dice of every strike first; their hits are
    applied together (:class:`~..frames.HitEach`)."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    hits: dict[str, int] = defaultdict(int)
    for side in t.sides:
        for u in st.units.values():
            air = status(u).air
            if u.side != side or air is None or u.steps <= 0 or air.struck or air.cargo is not None:
                continue
            air.struck = True
            s = status(u)
            if s.ammo < 1:
                tr.emit("air", f"{u.id} has no ammunition left to bomb with (rule 9.15.1)", unit=u.id)
                continue
            s.ammo -= 1
            c = card(t, u)
            acc = c.range[0] if c.range and c.range[0] is not None else 0
            for v in sorted(st.units.values(), key=lambda w: w.id):
                if v.side == u.side or not is_on_board(v) or v.hex != air.target:
                    continue
                if v.id not in f.bombed:
                    f.bombed.append(v.id)
                dice = c.dice(t.target_row(card(t, v).type), losses(t, u))
                if dice:
                    text = f"air strike: {u.id} at {v.id} in {st.board.label(air.target)} (rule 9.15.1)"
                    got, _ = roll_attack(tr, t, Attack(u.id, v.id, dice, int(acc), text))
                    hits[v.id] += got
                dz = status(v).defend
                fire_back = card(t, v).dice("AIR", losses(t, v))
                if dz is not None and dz.armed and not dz.used and fire_back and can_act(v):
                    dz.used = True
                    vc = card(t, v)
                    vacc = vc.range[0] if vc.range and vc.range[0] is not None else 0
                    text = f"reaction fire: {v.id} at {u.id} (rule 9.15.1)"
                    got, _ = roll_attack(tr, t, Attack(v.id, u.id, fire_back, int(vacc), text))
                    hits[u.id] += got
    items = [
        HitItem(tid, hits[tid], "air strike" if tid in f.bombed else "reaction fire")
        for tid in by_side(rs, st, hits)
        if hits[tid] > 0
    ]
    x.push(HitEach(items, "aircraft"))


def run_assault(x: Run, f: AssaultStep) -> None:
    """7.4: the air strikes' hits first (9.15.1), then movement to contact, counter-attacks, pre-combat tests,
    ammunition, simultaneous close combat in every hex where enemies meet."""
    st = x.st
    if f.stage == "strikes":
        f.stage = "bombed"
        _air_strikes(x, f)
        return
    if f.stage == "bombed":
        for tid in sorted(f.bombed):
            u = st.units[tid]
            if u.steps > 0 and not status(u).suppressed:
                status(u).pending = True  # 8.1: bombed, tested in step 7
        _assaulters(x, f)
        f.stage = "move"
    if f.stage == "move" and not _move(x, f):
        return
    if f.stage == "move":
        _roles(x, f)
        f.stage = "combat"
    if f.combat:
        h = f.combat.pop(0)
        x.push(_close_combat(st, h, f))
        return
    x.done(f)


def _assaulters(x: Run, f: AssaultStep) -> None:
    """The assaulting units that can act: their routes (a bound unit stays in its hex) and their targets."""
    rs, st = x.rs, x.st
    for u, o in ordered(rs, st, {"assault"}):
        assert o.target is not None
        if not can_act(u) or st.units[o.target].steps <= 0:
            continue
        f.assaulting[u.id] = o.target
        if not status(u).bound:
            f.movers[u.id] = list(o.path)


def _move(x: Run, f: AssaultStep) -> bool:
    """Movement to contact, one hex a sub-step, together (4.7); counter-attacks between two units assaulting each
    other (7.9). False while a minefield's explosion waits for a decision (4.6, 9.16)."""
    while True:
        if not f.queue:
            if not any(f.movers[m] for m in f.movers if m not in f.stopped) or f.k > 20:
                return True
            _sub_step(x, f)
            continue
        m, h = f.queue.pop(0)
        mine = _advance(x, f, m, h)
        if mine:
            x.push(MineEntry(m))
            return False


def _sub_step(x: Run, f: AssaultStep) -> None:
    """A new sub-step: where every unit stands, the next hex of each mover, the counter-attacks (7.9)."""
    st = x.st
    f.k += 1
    f.snap = {uid: st.units[uid].hex for uid in st.units}
    f.nxt = {m: p[0] for m, p in f.movers.items() if p and m not in f.stopped}
    # 7.9 counter-attack: two units assaulting each other and now adjacent roll one die each.
    f.done = []
    for a_id in sorted(f.nxt):
        b_id = f.assaulting.get(a_id)
        if b_id is None or b_id in f.done or a_id in f.done or f.assaulting.get(b_id) != a_id or b_id not in f.nxt:
            continue
        a, b = st.units[a_id], st.units[b_id]
        if a.hex is None or b.hex is None or distance(a.hex, b.hex) != 1:
            continue
        winner, loser = _counter_attack(x, a, b)
        f.done += [a_id, b_id]
        assert winner.hex is not None
        f.arrived[winner.id] = winner.hex
        status(winner).entered_from = entry(winner.hex, loser.hex)
        winner.hex = loser.hex
        f.stopped.update((a_id, b_id))
        f.assaulting.pop(loser.id, None)
    f.queue = sorted(f.nxt.items())


def _advance(x: Run, f: AssaultStep, m: str, h: Hex) -> bool:
    """A mover's step of the sub-step (4.7: blocked by an enemy, stopped when its target left); True if it stepped
    into a minefield (9.7 PROPOSED: assault movement too)."""
    rs, st, tr = x.rs, x.st, x.tr
    if m in f.done:
        return False
    u = st.units[m]
    final = len(f.movers[m]) == 1
    tgt = st.units[f.assaulting[m]]
    if final:
        if tgt.steps <= 0 or f.snap.get(tgt.id) != h:
            tr.emit(
                "assault", f"{m}'s target is no longer in {st.board.label(h)}: the assault stops (rule 7.4)", unit=m
            )
            f.stopped.add(m)
            return False
    else:
        enemy_here = any(v.side != u.side and f.snap.get(v.id) == h and is_on_board(v) for v in st.units.values())
        clash = any(st.units[o].side != u.side and hh == h for o, hh in f.nxt.items() if o != m)
        swap = any(st.units[o].side != u.side and f.snap.get(o) == h and hh == u.hex for o, hh in f.nxt.items())
        if enemy_here or clash or swap:
            tr.emit("assault", f"{m} is blocked before {st.board.label(h)} (rule 4.7)", unit=m)
            f.stopped.add(m)
            return False
    if final:
        assert u.hex is not None
        f.arrived[m] = u.hex
    cross_wire(rs, tr, u, h)
    status(u).entered_from = entry(u.hex, h)
    u.hex = h
    f.movers[m] = f.movers[m][1:]
    carry_passengers(st, u)
    if h in data(st).minefields:
        f.stopped.add(m)
        return True
    return False


def _roles(x: Run, f: AssaultStep) -> None:
    """After the moves: assaulters face the side they entered through (5.5); roles (7.5); the combat hexes."""
    st = x.st
    for m in list(f.movers):
        s = status(st.units[m])
        if st.units[m].hex is not None and s.entered_from is not None:
            s.facing = s.entered_from
    for m in f.arrived:
        status(st.units[m]).role = "assaulter"
    f.combat = sorted(
        {u.hex for u in st.units.values() if u.hex is not None and is_on_board(u) and enemies_in_hex(st, u)}
    )


def _counter_attack(x: Run, a: Unit, b: Unit) -> tuple[Unit, Unit]:
    """7.9: each rolls one die, the higher moves into the other's hex; ties are rolled again."""
    sides = int(x.rs.tables.rules["die_sides"])
    tr = x.tr
    while True:
        (ra,) = tr.roll(sides, 1, f"counter-attack: {a.id} (rule 7.9)")
        (rb,) = tr.roll(sides, 1, f"counter-attack: {b.id} (rule 7.9)")
        if ra != rb:
            winner, loser = (a, b) if ra > rb else (b, a)
            tr.emit("assault", f"{winner.id} wins the counter-attack and moves into {loser.id}'s hex", unit=winner.id)
            return winner, loser


# --- Close combat (7) -------------------------------------------------------------------------------------------


def _close_combat(st: GameState, h: Hex, f: AssaultStep) -> CloseCombat:
    here = [u.id for u in st.units.values() if is_on_board(u) and u.hex == h]
    return CloseCombat(h, here, dict(f.assaulting), sorted(f.arrived))


def run_close_combat(x: Run, f: CloseCombat) -> None:
    """7: close combat in one hex: pre-combat tests (7.4 item 3), ammunition and targets (7.2, 7.4 items 4–5; a
    defender's side picks the assaulter it fires at), simultaneous dice, losses."""
    rs, st, tr = x.rs, x.st, x.tr
    if f.stage == "start":
        label = st.board.label(f.hex)
        tr.emit("close_combat", f"Close combat in {label} (rule 7)", hex=label)
        for uid in f.here:
            s = status(st.units[uid])
            if s.role is None:
                s.role = "defender"
        _pre_combat_tests(x, f)
        f.todo = by_side(rs, st, f.here)
        f.stage = "targets"
    if f.stage == "targets":
        if not _targets(x, f):
            return
        items = _dice(x, f)
        f.stage = "end"
        x.push(HitEach(items, "mark"))
        return
    for uid in f.here:
        status(st.units[uid]).flanked = False
    x.done(f)


def _pre_combat_tests(x: Run, f: CloseCombat) -> None:
    """7.4 item 3: a defender assaulted in the flank or rear (5.6) or a tank-panicked one (9.17) tests bravery;
    at most one test per unit."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    here = [st.units[uid] for uid in f.here]
    for d in sorted(here, key=lambda v: (t.sides.index(v.side), v.id)):
        ds = status(d)
        if ds.role != "defender":
            continue
        attackers = [a for a in here if a.side != d.side and a.id in f.arrived]
        if not attackers:
            continue
        why = ""
        own = [v for v in here if v.side == d.side]
        flanks = [
            a for a in attackers
            if (side_in := status(a).entered_from) is not None and ds.facing is not None
            and attack_side(ds.facing, side_in) != "front"
        ]  # fmt: skip
        fof = has_field_of_fire(t, d)
        if fof and not any(not has_field_of_fire(t, v) for v in own if v.id != d.id) and flanks:
            why = "assaulted in the flank or rear, rule 5.6"
        if fof and flanks:
            ds.flanked = True  # no trench bonus against a flank or rear assault (5.6)
        if not why and card(t, d).has("tank_panic") and any(t.is_tank(card(t, a).type) for a in attackers):
            why = "tank panic, rule 9.17"
        if why:
            bravery_test(rs, tr, st, d, why)


def _targets(x: Run, f: CloseCombat) -> bool:
    """7.2, 7.4 items 4–5: each unit with ammunition fires at its own target (an assaulter at the one it assaults,
    a bound unit at the one it is bound to) or, a defender, at the assaulter its side picks (preset: the first by
    id, 15.2). False while a side decides."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    label = st.board.label(f.hex)
    orders = active(st)
    cost = int(t.rules["ammo"]["close_combat"])
    while f.todo:
        u = st.units[f.todo[0]]
        o = orders.get(u.id)
        foes = [st.units[v] for v in f.here if st.units[v].side != u.side]
        if (o is not None and o.withdrawal) or not foes:
            f.todo.pop(0)
            continue
        s = status(u)
        if s.ammo < cost:
            tr.emit("close_combat", f"{u.id} has no ammunition and does not fire (rule 7.1)", unit=u.id)
            f.todo.pop(0)
            continue
        want = f.assaulting.get(u.id) or s.bound_to
        target = next((v for v in foes if v.id == want), None)
        if target is None:
            # 7.4 item 5: a defender fires at one assaulter of its choice; preset: the first by id (15.2).
            pool = [v for v in foes if v.id in f.arrived] or foes
            chosen = x.decide(
                side=u.side,
                kind="close_combat",
                question=f"{u.id} defends in close combat at {label}: at which assaulter?",
                rule="7.4",
                options=unit_options(t, pool),
                units=[u, *pool],
            )
            if chosen is None:
                return False
            target = next(v for v in pool if v.id == chosen)
        s.ammo -= cost
        f.shots.append((u.id, target.id))
        f.todo.pop(0)
    return True


def _dice(x: Run, f: CloseCombat) -> list[HitItem]:
    """The close-combat dice of every shot (7.5, 7.6, 10.10, 10.11), rolled before any result applies; the hits
    per target, the first side's first, with each target's role (7.5: assaulters get no terrain modifier)."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    hits: dict[str, int] = defaultdict(int)
    for uid, tid in f.shots:
        u, target = st.units[uid], st.units[tid]
        n, why = _cc_dice(rs, st, u, target, f.hex)
        if n <= 0:
            tr.emit(
                "close_combat", f"{u.id} rolls no dice against {target.id}" + (f": {why}" if why else ""), unit=u.id
            )
            continue
        c = card(t, u)
        s = status(u)
        acc = c.suppressed_accuracy if s.suppressed else (c.range[0] if c.range and c.range[0] is not None else 0)
        mods = []
        tc = t.terrain[st.board.terrain(f.hex)]
        if c.type == "INF" and tc.close_combat_accuracy and card(t, target).type in (*t.rules["vehicles"],):
            acc += tc.close_combat_accuracy
            mods.append(f"+{tc.close_combat_accuracy} infantry in {tc.name} (rule 10.10)")
        if s.role == "assaulter" and st.board.level(f.hex) >= 1:
            acc += int(t.hills.get("assault_accuracy", -1))
            mods.append("-1 assaulting on a hill (rule 10.11)")
        acc = max(int(t.rules["accuracy_min"]), min(int(t.rules["accuracy_max"]), acc))
        text = f"close combat: {u.id} at {target.id}, {n} dice hitting on {acc} or less" + (
            f" ({', '.join(mods)})" if mods else ""
        )
        got, _ = roll_attack(tr, t, Attack(u.id, target.id, n, acc, text))
        hits[target.id] += got
    return [
        HitItem(tid, hits[tid], "close combat", status(st.units[tid]).role or "defender")
        for tid in by_side(rs, st, hits)
    ]


def _cc_dice(rs: Rules, st: GameState, u: Unit, target: Unit, h: Hex) -> tuple[int, str]:
    """7.5, 7.6, 7.3: close-combat dice against the target (0 with the reason if none)."""
    t = rs.tables
    c = card(t, u)
    row = t.target_row(card(t, target).type)
    if c.cc_dice == "art":
        n = u.steps
    elif isinstance(c.cc_dice, int):
        n = c.cc_dice
    else:
        n = c.dice(row, losses(t, u)) or 0
    if n and c.type == "INF" and t.is_armour(card(t, target).type):
        tc = t.terrain[st.board.terrain(h)]
        on_road = any(st.board.has_road(h, v) for v in h.neighbours() if v in st.board.cells)
        if not (tc.infantry_versus_armour or (tc.infantry_versus_armour_on_road and on_road)):
            return 0, "infantry may fight armour in close combat only in light woods, a village or a town (rule 7.3)"
    return n, ""


HANDLERS: Mapping[type, Handler] = {AssaultStep: run_assault, CloseCombat: run_close_combat}
"""The frames of this module and their handlers."""
