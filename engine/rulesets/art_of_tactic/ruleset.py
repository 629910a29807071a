"""Provides the Art of Tactic ruleset class: setup from a scenario, secret planning, execution, views, odds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from engine.actions import Action, parse_notation
from engine.board import Board
from engine.contract import CHOOSE, PLAN, Question, Switch, Waiting
from engine.dice import DiceSource
from engine.errors import IllegalActionError, InvalidActionError, Problem
from engine.hexgrid import DIRECTIONS, Hex
from engine.los import LosPolicy
from engine.notation import Notation
from engine.odds import Odds
from engine.rules import Ruleset, Transition
from engine.scenario import Scenario
from engine.state import GameState, Unit

from . import decisions, execution, orders, purchase
from .combat import fire_odds, ranged_attack
from .concealment import hide_concealed
from .data import Tables, load_tables
from .evaluation import evaluate, goals, score_action
from .forces import can_stand
from .gamedata import AotData, data
from .model import asks, card, has_field_of_fire, is_on_board, smoke, visible_enemy
from .movement import Obstacles, obstacles, step_rule
from .notation import NOTATIONS, CancelOrder, Choose, Commit, Fire, Prompts, Suppress
from .records import AotStatus, Order, status
from .setup import check_scenario, initial_state
from .sight import AotLosPolicy, los_policy

__all__ = ["ArtOfTactic"]


class ArtOfTactic(Ruleset):
    """Art of Tactic: Barbarossa 1941. Secret orders for both sides, then 12 execution steps."""

    id = "art_of_tactic"
    title = "Art of Tactic — Barbarossa 1941"
    version = "2"
    """2: typed state and the Execution Phase as a cursor (a save of version 1 paused in execution holds a snapshot
    of the round's start instead: saves rebuild its position by replaying the history)."""
    verbs: ClassVar[Mapping[str, str]] = {**orders.VERBS, **purchase.SETUP_VERBS, **decisions.VERBS}
    notations = NOTATIONS
    modes = frozenset({PLAN, CHOOSE})
    state_type: ClassVar[type[AotData]] = AotData
    status_type: ClassVar[type[AotStatus]] = AotStatus
    default_setup_verb: ClassVar[str | None] = "default"
    scenario_keys = frozenset({"control", "structures", "purchase", "ai"})

    @cached_property
    def tables(self) -> Tables:
        """Every table of ``data/*.toml``, checked."""
        return load_tables()

    @cached_property
    def unit_types(self) -> dict[str, dict[str, Any]]:
        """The roster (``units.toml``) and the generic cards of 12.5 (``generic_aircraft.toml``)."""
        return {
            **dict(self.data.get("units", {}).get("types", {})),
            **dict(self.data.get("generic_aircraft", {}).get("types", {})),
        }

    @cached_property
    def policy(self) -> AotLosPolicy:
        """The exact line of sight of 5.4."""
        return los_policy(self.tables)

    def has_fof(self, u: Unit) -> bool:
        """5.5: a field of fire printed on the card or granted by Defend, with a facing set."""
        return has_field_of_fire(self.tables, u)

    def smoke(self, st: GameState) -> frozenset[Hex]:
        """Hexes with smoke markers (3.9)."""
        return smoke(st)

    def obstacles(self, st: GameState) -> Obstacles:
        """Wire, dragon's teeth, destroyed bridges, smoke, cleared paths and pontoons as they stand (9.18, 3.9)."""
        return obstacles(st)

    # --- Scenario checks --------------------------------------------------------------------------------

    def can_stand(self, unit_type: str, terrain_class: str) -> bool:
        """A unit may be set up where it could enter (4.8); bridges and roads are checked by ``can_reach``."""
        return can_stand(self.tables, unit_type, terrain_class)

    def can_reach(self, board: Board, unit_type: str, start: Any, goal: Any) -> bool:
        """Whether a unit could ever walk there with Cautious movement (4.8; aircraft reach anywhere)."""
        c = self.tables.units[unit_type]
        if c.type == "AIR":
            return True

        def ok(u: Hex, v: Hex) -> bool:
            return step_rule(self.tables, board, c.move_as, u, v, "cautious").allowed

        seen, todo = {start}, [start]
        while todo:
            h = todo.pop()
            if h == goal:
                return True
            for n in board.graph.neighbors(h):
                if n not in seen and ok(h, n):
                    seen.add(n)
                    todo.append(n)
        return False

    def validate_scenario(self, scenario: Scenario) -> list[Problem]:
        return check_scenario(self, scenario)

    # --- Play -------------------------------------------------------------------------------------------

    def setup(self, scenario: Scenario, board: Board, dice: DiceSource) -> GameState:
        return initial_state(self, scenario, board, dice)

    def begin(self, tr: Transition) -> None:
        if tr.state.phase == "setup":
            purchase.start_setup(self, tr)  # 11.6: the purchase and secret set-up come first
            return
        execution.start_round(self, tr)

    def setup_offered(self, state: GameState) -> bool:
        """``default`` (the scenario file's purchase and set-up, 11.6) is offered only during the set-up."""
        return state.phase == "setup"

    def legal_actions(self, state: GameState) -> list[Action]:
        if state.to_act is None or state.outcome is not None:
            return []
        if state.phase == "setup":
            return list(purchase.setup_actions(self, state))
        if state.phase == "execution":
            return decisions.decision_actions(state)  # 15.2: execution waits for a side's choice
        return list(orders.iter_orders(self, state))

    def check(self, state: GameState, action: Action) -> None:
        if state.to_act is None or state.outcome is not None:
            raise IllegalActionError("the game is over", "2.1")
        if state.phase == "setup":
            purchase.check_setup(self, state, self.read(state, action))
            return
        if action.verb in purchase.SETUP_VERBS:
            raise IllegalActionError(f"{action.verb}: purchases and set-up come before Round 1 (rule 11.6)", "11.6")
        if action.verb == "choose" or decisions.pending(state) is not None:
            decisions.check_decision(state, action)  # 15.2: decisions during execution
            return
        if action.verb == "prompts":
            decisions.check_prompts(state, action)
            return
        if state.phase != "planning":
            raise IllegalActionError("the game is over", "2.1")
        if action.verb not in orders.VERBS:
            raise IllegalActionError(f"unknown order {action.verb!r}", "3.5")
        orders.check_order(self, state, self.read(state, action))

    def apply(self, tr: Transition, action: Action) -> None:
        st = tr.state
        typed = self.read(st, action)
        if st.phase == "setup":
            purchase.apply_setup(self, tr, typed)
        elif isinstance(typed, Choose):
            execution.resume(self, tr, typed.option)  # 15.2: the answer, then execution goes on
        elif isinstance(typed, Prompts):
            decisions.apply_prompts(tr, typed.switch == "on")
        elif isinstance(typed, Commit):
            self._commit(tr)
        else:
            self._write(tr, typed, str(action))

    def _commit(self, tr: Transition) -> None:
        """2.3: the side's orders are final; the second commit reveals them and runs the Execution Phase (2.4–2.9),
        pausing at the decisions of a side that asks (15.2)."""
        st = tr.state
        side = st.to_act
        assert side is not None
        d = data(st)
        d.orders.setdefault(side, {})
        d.committed.append(side)
        tr.emit("commit", f"{side} has given its orders", side=side)
        rest = [s for s in self.tables.sides if s in st.sides and s not in d.committed]
        if rest:
            st.to_act = rest[0]
            return
        execution.execute(self, tr)

    def _write(self, tr: Transition, typed: Notation, notation: str) -> None:
        """2.3: an order written on the unit's card (secret), or taken back."""
        st = tr.state
        side = st.to_act
        assert side is not None
        sheet = data(st).orders.setdefault(side, {})
        uid: str = getattr(typed, "unit")  # noqa: B009 - every order names its unit first
        if isinstance(typed, CancelOrder):
            sheet.pop(uid)
            tr.emit("order", f"order of {uid} cancelled", visible_to=[side], unit=uid)
            return
        sheet[uid] = orders.record(typed, notation)
        tr.emit("order", f"order: {notation}", visible_to=[side], unit=uid)

    def parse_action(self, state: GameState, text: str) -> Action:
        a = parse_notation(text)
        if a.verb in decisions.VERBS:
            if len(a.args) != 1:
                raise InvalidActionError(f"{a.verb}: one argument; usage: {decisions.VERBS[a.verb]}")
            return a
        if a.verb in purchase.SETUP_VERBS:
            return purchase.parse_setup(self, state, a)
        if state.phase == "setup" and a.verb in orders.VERBS:
            return a  # check refuses it: orders wait for Round 1 (11.6)
        return orders.parse(self, state, text)

    def describe(self, state: GameState, action: Action) -> str:
        return str(action)

    def waiting(self, state: GameState, legal: Sequence[Action] | None = None) -> Waiting:
        """Set-up (11.6) and planning (2.3) are secret: each side writes its orders per unit (planning) or picks
        its purchases from a list; execution asks a side's choices on the shared screen (15.2)."""
        side = None if state.outcome is not None else state.to_act
        if side is None:
            return Waiting(None)
        if state.phase == "planning":
            switches: tuple[Switch, ...] = ()
            if state.viewer == side:
                on = asks(state, side)
                switches = (
                    Switch(
                        "decide during execution",
                        "planning: decide during execution yourself (on) or let the preset policies decide (off, "
                        "the default); free and secret (15.2)",
                        on,
                        Action("prompts", ("off" if on else "on",)),
                    ),
                )
            return Waiting(side, PLAN, secret=True, switches=switches)
        cursor = data(state).execution
        got = cursor.pending if cursor is not None else None
        if cursor is not None and got is not None:
            options = tuple((Action("choose", (k,)), label) for k, label in got.options)
            question = Question(got.side, got.question, options, got.rule, cursor.answered)
            return Waiting(side, CHOOSE, question=question)
        return Waiting(side, CHOOSE, secret=state.phase == "setup")

    def explain(self, state: GameState, action: Action) -> str:
        head = {**orders.VERBS, **decisions.VERBS}.get(action.verb, "").split(":", 1)
        what = head[1].strip() if len(head) > 1 else ""
        return f"{action} — {what}" if what else str(action)

    def odds(self, state: GameState, action: Action) -> Odds | None:
        """Exact loss odds of an Open Fire or Suppression Fire order against its target as things stand."""
        if action.verb not in ("fire", "suppress"):
            return None
        try:
            typed = self.read(state, action)
        except InvalidActionError:
            return None
        if not isinstance(typed, (Fire, Suppress)) or isinstance(typed.target, Hex):
            return None
        u, t = state.units.get(typed.unit), state.units.get(typed.target)
        if u is None or t is None or not is_on_board(u) or not is_on_board(t):
            return None
        if t.side != u.side and not visible_enemy(state, t):
            return None  # 3.11, 9.11: a hidden unit or a concealed HQ (unidentified in a view) is no target
        attack, _, _ = ranged_attack(self, state, u, t, action.verb, action.verb)
        if attack is None:
            return None
        return fire_odds(self, state, action, attack, t)

    def view(self, state: GameState, side: str) -> GameState:
        """2.3, 15.1: the other side's orders stay secret until the reveal; the dice are hidden."""
        v = super().view(state, side)
        purchase.hide_setup(self, v, side)  # 11.6, 15.1: the other side's purchase and set-up
        d = data(v)
        d.orders = {s: (o if s == side else {}) for s, o in d.orders.items()}
        # 9.6: the other side's minefields stay secret until revealed.
        d.minefields = {h: f for h, f in d.minefields.items() if f.owner == side or f.revealed}
        # 15.1: an enemy engineer's mines (its real minefield left, the kind being laid) are its owner's secret.
        for u in v.units.values():
            if u.side != side:
                s = status(u)
                s.mines = False
                if s.ongoing is not None:
                    s.ongoing.mine = None
        # 3.11 PROPOSED, 15.1: of an enemy's revealed Ambush the opponent knows only "unit N: Ambush" (no hex,
        # facing, range or 15.2 policy).
        if d.active is not None:
            for uid, o in d.active.items():
                owner = v.units.get(uid)
                if o.kind == "ambush" and owner is not None and owner.side != side:
                    d.active[uid] = Order("ambush", f"{uid}: Ambush")
        # 3.11: hidden enemy units are off the board for the opponent; "last seen" markers stay public.
        for u in v.units.values():
            if u.side != side and status(u).hidden:
                u.hex = None
                u.status = AotStatus(hidden=True)
        # 9.11, 15.1: a concealed enemy HQ is an unidentified unit in its hex; nothing in the view names it.
        decisions.hide_decisions(v, side)  # 15.1, 15.2: none of the cursor's frames, not the other side's switch
        hide_concealed(self, state, v, side)
        return v

    # --- Maps -------------------------------------------------------------------------------------------

    def los_policy(self, state: GameState) -> LosPolicy:
        return self.policy

    def movement_points(self, state: GameState, unit: Unit) -> float:
        c = card(self.tables, unit)
        return float(c.order("cautious", "range"))

    def facing_label(self, state: GameState, unit: Unit) -> str | None:
        """The hex the unit faces (for displays), or None."""
        f = status(unit).facing
        if f is None or unit.hex is None:
            return None
        h = unit.hex + DIRECTIONS[f]
        return state.board.label(h) if h in state.board.cells else None

    # --- AI ---------------------------------------------------------------------------------------------

    def evaluate(self, state: GameState, side: str) -> float:
        """The position for ``side`` with its own planned orders valued (``evaluation.py``, DESIGN §7)."""
        return evaluate(self, state, side)

    def ai_score(self, state: GameState, action: Action, side: str) -> float | None:
        """While planning, an order is valued by the evaluation with the order on the sheet (``evaluation.py``):
        its fire odds against what it shoots at, where the unit will stand; None otherwise (set-up)."""
        return score_action(self, state, action, side)

    def ai_goals(self, state: GameState, side: str) -> list[Hex]:
        """The victory hexes (11.2) the side does not control yet (all of them once it holds every one)."""
        return goals(self, state, side)

    def ai_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """The AI gives every unit that can take one an order (``hold`` included), never takes one back, and
        commits when none is left (2.3), so planning always ends. Of each unit's Open fire and Suppression fire
        orders it weighs the two with the best exact odds, so that its moves are weighed too."""
        if any(a.verb == "choose" for a in actions):
            return actions[:1]  # 15.2: the AI keeps the preset policies (the first option)
        give = [a for a in actions if a.verb not in ("cancel", "commit", "prompts")]
        if not give:
            return [a for a in actions if a.verb == "commit"] or actions
        fire: dict[str, list[Action]] = {}
        for a in give:
            if a.verb in ("fire", "suppress") and len(a.args) == 2 and a.args[1] in state.units:
                fire.setdefault(a.args[0], []).append(a)

        def expected(a: Action) -> float:
            o = self.odds(state, a)
            return o.expected if o is not None else 0.0

        drop: set[Action] = set()
        for acts in fire.values():
            if len(acts) > 2:
                drop.update(sorted(acts, key=lambda a: -expected(a))[2:])
        return [a for a in give if a not in drop] if drop else give
