"""Provides the default AI: a candidate-action planner on the generic engine API (DESIGN §7).

For each decision the planner

1. lists the side's legal actions; one action, or nothing but passes, is answered at once;
2. gives every action a cheap first score (exact odds for chance actions, a step toward the enemy for a move)
   and keeps the best ``width`` of them (the level sets the width);
3. re-scores those: it applies each to a copy of its own view with its own seeded dice and asks the ruleset's
   :meth:`~engine.rules.Ruleset.evaluate` how good the position is; a chance action scores the exact expected
   value of its odds on top of the position before it (so a sampled roll never decides); where the opponent
   must answer (a reaction window), it looks one reply ahead — the opponent's best chance reply by its exact
   odds, and at ``hard`` its best reply of any kind by the same evaluation;
4. plays the best action. The budget is a cap: when time is up it plays the best action scored so far.

Nothing here knows a ruleset: a ruleset teaches the AI through ``evaluate`` (and the values of its odds), and
may value an action itself through :meth:`~engine.rules.Ruleset.ai_score` (used in steps 2 and 3 where it is
not None; the default is None, so a ruleset without it plays exactly as before).
It knows no verb either: it reads what an action means from :meth:`~engine.rules.Ruleset.action_info` (its
roles: a pass, a move of one unit with its destination, a retreat, a hold), and an action with none of those
roles gets a neutral first score, so new decisions (set-up placement, stacks) need nothing special.
The planner reads only the view it is given and never touches the game's dice.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.actions import Action
from engine.contract import ActionInfo, Role
from engine.dice import Dice
from engine.errors import ActionError
from engine.hexgrid import Hex, distance
from engine.odds import Odds
from engine.rules import Ruleset, Transition, get_ruleset
from engine.state import GameState

from .agents import PlayerView, Progress, _legal, _queries, move_goal

__all__ = ["LEVELS", "Level", "PlannerAgent", "level_settings", "seconds_level"]


@dataclass(frozen=True, slots=True)
class Level:
    """How hard an AI level thinks."""

    budget_s: float
    """Seconds per decision (a cap: the planner stops early when it has scored its candidates)."""
    width: int
    """Candidate actions re-scored by applying them to a copy of the view."""
    reply_width: int
    """Opponent replies examined by applying them (0: only the opponent's chance replies, by their odds)."""


LEVELS: dict[str, Level] = {
    "easy": Level(0.2, 5, 0),
    "normal": Level(1.0, 8, 0),
    "hard": Level(5.0, 60, 12),
}
"""The AI levels (``ai:easy``, ``ai:normal``, ``ai:hard``): 0.2, 1 and 5 seconds per decision."""

MAX_SECONDS = 600.0
"""The longest budget ``ai:N`` takes (N seconds per decision)."""


def seconds_level(name: str) -> float | None:
    """The budget of a level written as seconds (``"2"``, ``"0.5"``: ``ai:N``), or None for another name.

    Raises:
        ValueError: a number of seconds that is not above 0 and at most :data:`MAX_SECONDS`.

    >>> seconds_level("2.5"), seconds_level("hard")
    (2.5, None)
    """
    try:
        seconds = float(name)
    except ValueError:
        return None
    if not 0.0 < seconds <= MAX_SECONDS:  # also refuses nan and inf
        raise ValueError(f"ai:{name}: the seconds per decision must be above 0 and at most {MAX_SECONDS:g}")
    return seconds


def level_settings(name: str) -> Level:
    """The settings of a level: a named one (:data:`LEVELS`), or ``N`` seconds with the widths of the largest
    named level whose budget is at most N (easy's below 1 s).

    Raises:
        ValueError: an unknown level.
    """
    if name in LEVELS:
        return LEVELS[name]
    seconds = seconds_level(name)
    if seconds is None:
        raise ValueError(f"unknown AI level {name!r} (expected one of {', '.join(LEVELS)}, or seconds: ai:2)")
    fitting = [lv for lv in LEVELS.values() if lv.budget_s <= seconds] or [LEVELS["easy"]]
    widest = max(fitting, key=lambda lv: lv.budget_s)
    return Level(seconds, widest.width, widest.reply_width)


PASS_PENALTY = 0.05
"""A pass scores this much below an action that leaves the position as good: doing something is preferred."""
MOVE_COST = 0.08
"""A move that gets no nearer a goal scores this much below the position it leaves (no aimless wandering)."""
APPROACH_BONUS = 0.1
"""Per hex a move gains toward the nearest goal (:meth:`~engine.rules.Ruleset.ai_goals`, else the enemy)."""
CHANCE_SAMPLES = 3
"""Rolls sampled (with the agent's own dice) for a chance action whose odds value no result."""
RETREAT_COST = 0.15
"""Giving ground (a retreat, a withdrawal) scores this much below a position as good."""


class PlannerAgent:
    """The default AI (see the module docstring).

    Args:
        level: ``easy``, ``normal`` or ``hard`` (:data:`LEVELS`).
        seed: the agent's own random numbers (tie breaks and the dice of its look-ahead).
    """

    def __init__(self, level: str = "normal", seed: int = 0) -> None:
        self.settings = level_settings(level)
        self.level = level
        self.name = f"ai:{level}"
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"PlannerAgent({self.level!r})"

    @property
    def budget_s(self) -> float:
        """The level's time per decision: what callers should pass to :meth:`choose`."""
        return self.settings.budget_s

    def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
        """The best action found within ``budget_s`` seconds (see the module docstring).

        Raises:
            ValueError: the side has no legal action (it is not its decision).
        """
        start = time.perf_counter()
        # The cap: scoring stops at 60 % of the budget, so that one last scoring step on a loaded machine still
        # ends inside it (DESIGN §7: the best action so far when time is up).
        deadline = start + max(0.0, budget_s) * 0.6
        q = _queries(view)
        state = q.state
        actions = _legal(q)
        rs = get_ruleset(state.ruleset)
        actions = rs.ai_actions(state, actions) or actions
        if len(actions) == 1:
            return actions[0]
        order = list(actions)
        self.rng.shuffle(order)
        infos = {a: rs.action_info(state, a) for a in order}
        if all(Role.PASS in infos[a].roles for a in order):
            return order[0]  # nothing but ways to pass: no thinking needed
        side = state.viewer or state.to_act
        assert side is not None
        scorer = _Scorer(rs, state, side, q.odds, self.rng, self.settings, deadline, infos)
        if progress is not None:
            progress(f"thinking: {len(order)} actions")
        # First pass: cheap scores, so that the expensive pass sees the promising actions first.
        first: list[tuple[float, int, Action]] = []
        cut = start + max(0.0, budget_s) * 0.25
        # A ruleset that scores its actions itself (ai_score) has done the second pass's work in the first: that
        # first pass may go on longer (not to the deadline: a loaded machine may stretch one score).
        own_cut = start + max(0.0, budget_s) * 0.4
        late = False
        for i, action in enumerate(order):
            late = late or time.perf_counter() > (own_cut if scorer.scored_own else cut)
            first.append((0.0 if late else scorer.static(action), i, action))
        first.sort(key=lambda t: (-t[0], t[1]))
        candidates = [a for _, _, a in first[: self.settings.width]]
        if not any(Role.PASS in infos[a].roles for a in candidates):
            candidates += [a for _, _, a in first[self.settings.width :] if Role.PASS in infos[a].roles][:1]
        best, best_score = candidates[0], float("-inf")
        for i, action in enumerate(candidates):
            if i and time.perf_counter() > deadline:
                break
            if progress is not None and i % 6 == 0:
                progress(f"thinking: action {i + 1} of {len(candidates)}")
            s = scorer.score(action)
            if s > best_score:
                best, best_score = action, s
        return best


class _Scorer:
    """Scores the actions of one decision from one view."""

    def __init__(
        self,
        rs: Ruleset,
        state: GameState,
        side: str,
        odds: Callable[[Action], Odds | None],
        rng: random.Random,
        settings: Level,
        deadline: float,
        infos: dict[Action, ActionInfo],
    ) -> None:
        self.rs = rs
        self.infos = infos
        self.state = state
        self.side = side
        self.odds_of = odds
        self.rng = rng
        self.settings = settings
        self.deadline = deadline
        self._odds: dict[Action, Odds | None] = {}
        self._own: dict[Action, float | None] = {}
        self.scored_own = False
        """True once the ruleset has scored one of the decision's actions itself (:meth:`own`)."""
        self._base: float | None = None
        self._enemies = [u.hex for u in state.iter_units() if u.side != side and u.hex is not None]
        self._goals = rs.ai_goals(state, side)
        # Common random numbers: every candidate of this decision is tried with the same dice, so that two
        # actions are compared on the same luck (a barrage that goes on rolls alike after either choice).
        self.dice_seed = rng.getrandbits(32)

    @property
    def base(self) -> float:
        """The evaluation of the position before the decision."""
        if self._base is None:
            self._base = self.rs.evaluate(self.state, self.side)
        return self._base

    def odds(self, action: Action) -> Odds | None:
        if action not in self._odds:
            try:
                self._odds[action] = None if Role.PASS in self.infos[action].roles else self.odds_of(action)
            except (ActionError, ValueError, KeyError):
                self._odds[action] = None
        return self._odds[action]

    def own(self, action: Action) -> float | None:
        """The ruleset's own value of the action (:meth:`~engine.rules.Ruleset.ai_score`), None if it has none."""
        if action not in self._own:
            try:
                self._own[action] = self.rs.ai_score(self.state, action, self.side)
            except (ActionError, ValueError, KeyError):
                self._own[action] = None
            self.scored_own = self.scored_own or self._own[action] is not None
        return self._own[action]

    def static(self, action: Action) -> float:
        """A cheap first score: the ruleset's own value of the action as a gain over the position before (where
        it has one), else the exact expected value of a chance action, a step toward the enemy for a move."""
        own = self.own(action)
        if own is not None:
            return own - self.base
        info = self.infos[action]
        if Role.PASS in info.roles:
            return -PASS_PENALTY
        o = self.odds(action)
        if o is not None:
            return o.expected + 0.01
        goal = move_goal(info)
        if goal is not None:
            return 0.1 * self._approach(info.unit, goal)
        if info.destination is not None and Role.RETREAT in info.roles:
            return -0.02 * self._approach(info.unit, info.destination)
        return 0.0

    def _approach(self, unit_id: str | None, goal: Hex) -> float:
        """Hexes gained toward the nearest goal (the ruleset's :meth:`~Ruleset.ai_goals`, else the enemy);
        entering a goal counts double."""
        unit = self.state.units.get(unit_id) if unit_id is not None else None
        targets = self._goals or self._enemies
        if unit is None or not targets:
            return 0.0
        after = min(distance(goal, e) for e in targets)
        if unit.hex is None:
            return 0.5
        before = min(distance(unit.hex, e) for e in targets)
        return float(before - after) * (2.0 if after == 0 else 1.0)

    def score(self, action: Action) -> float:
        """The value of playing ``action`` now (see the module docstring)."""
        own = self.own(action)
        if own is not None:
            return own
        o = self.odds(action)
        info = self.infos[action]
        penalty = -PASS_PENALTY if Role.PASS in info.roles else 0.0
        if o is not None and any(e.value for e in o.entries):
            # Exact expected value on top of the position before; at ``hard`` a sampled roll shows the replies.
            value = self.base + o.expected
            if self.settings.reply_width > 0:
                after = self._apply(self.state, action)
                if after is not None:
                    value -= max(0.0, self._reply_threat(after))
            return value
        if Role.HOLD in info.roles and self.settings.reply_width <= 0:
            return self.base + penalty  # declining to react leaves the position as it is
        # A chance action without valued results (a reaction test to retreat): the mean of a few rolls.
        samples = CHANCE_SAMPLES if o is not None else 1
        total, n = 0.0, 0
        for k in range(samples):
            after = self._apply(self.state, action, k)
            if after is None:
                return self.base - 1.0 + penalty
            value = self.rs.evaluate(after, self.side)
            if after.outcome is None and after.to_act not in (None, self.side):
                value = self._after_reply(after, value)
            total += value
            n += 1
        return total / n + penalty + self._cost(info)

    def _cost(self, info: ActionInfo) -> float:
        """What the kind of action costs or earns on top of the position it leads to (see the constants)."""
        goal = move_goal(info)
        if goal is not None:
            gain = self._approach(info.unit, goal)
            return APPROACH_BONUS * gain - (MOVE_COST if gain <= 0 else 0.0)
        if Role.RETREAT in info.roles and info.destination is not None:
            return -RETREAT_COST
        return 0.0

    def _apply(self, state: GameState, action: Action, sample: int = 0) -> GameState | None:
        """``action`` applied to a copy of ``state`` with the agent's own dice (None if the view refuses it)."""
        st = state.clone()
        st.dice = Dice(self.dice_seed + sample)
        tr = Transition(st)
        try:
            self.rs.apply(tr, action)
        except (ActionError, ValueError, KeyError, AssertionError):
            return None
        return tr.state

    def _reply_threat(self, after: GameState) -> float:
        """The opponent's best expected gain from a chance reply (opportunity or return fire), by exact odds."""
        if after.outcome is not None or after.to_act in (None, self.side):
            return 0.0
        try:
            replies = self.rs.legal_actions(after)
        except (ActionError, ValueError, KeyError):
            return 0.0
        best = 0.0
        for r in replies:
            if self.rs.action_info(after, r).any(Role.PASS, Role.MOVE):
                continue
            if time.perf_counter() > self.deadline:
                break
            try:
                o = self.rs.odds(after, r)
            except (ActionError, ValueError, KeyError):
                continue
            if o is not None:
                best = max(best, o.expected)
        return best

    def _after_reply(self, after: GameState, value: float) -> float:
        """The value of ``after`` once the opponent has answered as well as the level lets the AI foresee."""
        if self.settings.reply_width <= 0 or time.perf_counter() > self.deadline:
            return value - max(0.0, self._reply_threat(after))
        other = after.to_act
        assert other is not None
        try:
            replies = self.rs.legal_actions(after)
        except (ActionError, ValueError, KeyError):
            return value
        if len(replies) > self.settings.reply_width:
            replies = self.rng.sample(replies, self.settings.reply_width)
        worst = None
        base_other = -value
        for r in replies:
            if time.perf_counter() > self.deadline:
                break
            try:
                o = None if Role.PASS in self.rs.action_info(after, r).roles else self.rs.odds(after, r)
            except (ActionError, ValueError, KeyError):
                o = None
            if o is not None and any(e.value for e in o.entries):
                theirs = base_other + o.expected
            else:
                nxt = self._apply(after, r)
                if nxt is None:
                    continue
                theirs = self.rs.evaluate(nxt, other)
            mine = -theirs
            if worst is None or mine < worst:
                worst = mine
        return value if worst is None else worst
