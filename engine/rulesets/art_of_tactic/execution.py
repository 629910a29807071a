"""Provides the Execution Phase of Art of Tactic (digest 2.4–2.9): reveal, the 12 steps, status update, victory.

Execution runs inside the ``commit`` of the second side. Where the digest lets a player choose during execution,
:func:`decisions.decide` answers: the preset policy written in the README (15.2 allows preset reaction policies),
or, for a side that plays ``prompts on``, the side's own answer (execution pauses for it, ``decisions.py``).
Dice go German first, then Soviet, each by unit id (15.4).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.events import Modifier
from engine.hexgrid import Hex, distance, trace_segment
from engine.rules import Transition
from engine.state import GameState, Outcome, Unit

from .air import pair_duels
from .combat import (
    Attack,
    apply_hits,
    bravery_test,
    location_attacks,
    ranged_attack,
    recovery_test,
    roll_attack,
    structure_attack,
)
from .concealment import word_events
from .decisions import asks, decide
from .model import card, current_bravery, enemies_in_hex, hex_label_of, is_on_board, losses
from .orders import policy_rows
from .sight import attack_side, facing_of, in_field_of_fire, line_of_sight, side_of_entry

if TYPE_CHECKING:
    from .data import Tables
    from .ruleset import ArtOfTactic

__all__ = ["execute_round", "start_round"]


def _ordered(rs: ArtOfTactic, st: GameState, kinds: set[str]) -> list[tuple[Unit, dict[str, Any]]]:
    """Units whose revealed order is of ``kinds``, German first then Soviet, by id (15.4)."""
    out: list[tuple[Unit, dict[str, Any]]] = []
    for side in rs.tables.sides:
        for u in st.units.values():
            o = st.data["active"].get(u.id)
            if u.side == side and o is not None and o["kind"] in kinds and u.steps > 0:
                out.append((u, o))
    return out


def _can_act(u: Unit) -> bool:
    return u.steps > 0 and u.hex is not None and not u.status.get("suppressed")


def start_round(rs: ArtOfTactic, tr: Transition) -> None:
    """ROUND_START (2.2, 2.9): reset defence and per-round flags, mark the flag of suppressed units."""
    st = tr.state
    word_events(rs, tr)  # 9.11, 15.1: a concealed HQ arriving (11.1) is not named to the other side
    for u in st.units.values():
        for key in (
            "absorbed",
            "pending",
            "defend",
            "fof",
            "bonus",
            "bonus_from",
            "entered_from",
            "adjust_used",
            "ambush",
        ):
            u.status.pop(key, None)
        if u.status.get("suppressed") and u.steps > 0:
            u.status["flag"] = True
        u.status.pop("no_order", None)
        if is_on_board(u) and u.hex is not None and st.board.label(u.hex) in st.data.get("smoke", {}):
            u.status["no_order"] = True  # 3.9: no order in the round after smoke
    _reinforcements(rs, tr)
    st.phase = "planning"
    st.data["orders"] = {side: {} for side in st.sides}
    st.data["committed"] = []
    st.data.pop("active", None)
    st.to_act = rs.tables.sides[0]
    tr.emit("round", f"Round {st.turn} of {st.data['rounds']}: Planning Phase (rule 2.3)", round=st.turn)


def _reinforcements(rs: ArtOfTactic, tr: Transition) -> None:
    """11.1: units due this round enter at the first of their entry hexes that holds no enemy and has room
    (4.9); a unit that finds none waits for the next round (PROPOSED reading)."""
    st = tr.state
    t = rs.tables
    lim = t.rules["stacking"]
    for u in st.units.values():
        due = u.status.get("arrives")
        if due is None or int(due) > st.turn or u.steps <= 0:
            continue
        veh = t.is_vehicle(card(t, u).type)
        for label in u.status.get("entry", []):
            h = st.board.parse(label)
            here = [x for x in st.units.values() if is_on_board(x) and x.hex == h]
            same = [x for x in here if x.side == u.side and t.is_vehicle(card(t, x).type) == veh]
            if any(x.side != u.side for x in here) or len(same) >= int(
                lim["vehicles" if veh else "infantry_artillery"]
            ):
                continue
            u.hex = h
            u.status.pop("arrives")
            u.status.pop("entry", None)
            tr.emit("reinforcement", f"{u.id} arrives at {label} (rule 11.1)", unit=u.id, hex=label)
            break


def _unhide(st: GameState, tr: Transition, u: Unit, why: str) -> None:
    u.status.pop("hidden", None)
    at = hex_label_of(st, u)
    st.data.setdefault("last_seen", {}).pop(u.id, None)
    tr.emit("revealed", f"{u.id} is revealed at {at}: {why}", unit=u.id, hex=at)


def _expose(st: GameState, tr: Transition, u: Unit, why: str, found: str) -> None:
    """A hidden unit is revealed (``why``) and a concealed HQ found (``found``: " by X (rule N)")."""
    if u.status.get("hidden"):
        _unhide(st, tr, u, why)
    if u.status.get("concealed") and u.hex is not None:
        u.status["concealed"] = False
        u.status["found_at"] = st.board.label(u.hex)
        tr.emit("revealed", f"{u.id} is found at {st.board.label(u.hex)}{found}", unit=u.id)


def _hide(st: GameState, tr: Transition, u: Unit) -> None:
    """3.11: the model leaves the board; the opponent keeps a "last seen" marker."""
    if u.status.get("hidden") or u.hex is None:
        return
    u.status["hidden"] = True
    st.data.setdefault("last_seen", {})[u.id] = st.board.label(u.hex)
    tr.emit("hidden", f"{u.id} is hidden in ambush (rule 3.11)", unit=u.id)


def _reveal(rs: ArtOfTactic, tr: Transition) -> None:
    """REVEAL (2.4): every order becomes public; a new order replaces a time-box order in progress (2.7)."""
    st = tr.state
    active: dict[str, Any] = {}
    for side in rs.tables.sides:
        for uid, o in sorted(st.data["orders"].get(side, {}).items()):
            u = st.units[uid]
            if u.steps <= 0:
                continue
            active[uid] = dict(o)
            if u.status.get("ongoing") and u.status["ongoing"]["kind"] != o["kind"]:
                tr.emit("order", f"{uid} abandons its {u.status['ongoing']['kind']} in progress (rule 2.7)", unit=uid)
                u.status.pop("ongoing")
            if o["kind"] == "lay_mines":  # 9.6: the opponent sees the order, not what is laid
                tr.emit("order", f"{side} order: {uid}: Lay mines", unit=uid, side=side)
                tr.emit("order", f"your order: {o['notation']}", visible_to=[side], unit=uid)
            elif o["kind"] == "ambush":  # 3.11 PROPOSED: the opponent learns only "unit N: Ambush"
                tr.emit("order", f"{side} order: {uid}: Ambush", unit=uid, side=side)
                tr.emit("order", f"your order: {o['notation']}", visible_to=[side], unit=uid)
            else:
                tr.emit("order", f"{side} order: {o['notation']}", unit=uid, side=side, order=o["notation"])
    for u in st.units.values():
        ongoing = u.status.get("ongoing")
        if ongoing and u.id not in active and u.steps > 0:
            active[u.id] = {"kind": ongoing["kind"], "notation": f"(continues {ongoing['kind']})", "continued": True}
        o = active.get(u.id)
        if o and o["kind"] in ("cautious", "march") and u.status.get("bound"):
            o["withdrawal"] = True
        if u.status.get("hidden") and (o is None or o["kind"] != "ambush"):
            _unhide(st, tr, u, "it does not carry out Ambush this round (rule 3.11)")
        if o is None or o["kind"] != "ambush":
            u.status.pop("ambush_rounds", None)
        elif u.hex is not None:
            c = card(rs.tables, u)
            u.status["ambush_rounds"] = int(u.status.get("ambush_rounds", 0)) + 1
            u.status["bonus"] = c.order("ambush", "bonus")
            u.status["bonus_from"] = "Ambush"
            u.status["fof"] = True
            u.status["facing"] = facing_of(u.hex, st.board.parse(o["facing_hex"]))
            u.status["ambush"] = {"range": int(o["range"])}
        if u.status.get("in_dugout") and (o is None or o["kind"] != "defend"):
            u.status.pop("in_dugout")
            tr.emit("order", f"{u.id} leaves the dugout: it was not given Defend (rule 9.18.6)", unit=u.id)
        if u.status.get("entrenched") and (o is None or o["kind"] != "defend"):
            u.status.pop("entrenched")
            tr.emit("order", f"{u.id} leaves its trench: it was not given Defend (rule 9.18.5)", unit=u.id)
        if o and o["kind"] == "cautious":
            bonus = card(rs.tables, u).order("cautious", "bonus")
            if bonus:
                u.status["bonus"] = bonus  # 4.2 PROPOSED: for the whole Execution Phase
                u.status["bonus_from"] = "cautious movement"
    st.data["active"] = active
    st.data["orders"] = {side: {} for side in st.sides}
    st.phase = "execution"
    tr.reveal()
    tr.emit("phase", f"Round {st.turn}: orders revealed, Execution Phase (rule 2.4)", round=st.turn)


def _step(tr: Transition, n: int, name: str, rs: ArtOfTactic | None = None) -> None:
    if rs is not None:
        reveal_adjacent(rs, tr)  # checked at the end of every step (3.11, 9.11)
    tr.emit("step", f"Step {n}: {name} (rule 2.5)", step=n)


def _step1_defend(rs: ArtOfTactic, tr: Transition) -> None:
    st = tr.state
    _step(tr, 1, "Defend", rs)
    for u, o in _ordered(rs, st, {"defend"}):
        if not _can_act(u):
            continue
        assert u.hex is not None
        armed = int(u.status.get("ammo", 0)) >= int(rs.tables.rules["ammo"]["defend"])
        if armed:
            u.status["ammo"] = int(u.status["ammo"]) - int(rs.tables.rules["ammo"]["defend"])
        facing = facing_of(u.hex, st.board.parse(o["facing_hex"]))
        u.status["facing"] = facing
        u.status["fof"] = True
        u.status["bonus"] = card(rs.tables, u).order("defend", "bonus")
        u.status["bonus_from"] = "Defend"
        u.status["defend"] = {"range": int(o["range"]), "used": False, "armed": armed}
        if o.get("policy"):
            u.status["defend"]["policy"] = o["policy"]  # 15.2 item 4 PROPOSED: prefer-CLASS (public once revealed)
        dugout = st.data.get("structures", {}).get("dugouts", {}).get(st.board.label(u.hex))
        c = card(rs.tables, u)
        may_use = c.type == "INF" and (not c.can_order("deploy") or c.has("machine_gun"))
        inside = [x for x in st.units.values() if x.status.get("in_dugout") and x.hex == u.hex and x.id != u.id]
        if dugout is not None and may_use and len(inside) < 2:
            u.status["in_dugout"] = True
            u.status["facing"] = int(dugout["facing"])  # occupants get the dugout's field of fire (PROPOSED)
            tr.emit("defend", f"{u.id} occupies the dugout in {st.board.label(u.hex)} (rule 9.18.6)", unit=u.id)
        trench = st.data.get("structures", {}).get("trenches", {}).get(st.board.label(u.hex))
        if trench is not None and (card(rs.tables, u).type != "ART" or u.status.get("deployed", True)):
            u.status["entrenched"] = True
            u.status["facing"] = int(trench)  # occupants face the trench's hexside (9.18.5 PROPOSED)
        tr.emit("defend", f"{u.id} defends facing {o['facing_hex']} up to {o['range']} hexes"
                + (f", policy {o['policy']} (rule 15.2)" if o.get("policy") else "")
                + ("" if armed else " (no ammunition: it cannot fire, rule 3.6)"), unit=u.id)  # fmt: skip


def _fire_step(rs: ArtOfTactic, tr: Transition, kind: str) -> set[str]:
    """Steps 2 and 3: every fire order rolled from the step's snapshot, hits applied together (2.4, 6.4).

    Group fire (6.6) is part of the same step: its extra attacks are rolled right after the primary one.
    """
    st = tr.state
    t = rs.tables
    cost = int(t.rules["ammo"][kind])
    planned: list[tuple[Attack, list[Unit]]] = []
    structure_shots: list[Attack] = []
    targets_tested: set[str] = set()
    purpose = "suppression fire" if kind == "suppress" else "open fire"
    for u, o in _ordered(rs, st, {kind} | ({"location"} if kind == "fire" else set())):
        if not _can_act(u):
            tr.emit("order", f"{u.id}'s {o['kind']} order is dropped (suppressed) (rule 3.8)", unit=u.id)
            continue
        u.status["ammo"] = max(0, int(u.status.get("ammo", 0)) - cost)
        if o["kind"] == "location":
            area, reason, rule = location_attacks(rs, st, u, o["hex"])
            if reason:
                tr.emit("order", f"{u.id}'s fire at {o['hex']} is lost: {reason} (rule {rule})", unit=u.id)
            planned.extend((a, []) for a in area)
            structures = st.data["structures"]
            targets = set(structures["bridges"]) | set(structures.get("dugouts", {})) | set(structures["pontoons"])
            if not reason and card(t, u).has("attack_structures") and o["hex"] in targets:
                sattack, _r, _ru = structure_attack(rs, st, u, o["hex"])
                if sattack is not None:
                    structure_shots.append(sattack)
            continue
        if o.get("structure"):
            sattack, reason, rule = structure_attack(rs, st, u, o["structure"])
            if sattack is None:
                tr.emit("order", f"{u.id}'s fire at {o['structure']} is lost: {reason} (rule {rule})", unit=u.id)
            else:
                structure_shots.append(sattack)
            continue
        tgt = st.units[o["target"]]
        attack, reason, rule = ranged_attack(rs, st, u, tgt, purpose, kind)
        if attack is None:
            tr.emit("order", f"{u.id}'s fire at {tgt.id} is lost: {reason} (rule {rule}); ammunition spent", unit=u.id)
            continue
        if kind == "suppress":
            targets_tested.add(tgt.id)
        assert tgt.hex is not None
        in_hex = [x for x in st.units.values() if x.side == tgt.side and is_on_board(x) and x.hex == tgt.hex]
        extra: list[Unit] = []
        if len(in_hex) >= int(t.rules["fire"]["group_fire_min_units"]):
            # 6.6: extra targets of the primary target's type; PROPOSED fixed choice: by id.
            extra = [
                x for x in in_hex
                if x.id != tgt.id and card(t, x).type == card(t, tgt).type and not x.status.get("concealed")
            ]  # fmt: skip
        planned.append((attack, extra))
    hits: dict[str, int] = defaultdict(int)
    for attack, group in planned:
        got, misses = roll_attack(tr, t, attack)
        if got == 0 and kind == "fire" and _adjust_fire(rs, tr, attack):
            got, misses = roll_attack(tr, t, attack)
        hits[attack.target] += got
        pool = attack.dice
        extra = list(group)
        while extra:
            if pool == 1:
                break  # the one-die attack was the last
            pool = (misses + 1) // 2
            if pool == 0:
                break
            # 6.6: the firer picks each follow-up target of the group; preset: by id (15.2).
            firer = st.units[attack.firer]
            at = hex_label_of(st, extra[0])
            pick = decide(
                tr,
                side=firer.side,
                kind="group_fire",
                question=f"group fire: {firer.id} fires {pool} more dice at {at}: at which unit?",
                rule="6.6",
                options=_unit_options(t, extra),
                units=[firer, *extra],
            )
            x = next(v for v in extra if v.id == pick)
            extra.remove(x)
            more = Attack(attack.firer, x.id, pool, attack.accuracy, f"group fire (rule 6.6): {attack.firer} at {x.id}")
            got, misses = roll_attack(tr, t, more)
            hits[x.id] += got
            if got and kind == "suppress":
                targets_tested.add(x.id)
    structure_hits: dict[str, int] = defaultdict(int)
    for attack in structure_shots:
        got, _ = roll_attack(tr, t, attack)
        structure_hits[attack.target] += got
    lost: set[str] = set()
    for tid in sorted(hits, key=lambda i: (t.sides.index(st.units[i].side), i)):
        if apply_hits(rs, tr, st, st.units[tid], hits[tid], purpose):
            lost.add(tid)
    for label, got in sorted(structure_hits.items()):
        dugout = st.data["structures"]["dugouts"].get(label)
        if dugout is not None:
            dugout["hits"] = int(dugout["hits"]) + got
            if got:
                tr.emit("structure", f"the dugout at {label} takes {got} hit(s): {dugout['hits']} of 2", hex=label)
            if dugout["hits"] >= int(t.fortifications["dugout"]["hits"]):
                destroy_dugout(tr, label, "hit by fire (rule 9.18.6)", kill=False)
            continue
        if label in st.data["structures"]["pontoons"] and label not in st.data["structures"]["bridges"]:
            _hit_pontoon(rs, tr, label, got)
            continue
        bridge = st.data["structures"]["bridges"][label]
        bridge["hits"] = int(bridge["hits"]) + got
        need = int(t.structures["bridge"]["hits"])
        if got:
            tr.emit("structure", f"the bridge at {label} takes {got} hit(s): {bridge['hits']} of {need}", hex=label)
        if bridge["hits"] >= need:
            destroy_bridge(tr, label, "hit by fire (rule 9.18.8)")
    if kind == "suppress":
        for tid in sorted(targets_tested):
            x = st.units[tid]
            if x.steps > 0:
                bravery_test(rs, tr, st, x, "target of suppression fire, rule 3.7")
        lost -= targets_tested
    for tid in lost:
        x = st.units[tid]
        if x.steps > 0 and not x.status.get("suppressed"):
            x.status["pending"] = True
    return lost


def _adjust_fire(rs: ArtOfTactic, tr: Transition, attack: Attack) -> bool:
    """9.11 Adjust fire: once a round an HQ on Defend (or Ambush), not suppressed, lets one artillery unit in its
    command range reroll a fire test with no hit at a target the HQ sees (PROPOSED policy: always used)."""
    st = tr.state
    t = rs.tables
    firer, target = st.units[attack.firer], st.units.get(attack.target)
    if card(t, firer).type != "ART" or firer.hex is None or target is None or target.hex is None:
        return False
    for hq in st.units.values():
        c = card(t, hq)
        o = st.data["active"].get(hq.id) or {}
        if (
            hq.side != firer.side
            or not c.has("adjust_fire")
            or not is_on_board(hq)
            or hq.hex is None
            or hq.status.get("suppressed")
            or hq.status.get("adjust_used")
            or o.get("kind") not in ("defend", "ambush")
            or distance(hq.hex, firer.hex) > c.command_range
            or not line_of_sight(st.board, rs.policy, hq.hex, target.hex, rs.smoke(st)).visible
        ):
            continue
        # 9.11: "may" adjust; preset: always (15.2). Declining leaves the HQ's Adjust fire for later this round.
        use = decide(
            tr,
            side=hq.side,
            kind="adjust",
            question=f"{firer.id}'s fire at {target.id} scored no hit: does {hq.id} adjust it (reroll, once a round)?",
            rule="9.11",
            options=[("yes", f"yes: {hq.id} adjusts, the fire test is rolled again"), ("no", "no: the miss stands")],
            units=[hq, firer, target],
        )
        if use != "yes":
            tr.emit("adjust", f"{hq.id} does not adjust {firer.id}'s fire (rule 9.11)", unit=hq.id)
            return False
        hq.status["adjust_used"] = True
        tr.emit("adjust", f"{hq.id} adjusts {firer.id}'s fire: the fire test is rolled again (rule 9.11)", unit=hq.id)
        return True
    return False


def _smoke(rs: ArtOfTactic, tr: Transition) -> None:
    """3.9: smoke shells land after the step's fire; units caught in smoke lose their remaining orders."""
    st = tr.state
    placed: list[str] = []
    for u, o in _ordered(rs, st, {"smoke"}):
        if not _can_act(u) or int(u.status.get("smoke_ammo", 0)) < 1:
            continue
        u.status["smoke_ammo"] = int(u.status["smoke_ammo"]) - int(rs.tables.rules["ammo"]["smoke"])
        # 3.9: the firer chooses the adjacent hex in step 3; preset: the one written in the order (15.2).
        near = sorted(st.board.label(n) for n in st.board.parse(o["hex"]).neighbours() if n in st.board.cells)
        second = decide(
            tr,
            side=u.side,
            kind="smoke",
            question=f"{u.id}'s smoke lands on {o['hex']}: which adjacent hex takes the second shell?",
            rule="3.9",
            options=[(o["second"], f"{o['second']} (as written)"), *((h, h) for h in near if h != o["second"])],
            units=[u],
        )
        for label in (o["hex"], second):
            st.data["smoke"][label] = st.turn
            placed.append(label)
        tr.emit("smoke", f"{u.id} lays smoke on {o['hex']} and {second} (rule 3.9)", unit=u.id)
    for u in st.units.values():
        if is_on_board(u) and u.hex is not None and st.board.label(u.hex) in placed and u.id in st.data["active"]:
            st.data["active"].pop(u.id)
            tr.emit("order", f"{u.id} is caught in smoke: its remaining orders are lost (rule 3.9)", unit=u.id)


