"""Provides the Blitzkrieg 1940 ruleset class: setup from a scenario, dispatch of decisions, queries."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import ClassVar

from engine.actions import Action
from engine.board import Board
from engine.contract import Waiting
from engine.dice import DiceSource
from engine.errors import IllegalActionError, InvalidActionError, Problem
from engine.hexgrid import Hex
from engine.los import LosPolicy
from engine.notation import Notation
from engine.odds import Odds
from engine.pathing import WeightFn
from engine.rules import Ruleset, Transition
from engine.scenario import Scenario
from engine.state import GameState, Outcome, Unit
from engine.typed import from_plain

from . import actions, closecombat, deployment, sequence, verbs
from .chances import explain, odds
from .data import Tables, load_tables, raw_table
from .evaluation import evaluate, goals
from .frames import advance, handler
from .model import (
    Chit,
    CloseCombatFrame,
    Data,
    DeployFrame,
    Formation,
    Status,
    WindowFrame,
    data,
    formation,
    formation_units,
    frame,
    new_data,
    new_formation,
    new_player,
    status,
)
from .notation import NOTATIONS
from .overlays import overlays
from .setup import check_keys, check_setup, scenario_consistency
from .sight import SightRules, los_policy
from .victory import victory_check

__all__ = ["Blitzkrieg1940"]


class Blitzkrieg1940(Ruleset):
    """Blitzkrieg 1940 (Hannut, Stonne): company level, chit-pull formation activation, 2d6."""

    id = "blitzkrieg1940"
    title = "Blitzkrieg 1940 — Hannut & Stonne"
    version = "2"
    verbs: ClassVar[Mapping[str, str]] = {**verbs.SETUP, **verbs.SEQUENCE, **verbs.UNIT}
    notations = NOTATIONS
    default_setup_verb: ClassVar[str | None] = "default"
    scenario_keys = frozenset({"chits", "schedule", "zones", "markers", "special"})

    state_type: ClassVar[type[Data]] = Data
    status_type: ClassVar[type[Status]] = Status

    @cached_property
    def tables(self) -> Tables:
        """Every rule table of ``data/*.toml``."""
        return load_tables()

    @cached_property
    def sight_rules(self) -> SightRules:
        """Line-of-sight and visibility values (4.1)."""
        return SightRules.from_data(raw_table("visibility"))

    # --- Scenario checks --------------------------------------------------------------------------------

    def can_stand(self, unit_type: str, terrain_class: str) -> bool:
        """7.3 [P]: a unit may be set up only where it could move (no wheeled unit in woods)."""
        t = self.tables.units[unit_type]
        if t.category == "hq":
            return True
        return self.tables.terrain.classes[terrain_class].entry_cost(t.move_class) is not None

    def validate_scenario(self, scenario: Scenario) -> list[Problem]:
        """The hex lists and numbers of the Blitzkrieg keys (12, 13.9), then formations, chits and setup checked
        against the rule tables (12, 13.7). Where a key is malformed, a later check that trips over it adds
        nothing: the key's problem says what is wrong."""
        board = Board(scenario.map, self.terrain_codes)
        keys = check_keys(scenario, board)
        try:
            return [*keys, *check_setup(scenario, self.tables, board), *scenario_consistency(scenario, self.tables)]
        except Exception:
            if keys:
                return keys
            raise

    # --- Setup ------------------------------------------------------------------------------------------

    def setup(self, scenario: Scenario, board: Board, dice: DiceSource) -> GameState:
        """The state before the first decision: units placed, formations, chits, markers (12)."""
        raw = scenario.raw
        units = self._units(scenario, board)
        formations: dict[str, Formation] = {}
        chits: dict[str, Chit] = {}
        for f in raw.get("formations", []):
            fid = f["id"]
            ff = int(f.get("ff", self.tables.formations[fid].ff if fid in self.tables.formations else 8))
            name = f.get("name") or (self.tables.formations[fid].name if fid in self.tables.formations else fid)
            rec = new_formation(f["side"], name, f.get("hq"), ff, bool(f.get("independent", False)), f.get("leaves"))
            members = [u for u in units.values() if u.formation == fid and u.id != rec.hq]
            rec.steps_total = sum(self.tables.units[u.type].steps for u in members)
            rec.steps_lost = sum(self.tables.units[u.type].steps - u.steps for u in members if u.hex is not None)
            rec.steps_lost += int(f.get("setup_step_losses", 0))
            rec.steps_total += int(f.get("setup_step_losses", 0))
            formations[fid] = rec
            if f.get("chit", True):
                chits[fid] = Chit("formation", f["side"], int(f.get("arrives", 1)), formation=fid)
        for c in raw.get("chits", []):
            for n in range(1, int(c.get("count", 1)) + 1):
                cid = f"{c['side'][:3]}-{c['kind']}-{int(c.get('turn', 1))}-{n}"
                salvos = tuple(c["salvos"]) if "salvos" in c else None
                chits[cid] = Chit(c["kind"], c["side"], int(c.get("turn", 1)), salvos=salvos)
        mines: dict[str, str] = {}
        forts: list[str] = []
        for m in raw.get("markers", []):
            for label in str(m["hex"]).split():
                if m["kind"] == "minefield":
                    mines[label] = m.get("side", "french")
                elif m["kind"] == "fortification":
                    forts.append(label)
        special = dict(raw.get("special", {}))
        victory = dict(raw.get("victory", {}))
        held_by: dict[str, str] = {}
        holder = special.get("initial_holder")
        for key in ("objectives", "hexes"):
            for label in str(victory.get(key, "")).split():
                if holder:
                    held_by[label] = holder
        state_data = new_data(
            scenario=scenario.id,
            turns=scenario.turns,
            formations=formations,
            chits=chits,
            players={s: new_player() for s in scenario.side_ids()},
            mines=mines,
            forts=sorted(forts),
            held_by=held_by,
            victory=victory,
            special=special,
            edges={
                s.id: dict(raw_side).get("edge")
                for s, raw_side in zip(scenario.sides, raw.get("sides", []), strict=False)
            },
        )
        state_data.schedule = list(raw.get("schedule", []))
        state = GameState(
            ruleset=self.id,
            scenario=scenario.id,
            sides=scenario.side_ids(),
            board=board,
            units=units,
            turn=1,
            phase="setup",
            to_act=scenario.first,
            data=state_data,
            dice=dice,
        )
        deployment.prepare_deployment(state, raw)  # 2.9, 12.1, 12.2: the players set up
        return state

    def _units(self, scenario: Scenario, board: Board) -> dict[str, Unit]:
        """The scenario's units with their status records; 12.1: a company set up mounted rides its APC (status
        ``mounted_on`` in the scenario)."""
        units: dict[str, Unit] = {}
        mounted: dict[str, str] = {}
        for spec in scenario.units:
            t = self.tables.units[spec.type]
            plain = dict(spec.status)
            apc = plain.pop("mounted_on", None)
            if apc:
                mounted[spec.id] = str(apc)
            if (spec.arrives is not None and spec.arrives > 1) or spec.hex is None:
                plain["arrives"] = spec.arrives or 1
                plain["entry"] = [board.label(h) for h in spec.entry]
            st = from_plain(Status, plain, where=f"units[{spec.id!r}].status")
            steps = spec.steps if spec.steps is not None else t.steps
            units[spec.id] = Unit(spec.id, spec.type, spec.side, spec.hex, steps, spec.formation, st)
        for uid, apc in mounted.items():
            if apc in units:
                status(units[uid]).carried_by = apc
                status(units[apc]).carrying = uid
        return units

    def begin(self, tr: Transition) -> None:
        if not deployment.open_deployment(self, tr):
            sequence.begin_game(self, tr)
        advance(self, tr)

    def setup_offered(self, state: GameState) -> bool:
        # Blitzkrieg 12: ``default`` is offered only at the start of a set-up step.
        f = frame(state)
        return isinstance(f, DeployFrame) and f.fresh

    # --- Decisions --------------------------------------------------------------------------------------

    def legal_actions(self, state: GameState) -> list[Action]:
        f = frame(state)
        if f is None or state.outcome is not None:
            return []
        return handler(f).actions(self, state, f)

    def check(self, state: GameState, action: Action) -> None:
        f = frame(state)
        if f is None:
            raise IllegalActionError("nobody is to decide now")
        handler(f).check(self, state, f, action, self.read(state, action))

    def apply(self, tr: Transition, action: Action) -> None:
        f = frame(tr.state)
        assert f is not None
        handler(f).apply(self, tr, f, self.read(tr.state, action))
        advance(self, tr)

    def waiting(self, state: GameState, legal: Sequence[Action] | None = None) -> Waiting:
        """Set-up (12) and a formation's activation (6) are given on the map; chits, reactions, results and close
        combat choices from a list (the frame's handler says which)."""
        f = frame(state)
        side = None if state.outcome is not None else state.to_act
        if f is None or side is None:
            return Waiting(side)
        actions_now = self.legal_actions(state) if legal is None else legal
        mode = handler(f).mode(self, state, f, actions_now)
        if isinstance(f, WindowFrame):
            # 6.3.3: a unit may retreat from a moving enemy it sees, one that moves next to it, or after being
            # fired at; a barrage's window offers the retreats of the units in its hexes (6.3.4).
            react_to = tuple(u for u in (f.active, *(f.group or ())) if u)
            struck = [f.fired_at] if f.fired_at else []
            if not react_to:
                where = {u.id: u.hex for u in state.units.values() if u.side == side}
                struck += sorted(u for u, h in where.items() if h is not None and state.board.label(h) in f.hexes)
            hit = tuple(dict.fromkeys(struck))
            return Waiting(side, mode, react_to=react_to, struck=hit, hurt=tuple(f.hurt or ()))
        if isinstance(f, CloseCombatFrame) and (window := closecombat.voluntary_window(state, f)) is not None:
            # 9.1.5 / 6.3.3: the voluntary retreats after a round are the side's retreat reactions.
            return Waiting(side, mode, react_to=window[0], struck=window[1], hurt=window[2])
        return Waiting(side, mode, usual=handler(f).usual(self, state, f, actions_now))

    def explain(self, state: GameState, action: Action) -> str:
        return explain(self, state, action, self._typed(state, action))

    def odds(self, state: GameState, action: Action) -> Odds | None:
        typed = self._typed(state, action)
        return None if typed is None else odds(self, state, action, typed)

    def _typed(self, state: GameState, action: Action) -> Notation | None:
        """The action read into its notation, or None if it does not read (a query answers nothing then)."""
        try:
            return self.read(state, action)
        except InvalidActionError:
            return None

    def view(self, state: GameState, side: str) -> GameState:
        """Blitzkrieg hides nothing but the dice: both players see the whole map, the piles and the cup's
        contents (which follow from the public chit lists anyway)."""
        return super().view(state, side)

    # --- Maps -------------------------------------------------------------------------------------------

    def los_policy(self, state: GameState) -> LosPolicy:
        return los_policy(self.sight_rules)

    def movement_points(self, state: GameState, unit: Unit) -> float:
        return actions.movement_points(self, state, unit)

    def move_weight(self, state: GameState, unit: Unit) -> WeightFn:
        return actions.move_weight(self, state, unit)

    # --- Hooks of the sequence of play ------------------------------------------------------------------

    def turns(self, st: GameState) -> int:
        """The scenario's length in turns."""
        return int(data(st).turns)

    def recovery_first_side(self, st: GameState) -> str:
        """2.1 step 5 [P]: the German player's demoralised formations test first."""
        return "german" if "german" in st.sides else st.sides[0]

    def turn_start_events(self, tr: Transition) -> None:
        """Scheduled events at the start of a turn (12.2). Chits due this turn enter the cup through their
        ``turn`` key when it is rebuilt; here: units that stop being independent (Stonne turn 8, 49. BCC)."""
        st = tr.state
        for u in st.units.values():
            until = status(u).independent_until
            if until is not None and st.turn >= int(until):
                status(u).independent_until = None
                status(u).independent = False
                tr.emit("organisation", f"{u.id} loses its independent status (rule 12.2)")

    def turn_end_events(self, tr: Transition) -> None:
        """2.10 step 2: formations leaving play at the end of this turn (Stonne turn 3: II/PZ.R)."""
        st = tr.state
        for fid, rec in sorted(data(st).formations.items()):
            if rec.leaves == st.turn and not rec.removed:
                rec.removed = True
                for u in formation_units(st, fid, on_map=False):
                    u.hex = None
                    status(u).exited = True
                    # 12.2: markers go with the units that leave the map
                    status(u).clear("neutralised", "opp_used", "ooc", "moving", "column", "returned", "retreated")
                if fid in data(st).chits:
                    data(st).removed_chits.append(fid)
                if data(st).next_first == fid:
                    data(st).next_first = None
                tr.emit("withdraw", f"{rec.name} leaves play at the end of turn {st.turn} (rule 12.2)")

    def command_check(self, tr: Transition, units: list[Unit] | None) -> None:
        """3.5: mark units out of command (all units, or the ones given)."""
        actions.command_check(self, tr, units)

    def demoralised_retreat(self, tr: Transition, fid: str) -> None:
        """8.5.1: every unit of a demoralised formation that failed recovery retreats toward its own edge."""
        actions.demoralised_retreat(self, tr, fid)

    def activation_effects(self, tr: Transition, fid: str) -> None:
        """2.5 step 5: overrun HQ returns, reinforcements may enter, rally rolls, OPP-used markers off."""
        actions.activation_effects(self, tr, fid)

    def victory_check(self, st: GameState, final: bool) -> Outcome | None:
        """2.10 step 3: Hannut VP windows every turn, Stonne possession at the end."""
        return victory_check(self.tables, st, final=final)

    def ff(self, st: GameState, fid: str) -> int:
        """The formation factor in force (5.4: −2 while exhausted)."""
        return sequence.ff_now(st, fid, self)

    def half_up(self, mp: float) -> int:
        """Half, rounded up (6.1)."""
        return math.ceil(mp / 2)

    def formation_name(self, st: GameState, fid: str) -> str:
        """The display name of a formation."""
        return str(formation(st, fid).name)

    def overlays(
        self, view: GameState, side: str, unit_id: str | None = None, history: Sequence[Action] = ()
    ) -> dict[str, set[Hex]]:
        """Command ranges (3.4), units out of command (3.5), a barrage's target and observer (6.3.4, 8.6.1)."""
        return overlays(self.tables, view, side, unit_id, history)

    # --- AI ---------------------------------------------------------------------------------------------

    def evaluate(self, state: GameState, side: str) -> float:
        """The AI's position evaluation: victory (11, 12, 13.8), objectives, threats, command and cohesion."""
        return evaluate(self, state, side)

    def ai_goals(self, state: GameState, side: str) -> list[Hex]:
        """Objective hexes (11, 12) the side does not hold yet, or must win back."""
        return goals(self, state, side)
