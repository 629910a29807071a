"""Provides "minirules", a small ruleset used only by the tests to exercise the Game facade.

Rules M1–M5 are in this folder's README.md. It is the worked example of typed ruleset state: ``MiniData`` (the
state's data) and ``MiniStatus`` (a unit's status) are records (:mod:`engine.typed`), read through ``data`` and
``status`` below; and of typed notation: ``notation.NOTATIONS`` gives each verb's arguments and roles, from
which the engine tells clients what an action means (the TUI and the AI play it without knowing a verb).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from engine import Action, GameState, IllegalActionError, InvalidActionError, Modifier, Outcome, Ruleset, Unit
from engine.board import Board
from engine.dice import DiceSource
from engine.hexgrid import Hex, distance
from engine.los import LosPolicy, line_of_sight
from engine.odds import Odds, OddsEntry
from engine.pathing import WeightFn
from engine.rules import Transition
from engine.scenario import Scenario
from engine.typed import from_plain, record, state_of, status_of

from .notation import NOTATIONS

SCENARIOS = Path(__file__).parent / "scenarios"


@record
class Reaction:
    """A reaction to decide (M3): the unit that moved and the enemy units adjacent to it."""

    mover: str
    candidates: list[str]


@record
class MiniData:
    """The state's data. The fields without a default are always written, as the plain dict before had them."""

    acted: list[str]
    """Units that moved or fired this turn (M1)."""
    ended: list[str]
    """Sides that ended this turn (M5)."""
    reaction: Reaction | None
    """The reaction the other side must decide now, if any (M3)."""
    objective: Hex | None
    """The objective hex (M5), if the scenario has one."""
    turns: int
    """The scenario's last turn."""
    resume: str | None = None
    """The side that acts again once the reaction is decided (M3)."""


@record
class MiniStatus:
    """A unit's status: ``{}`` unless the unit is hidden (M4)."""

    hidden: bool = False


def data(st: GameState) -> MiniData:
    """The state's data, typed."""
    return state_of(st, MiniData)


def status(unit: Unit) -> MiniStatus:
    """The unit's status, typed."""
    return status_of(unit, MiniStatus)