def _bravery_step(rs: ArtOfTactic, tr: Transition, n: int) -> None:
    st = tr.state
    _step(tr, n, "Bravery tests", rs)
    for side in rs.tables.sides:
        for u in st.units.values():
            if u.side == side and u.status.get("pending") and u.steps > 0:
                bravery_test(rs, tr, st, u, "losses, rule 8.1")


def _flight_path(st: GameState, entry: Hex, target: Hex) -> list[Hex]:
    """9.13, G54: the hexes of the exact line from the entry hex to the target hex, in order."""
    hexes = [h.hex for h in trace_segment(entry, target) if (h.interior or h.along_side) and h.hex in st.board.cells]
    out: list[Hex] = []
    for h in [entry, *hexes, target]:
        if h not in out:
            out.append(h)
    return out


def _flak_shot(rs: ArtOfTactic, tr: Transition, flak: Unit, plane: Unit, at: Hex) -> bool:
    """9.13: a flak unit on Defend fires at an aircraft (AIR row, the chart at the distance; no LOS needed).

    Returns False if the aircraft aborts (a failed bravery test after losses) or is destroyed.
    """
    st = tr.state
    t = rs.tables
    assert flak.hex is not None
    c = card(t, flak)
    r = max(1, distance(flak.hex, at))
    acc = c.range[r] if r < len(c.range) else None
    dice = c.dice("AIR", losses(t, flak))
    if acc is None or not dice:
        return True
    text = f"flak: {flak.id} at {plane.id} over {st.board.label(at)} (rule 9.13)"
    got, _ = roll_attack(tr, t, Attack(flak.id, plane.id, dice, int(acc), text))
    lost = apply_hits(rs, tr, st, plane, got, "flak") if got else 0
    if plane.steps <= 0:
        return False
    if lost and not bravery_test(rs, tr, st, plane, "losses from flak, rule 9.13"):
        tr.emit("air", f"{plane.id} aborts its mission and returns to its airfield (rule 9.13)", unit=plane.id)
        return False
    return True


def _flak_ready(rs: ArtOfTactic, flak: Unit, side: str) -> bool:
    dz = flak.status.get("defend") or {}
    return (
        flak.side != side
        and card(rs.tables, flak).has("flak")
        and bool(dz.get("armed"))
        and _can_act(flak)
        and flak.hex is not None
    )


def _hq_ok(rs: ArtOfTactic, st: GameState, side: str) -> bool:
    """9.11: an unsuppressed HQ of the side on the board."""
    return any(
        x.side == side and is_on_board(x) and card(rs.tables, x).has("hq") and not x.status.get("suppressed")
        for x in st.units.values()
    )


def _fly(rs: ArtOfTactic, tr: Transition, u: Unit, entry: Hex, target: Hex) -> bool:
    """9.13: the approach along the exact line; flak fires on first entering its range and again at its own hex
    when it stands in the target hex. Returns False if the aircraft aborted or was destroyed."""
    path = _flight_path(tr.state, entry, target)
    shot: set[str] = set()
    return all(_flak_on(rs, tr, u, h, shot, last=i == len(path) - 1) for i, h in enumerate(path))


def _land(tr: Transition, u: Unit, why: str) -> None:
    u.status.pop("air", None)
    if u.steps > 0:
        u.status["prep"] = 1  # Landed (I)
        tr.emit("air", f"{u.id} returns to its airfield: {why} (rule 9.12)", unit=u.id)


def _with_escorts(st: GameState, target: Unit) -> list[Unit]:
    """The aircraft and the fighters escorting it (9.15.7: they fight its attackers)."""
    escorts = [
        e for e in sorted(st.units.values(), key=lambda x: x.id)
        if (e.status.get("air") or {}).get("escorting") == target.id and e.steps > 0 and e.side == target.side
    ]  # fmt: skip
    return [target, *escorts]


def _roll_off(rs: ArtOfTactic, tr: Transition, sides: list[str]) -> str:
    """9.14 PROPOSED: tied best choosers: each side rolls 1d6, the higher chooses first; ties are rerolled."""
    order = sorted(sides, key=rs.tables.sides.index)
    for _ in range(20):
        got = {s: tr.roll(6, 1, f"air combat: {s} rolls to choose first (rule 9.14)")[0] for s in order}
        best = max(got.values())
        winners = [s for s in order if got[s] == best]
        if len(winners) == 1:
            return winners[0]
    return order[0]


def _unit_options(t: Tables, units: list[Unit]) -> list[tuple[str, str]]:
    """A decision's options that are units (15.2): the id, then its card and size, as the question lists them."""
    return [(x.id, f"{x.id} ({card(t, x).code}, size {x.steps})") for x in units]


