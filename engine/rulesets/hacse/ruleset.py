"""Provides :class:`Hacse`, the HACSE ruleset class: setup from a scenario, the turn sequence of 3.2 as far as
movement goes, and the movement of 4.1–4.4 with facing (2.2), dispatching to the modules under it.

Not registered by the package yet (see ``__init__``): tests register it with ``engine.register_ruleset``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from engine.actions import Action
from engine.board import Board
from engine.dice import DiceSource
from engine.errors import IllegalActionError, InvalidActionError, Problem
from engine.hexgrid import Hex
from engine.los import LosPolicy
from engine.odds import Odds
from engine.pathing import WeightFn
from engine.rules import Ruleset, Transition
from engine.specs import Scenario
from engine.state import GameState, Unit

from . import aiming, attack, obstacles, options, shelling, sighting
from .activation import apply_action, refusal, side_actions, speed
from .ai_shell import ai_shells, shell_bonus
from .bridges import road_between, terrain_of
from .bunkers import visible_to
from .cache import applying, checking, listing
from .campaign import carried_steps
from .closecombat import physical_odds, ram_net
from .data import MAX, PROHIBITED, Tables, load_tables
from .deployment import begin
from .evaluation import ai_actions, evaluate, fire_score, goals
from .geometry import arc_outline
from .hidden import withhold
from .model import Data, Status, data, status
from .movement import CLIMB, limit, step_cost
from .notation import NOTATIONS, VERBS, Fire
from .setup import build_state, can_stand, check_scenario

__all__ = ["Hacse"]


class Hacse(Ruleset):
    """HACSE: squads, guns and vehicles with facing, 2d10 (digest ``shared/rules/hacse.md``); movement so far."""

    id = "hacse"
    title = "HACSE (land combat, squads and vehicles)"
    version = "1"
    notations = NOTATIONS
    verbs: ClassVar[Mapping[str, str]] = VERBS
    state_type: ClassVar[type[Data]] = Data
    status_type: ClassVar[type[Status]] = Status
    scenario_keys = frozenset({"setup", "fortifications", "conditions", "special", "ai"})
    default_setup_verb: ClassVar[str | None] = "deploy"

    @cached_property
    def tables(self) -> Tables:
        """The data tables (``data/*.toml``), read and checked."""
        return load_tables()

    # --- Scenario ---------------------------------------------------------------------------------------

    def can_stand(self, unit_type: str, terrain_class: str) -> bool:
        return can_stand(self.tables, unit_type, terrain_class)

    def validate_scenario(self, scenario: Scenario) -> list[Problem]:
        return check_scenario(scenario, self.tables)

    def setup(self, scenario: Scenario, board: Board, dice: DiceSource) -> GameState:
        return build_state(self.id, scenario, board, dice, self.tables)

    def begin(self, tr: Transition) -> None:
        begin(tr, self.tables)
        withhold(tr)  # 13.2

    def carried_steps(self, unit: Unit) -> int:
        return carried_steps(unit, self.tables.sheets[unit.type])  # campaigns (campaign.py)

    def setup_offered(self, state: GameState) -> bool:
        return state.phase == "setup"

    # --- Decisions --------------------------------------------------------------------------------------

    def legal_actions(self, state: GameState) -> list[Action]:
        with listing(state):  # what the listing finds once is kept until it ends (cache.py, DESIGN §11)
            return side_actions(state, self.tables)

    def check(self, state: GameState, action: Action) -> None:
        with checking(state):  # what the check finds is handed on to the apply that follows (cache.py, DESIGN §11)
            why = refusal(state, self.tables, self.read(state, action))
        if why is not None:
            raise IllegalActionError(why.text, why.rule)

    def odds(self, state: GameState, action: Action) -> Odds | None:
        """A shot's hit chance with each modifier, then penetration and damage (6.3, 8; ``fire.shot_odds``); with
        the options of 11 and for indirect fire (7) in the Fire Phase (``options.odds``); a ram's or a close-combat
        attack's with the morale roll it needs first (12, 9.3; ``closecombat.physical_odds``)."""
        if action.verb in ("ram", "assault"):
            return physical_odds(state, self.tables, action)
        if action.verb != "fire":
            return None
        try:
            typed = self.read(state, action)
        except InvalidActionError:
            return None
        if state.phase == "attack" and data(state).opp_mover is None and isinstance(typed, Fire):
            order = options.order(typed)
            if obstacles.is_obstacle_order(state, order):  # 13.6: aimed at AT obstacles
                return obstacles.odds(state, self.tables, action, order)
            return options.odds(state, self.tables, action, order)
        return attack.odds(state, self.tables, action) if len(action.args) == 3 else None

    def apply(self, tr: Transition, action: Action) -> None:
        with applying(tr.state):
            apply_action(tr, self.tables, self.read(tr.state, action))
        withhold(tr)  # 13.2: no line of the other side names a hidden unit

    def view(self, state: GameState, side: str) -> GameState:
        """The side's view: hidden enemy units and the enemy's secret mines removed (13.2, 13.4)."""
        v = super().view(state, side)
        for uid in [uid for uid, u in v.units.items() if u.side != side and status(u).hidden]:
            del v.units[uid]
        d = data(v)
        d.mines = [m for m in d.mines if m.side == side or not m.secret]
        d.bunkers = [b for b in d.bunkers if visible_to(state, b, side)]  # 13.2: hidden bunkers
        if d.active is not None and d.active not in v.units:
            d.active = None  # the other side learns only that a hidden unit is activated (3.2)
        if d.shelling and d.shelling[0] not in v.units:
            d.shelling = []  # 13.2: nor which hidden unit is to shell (7.4, shelling.py)
        if d.aiming and d.aiming not in v.units:
            d.aiming = ""  # 13.2: nor which hidden unit aims its searchlight (6.1 P, aiming.py)
        return v

    # --- Maps -------------------------------------------------------------------------------------------

    def los_policy(self, state: GameState) -> LosPolicy:
        """Higher ground and buildings block (6.2; not rubble, 4.9); other terrain is weighed by
        ``sighting.sight_line``."""
        return sighting.los_policy_now(state, self.tables)

    def movement_points(self, state: GameState, unit: Unit) -> float:
        """MP left this turn: of the road MP once the move has taken road steps and keeps to the road, else of the
        MP (4.2)."""
        mp, road_mp = speed(state, self.tables, unit)
        s = status(unit)
        allowance = limit(self.tables, mp, road_mp, s.off_road, s.hexes - s.off_road)
        return 0.0 if s.max_move or s.activated else max(0.0, allowance - s.half_mp / 2)

    def move_weight(self, state: GameState, unit: Unit) -> WeightFn:
        """Pathing weights: the cost of 4.3 for the unit's movement class (a whole-move step weighs its MP)."""
        tables, board = self.tables, state.board
        sheet = tables.sheets[unit.type]

        def weight(a: Hex, b: Hex, edge: Mapping[str, Any]) -> float | None:
            cost = step_cost(
                tables,
                sheet.move_class,
                terrain_of(state, tables, b),
                level_change=board.level(b) - board.level(a),
                road="roads" in edge and road_between(state, a, b),
            )
            if cost in (PROHIBITED, CLIMB):
                return None
            return float(sheet.mp) if cost == MAX else float(cost)

        return weight

    def evaluate(self, state: GameState, side: str) -> float:
        """The AI's position evaluation (``evaluation.py``): victory points (15.9), material by condition,
        objectives, facing toward the seen enemy (2.2); it reads only the view it is given."""
        return evaluate(self.tables, state, side)

    def ai_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """All but the pointless: hooking up a vehicle that can drive itself (``evaluation.ai_actions``); of 7.4's
        ``shell``, only harassing fire by a unit with nothing else to fire at, at one chosen hex (``ai_shell.py``)."""
        # 7.4 in two steps: harassing fire by units with nothing to fire at (ai_shell.py); no searchlight's aim
        return ai_shells(self.tables, state, ai_actions(self.tables, state, actions))

    def ai_score(self, state: GameState, action: Action, side: str) -> float | None:
        """A ``shell``: the position plus ``shell`` of ``ai.toml`` (``ai_shell.py``). A ram at a unit: the position
        plus the ram's expected damage less the rammer's (``closecombat.ram_net``). A fire by a hidden unit: the
        position with the firer revealed (13.2) plus the shot's expected value
        (``evaluation.fire_score``); None otherwise (the planner's own scores)."""
        if action.verb == "shell":  # 7.4: the aim taken, worth a little more than ceasing fire (ai_shell.py)
            return self.evaluate(state, side) + shell_bonus(state, side)
        if action.verb == "ram":  # 12.1: a ram's damage to the rammer counts against it
            odds = self.odds(state, action)
            net = ram_net(state, self.tables, action, odds) if odds is not None else None
            return None if net is None else self.evaluate(state, side) + net
        if action.verb != "fire":
            return None
        firer = state.units.get(str(action.args[0])) if action.args else None
        if firer is None or not status(firer).hidden:
            return None
        odds = self.odds(state, action)
        return fire_score(self.tables, state, action, side, odds.expected if odds is not None else 0.0)

    def ai_goals(self, state: GameState, side: str) -> list[Hex]:
        """The objective hexes the side does not control (15.9); all of them when it controls every one."""
        return goals(state, side)

    def describe(self, state: GameState, action: Action) -> str:
        return str(action)

    def explain(self, state: GameState, action: Action) -> str:
        return self.describe(state, action)

    def overlays(
        self, view: GameState, side: str, unit_id: str | None = None, history: Sequence[Action] = ()
    ) -> dict[str, set[Hex]]:
        """``objective``: the objective hexes (15.9); ``front_arc``: with a gun or vehicle of the side selected, the
        outline of its front arc (2.2: |θ| ≤ 30°, where its front armour faces and its front-arc weapons fire), out
        to the longest range of those weapons (6 hexes when it has none, at most 10); ``shell``: while the side
        chooses the hex of a ``shell``, the hexes it may choose (7.4); ``light``: while it aims a searchlight, the
        hexes it may light (6.1 P)."""
        out = {"objective": set(data(view).points)}
        unit = view.units.get(unit_id) if unit_id is not None else None
        if unit is not None and unit.side == side and unit.hex is not None and status(unit).facing is not None:
            out["front_arc"] = self._front_arc(view, unit)
        if data(view).shelling and view.to_act == side:  # 7.4: where the aim taken may fall (shelling.py)
            with listing(view):
                out["shell"] = shelling.hexes(view, self.tables)
        if data(view).aiming and view.to_act == side:  # 6.1 P: where the searchlight being aimed may shine
            out["light"] = aiming.hexes(view, self.tables)
        return out

    def _front_arc(self, view: GameState, unit: Unit) -> set[Hex]:
        assert unit.hex is not None and status(unit).facing is not None
        sheet = self.tables.sheets[unit.type]
        ranges = [self.tables.weapons[m.weapon].max_range for m in sheet.mounts if m.arc == "front"]
        reach = min(10, max(ranges, default=6))
        return {h for h in arc_outline(unit.hex, status(unit).facing or 0, "front", reach) if h in view.board}