class MiniRules(Ruleset):
    """Movement, dice-based fire, a passive reaction, hidden snipers and an end condition."""

    id = "minirules"
    title = "Mini rules (tests only)"
    version = "1"
    notations = NOTATIONS
    state_type: ClassVar[type[MiniData]] = MiniData
    status_type: ClassVar[type[MiniStatus]] = MiniStatus
    verbs: ClassVar[Mapping[str, str]] = {
        "move": "move UNIT HEX... — move along adjacent hexes (M1)",
        "fire": "fire UNIT TARGET — fire at a visible enemy (M2)",
        "react": "react UNIT MOVER — fire at the unit that moved adjacent (M3)",
        "hold": "hold — no reaction (M3)",
        "end": "end — end your side's turn (M5)",
    }

    def scenario_dirs(self) -> list[Path]:
        return [SCENARIOS]

    # --- Data helpers -----------------------------------------------------------------------------------

    def utype(self, unit: Unit) -> dict[str, Any]:
        return self.unit_types[unit.type]

    def step_cost(self, mover: str, terrain_class: str) -> float | None:
        cost = self.terrain_classes[terrain_class].get("cost", {}).get(mover)
        return None if cost is None else float(cost)

    def can_stand(self, unit_type: str, terrain_class: str) -> bool:
        return self.step_cost(self.unit_types[unit_type]["mover"], terrain_class) is not None

    # --- Setup ------------------------------------------------------------------------------------------

    def setup(self, scenario: Scenario, board: Board, dice: DiceSource) -> GameState:
        units = {}
        for spec in scenario.units:
            t = self.unit_types[spec.type]
            flags = from_plain(MiniStatus, dict(spec.status), where=f"units[{spec.id!r}].status")
            if t.get("hidden") and "hidden" not in spec.status:
                flags.hidden = True
            units[spec.id] = Unit(spec.id, spec.type, spec.side, spec.hex, spec.steps or t["steps"], None, flags)
        label = scenario.raw.get("victory", {}).get("hexes")
        return GameState(
            ruleset=self.id,
            scenario=scenario.id,
            sides=scenario.side_ids(),
            board=board,
            units=units,
            turn=1,
            phase="play",
            to_act=scenario.first,
            data=MiniData([], [], None, board.parse(label) if label else None, scenario.turns),
            dice=dice,
        )

    # --- Queries ----------------------------------------------------------------------------------------

    def los_policy(self, state: GameState) -> LosPolicy:
        blocking = frozenset(k for k, v in self.terrain_classes.items() if v.get("blocks_los"))
        return LosPolicy(
            id="minirules",
            obstacles=blocking,
            max_range=int(self.data["rules"]["los_max"]),
            levels=False,
            rules={"range": "M2", "obstacle": "M2"},
        )

    def movement_points(self, state: GameState, unit: Unit) -> float:
        return float(self.utype(unit)["mp"])

    def _visible_enemy_at(self, state: GameState, unit: Unit, h: Hex) -> Unit | None:
        for u in state.units_at(h):
            if u.side != unit.side and not (status(u).hidden and state.viewer != u.side):
                return u
        return None

    def move_weight(self, state: GameState, unit: Unit) -> WeightFn:
        mover = self.utype(unit)["mover"]
        # M1: enemy hexes cannot be entered; hidden enemies are not known to block (M4).
        blocked = {u.hex for u in state.iter_units() if u.side != unit.side and not status(u).hidden}

        def weight(a: Hex, b: Hex, edge: Mapping[str, Any]) -> float | None:
            if b in blocked:
                return None
            return self.step_cost(mover, state.board.terrain(b))

        return weight

    def _visible_targets(self, state: GameState, side: str) -> list[Unit]:
        return [u for u in state.iter_units() if u.side != side and not status(u).hidden]

    def _can_fire(self, state: GameState, shooter: Unit, target: Unit) -> str | None:
        """None if shooter may fire at target, else the reason."""
        assert shooter.hex is not None and target.hex is not None
        rng = self.utype(shooter)["range"]
        d = distance(shooter.hex, target.hex)
        if d > rng:
            return f"{target.id} is {d} hexes away, beyond {shooter.id}'s range of {rng} (rule M2)"
        los = line_of_sight(state.board, shooter.hex, target.hex, self.los_policy(state))
        if not los.visible:
            return f"no line of sight from {shooter.id} to {target.id}: {los.reason} (rule M2)"
        return None

    def legal_actions(self, state: GameState) -> list[Action]:
        side = state.to_act
        if side is None:
            return []
        out: list[Action] = []
        reaction = data(state).reaction
        if reaction is not None:
            mover = state.units[reaction.mover]
            for uid in reaction.candidates:
                u = state.units[uid]
                if u.is_on_map and mover.is_on_map and self._can_fire(state, u, mover) is None:
                    out.append(Action("react", (uid, mover.id)))
            out.append(Action("hold"))
            return out
        from engine.pathing import reachable  # noqa: PLC0415

        for u in state.iter_units(side):
            if u.id in data(state).acted:
                continue
            assert u.hex is not None
            for h, r in sorted(
                reachable(state.board, u.hex, self.movement_points(state, u), self.move_weight(state, u)).items()
            ):
                if h != u.hex:
                    out.append(Action("move", (u.id, *(state.board.label(x) for x in r.path[1:]))))
            for t in self._visible_targets(state, side):
                if self._can_fire(state, u, t) is None:
                    out.append(Action("fire", (u.id, t.id)))
        out.append(Action("end"))
        return out

    def parse_action(self, state: GameState, text: str) -> Action:
        action = super().parse_action(state, text)
        arity = {"move": None, "fire": 2, "react": 2, "hold": 0, "end": 0}[action.verb]
        if arity is not None and len(action.args) != arity:
            raise InvalidActionError(f"{action.verb} takes {arity} argument(s): {self.verbs[action.verb]}")
        if action.verb == "move":
            if len(action.args) < 2:
                raise InvalidActionError(f"move needs a unit and at least one hex: {self.verbs['move']}")
            for lab in action.args[1:]:
                try:
                    state.board.parse(lab)
                except ValueError as err:
                    raise InvalidActionError(str(err)) from None
        for uid in action.args[:1] if action.verb == "move" else action.args:
            if uid not in state.units or (
                status(state.units[uid]).hidden and state.viewer not in (None, state.units[uid].side)
            ):
                raise InvalidActionError(f"no unit {uid!r}")
        return action

    def check(self, state: GameState, action: Action) -> None:
        side = state.to_act
        reaction = data(state).reaction
        if reaction is not None and action.verb not in ("react", "hold"):
            raise IllegalActionError(f"{side} must decide on a reaction first: react or hold", "M3")
        if reaction is None and action.verb in ("react", "hold"):
            raise IllegalActionError("there is nothing to react to", "M3")
        if action.verb in ("move", "fire", "react"):
            unit = state.units[action.args[0]]
            if unit.side != side:
                raise IllegalActionError(f"{unit.id} is not a {side} unit", "M1")
            if not unit.is_on_map:
                raise IllegalActionError(f"{unit.id} has been eliminated", "M2")
            if action.verb != "react" and unit.id in data(state).acted:
                raise IllegalActionError(f"{unit.id} has already acted this turn", "M1")
        if action.verb == "move":
            self._check_path(state, state.units[action.args[0]], action.args[1:])
        elif action.verb in ("fire", "react"):
            shooter, target = state.units[action.args[0]], state.units[action.args[1]]
            if target.side == side or not target.is_on_map or status(target).hidden:
                raise IllegalActionError(f"{target.id} is not a visible enemy unit", "M2")
            if action.verb == "react":
                assert reaction is not None
                if shooter.id not in reaction.candidates or target.id != reaction.mover:
                    raise IllegalActionError(f"only units adjacent to {reaction.mover} may react, at it", "M3")
            why = self._can_fire(state, shooter, target)
            if why:
                raise IllegalActionError(f"Cannot fire: {why}")

    def _check_path(self, state: GameState, unit: Unit, labels: tuple[str, ...]) -> None:
        assert unit.hex is not None
        weight = self.move_weight(state, unit)
        spent, here = 0.0, unit.hex
        mp = self.movement_points(state, unit)
        for lab in labels:
            nxt = state.board.parse(lab)
            if distance(here, nxt) != 1:
                raise IllegalActionError(f"{lab} is not adjacent to {state.board.label(here)}", "M1")
            cost = weight(here, nxt, state.board.hexside(here, nxt))
            if cost is None:
                terrain = state.board.terrain(nxt)
                raise IllegalActionError(f"{unit.id} cannot enter {lab} ({terrain} or an enemy unit)", "M1")
            spent += cost
            if spent > mp:
                raise IllegalActionError(f"{unit.id} has {mp:g} MP; reaching {lab} costs {spent:g}", "M1")
            here = nxt

    # --- Odds -------------------------------------------------------------------------------------------

    def _hit_number(self, state: GameState, shooter: Unit, target: Unit) -> tuple[int, list[Modifier]]:
        assert target.hex is not None
        mods = []
        cover = int(self.terrain_classes[state.board.terrain(target.hex)].get("cover", 0))
        if cover:
            mods.append(Modifier(cover, f"target in {state.board.terrain(target.hex)} (M2)"))
        return int(self.utype(shooter)["hit"]) + sum(m.value for m in mods), mods

    def odds(self, state: GameState, action: Action) -> Odds | None:
        if action.verb not in ("fire", "react"):
            return None
        shooter, target = state.units[action.args[0]], state.units[action.args[1]]
        need, _ = self._hit_number(state, shooter, target)
        p_hit = Fraction(max(0, 7 - need), 6) if need <= 6 else Fraction(0)
        return Odds(
            action,
            (OddsEntry("hit", p_hit, 1.0), OddsEntry("miss", 1 - p_hit, 0.0)),
            note=f"1d6 needs {need}",
        )

    # --- Apply ------------------------------------------------------------------------------------------

    def apply(self, tr: Transition, action: Action) -> None:
        st = tr.state
        d = data(st)
        side = st.to_act
        assert side is not None
        if action.verb == "move":
            self._move(tr, st.units[action.args[0]], action.args[1:])
        elif action.verb in ("fire", "react"):
            shooter, target = st.units[action.args[0]], st.units[action.args[1]]
            self._fire(tr, shooter, target)
            if action.verb == "fire":
                d.acted.append(shooter.id)
            else:
                d.reaction = None
                st.to_act, d.resume = d.resume, None
        elif action.verb == "hold":
            tr.emit("reaction", f"{side} holds fire (M3)")
            d.reaction = None
            st.to_act, d.resume = d.resume, None
        elif action.verb == "end":
            tr.emit("end", f"{side} ends the turn (M5)")
            d.ended.append(side)
            d.acted = []
            if len(d.ended) == len(st.sides):
                d.ended = []
                st.turn += 1
                tr.emit("turn", f"turn {st.turn} begins")
                if st.turn > d.turns:
                    self._finish(tr, "the last turn is over")
                    return
            others = st.enemies_of(side)
            st.to_act = others[0]
        self._check_wipeout(tr)

    def _move(self, tr: Transition, unit: Unit, labels: tuple[str, ...]) -> None:
        st = tr.state
        assert unit.hex is not None
        start = unit.hex
        for lab in labels:
            nxt = st.board.parse(lab)
            ambusher = next((u for u in st.units_at(nxt) if u.side != unit.side), None)
            if ambusher is not None:  # only a hidden unit can be here (M4)
                status(ambusher).hidden = False
                tr.reveal()
                tr.emit("reveal", f"{unit.id} bumps into hidden {ambusher.id} at {lab} and stops (M4)")
                break
            unit.hex = nxt
        d = data(st)
        d.acted.append(unit.id)
        tr.emit("move", f"{unit.id} moves {st.board.label(start)} → {st.board.label(unit.hex)}", unit=unit.id)
        adjacent = [
            u.id
            for u in st.iter_units()
            if u.side != unit.side and u.hex is not None and distance(u.hex, unit.hex) == 1
        ]
        if adjacent and not status(unit).hidden:  # a hidden mover is not seen (M4)
            d.reaction = Reaction(unit.id, adjacent)
            d.resume = st.to_act
            st.to_act = st.units[adjacent[0]].side

    def _fire(self, tr: Transition, shooter: Unit, target: Unit) -> None:
        need, mods = self._hit_number(tr.state, shooter, target)
        base = int(self.utype(shooter)["hit"])
        if status(shooter).hidden:
            status(shooter).hidden = False
            tr.reveal()
            tr.emit("reveal", f"{shooter.id} reveals itself by firing (M4)")
        (die,) = tr.roll(6, 1, f"{shooter.id} fires at {target.id}", target=need, modifiers=(), compare="at_least")
        if die >= need:
            target.steps -= 1
            text = f"hit: {target.id} loses a step" + (" and is eliminated" if target.steps == 0 else "")
            if target.steps == 0:
                target.hex = None
            tr.emit("loss", text, unit=target.id, base=base, modifiers=[[m.value, m.reason] for m in mods])
        else:
            tr.emit("miss", f"miss: {target.id} is unharmed")

    def _check_wipeout(self, tr: Transition) -> None:
        st = tr.state
        alive = {s for s in st.sides if any(True for _ in st.iter_units(s))}
        if len(alive) < len(st.sides):
            self._finish(tr, "a side has no units left")

    def _finish(self, tr: Transition, why: str) -> None:
        st = tr.state
        objective = data(st).objective
        holder = None
        if objective is not None:
            holders = {u.side for u in st.units_at(objective)}
            holder = holders.pop() if len(holders) == 1 else None
        if holder:
            assert objective is not None
            st.outcome = Outcome(holder, f"{why}; {holder} holds {st.board.label(objective)} (M5)")
        else:
            steps = {s: sum(u.steps for u in st.iter_units(s)) for s in st.sides}
            best = max(steps.values())
            leaders = [s for s, v in steps.items() if v == best]
            if len(leaders) == 1:
                st.outcome = Outcome(leaders[0], f"{why}; {leaders[0]} has more steps left (M5)")
            else:
                st.outcome = Outcome("draw", f"{why}; equal steps (M5)")
        st.to_act = None
        st.phase = "over"
        tr.emit("outcome", f"game over: {st.outcome.reason}")

    def view(self, state: GameState, side: str) -> GameState:
        v = super().view(state, side)
        for uid in [uid for uid, u in v.units.items() if u.side != side and status(u).hidden]:
            del v.units[uid]
        return v


RULESET = MiniRules()