def _duel_choice(rs: ArtOfTactic, tr: Transition, label: str) -> Callable[[Unit, list[Unit]], Unit]:
    """9.14 step 1: the chooser's side picks the enemy aircraft it fights (asked with ``prompts on``; preset:
    ``air.pair_duels``'s, listed first)."""
    st = tr.state
    t = rs.tables

    def choose(c: Unit, candidates: list[Unit]) -> Unit:
        key = decide(
            tr,
            side=c.side,
            kind="air_pairing",
            question=f"air combat over {label}: {c.id} (bravery {current_bravery(t, c)}) chooses its opponent",
            rule="9.14",
            options=[
                (e.id, f"{e.id} ({card(t, e).code}, size {e.steps}, bravery {current_bravery(t, e)})")
                for e in candidates
            ],
            units=[c, *candidates],
        )
        return st.units[key]

    return choose


def _air_combat(rs: ArtOfTactic, tr: Transition, attackers: list[Unit], defenders: list[Unit], label: str) -> None:
    """9.14, DR-20: rounds of air combat until one side is gone or turns back. Each round the aircraft pair off
    into duels by bravery (``air.pair_duels``: several attackers of one aircraft fight it together and it fires
    at the first of them; escorts take on the attackers, 9.15.7), then fire at once (AIR row, air accuracy,
    1 ammunition a round; attackers first by bravery, then the defenders, as listed); losses force a bravery test
    (no HQ bonus) and a failure aborts; each round survived marks a time box and a full track sends the aircraft
    home. An aircraft attacked has its orders for the round cancelled."""
    st = tr.state
    t = rs.tables
    key = {u.id: (-current_bravery(t, u), u.id) for u in attackers}
    order = [*sorted(attackers, key=lambda u: key[u.id]), *[d for d in defenders if d.id not in key]]
    tr.emit(
        "air",
        f"air combat over {label}: {', '.join(u.id for u in order if u.id in key)} against "
        f"{', '.join(u.id for u in order if u.id not in key)} (rule 9.14)",
    )
    for _round in range(10):
        alive = [u for u in order if u.steps > 0 and u.status.get("air")]
        fires_at = pair_duels(rs, alive, lambda sides: _roll_off(rs, tr, sides), _duel_choice(rs, tr, label))
        if not fires_at:
            break
        for tid in fires_at.values():
            st.units[tid].status["air"]["struck"] = True  # its orders for this round are cancelled
        shots: list[Attack] = []
        for f in alive:
            if f.id not in fires_at or int(f.status.get("ammo", 0)) < 1:
                continue
            foe = st.units[fires_at[f.id]]
            c = card(t, f)
            f.status["ammo"] = int(f.status["ammo"]) - 1
            dice = c.dice("AIR", losses(t, f))
            if dice:
                shots.append(Attack(f.id, foe.id, dice, c.air_accuracy, f"air combat: {f.id} at {foe.id} (rule 9.14)"))
        hits: dict[str, int] = defaultdict(int)
        for a in shots:
            got, _ = roll_attack(tr, t, a)
            hits[a.target] += got
        for uid in sorted(hits):
            x = st.units[uid]
            lost = apply_hits(rs, tr, st, x, hits[uid], "air combat") if hits[uid] else 0
            if lost and x.steps > 0 and not bravery_test(rs, tr, st, x, "losses in air combat, rule 9.14"):
                _land(tr, x, "it broke off the air combat")
        engaged = set(fires_at) | set(fires_at.values())
        for x in alive:
            if x.id in engaged and x.steps > 0 and x.status.get("air"):
                x.status["boxes"] = int(x.status.get("boxes", 0)) + 1
                if x.status["boxes"] >= max(1, card(t, x).mission_boxes):
                    _land(tr, x, "low on fuel")


def _in_zone(st: GameState, p: Unit, h: Hex) -> bool:
    pz = p.status.get("air") or {}
    return bool(pz.get("patrol")) and distance(st.board.parse(pz["target"]), h) <= int(pz["radius"])


def _patrols(st: GameState, side: str | None = None) -> list[Unit]:
    """Aircraft on station on Air patrol (of ``side`` if given), by id."""
    return [
        p for p in sorted(st.units.values(), key=lambda x: x.id)
        if p.steps > 0 and (p.status.get("air") or {}).get("patrol") and (side is None or p.side == side)
    ]  # fmt: skip


def _overlapping_patrols(rs: ArtOfTactic, tr: Transition) -> None:
    """9.14 (3): enemy aircraft whose patrolled areas overlap fight; overlapping zones chain into one combat."""
    st = tr.state
    todo = _patrols(st)
    while todo:
        group = [todo.pop(0)]
        grew = True
        while grew:
            grew = False
            for q in list(todo):
                qz = q.status["air"]
                for p in group:
                    pz = p.status["air"]
                    reach = int(pz["radius"]) + int(qz["radius"])
                    if distance(st.board.parse(pz["target"]), st.board.parse(qz["target"])) <= reach:
                        group.append(q)
                        todo.remove(q)
                        grew = True
                        break
        first = group[0]
        attackers = [p for p in group if p.side == first.side]
        defenders = [p for p in group if p.side != first.side]
        if defenders:
            _air_combat(rs, tr, attackers, defenders, str(first.status["air"]["target"]))


def _step5_air(rs: ArtOfTactic, tr: Transition) -> None:
    """9.19 for air strikes and intercepts: intercepts against aircraft still over a target, returns, launches
    with their flights and flak, then intercepts against the aircraft just arrived. All interceptors of one target
    fly in, then fight it together (9.14, DR-20)."""
    st = tr.state
    t = rs.tables
    pending: list[tuple[Unit, dict[str, Any]]] = []
    for u, o in _ordered(rs, st, {"intercept"}):
        if u.steps > 0 and not u.status.get("suppressed") and _hq_ok(rs, st, u.side):
            pending.append((u, o))

    def by_target(group: list[tuple[Unit, dict[str, Any]]]) -> list[tuple[Unit, list[tuple[Unit, dict[str, Any]]]]]:
        out: dict[str, list[tuple[Unit, dict[str, Any]]]] = {}
        for u, o in group:
            out.setdefault(str(o["target"]), []).append((u, o))
        return [(st.units[tid], g) for tid, g in out.items()]

    def intercept(group: list[tuple[Unit, dict[str, Any]]], target: Unit) -> None:
        label = str(target.status["air"]["target"])
        flown: list[Unit] = []
        for u, o in group:
            u.status["prep"] = 0
            u.status["boxes"] = 0
            tr.emit("air", f"{u.id} takes off to intercept {target.id} over {label} (rule 9.15.2)", unit=u.id)
            if not _fly(rs, tr, u, st.board.parse(o["entry"]), st.board.parse(label)):
                if u.steps > 0:
                    u.status["prep"] = 1
                continue
            u.status["air"] = {"target": label, "round": st.turn, "struck": True, "intercept": True}
            flown.append(u)
        if flown and target.steps > 0 and target.status.get("air"):
            _air_combat(rs, tr, flown, _with_escorts(st, target), label)

    for target, group in by_target(pending):  # 1. aircraft still over their target from the last round
        if target.status.get("air") and int(target.status["air"].get("round", 0)) < st.turn and target.steps > 0:
            for item in group:
                pending.remove(item)
            intercept(group, target)
    for x in sorted(st.units.values(), key=lambda v: v.id):  # an enemy still in a patrolled zone (9.15.5)
        xa = x.status.get("air") or {}
        if not xa or xa.get("patrol") or x.steps <= 0:
            continue
        over = st.board.parse(xa["target"])
        hunters = [p for p in _patrols(st) if p.side != x.side and _in_zone(st, p, over)]
        if hunters:
            _air_combat(rs, tr, hunters, _with_escorts(st, x), str(xa["target"]))
    for u in st.units.values():  # 2. returns (a patrol stays until its duration is up, step 12)
        air = u.status.get("air") or {}
        old = bool(air) and int(air.get("round", 0)) < st.turn
        if card(t, u).type == "AIR" and old and not (air.get("patrol") or air.get("recon")) and u.steps > 0:
            _land(tr, u, "its mission is over")
    flights: list[dict[str, Any]] = []

    def launch(u: Unit, o: dict[str, Any], text: str, air: dict[str, Any]) -> bool:
        if u.steps <= 0 or u.status.get("suppressed"):
            return False
        if not _hq_ok(rs, st, u.side):
            tr.emit("air", f"{u.id} cannot take off: no unsuppressed HQ on the board (rule 9.11)", unit=u.id)
            return False
        u.status["prep"] = 0
        u.status["boxes"] = 0
        u.status["air"] = air
        tr.emit("air", text, unit=u.id)
        return True

    for u, o in _ordered(rs, st, {"patrol"}):  # 3. launches: patrols first (PROPOSED order), then strikes
        if launch(u, o, f"{u.id} takes off to patrol around {o['hex']} (rule 9.15.5)",
                  {"target": o["hex"], "round": st.turn, "struck": True}):  # fmt: skip
            path = _flight_path(st, st.board.parse(o["entry"]), st.board.parse(o["hex"]))
            flights.append({"kind": "patrol", "units": [u], "path": path, "order": o})
    for u, o in _ordered(rs, st, {"recon"}):
        if launch(u, o, f"{u.id} takes off to observe around {o['hex']} (rule 9.15.3)",
                  {"target": o["hex"], "round": st.turn, "struck": True}):  # fmt: skip
            path = _flight_path(st, st.board.parse(o["entry"]), st.board.parse(o["hex"]))
            flights.append({"kind": "recon", "units": [u], "path": path, "order": o})
    for u, o in _ordered(rs, st, {"air_strike"}):
        text = f"{u.id} takes off and flies in from {o['entry']} towards {o['hex']} (rule 9.13)"
        if not launch(u, o, text, {"target": o["hex"], "round": st.turn}):
            continue
        members = [u]
        for e, eo in _ordered(rs, st, {"escort"}):  # 9.15.7: escorts fly with it (flak tests each of them)
            if eo.get("partner") == u.id and e.steps > 0 and not e.status.get("suppressed"):
                e.status["prep"] = 0
                e.status["boxes"] = 0
                e.status["air"] = {"target": o["hex"], "round": st.turn, "struck": True, "escorting": u.id}
                tr.emit("air", f"{e.id} escorts {u.id} (rule 9.15.7)", unit=e.id)
                members.append(e)
        path = _flight_path(st, st.board.parse(o["entry"]), st.board.parse(o["hex"]))
        flights.append({"kind": "strike", "units": members, "path": path, "order": o})
    for u, o in _ordered(rs, st, {"supply_drop", "airborne_landing"}):  # 9.15.6, 9.15.4: fly like a strike
        o["size"] = u.steps  # losses on the way: cargo (12.5) and paratroopers (9.15.4)
        if o["kind"] == "supply_drop":
            text = f"{u.id} takes off to drop {o['cargo']} cargo units at {o['hex']} (rule 9.15.6)"
            air = {"target": o["hex"], "round": st.turn, "cargo": int(o["cargo"]), "size": u.steps}
        else:
            text = f"{u.id} takes off with {o['para']} for {o['hex']} (rule 9.15.4)"
            air = {"target": o["hex"], "round": st.turn, "cargo": 0, "para": o["para"], "size": u.steps}
        if launch(u, o, text, air):
            path = _flight_path(st, st.board.parse(o["entry"]), st.board.parse(o["hex"]))
            flights.append({"kind": "drop", "units": [u], "path": path, "order": o})
    flying = {f["units"][0].id: f for f in flights}
    for target, group in by_target(pending):  # 4. intercepts of aircraft launching this step
        if target.id not in flying or target.steps <= 0:
            for u, _o in group:
                tr.emit("air", f"{u.id} stays on its airfield: {target.id} is not in the air (rule 9.15.2)", unit=u.id)
            continue
        goal = str(flying[target.id]["order"]["hex"])
        for u, o in group:
            u.status["prep"] = 0
            u.status["boxes"] = 0
            u.status["air"] = {"target": goal, "round": st.turn, "struck": True, "intercept": True}
            tr.emit("air", f"{u.id} takes off to intercept {target.id} (rule 9.15.2)", unit=u.id)
            path = _flight_path(st, st.board.parse(o["entry"]), st.board.parse(goal))
            flights.append({"kind": "intercept", "units": [u], "path": path, "order": o, "target": target.id})
    _fly_together(rs, tr, flights)
    _overlapping_patrols(rs, tr)  # 9.19 step 5: the zones are active once on station
    _recon_detection(rs, tr)


def _recon_detection(rs: ArtOfTactic, tr: Transition) -> None:
    """9.15.3, 9.19 step 5: one detection roll a round for each recon aircraft on station: a die at most the card's
    value for the chosen radius reveals every enemy unit in Ambush, and a concealed HQ, within the radius."""
    st = tr.state
    for u in sorted(st.units.values(), key=lambda x: x.id):
        air = u.status.get("air") or {}
        if not air.get("recon") or u.steps <= 0:
            continue
        centre, r = st.board.parse(str(air["target"])), int(air["radius"])
        need = card(rs.tables, u).detection[r]
        text = f"recon: {u.id} searches within {r} of {air['target']} (rule 9.15.3)"
        if tr.roll(6, 1, text, target=need)[0] > need:
            continue
        for x in sorted(st.units.values(), key=lambda v: v.id):
            if x.side == u.side or not is_on_board(x) or x.hex is None or distance(x.hex, centre) > r:
                continue
            _expose(st, tr, x, f"{u.id} spots it from the air (rule 9.15.3)", f" by {u.id} (rule 9.15.3)")


def _abort(u: Unit) -> None:
    """An aircraft turned back or shot down during its approach (9.13): back on its airfield (I)."""
    u.status.pop("air", None)
    if u.steps > 0:
        u.status["prep"] = 1


def _flak_on(rs: ArtOfTactic, tr: Transition, u: Unit, h: Hex, shot: set[str], last: bool) -> bool:
    """9.13: every flak on Defend fires once when the aircraft first comes within its range, and again at its own
    hex when the aircraft reaches it as its target. False if the aircraft aborted or was destroyed."""
    st = tr.state
    t = rs.tables
    for flak in sorted(st.units.values(), key=lambda x: x.id):
        if not _flak_ready(rs, flak, u.side) or flak.id in shot or flak.hex is None:
            continue
        if distance(flak.hex, h) > card(t, flak).max_range:  # 9.13: its range, not the Defend limit
            continue
        shot.add(flak.id)
        flak.status["defend"]["used"] = True
        if not _flak_shot(rs, tr, flak, u, h):
            return False
    if last:
        for flak in sorted(st.units.values(), key=lambda x: x.id):
            if _flak_ready(rs, flak, u.side) and flak.hex == h and not _flak_shot(rs, tr, flak, u, h):
                return False  # the second shot at its own hex (9.13)
    return True


def _fly_together(rs: ArtOfTactic, tr: Transition, flights: list[dict[str, Any]]) -> None:
    """9.19 step 4: every flight advances one hex of its path per flight step, together. In each flight step:
    (a) the advance; (b) flak on first entry into range (and at its own hex on arrival at the target), flight by
    flight in launch order, aircraft by aircraft; (c) air combat: a strike (with its escorts) entering the zone of
    enemy patrols on station fights them all together; interceptors that meet their target (same hex, or passing
    each other) fight it together. A patrol takes station when it reaches its centre. A strike whose aircraft
    turns back takes its escorts home with it (9.15.7: they move exactly as it does)."""
    st = tr.state
    shot: dict[str, set[str]] = {}
    hunted: set[tuple[str, str]] = set()
    where: dict[str, Hex] = {}
    before: dict[str, Hex] = {}

    def zones() -> None:
        """(c) a strike in the zone of enemy patrols on station, entering it or sitting over its target there."""
        for f in flights:
            lead = f["units"][0]
            if (
                f["kind"] not in ("strike", "drop")
                or lead.id not in where
                or not lead.status.get("air")
                or lead.steps <= 0
            ):
                continue
            at = where[lead.id]
            hunters = [
                p for p in _patrols(st)
                if p.side != lead.side and _in_zone(st, p, at) and (p.id, lead.id) not in hunted
            ]  # fmt: skip
            if hunters:  # entering the patrolled area draws it into air combat (9.15.5)
                hunted.update((p.id, lead.id) for p in hunters)
                _air_combat(rs, tr, hunters, _with_escorts(st, lead), st.board.label(at))

    for k in range(max((len(f["path"]) for f in flights), default=0)):
        live = [f for f in flights if not f.get("done")]
        for f in live:  # (a)
            lead = f["units"][0].id
            if lead in where:
                before[lead] = where[lead]
            where[lead] = f["path"][min(k, len(f["path"]) - 1)]
        for f in live:  # (b)
            last = k == len(f["path"]) - 1
            if k >= len(f["path"]):
                continue
            at = where[f["units"][0].id]
            for u in f["units"]:
                seen = shot.setdefault(u.id, set())
                if u.steps > 0 and u.status.get("air") and not _flak_on(rs, tr, u, at, seen, last):
                    _abort(u)
            lead = f["units"][0]
            if not lead.status.get("air"):
                f["done"] = True
                for e in f["units"][1:]:
                    if e.status.get("air"):
                        _land(tr, e, f"{lead.id} turned back (rule 9.15.7)")
        zones()
        meets: dict[str, list[Unit]] = {}
        for f in flights:  # (c) interceptors meeting their target
            if f.get("done") or f["kind"] != "intercept":
                continue
            u, target = f["units"][0], st.units[f["target"]]
            if not u.status.get("air") or target.steps <= 0 or not target.status.get("air"):
                continue
            at, there = where[u.id], where.get(target.id, st.board.parse(target.status["air"]["target"]))
            crossed = before.get(u.id) == there and before.get(target.id) == at
            if at == there or crossed:
                meets.setdefault(target.id, []).append(u)
                f["done"] = True
        for tid, ups in meets.items():
            target = st.units[tid]
            label = st.board.label(where.get(tid, st.board.parse(target.status["air"]["target"])))
            for u in ups:
                u.status["air"]["target"] = label
            _air_combat(rs, tr, ups, _with_escorts(st, target), label)
        for f in flights:  # arrivals
            if f.get("done") or k != len(f["path"]) - 1:
                continue
            u, o = f["units"][0], f["order"]
            if f["kind"] in ("patrol", "recon") and u.status.get("air"):
                u.status["air"] = {"target": o["hex"], "round": st.turn, "struck": True, f["kind"]: True,
                                   "radius": int(o["radius"]), "rounds": int(o["rounds"]), "aloft": 0}  # fmt: skip
                f["done"] = True
            elif f["kind"] in ("strike", "drop"):
                f["done"] = True
    zones()  # 9.19 step 5: patrols just on station


def _step6_landings(rs: ArtOfTactic, tr: Transition) -> None:
    """9.15.4: the paratroopers of a transport over its landing hex (not attacked by enemy aircraft) land there,
    having taken as many losses as the transport did on the way. PROPOSED: a hex holding enemy units or full
    (4.9) cannot be landed in: they stay aboard and fly home. Paratroopers of a transport that turned back stay on
    the airfield, with the transport's losses."""
    st = tr.state
    t = rs.tables
    for u, o in _ordered(rs, st, {"airborne_landing"}):
        para = st.units.get(str(o.get("para")))
        if para is None or not para.status.get("airfield") or "size" not in o:
            continue
        lost = int(o["size"]) - max(0, u.steps)
        if lost > 0:
            para.steps = max(0, para.steps - lost)
            tr.emit(
                "loss", f"{para.id} takes {lost} loss(es) with {u.id}; {para.steps} left (rule 9.15.4)", unit=para.id
            )
        air = u.status.get("air") or {}
        if para.steps <= 0 or u.steps <= 0 or not air or air.get("struck"):
            continue
        h = st.board.parse(str(o["hex"]))
        lim = int(t.rules["stacking"]["infantry_artillery"])
        here = [x for x in st.units.values() if is_on_board(x) and x.hex == h]
        if any(x.side != para.side for x in here) or sum(1 for x in here if not t.is_vehicle(card(t, x).type)) >= lim:
            tr.emit("air", f"{para.id} cannot land at {o['hex']}: enemy units or no room there (rule 9.15.4)")
            continue
        para.status.pop("airfield")
        para.hex = h
        air.pop("para", None)
        tr.emit("air", f"{para.id} lands at {o['hex']} from {u.id} (rule 9.15.4)", unit=para.id, hex=str(o["hex"]))


def _step6_air_strikes(rs: ArtOfTactic, tr: Transition) -> None:
    """9.15.1: each aircraft over its target attacks every enemy unit in the hex (1 ammunition); units there on
    Defend with an AIR row fire back at the same time (their one Defend shot); every enemy unit attacked tests
    bravery in step 7 (PROPOSED: whether or not it took losses)."""
    st = tr.state
    t = rs.tables
    hits: dict[str, int] = defaultdict(int)
    bombed: set[str] = set()
    for side in t.sides:
        for u in st.units.values():
            air = u.status.get("air")
            if u.side != side or not air or u.steps <= 0 or air.get("struck") or "cargo" in air:
                continue
            air["struck"] = True
            if int(u.status.get("ammo", 0)) < 1:
                tr.emit("air", f"{u.id} has no ammunition left to bomb with (rule 9.15.1)", unit=u.id)
                continue
            u.status["ammo"] = int(u.status["ammo"]) - 1
            target = st.board.parse(air["target"])
            c = card(t, u)
            acc = c.range[0] if c.range and c.range[0] is not None else 0
            for x in sorted(st.units.values(), key=lambda v: v.id):
                if x.side == u.side or not is_on_board(x) or x.hex != target:
                    continue
                bombed.add(x.id)
                dice = c.dice(t.target_row(card(t, x).type), losses(t, u))
                if dice:
                    text = f"air strike: {u.id} at {x.id} in {air['target']} (rule 9.15.1)"
                    got, _ = roll_attack(tr, t, Attack(u.id, x.id, dice, int(acc), text))
                    hits[x.id] += got
                dz = x.status.get("defend") or {}
                fire_back = card(t, x).dice("AIR", losses(t, x))
                if dz.get("armed") and not dz.get("used") and fire_back and _can_act(x):
                    dz["used"] = True
                    xc = card(t, x)
                    xacc = xc.range[0] if xc.range and xc.range[0] is not None else 0
                    text = f"reaction fire: {x.id} at {u.id} (rule 9.15.1)"
                    got, _ = roll_attack(tr, t, Attack(x.id, u.id, fire_back, int(xacc), text))
                    hits[u.id] += got
    for tid in sorted(hits, key=lambda i: (t.sides.index(st.units[i].side), i)):
        x = st.units[tid]
        why = "air strike" if tid in bombed else "reaction fire"
        lost = apply_hits(rs, tr, st, x, hits[tid], why) if hits[tid] > 0 else 0
        if lost and card(t, x).type == "AIR" and x.steps > 0:
            x.status["pending"] = True  # losses from reaction fire: tested in step 7 (8.6)
    for tid in sorted(bombed):
        x = st.units[tid]
        if x.steps > 0 and not x.status.get("suppressed"):
            x.status["pending"] = True  # 8.1: bombed, tested in step 7


def _step6_assault(rs: ArtOfTactic, tr: Transition) -> None:
    """7.4: movement to contact, counter-attacks, pre-combat tests, ammunition, simultaneous close combat."""
    st = tr.state
    _step(tr, 6, "Assault and air strikes", rs)
    _step6_landings(rs, tr)
    _step6_air_strikes(rs, tr)
    movers: dict[str, list[Hex]] = {}
    assaulting: dict[str, str] = {}
    for u, o in _ordered(rs, st, {"assault"}):
        if not _can_act(u) or st.units[o["target"]].steps <= 0:
            continue
        assaulting[u.id] = o["target"]
        if not u.status.get("bound"):
            movers[u.id] = [st.board.parse(h) for h in o["path"]]
    stopped: set[str] = set()
    arrived: dict[str, Hex] = {}  # assaulter -> the hex it came from into the combat hex
    k = 0
    while any(movers[m] for m in movers if m not in stopped):
        k += 1
        snap = {uid: st.units[uid].hex for uid in st.units}
        nxt: dict[str, Hex] = {m: p[0] for m, p in movers.items() if p and m not in stopped}
        # 7.9 counter-attack: two units assaulting each other and now adjacent roll one die each.
        done: set[str] = set()
        for a_id in sorted(nxt):
            b_id = assaulting.get(a_id)
            if b_id is None or b_id in done or a_id in done or assaulting.get(b_id) != a_id or b_id not in nxt:
                continue
            a, b = st.units[a_id], st.units[b_id]
            if a.hex is None or b.hex is None or distance(a.hex, b.hex) != 1:
                continue
            winner, loser = _counter_attack(rs, tr, a, b)
            done |= {a_id, b_id}
            arrived[winner.id] = winner.hex  # type: ignore[assignment]
            winner.status["entered_from"] = _entry(winner.hex, loser.hex)
            winner.hex = loser.hex
            stopped |= {a_id, b_id}
            assaulting.pop(loser.id, None)
        for m, h in sorted(nxt.items()):
            if m in done:
                continue
            u = st.units[m]
            final = len(movers[m]) == 1
            tgt = st.units[assaulting[m]]
            if final:
                if tgt.steps <= 0 or snap.get(tgt.id) != h:
                    tr.emit(
                        "assault",
                        f"{m}'s target is no longer in {st.board.label(h)}: the assault stops (rule 7.4)",
                        unit=m,
                    )
                    stopped.add(m)
                    continue
            else:
                enemy_here = any(x.side != u.side and snap.get(x.id) == h and is_on_board(x) for x in st.units.values())
                clash = any(st.units[o].side != u.side and hh == h for o, hh in nxt.items() if o != m)
                swap = any(st.units[o].side != u.side and snap.get(o) == h and hh == u.hex for o, hh in nxt.items())
                if enemy_here or clash or swap:
                    tr.emit("assault", f"{m} is blocked before {st.board.label(h)} (rule 4.7)", unit=m)
                    stopped.add(m)
                    continue
            if final:
                arrived[m] = u.hex  # type: ignore[assignment]
            _cross_wire(rs, tr, u, h)
            u.status["entered_from"] = _entry(u.hex, h)
            u.hex = h
            movers[m] = movers[m][1:]
            _carry_passengers(st, u)
            if st.board.label(h) in st.data.get("minefields", {}):  # 9.7 PROPOSED: assault movement too
                stopped.add(m)
                _mine_entry(rs, tr, u)
        if k > 20:
            break
    for m in list(movers):
        u = st.units[m]
        if u.hex is not None and u.status.get("entered_from") is not None:
            u.status["facing"] = u.status["entered_from"]
    # Roles (7.5): assaulters entered this round, or keep the role while bound.
    for m in arrived:
        st.units[m].status["role"] = "assaulter"
    combat_hexes = sorted(
        {u.hex for u in st.units.values() if u.hex is not None and is_on_board(u) and enemies_in_hex(st, u)}
    )
    if not combat_hexes:
        return
    for h in combat_hexes:
        _close_combat(rs, tr, h, assaulting, arrived)


def _cross_wire(rs: ArtOfTactic, tr: Transition, u: Unit, into: Hex) -> None:
    """9.17, 9.18.3: a tank crossing a wired hexside destroys the wire."""
    st = tr.state
    if u.hex is None or not rs.tables.is_tank(card(rs.tables, u).type):
        return
    pair = sorted([st.board.label(u.hex), st.board.label(into)])
    wire = st.data.get("structures", {}).get("wire", [])
    if pair in wire:
        wire.remove(pair)
        tr.emit("structure", f"{u.id} crosses and destroys the barbed wire {pair[0]}-{pair[1]} (rule 9.17)", unit=u.id)


def _entry(frm: Hex | None, into: Hex | None) -> int | None:
    if frm is None or into is None:
        return None
    return side_of_entry(frm, into)


def _carry_passengers(st: GameState, u: Unit) -> None:
    for pid in u.status.get("carrying", []):
        st.units[pid].hex = u.hex


def _counter_attack(rs: ArtOfTactic, tr: Transition, a: Unit, b: Unit) -> tuple[Unit, Unit]:
    """7.9: each rolls one die, the higher moves into the other's hex; ties are rolled again."""
    sides = int(rs.tables.rules["die_sides"])
    while True:
        (ra,) = tr.roll(sides, 1, f"counter-attack: {a.id} (rule 7.9)")
        (rb,) = tr.roll(sides, 1, f"counter-attack: {b.id} (rule 7.9)")
        if ra != rb:
            winner, loser = (a, b) if ra > rb else (b, a)
            tr.emit("assault", f"{winner.id} wins the counter-attack and moves into {loser.id}'s hex", unit=winner.id)
            return winner, loser


def _cc_dice(rs: ArtOfTactic, st: GameState, u: Unit, target: Unit, h: Hex) -> tuple[int, str]:
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
        on_road = any(st.board.has_road(h, x) for x in h.neighbours() if x in st.board.cells)
        if not (tc.infantry_versus_armour or (tc.infantry_versus_armour_on_road and on_road)):
            return 0, "infantry may fight armour in close combat only in light woods, a village or a town (rule 7.3)"
    return n, ""


def _close_combat(rs: ArtOfTactic, tr: Transition, h: Hex, assaulting: dict[str, str], arrived: dict[str, Hex]) -> None:
    st = tr.state
    t = rs.tables
    here = [u for u in st.units.values() if is_on_board(u) and u.hex == h]
    label = st.board.label(h)
    tr.emit("close_combat", f"Close combat in {label} (rule 7)", hex=label)
    for u in here:
        u.status.setdefault("role", "defender")
    # Pre-combat tests (7.4 item 3): flank or rear, tank panic; at most one test per unit.
    for d in sorted(here, key=lambda x: (t.sides.index(x.side), x.id)):
        if d.status.get("role") != "defender":
            continue
        attackers = [a for a in here if a.side != d.side and a.id in arrived]
        if not attackers:
            continue
        why = ""
        own = [x for x in here if x.side == d.side]
        if rs.has_fof(d) and not any(not rs.has_fof(x) for x in own if x.id != d.id):
            for a in attackers:
                side_in = a.status.get("entered_from")
                if side_in is not None and attack_side(int(d.status["facing"]), int(side_in)) != "front":
                    why = "assaulted in the flank or rear, rule 5.6"
                    break
        if rs.has_fof(d):
            for a in attackers:
                side_in = a.status.get("entered_from")
                if side_in is not None and attack_side(int(d.status["facing"]), int(side_in)) != "front":
                    d.status["flanked"] = True  # no trench bonus against a flank or rear assault (5.6)
        if not why and card(t, d).has("tank_panic") and any(t.is_tank(card(t, a).type) for a in attackers):
            why = "tank panic, rule 9.17"
        if why:
            bravery_test(rs, tr, st, d, why)
    # Ammunition and targets (7.2, 7.4 items 4–5).
    shots: list[tuple[Unit, Unit]] = []
    for u in sorted(here, key=lambda x: (t.sides.index(x.side), x.id)):
        o = st.data["active"].get(u.id) or {}
        if o.get("withdrawal"):
            continue
        foes = [x for x in here if x.side != u.side]
        if not foes:
            continue
        if int(u.status.get("ammo", 0)) < int(t.rules["ammo"]["close_combat"]):
            tr.emit("close_combat", f"{u.id} has no ammunition and does not fire (rule 7.1)", unit=u.id)
            continue
        u.status["ammo"] = int(u.status["ammo"]) - int(t.rules["ammo"]["close_combat"])
        want = assaulting.get(u.id) or u.status.get("bound_to")
        target = next((x for x in foes if x.id == want), None)
        if target is None:
            # 7.4 item 5: a defender fires at one assaulter of its choice; preset: the first by id (15.2).
            pool = [x for x in foes if x.id in arrived] or foes
            chosen = decide(
                tr,
                side=u.side,
                kind="close_combat",
                question=f"{u.id} defends in close combat at {label}: at which assaulter?",
                rule="7.4",
                options=_unit_options(t, pool),
                units=[u, *pool],
            )
            target = next(x for x in pool if x.id == chosen)
        shots.append((u, target))
    hits: dict[str, int] = defaultdict(int)
    for u, target in shots:
        n, why = _cc_dice(rs, st, u, target, h)
        if n <= 0:
            tr.emit(
                "close_combat", f"{u.id} rolls no dice against {target.id}" + (f": {why}" if why else ""), unit=u.id
            )
            continue
        c = card(t, u)
        acc = (
            c.suppressed_accuracy
            if u.status.get("suppressed")
            else (c.range[0] if c.range and c.range[0] is not None else 0)
        )
        mods = []
        tc = t.terrain[st.board.terrain(h)]
        if c.type == "INF" and tc.close_combat_accuracy and card(t, target).type in (*t.rules["vehicles"],):
            acc += tc.close_combat_accuracy
            mods.append(f"+{tc.close_combat_accuracy} infantry in {tc.name} (rule 10.10)")
        if u.status.get("role") == "assaulter" and st.board.level(h) >= 1:
            acc += int(t.hills.get("assault_accuracy", -1))
            mods.append("-1 assaulting on a hill (rule 10.11)")
        acc = max(int(t.rules["accuracy_min"]), min(int(t.rules["accuracy_max"]), acc))
        text = f"close combat: {u.id} at {target.id}, {n} dice hitting on {acc} or less" + (
            f" ({', '.join(mods)})" if mods else ""
        )
        got, _ = roll_attack(tr, t, Attack(u.id, target.id, n, acc, text))
        hits[target.id] += got
    for tid in sorted(hits, key=lambda i: (t.sides.index(st.units[i].side), i)):
        target = st.units[tid]
        role = str(target.status.get("role", "defender"))
        if apply_hits(rs, tr, st, target, hits[tid], "close combat", role=role) and target.steps > 0:
            target.status["pending"] = True
    for u in here:
        u.status.pop("flanked", None)


def _prefers(rs: ArtOfTactic, policy: str, x: Unit) -> bool:
    """15.2 item 4: True if ``x``'s target row (3.1) is one the ``prefer-CLASS`` policy prefers."""
    return rs.tables.target_row(card(rs.tables, x).type) in policy_rows(policy)


def _step8_ambush(rs: ArtOfTactic, tr: Transition) -> None:
    """3.11: infantry and artillery on Ambush hide now; each hidden ambusher fires once (+1 die, 1 ammunition)
    at one enemy whose movement path enters its field of fire within range and sight (G5: the planned path).
    The owner's policy set at planning picks the target, never a prompt (15.2 item 4): ``first`` (the default)
    the nearest, then by id; ``prefer-CLASS`` the nearest of that class it can attack, else as ``first``;
    ``hold`` never fires (the unit stays hidden). A hit target tests at once; a failure cancels its move."""
    st = tr.state
    t = rs.tables
    for u, _o in _ordered(rs, st, {"ambush"}):
        if _can_act(u) and card(t, u).type in ("INF", "ART"):
            _hide(st, tr, u)
    movers = [
        (x, o) for x, o in _ordered(rs, st, {"cautious", "march", "fire_on_move"}) if _can_act(x) or o.get("withdrawal")
    ]
    attacks: list[tuple[Unit, Attack]] = []
    for u, o in _ordered(rs, st, {"ambush"}):
        if not _can_act(u) or not u.status.get("hidden") or u.hex is None or int(u.status.get("ammo", 0)) < 1:
            continue
        policy = str(o.get("policy", "first"))
        if policy == "hold":
            continue  # 15.2 item 4: hold fire, stay hidden
        limit = int(u.status.get("ambush", {}).get("range", o["range"]))
        best: tuple[int, str, Hex] | None = None
        liked: list[tuple[int, str, Hex]] = []
        for x, xo in movers:
            if x.side == u.side or x.hex is None:
                continue
            for label in xo["path"]:
                h = st.board.parse(label)
                r = distance(u.hex, h)
                if 1 <= r <= limit and in_field_of_fire(u.hex, int(u.status["facing"]), h):
                    seen = line_of_sight(st.board, rs.policy, u.hex, h, rs.smoke(st)).visible
                    if seen and (best is None or (r, x.id) < best[:2]):
                        best = (r, x.id, h)
                    if seen and _prefers(rs, policy, x):
                        liked.append((r, x.id, h))
                    break
        attack: Attack | None = None
        for _r, xid, h in sorted(liked):  # prefer-CLASS: the nearest of the class it can attack (15.2 item 4)
            attack, _reason, _rule = ranged_attack(rs, st, u, st.units[xid], "ambush fire", "ambush", at=h)
            if attack is not None:
                break
        if attack is None and best is not None:
            target = st.units[best[1]]
            attack, _reason, _rule = ranged_attack(rs, st, u, target, "ambush fire", "ambush", at=best[2])
        if attack is None:
            continue
        u.status["ammo"] = int(u.status["ammo"]) - int(t.rules["ammo"]["ambush"])
        attacks.append((u, attack))
    hits = _roll_all(tr, t, [attack for _u, attack in attacks])
    for u, _attack in attacks:
        _unhide(st, tr, u, "it fired from ambush (rule 3.11)")
    for tid in _hit_and_test(rs, tr, hits, "ambush fire", "hit by ambush fire, rule 3.11"):
        st.data["active"].pop(tid, None)  # a failed test cancels the move, even a withdrawal


def _step8_remove_wire(rs: ArtOfTactic, tr: Transition) -> None:
    """9.10: engineers in either hex of a wired hexside take the wire off in step 8."""
    st = tr.state
    for u, o in _ordered(rs, st, {"remove_wire"}):
        if not _can_act(u) or u.hex is None:
            continue
        pair = sorted([st.board.label(u.hex), o["hex"]])
        wire = st.data["structures"]["wire"]
        if pair in wire:
            wire.remove(pair)
            tr.emit("structure", f"{u.id} removes the barbed wire {pair[0]}-{pair[1]} (rule 9.10)", unit=u.id)


def _step9_special(rs: ArtOfTactic, tr: Transition) -> None:
    st = tr.state
    _step(tr, 9, "Special orders", rs)
    # Relocations first (9.1): "Take position" unhitches a towed unit, which then starts deploying (9.9).
    for u, _o in _ordered(rs, st, {"deploy"}):
        if u.status.get("towed") and u.steps > 0:
            tower = st.units[u.status.pop("carried_by")]
            u.status.pop("towed")
            tower.status["carrying"] = [p for p in tower.status.get("carrying", []) if p != u.id]
            if not tower.status["carrying"]:
                tower.status.pop("carrying")
            u.hex = tower.hex
            tr.emit("tow", f"{u.id} takes position in {st.board.label(u.hex) if u.hex else '?'} (rule 9.9)", unit=u.id)
    _drop_crates(rs, tr)
    # G19 PROPOSED: Reconnoitre reveals every hidden enemy unit and concealed HQ in sight within its range.
    reach = int(rs.tables.rules.get("reconnoitre", {}).get("range", 3))
    for u, _o in _ordered(rs, st, {"reconnoitre"}):
        if not _can_act(u) or u.hex is None:
            continue
        for x in sorted(st.units.values(), key=lambda v: v.id):
            if x.side == u.side or not is_on_board(x) or x.hex is None or distance(u.hex, x.hex) > reach:
                continue
            if not (x.status.get("hidden") or x.status.get("concealed")):
                continue
            if not line_of_sight(st.board, rs.policy, u.hex, x.hex, rs.smoke(st)).visible:
                continue
            _expose(st, tr, x, f"{u.id} reconnoitres (rule G19)", f" by {u.id} (rule G19)")
    # Immediate orders: hitching up (9.9), both units ordered to tow each other.
    for u, o in _ordered(rs, st, {"tow"}):
        other = st.units.get(o["partner"])
        po = st.data["active"].get(o["partner"]) or {}
        if other is None or po.get("partner") != u.id or not _can_act(u) or not _can_act(other):
            continue
        tower, towed = (u, other) if card(rs.tables, u).has("tow") else (other, u)
        if towed.status.get("towed"):
            continue
        if towed.status.get("deployed") or towed.hex != tower.hex:
            continue
        towed.status.update(carried_by=tower.id, towed=True)
        tower.status["carrying"] = [*tower.status.get("carrying", []), towed.id]
        tr.emit("tow", f"{tower.id} hitches up {towed.id} (rule 9.9)", unit=tower.id)
    builders: dict[str, list[str]] = defaultdict(list)
    for u, o in _ordered(rs, st, {"pontoon"}):
        if _can_act(u) and not o.get("continued"):
            builders[o["hex"]].append(u.id)
    for u, o in _ordered(rs, st, {"remove_obstacle", "clear_path", "pontoon", "load_supply"}):
        if not _can_act(u) or u.hex is None or u.status.get("ongoing"):
            continue
        need_men = card(rs.tables, u).order(o["kind"], "manpower", 1)
        if o["kind"] == "pontoon" and len(builders[o["hex"]]) < need_men:
            tr.emit("order", f"{u.id}'s pontoon bridge needs {need_men} engineer units (rule 9.10)", unit=u.id)
            continue
        need = card(rs.tables, u).order(o["kind"], "boxes", 1)
        u.status["ongoing"] = {
            "kind": o["kind"],
            "boxes": 0,
            "need": need,
            "hex": o.get("hex") or st.board.label(u.hex),
        }
        tr.emit("special", f"{u.id} starts to {o['kind'].replace('_', ' ')} (rule 9.10)", unit=u.id)
    for u, o in _ordered(rs, st, {"lay_mines", "clear_mines"}):
        if not _can_act(u) or u.hex is None or u.status.get("ongoing"):
            continue
        need = card(rs.tables, u).order(o["kind"], "boxes", 1)
        u.status["ongoing"] = {"kind": o["kind"], "boxes": 0, "need": need, "mine": o.get("mine"),
                               "hex": st.board.label(u.hex)}  # fmt: skip
        tr.emit("special", f"{u.id} starts to {o['kind'].replace('_', ' ')} (rule 9.6, 9.7)", unit=u.id)
    for u, o in _ordered(rs, st, {"entrench", "supply"}):
        if not _can_act(u) or u.hex is None or u.status.get("ongoing"):
            continue
        need = card(rs.tables, u).order(o["kind"], "boxes", 1)
        u.status["ongoing"] = {"kind": o["kind"], "boxes": 0, "need": need, "facing_hex": o.get("facing_hex"),
                               "partner": o.get("partner")}  # fmt: skip
        tr.emit("special", f"{u.id} starts to {o['kind']} (rule 9.10, 9.16)", unit=u.id)
    for u, _o in _ordered(rs, st, {"ambush"}):
        rounds = int(u.status.get("ambush_rounds", 0))
        if _can_act(u) and card(rs.tables, u).type not in ("INF", "ART") and rounds >= 2:
            _hide(st, tr, u)  # 3.11: vehicles take two rounds, hidden in step 9 of the second
    for u, _o in _ordered(rs, st, {"demolition"}):
        if not _can_act(u) or u.hex is None:
            continue
        if not u.status.get("ongoing"):
            need = card(rs.tables, u).order("demolition", "boxes", 1)
            u.status["ongoing"] = {"kind": "demolition", "boxes": 0, "need": need, "hex": st.board.label(u.hex)}
            tr.emit("special", f"{u.id} places demolition charges at {st.board.label(u.hex)} (rule 9.8)", unit=u.id)
    for u, o in _ordered(rs, st, {"merge"}):
        other = st.units.get(o["partner"])
        po = st.data["active"].get(o["partner"]) or {}
        if other is None or not _can_act(u) or not _can_act(other) or po.get("partner") != u.id or u.steps <= 0:
            if u.steps > 0 and other is not None and other.steps > 0:
                tr.emit("order", f"{u.id}'s merge fails: {o['partner']} did not merge with it (rule 9.5)", unit=u.id)
            continue
        if other.hex != u.hex or u.steps + other.steps > card(rs.tables, u).size:
            continue
        keep, gone = sorted((u, other), key=lambda x: (-x.steps, x.id))  # PROPOSED: the larger unit stays
        keep.steps += gone.steps
        keep.status["ammo"] = min(
            card(rs.tables, keep).ammo, int(keep.status["ammo"]) + int(gone.status.get("ammo", 0))
        )
        gone.steps = 0
        gone.hex = None
        gone.status["merged_into"] = keep.id
        st.data["active"].pop(gone.id, None)
        tr.emit("merge", f"{gone.id} merges into {keep.id}, now size {keep.steps} (rule 9.5)", unit=keep.id)
    for u, o in _ordered(rs, st, {"facing", "deploy", "withdraw"}):
        if not _can_act(u):
            continue
        assert u.hex is not None
        if o["kind"] == "facing":
            u.status["facing"] = facing_of(u.hex, st.board.parse(o["facing_hex"]))
            tr.emit("special", f"{u.id} now faces {o['facing_hex']} (rule 9.4)", unit=u.id)
        elif not u.status.get("ongoing"):
            to = o.get("to")
            if to and st.board.parse(to) != u.hex:
                dest = st.board.parse(to)
                blocked = any(x.side != u.side and is_on_board(x) and x.hex == dest for x in st.units.values())
                if blocked or dest in rs.smoke(st):
                    tr.emit("special", f"{u.id} cannot move to {to}: it stays where it is (rule 9.2)", unit=u.id)
                else:
                    u.hex = dest
                    tr.emit("move", f"{u.id} moves to {to} to {o['kind']} (rule 9.2, 9.3)", unit=u.id, hex=to)
            need = card(rs.tables, u).order(o["kind"], "boxes", 1)
            u.status["ongoing"] = {"kind": o["kind"], "boxes": 0, "need": need, "facing_hex": o.get("facing_hex")}
            tr.emit(
                "special",
                f"{u.id} starts to {o['kind']} ({need} time box{'es' if need != 1 else ''}, rule 9.2)",
                unit=u.id,
            )


def _drop_crates(rs: ArtOfTactic, tr: Transition) -> None:
    """9.15.6: a transport aircraft over its drop hex this round (not attacked by enemy aircraft) places its crate:
    the cargo less ⌈cargo / size⌉ cargo units per loss taken on the way (12.5), each cargo unit worth
    ``[supply_drop] cargo_unit`` ammunition (G24)."""
    st = tr.state
    per = int(rs.tables.rules.get("supply_drop", {}).get("cargo_unit", 5))
    for u in sorted(st.units.values(), key=lambda x: x.id):
        air = u.status.get("air") or {}
        if not air.get("cargo") or int(air.get("round", 0)) != st.turn or u.steps <= 0 or air.get("struck"):
            continue
        cargo, size = int(air["cargo"]), card(rs.tables, u).size
        lost = (int(air.get("size", u.steps)) - u.steps) * -(-cargo // size)
        left = max(0, cargo - lost)
        air["cargo"] = 0
        if left <= 0:
            tr.emit("supply", f"{u.id} lost all its cargo (rule 9.15.6)", unit=u.id)
            continue
        crates = st.data.setdefault("crates", {})
        crates[str(air["target"])] = int(crates.get(str(air["target"]), 0)) + left * per
        tr.emit("supply", f"{u.id} drops a supply crate with {left * per} ammunition at {air['target']} (rule 9.15.6)",
                unit=u.id)  # fmt: skip


def _step10_movement(rs: ArtOfTactic, tr: Transition) -> None:
    """4.1, 4.7: simultaneous 1-hex sub-steps; Defend fire when a mover enters a defended zone (3.6)."""
    st = tr.state
    _step(tr, 10, "Movement", rs)
    # Sub-step 0: mount and dismount (4.6 PROPOSED).
    for u, o in _ordered(rs, st, {"mount", "dismount"}):
        if u.steps <= 0 or u.hex is None:
            continue
        if o["kind"] == "mount" and not u.status.get("suppressed"):
            tp = st.units.get(o["transport"])
            if tp is None or not is_on_board(tp) or tp.hex != u.hex:
                tr.emit("order", f"{u.id} cannot mount: {o['transport']} is not in its hex (rule 4.6)", unit=u.id)
                continue
            aboard = sum(st.units[p].steps for p in tp.status.get("carrying", []))
            if aboard + u.steps > tp.steps:
                tr.emit("order", f"{u.id} cannot mount: {tp.id} has no room (rule 4.6)", unit=u.id)
                continue
            u.status["carried_by"] = tp.id
            tp.status["carrying"] = [*tp.status.get("carrying", []), u.id]
            tr.emit("mount", f"{u.id} mounts {tp.id} (rule 4.6)", unit=u.id)
        elif o["kind"] == "dismount" and u.status.get("carried_by"):
            tp = st.units[u.status["carried_by"]]
            to = st.data["active"].get(tp.id)
            if to is None or to["kind"] != "dismount" or u.status.get("suppressed"):
                tr.emit("order", f"{u.id} stays aboard: {tp.id} has no Dismount order (rule 4.6)", unit=u.id)
                continue
            u.status.pop("carried_by")
            tp.status["carrying"] = [p for p in tp.status.get("carrying", []) if p != u.id]
            if not tp.status["carrying"]:
                tp.status.pop("carrying")
            u.hex = tp.hex
            tr.emit(
                "dismount",
                f"{u.id} dismounts from {tp.id} in {st.board.label(tp.hex) if tp.hex else '?'} (rule 4.6)",
                unit=u.id,
            )
    smoke = rs.smoke(st)
    paths: dict[str, list[Hex]] = {}
    firing: dict[str, Hex] = {}  # fire on the move: the unit fires on entering this hex (4.5)
    for u, o in _ordered(rs, st, {"cautious", "march", "fire_on_move"}):
        if u.steps <= 0 or u.hex is None or (u.status.get("suppressed") and not o.get("withdrawal")):
            continue
        paths[u.id] = [st.board.parse(h) for h in o["path"]]
        if smoke & set(paths[u.id]):
            tr.emit("move", f"{u.id} does not move: smoke lies on its path (rule 3.9)", unit=u.id)
            paths.pop(u.id)
            continue
        if o["kind"] == "fire_on_move":
            firing[u.id] = st.board.parse(o["fire_hex"])
        if o.get("withdrawal"):
            u.status.pop("bound", None)
            u.status.pop("bound_to", None)
    stopped: set[str] = set()
    started = {m: st.units[m].hex for m in paths}
    _mines_at_start(rs, tr, paths)
    _fire_on_the_move(rs, tr, [m for m in firing if st.units[m].hex == firing[m]], firing, stopped)
    k = 0
    while any(paths[m] for m in paths if m not in stopped):
        k += 1
        snap = {uid: x.hex for uid, x in st.units.items() if is_on_board(x)}
        nxt = {m: p[0] for m, p in paths.items() if p and m not in stopped and st.units[m].steps > 0}
        entered: list[str] = []
        for m, h in sorted(nxt.items()):
            u = st.units[m]
            if u.status.get("suppressed") and not st.data["active"].get(m, {}).get("withdrawal"):
                stopped.add(m)
                continue
            enemy_here = any(st.units[x].side != u.side and hh == h for x, hh in snap.items())
            clash = any(st.units[x].side != u.side and hh == h for x, hh in nxt.items() if x != m)
            swap = any(st.units[x].side != u.side and snap.get(x) == h and hh == u.hex for x, hh in nxt.items())
            if enemy_here or clash or swap:
                tr.emit("move", f"{m} meets the enemy and stops before {st.board.label(h)} (rule 4.7)", unit=m)
                stopped.add(m)
                continue
            if h in rs.obstacles(st).closed:
                tr.emit("move", f"{m} stops: the bridge at {st.board.label(h)} is destroyed (rule 9.18.2)", unit=m)
                stopped.add(m)
                continue
            _cross_wire(rs, tr, u, h)
            u.status["facing"] = _entry(u.hex, h)
            u.hex = h
            paths[m] = paths[m][1:]
            _carry_passengers(st, u)
            entered.append(m)
            tr.emit("move", f"{m} moves to {st.board.label(h)}", unit=m, hex=st.board.label(h))
        reveal_adjacent(rs, tr)
        for m in list(entered):
            x = st.units[m]
            if x.hex is not None and st.board.label(x.hex) in st.data.get("minefields", {}):
                stopped.add(m)
                _mine_entry(rs, tr, x)
        _defend_fire(rs, tr, entered, started if k == 1 else {}, stopped)
        _fire_on_the_move(rs, tr, [m for m in entered if firing.get(m) == st.units[m].hex], firing, stopped)
        if k > 30:
            break


def _is_engineer(rs: ArtOfTactic, u: Unit) -> bool:
    return card(rs.tables, u).has("engineer")


def _mine_attack(rs: ArtOfTactic, tr: Transition, u: Unit, label: str) -> None:
    """9.7: the mines make a normal fire test with the card's values for the unit's type (12.4)."""
    st = tr.state
    field = st.data["minefields"][label]
    values = rs.tables.mines.get(field["kind"], {}).get(rs.tables.target_row(card(rs.tables, u).type))
    if not values:
        tr.emit("mines", f"the {field['kind'].replace('_', '-')} mines at {label} have no effect on {u.id} (rule 9.6)")
        return
    attack = Attack("mines", u.id, int(values[0]), int(values[1]), f"mines at {label} explode under {u.id} (rule 9.7)")
    got, _ = roll_attack(tr, rs.tables, attack)
    if got and apply_hits(rs, tr, st, u, got, "mines") and u.steps > 0:
        u.status["pending"] = True


def _reveal_minefield(tr: Transition, label: str) -> bool:
    """Reveal a minefield card; a dummy is put aside. Returns True if the mines are real."""
    st = tr.state
    field = st.data["minefields"][label]
    if not field.get("revealed"):
        field["revealed"] = True
        tr.reveal()
        tr.emit("mines", f"a minefield is revealed at {label}: {field['kind'].replace('_', '-')}", hex=label)
    if field["kind"] == "dummy":
        st.data["minefields"].pop(label)
        tr.emit("mines", f"the minefield at {label} was a dummy and is removed (rule 9.7)", hex=label)
        return False
    return True


def _mine_entry(rs: ArtOfTactic, tr: Transition, u: Unit) -> None:
    """9.7: a unit entering a mined hex stops; the card is revealed; the mines explode unless it is an engineer."""
    assert u.hex is not None
    label = tr.state.board.label(u.hex)
    tr.emit("mines", f"{u.id} enters a minefield at {label} and stops (rule 9.7)", unit=u.id)
    if _reveal_minefield(tr, label) and not _is_engineer(rs, u):
        _mine_attack(rs, tr, u, label)


def _mines_at_start(rs: ArtOfTactic, tr: Transition, paths: dict[str, list[Hex]]) -> None:
    """9.7: a unit starting in a mined hex moves one hex at most and the mines explode before it leaves; an
    engineer standing in a detected minefield with any order but Clear mines (or none, if it could get one) is
    attacked (PROPOSED: at the start of step 10)."""
    st = tr.state
    fields = st.data.get("minefields", {})
    for side in rs.tables.sides:
        for u in st.units.values():
            if u.side != side or not is_on_board(u) or u.hex is None:
                continue
            label = st.board.label(u.hex)
            field = fields.get(label)
            if field is None:
                continue
            if _is_engineer(rs, u):
                o = st.data["active"].get(u.id) or {}
                could_order = not u.status.get("flag") and not u.status.get("no_order")
                real = field.get("revealed") and field["kind"] != "dummy"
                if real and could_order and o.get("kind") != "clear_mines":
                    _mine_attack(rs, tr, u, label)
                continue
            if u.id in paths:
                paths[u.id] = paths[u.id][:1]
                if _reveal_minefield(tr, label):
                    _mine_attack(rs, tr, u, label)


def _fire_on_the_move(
    rs: ArtOfTactic, tr: Transition, ready: list[str], firing: dict[str, Hex], stopped: set[str]
) -> None:
    """4.5: the shot from the underlined hex (1 ammunition, firepower − the printed penalty, at least 1 die);
    shots of one sub-step are simultaneous; a hit target tests bravery at once and stops if it fails."""
    st = tr.state
    t = rs.tables
    attacks: list[Attack] = []
    for m in sorted(ready, key=lambda i: (t.sides.index(st.units[i].side), i)):
        u = st.units[m]
        o = st.data["active"].get(m)
        firing.pop(m, None)
        if o is None or not _can_act(u):
            continue
        u.status["ammo"] = max(0, int(u.status.get("ammo", 0)) - int(t.rules["ammo"]["fire_on_move"]))
        target = st.units[o["target"]]
        attack, reason, rule = ranged_attack(rs, st, u, target, "fire on the move", "fire")
        if attack is None:
            tr.emit("order", f"{m}'s fire on the move is lost: {reason} (rule {rule}); ammunition spent", unit=m)
            continue
        penalty = card(t, u).order("fire_on_move", "penalty")
        dice = max(int(t.rules["fire"]["minimum_dice"]), attack.dice - penalty)
        attack.modifiers.append(Modifier(dice - attack.dice, "fire on the move (rule 4.5)"))
        attack.purpose = attack.purpose.replace(f"{attack.dice} dice", f"{dice} dice")
        attack.dice = dice
        attacks.append(attack)
    hits = _roll_all(tr, t, attacks)
    stopped.update(_hit_and_test(rs, tr, hits, "fire on the move", "hit by fire on the move, rule 4.5"))


def _roll_all(tr: Transition, t: Any, attacks: list[Any]) -> dict[str, int]:
    """6.5: roll every attack of one step before any result applies; hits per target unit id."""
    hits: dict[str, int] = defaultdict(int)
    for a in attacks:
        got, _ = roll_attack(tr, t, a)
        hits[a.target] += got
    return hits


def _hit_and_test(rs: ArtOfTactic, tr: Transition, hits: dict[str, int], cause: str, why: str) -> list[str]:
    """Apply the hits side by side (first side first, then by id) and test the bravery of each unit hit that
    survives (8.1); returns the ids of the units that failed their test."""
    st, t = tr.state, rs.tables
    failed = []
    for tid in sorted(hits, key=lambda i: (t.sides.index(st.units[i].side), i)):
        if hits[tid] <= 0:
            continue
        x = st.units[tid]
        apply_hits(rs, tr, st, x, hits[tid], cause)
        if x.steps > 0 and not bravery_test(rs, tr, st, x, why):
            failed.append(tid)
    return failed


def reveal_adjacent(rs: ArtOfTactic, tr: Transition) -> None:
    """9.11, 3.11: a concealed HQ with an enemy unit next to it (or in its hex) is found."""
    st = tr.state
    for u in st.units.values():
        if not (u.status.get("concealed") or u.status.get("hidden")) or not is_on_board(u) or u.hex is None:
            continue
        if not any(
            e.side != u.side and is_on_board(e) and e.hex is not None and distance(e.hex, u.hex) <= 1
            for e in st.units.values()
        ):
            continue
        _expose(st, tr, u, "an enemy unit is next to it (rule 3.11)", " (rule 9.11)")


def _reconceal(rs: ArtOfTactic, tr: Transition) -> None:
    """9.11 PROPOSED: a found HQ that ended the round in another hex with no enemy next to it hides again."""
    st = tr.state
    for u in st.units.values():
        found = u.status.get("found_at")
        if found is None or not is_on_board(u) or u.hex is None or st.board.label(u.hex) == found:
            continue
        if not any(e.side != u.side and is_on_board(e) and e.hex is not None and distance(e.hex, u.hex) <= 1
                   for e in st.units.values()):  # fmt: skip
            # Named before it hides: the other side knows the found HQ and sees it become unidentified (9.11).
            tr.emit("concealed", f"{u.side} HQ {u.id} is concealed again (rule 9.11)", unit=u.id)
            u.status["concealed"] = True
            u.status.pop("found_at")


def _defend_fire(
    rs: ArtOfTactic, tr: Transition, entered: list[str], started: dict[str, Hex | None], stopped: set[str]
) -> None:
    """3.6: each armed Defend unit fires once at one eligible mover (preset: its policy, 15.2 item 4: the nearest,
    then by id; ``prefer-CLASS`` the nearest of that class first; with ``prompts on`` asked, the preset first);
    all Defend fire of a sub-step is simultaneous; a hit target tests bravery and stops if it fails."""
    st = tr.state
    t = rs.tables
    if not entered:
        return
    attacks: list[Attack] = []
    for side in t.sides:
        for d in st.units.values():
            dz = d.status.get("defend")
            if d.side != side or not dz or dz.get("used") or not dz.get("armed") or not _can_act(d) or d.hex is None:
                continue
            policy = str(dz.get("policy", "first"))
            cands: list[tuple[int, int, str]] = []
            for m in entered:
                x = st.units[m]
                if x.side == d.side or x.hex is None or x.steps <= 0:
                    continue
                zone = [x.hex] + ([started[m]] if started.get(m) is not None else [])
                for h in zone:
                    assert h is not None
                    r = distance(d.hex, h)
                    if 1 <= r <= int(dz["range"]) and in_field_of_fire(d.hex, int(d.status["facing"]), h):
                        # 15.2 item 4 PROPOSED: prefer-CLASS puts that class first, nearest first.
                        cands.append((0 if _prefers(rs, policy, x) else 1, r, m))
                        break
            shots: list[tuple[int, str, Attack]] = []
            for _pref, r, m in sorted(cands):
                attack, _reason, _rule = ranged_attack(rs, st, d, st.units[m], "defend fire", "fire")
                if attack is not None:
                    shots.append((r, m, attack))
                    if not asks(st, d.side):
                        break  # the preset needs only the first
            if not shots:
                continue
            # 3.6: "the defender must choose one of them"; preset: its policy, else the nearest, then by id (15.2).
            at = st.board.label(d.hex)
            chosen = decide(
                tr,
                side=d.side,
                kind="defend",
                question=f"{d.id} on Defend at {at} fires once: at which mover?",
                rule="3.6",
                options=[(m, f"{m} at {hex_label_of(st, st.units[m])} (range {r})") for r, m, _a in shots],
                units=[d, *(st.units[m] for _r, m, _a in shots)],
            )
            attacks.append(next(a for _r, m, a in shots if m == chosen))
            dz["used"] = True
    hits = _roll_all(tr, t, attacks)
    stopped.update(_hit_and_test(rs, tr, hits, "defend fire", "hit by defend fire, rule 3.6"))


def _step12_status(rs: ArtOfTactic, tr: Transition) -> None:
    """2.6: time boxes, recovery tests, order marks, close-combat binding, control."""
    st = tr.state
    t = rs.tables
    _step(tr, 12, "Status update", rs)
    for u in st.units.values():
        og = u.status.get("ongoing")
        if not og or u.steps <= 0:
            continue
        og["boxes"] = int(og["boxes"]) + 1
        if og["boxes"] >= int(og["need"]):
            u.status.pop("ongoing")
            if og["kind"] == "deploy":
                u.status["deployed"] = True
                if og.get("facing_hex") and u.hex is not None:
                    u.status["facing"] = facing_of(u.hex, st.board.parse(og["facing_hex"]))
                tr.emit("special", f"{u.id} is deployed (rule 9.2)", unit=u.id)
            elif og["kind"] == "withdraw":
                u.status["deployed"] = False
                tr.emit("special", f"{u.id} has limbered up and may move (rule 9.3)", unit=u.id)
            elif og["kind"] == "entrench" and u.hex is not None and og.get("facing_hex"):
                label = st.board.label(u.hex)
                trenches = st.data["structures"]["trenches"]
                if label not in trenches:
                    trenches[label] = facing_of(u.hex, st.board.parse(og["facing_hex"]))
                    tr.emit("structure", f"{u.id} has dug a trench in {label} (rule 9.10)", unit=u.id)
            elif og["kind"] == "supply" and og.get("partner") == "crate":
                _crate_supply(rs, tr, u)
            elif og["kind"] == "supply" and og.get("partner"):
                _resupply(rs, tr, u, st.units[og["partner"]])
            elif og["kind"] == "lay_mines":
                kind = str(og.get("mine") or "dummy")
                if kind != "dummy":
                    u.status["mines"] = False  # the one real minefield is used (9.6)
                st.data.setdefault("minefields", {})[str(og["hex"])] = {"owner": u.side, "kind": kind}
                tr.emit("mines", f"{u.id} has laid a minefield (rule 9.6)", visible_to=[u.side], unit=u.id)
            elif og["kind"] == "remove_obstacle" and u.hex is not None:
                pair = sorted([st.board.label(u.hex), str(og["hex"])])
                if pair in st.data["structures"]["teeth"]:
                    st.data["structures"]["teeth"].remove(pair)
                    tr.emit(
                        "structure", f"{u.id} removes the dragon's teeth {pair[0]}-{pair[1]} (rule 9.10)", unit=u.id
                    )
            elif og["kind"] == "clear_path":
                if og["hex"] not in st.data["structures"]["paths"]:
                    st.data["structures"]["paths"].append(str(og["hex"]))
                    tr.emit("structure", f"{u.id} has cleared a path through {og['hex']} (rule 9.10)", unit=u.id)
            elif og["kind"] == "pontoon":
                if og["hex"] not in st.data["structures"]["pontoons"]:
                    st.data["structures"]["pontoons"].append(str(og["hex"]))
                    tr.emit("structure", f"a pontoon bridge stands at {og['hex']} (rule 9.10)", hex=og["hex"])
            elif og["kind"] == "load_supply":
                cap = int(card(t, u).cargo.get("ammo", 0)) - int(u.status.get("cargo_lost", 0))
                u.status["cargo_ammo"] = max(int(u.status.get("cargo_ammo", 0)), cap)
                tr.emit("supply", f"{u.id} has loaded supplies: {cap} ammunition (rule 9.16)", unit=u.id)
            elif og["kind"] == "clear_mines":
                if st.data.get("minefields", {}).pop(str(og["hex"]), None) is not None:
                    tr.emit("mines", f"{u.id} clears the minefield at {og['hex']} (rule 9.7)", unit=u.id)
            elif og["kind"] == "demolition":
                u.status["charges_used"] = True
                if str(og["hex"]) in st.data["structures"]["dugouts"]:
                    destroy_dugout(tr, str(og["hex"]), f"{u.id}'s charges explode (rule 9.8)", kill=True)
                else:
                    destroy_bridge(tr, str(og["hex"]), f"{u.id}'s charges explode (rule 9.8)")
    for u in st.units.values():
        pz = u.status.get("air") or {}
        if (pz.get("patrol") or pz.get("recon")) and u.steps > 0:  # 9.15.5, 9.15.3: a time box a round
            pz["aloft"] = int(pz.get("aloft", 0)) + 1
            u.status["boxes"] = int(u.status.get("boxes", 0)) + 1
            if pz["aloft"] >= int(pz["rounds"]) or u.status["boxes"] >= max(1, card(t, u).mission_boxes):
                _land(tr, u, "its patrol is over" if pz.get("patrol") else "its reconnaissance is over")
    for u in st.units.values():
        if (
            card(t, u).type == "AIR"
            and u.steps > 0
            and not u.status.get("air")
            and 0 < int(u.status.get("prep", 4)) < 4
        ):
            u.status["prep"] = int(u.status["prep"]) + 1  # 2.6: the next preparation box (9.12)
            tr.emit("air", f"{u.id} on its airfield: preparation box {u.status['prep']} (rule 9.12)", unit=u.id)
    for side in t.sides:
        for u in st.units.values():
            if u.side == side and u.steps > 0 and u.status.get("flag"):
                recovery_test(rs, tr, st, u)
    # Binding (7.7) and roles.
    for u in st.units.values():
        if not is_on_board(u):
            continue
        foes = enemies_in_hex(st, u)
        if foes:
            u.status["bound"] = True
            if not any(f.id == u.status.get("bound_to") for f in foes):
                u.status["bound_to"] = foes[0].id
        else:
            for key in ("bound", "bound_to", "role"):
                u.status.pop(key, None)
    for label, placed_in in sorted(st.data.get("smoke", {}).items()):
        if int(placed_in) < st.turn:
            st.data["smoke"].pop(label)
            tr.emit("smoke", f"the smoke on {label} clears (rule 3.9)", hex=label)
    _reconceal(rs, tr)
    _update_control(rs, st)
    st.data.pop("active", None)


def _resupply(rs: ArtOfTactic, tr: Transition, u: Unit, tp: Unit) -> None:
    """9.16: both units ordered, in one hex; the unit takes what it lacks (PROPOSED policy: all it can)."""
    st = tr.state
    o = st.data["active"].get(tp.id) or {}
    if o.get("kind") != "supply" or tp.hex != u.hex or tp.steps <= 0 or u.steps <= 0:
        tr.emit("order", f"{u.id} is not resupplied: {tp.id} did not deliver (rule 9.16)", unit=u.id)
        return
    if card(rs.tables, u).has("engineer") and not u.status.get("mines") and int(tp.status.get("cargo_mines", 0)) > 0:
        tp.status["cargo_mines"] = int(tp.status["cargo_mines"]) - 1  # 9.6 PROPOSED: a mine for a real minefield
        u.status["mines"] = True
        tr.emit("supply", f"{u.id} takes a mine from {tp.id}: one real minefield (rule 9.6)", unit=u.id)
    want = card(rs.tables, u).ammo - int(u.status.get("ammo", 0))
    most = max(0, min(want, int(tp.status.get("cargo_ammo", 0))))
    give = _supply_amount(tr, u, most, f"from {tp.id}", "9.16", [u, tp])
    u.status["ammo"] = int(u.status.get("ammo", 0)) + give
    tp.status["cargo_ammo"] = int(tp.status.get("cargo_ammo", 0)) - give
    tr.emit("supply", f"{u.id} takes {give} ammunition from {tp.id} (rule 9.16)", unit=u.id)


def _supply_amount(tr: Transition, u: Unit, most: int, source: str, rule: str, units: list[Unit]) -> int:
    """9.16: how much ammunition the unit takes, from all it can (the preset, 15.2) down to 1 (more than 0: the
    order was given to be resupplied)."""
    if most <= 1:
        return most
    got = decide(
        tr,
        side=u.side,
        kind="supply",
        question=f"{u.id} is resupplied {source}: how much ammunition does it take (at most {most})?",
        rule=rule,
        options=[(str(n), f"{n} ammunition" + (" (all it can)" if n == most else "")) for n in range(most, 0, -1)],
        units=units,
    )
    return int(got)


def _crate_supply(rs: ArtOfTactic, tr: Transition, u: Unit) -> None:
    """9.15.6, G24: a unit takes what it lacks from the crate in its hex (either side's); an empty crate goes."""
    st = tr.state
    crates = st.data.get("crates", {})
    label = st.board.label(u.hex) if u.hex is not None else ""
    if u.steps <= 0 or int(crates.get(label, 0)) <= 0:
        tr.emit("order", f"{u.id} is not resupplied: no crate left in its hex (rule 9.15.6)", unit=u.id)
        return
    most = max(0, min(card(rs.tables, u).ammo - int(u.status.get("ammo", 0)), int(crates[label])))
    give = _supply_amount(tr, u, most, f"from the supply crate at {label}", "9.15.6", [u])
    u.status["ammo"] = int(u.status.get("ammo", 0)) + give
    crates[label] = int(crates[label]) - give
    tr.emit("supply", f"{u.id} takes {give} ammunition from the supply crate at {label} (rule 9.15.6)", unit=u.id)
    if crates[label] <= 0:
        del crates[label]
        tr.emit("supply", f"the supply crate at {label} is empty and removed (rule 9.15.6)")


def destroy_dugout(tr: Transition, label: str, why: str, kill: bool) -> None:
    """9.18.6: the dugout is removed; demolition destroys every unit inside, fire leaves them on the board."""
    st = tr.state
    if st.data["structures"]["dugouts"].pop(label, None) is None:
        return
    tr.emit("structure", f"the dugout at {label} is destroyed: {why}", hex=label)
    for u in st.units.values():
        if u.status.get("in_dugout") and u.hex is not None and st.board.label(u.hex) == label:
            u.status.pop("in_dugout")
            if kill:
                tr.emit("destroyed", f"{u.id} is destroyed inside the dugout (rule 9.8)", unit=u.id)
                u.steps = 0
                u.hex = None
                st.data["active"].pop(u.id, None)


def _hit_pontoon(rs: ArtOfTactic, tr: Transition, label: str, got: int) -> None:
    """9.18.7, 9.18.8 PROPOSED: a pontoon bridge takes hits like a bridge; at its card's hits it is gone (the river
    hex closes again to movement)."""
    st = tr.state
    hits = st.data["structures"].setdefault("pontoon_hits", {})
    hits[label] = int(hits.get(label, 0)) + got
    need = int(rs.tables.structures["pontoon"]["hits"])
    if got:
        tr.emit("structure", f"the pontoon bridge at {label} takes {got} hit(s): {hits[label]} of {need}", hex=label)
    if hits[label] >= need:
        del hits[label]
        st.data["structures"]["pontoons"].remove(label)
        tr.emit("structure", f"the pontoon bridge at {label} is destroyed: hit by fire (rule 9.18.8)", hex=label)


def destroy_bridge(tr: Transition, label: str, why: str) -> None:
    """9.18.2: the bridge flips to its destroyed side; record the round for scenario rules."""
    st = tr.state
    bridge = st.data.get("structures", {}).get("bridges", {}).get(label)
    if bridge is None or bridge.get("destroyed"):
        return
    bridge["destroyed"] = True
    bridge["round"] = st.turn
    tr.emit("structure", f"the bridge at {label} is destroyed: {why}", hex=label)


def _update_control(rs: ArtOfTactic, st: GameState) -> None:
    """11.2 PROPOSED: a hex is controlled by the only side with ground units in it; otherwise unchanged."""
    control = st.data.setdefault("control", {})
    by_hex: dict[Hex, set[str]] = defaultdict(set)
    for u in st.units.values():
        if u.hex is not None and u.steps > 0:
            by_hex[u.hex].add(u.side)
    for h, sides in by_hex.items():
        if len(sides) == 1:
            control[st.board.label(h)] = next(iter(sides))


def check_victory(rs: ArtOfTactic, st: GameState) -> Outcome | None:
    """After step 12 (11.2): a side without units loses; after the last round the scenario's conditions."""
    alive = {s: any(u.side == s and u.steps > 0 for u in st.units.values()) for s in st.sides}
    if not all(alive.values()):
        winners = [s for s, a in alive.items() if a]
        if not winners:
            return Outcome("draw", "both sides were destroyed")
        return Outcome(winners[0], f"every {next(s for s in st.sides if s not in winners)} unit was destroyed")
    v = st.data.get("victory", {})
    bridges = st.data.get("structures", {}).get("bridges", {})
    lost = [b for b in v.get("bridge_intact", []) if bridges.get(b, {}).get("destroyed")]
    until = st.data.get("special", {}).get("bridge_draw_until")
    if lost and until is not None and int(bridges[lost[0]].get("round", 0)) <= int(until):
        return Outcome("draw", f"the bridge at {lost[0]} was destroyed by round {until}: the rearguard is stranded")
    if st.turn < int(st.data["rounds"]):
        return None
    objectives = list(v.get("hexes", []))
    control = st.data.get("control", {})
    for side in st.sides:
        if objectives and all(control.get(h) == side for h in objectives) and not lost:
            return Outcome(side, f"{side} controls {', '.join(objectives)} after round {st.turn} (rule 11.2)")
    otherwise = v.get("otherwise", "draw")
    if otherwise == "losses":
        killed = {
            s: sum(card(rs.tables, u).cost for u in st.units.values() if u.side != s and u.steps <= 0) for s in st.sides
        }
        a, b = st.sides
        if killed[a] != killed[b]:
            w = a if killed[a] > killed[b] else b
            return Outcome(w, f"{w} destroyed the higher cost of enemy units ({killed[w]} points, rule 11.6)")
        return Outcome("draw", "equal cost of units destroyed")
    if otherwise in st.sides:
        return Outcome(otherwise, f"the objectives are not taken: {otherwise} holds (scenario victory)")
    return Outcome("draw", f"no side controls all of {', '.join(objectives)} after round {st.turn}")


def execute_round(rs: ArtOfTactic, tr: Transition) -> None:
    """REVEAL, steps 1–12, END_OF_ROUND (2.9)."""
    st = tr.state
    word_events(rs, tr)  # 9.11, 15.1: events naming a concealed HQ reach the other side without its name
    _reveal(rs, tr)
    _step1_defend(rs, tr)
    _step(tr, 2, "Suppression fire", rs)
    _fire_step(rs, tr, "suppress")
    _step(tr, 3, "Open fire and smoke", rs)
    _fire_step(rs, tr, "fire")
    _smoke(rs, tr)
    _bravery_step(rs, tr, 4)
    _step(tr, 5, "Air missions", rs)
    _step5_air(rs, tr)
    _step6_assault(rs, tr)
    _bravery_step(rs, tr, 7)
    _step(tr, 8, "Ambush and wire removal", rs)
    _step8_ambush(rs, tr)
    _step8_remove_wire(rs, tr)
    _step9_special(rs, tr)
    _step10_movement(rs, tr)
    _bravery_step(rs, tr, 11)
    _step12_status(rs, tr)
    outcome = check_victory(rs, st)
    if outcome is not None:
        st.outcome = outcome
        st.to_act = None
        st.phase = "over"
        tr.emit("outcome", f"Game over: {outcome.reason}", winner=outcome.winner)
        return
    st.turn += 1
    start_round(rs, tr)
