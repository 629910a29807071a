"""``check`` and ``legal_actions`` agree, and every refusal names its rule (issue 16, items 10 and 12).

Random states of every scenario of both rulesets (seeded random playouts from the scenario's set-up, every few
actions a position) are asked two things:

- every action ``legal_actions`` lists passes ``check``;
- random well-formed actions that are not listed (a listed action with one argument replaced, dropped or added,
  or with another verb; a verb with random arguments), that is actions the ruleset's notation reads, are refused
  by ``check`` with an action error, never accepted and never another exception.

A path order may be given whole although only its first hex is listed (Blitzkrieg 6.1 and 7.1: a path is followed
until something stops it; Art of Tactic 6: an order is plotted hex by hex): such an action counts as listed when
its first hex is, provided every hex of its path is adjacent to the one before.

The refusals met on the way (the ``IllegalActionError`` of every random illegal action) must cite a rule
(``"(rule 6.2)"``, ``"(rules 8.4, 9.1.1)"``): the player reads why, and where the rule is.

``make soak`` runs more seeds.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise

import pytest

import engine
from engine import Action
from engine.game import take_scenario_setup
from engine.hexgrid import Hex, distance
from engine.notation import Arg, slots

RULE = re.compile(r"\brules? \d")
"""A refusal that cites a rule: ``(rule 7.1)``, ``(rules 6.2, 9.1.1)``."""

CASES = [(r, s) for r in ("blitzkrieg1940", "art_of_tactic") for s in engine.scenario_ids(r)]
SEEDS = 3
SOAK_SEEDS = 30
MAX_ACTIONS = 300
EVERY = 6
"""A position is examined every ``EVERY`` actions of a playout of at most ``MAX_ACTIONS`` actions."""


@dataclass
class Findings:
    """What one scenario's positions showed."""

    refused_listed: list[str] = field(default_factory=list)
    """Listed actions that ``check`` refuses."""
    accepted_unlisted: list[str] = field(default_factory=list)
    """Well-formed actions not listed that ``check`` accepts."""
    crashed: list[str] = field(default_factory=list)
    """Actions whose check raised something else than an action error."""
    no_rule: list[str] = field(default_factory=list)
    """Refusals that cite no rule."""
    refusals: int = 0
    checked: int = 0

    def problems(self) -> list[str]:
        return [*self.refused_listed, *self.accepted_unlisted, *self.crashed]


def positions(ruleset: str, scenario: str, seed: int) -> Iterator[engine.Game]:
    """Positions of a seeded random playout (the scenario's set-up taken), every ``EVERY`` actions."""
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=seed)
    take_scenario_setup(game)
    rng = random.Random(seed)
    while game.to_act is not None and len(game.history) < MAX_ACTIONS:
        if len(game.history) % EVERY == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))


def mutations(game: engine.Game, legal: list[Action], rng: random.Random, n: int) -> list[Action]:
    """Up to ``n`` random actions that the ruleset's notation reads (well formed), most of them near a listed
    action."""
    rs, st = game.ruleset, game.state
    units = sorted(st.units)
    own = sorted(u.id for u in st.iter_units(game.to_act)) if game.to_act is not None else units
    labels = [game.board.label(h) for h in list(game.board)[:: max(1, len(game.board) // 40)]]
    args = sorted({a for x in legal for a in x.args})
    verbs = sorted(rs.notations)
    words = ["1", "2", "3", "0", "light", "medium", "heavy", "neutral", "exhaust", "replay"]
    attacks = sorted(v for v, forms in rs.notations.items() if _attack_form(forms[0]))
    enemies = sorted(u.id for u in st.units.values() if u.side != game.to_act and u.hex is not None)
    out: list[Action] = []
    for _ in range(8 * n):
        if len(out) >= n:
            break
        pool = rng.choice([units, labels, args or units, words])
        base = rng.choice(legal)
        verb, a = base.verb, list(base.args)
        how = rng.randrange(7)
        if how == 0 and a:
            a[rng.randrange(len(a))] = rng.choice(pool)
        elif how == 1 and a:
            a.pop(rng.randrange(len(a)))
        elif how == 2:
            a.insert(rng.randrange(len(a) + 1), rng.choice(pool))
        elif how == 3:
            verb = rng.choice(verbs)
        elif how == 4 and a:
            a[0] = rng.choice(units)
        elif how == 5 and a:
            a[0] = rng.choice(own or units)  # another unit of the side to act
        elif how == 6 and a and attacks and enemies:
            # A unit sharing a hex with a listed action's unit (a passenger, a stack-mate) attacks an enemy.
            actor = st.units.get(a[0])
            mates = [u.id for u in st.units.values() if actor is not None and u.hex == actor.hex and u.hex is not None]
            verb, a = rng.choice(attacks), [rng.choice(mates or own or units), rng.choice(enemies)]
        else:
            verb = rng.choice(verbs)
            a = [rng.choice(units if i == 0 else pool) for i in range(rng.randrange(5))]
        action = Action(verb, tuple(a))
        try:
            rs.read(st, action)
        except engine.ActionError:
            continue
        out.append(action)
    return out


def _attack_form(form: type) -> bool:
    """A notation form whose arguments are the acting unit and an enemy unit (a shot)."""
    spec = slots(form)
    return len(spec) == 2 and spec[0].kind is Arg.ACTOR and spec[1].kind is Arg.TARGET and not spec[1].or_hex


def path_prefix(game: engine.Game, action: Action) -> Action | None:
    """The action with its path cut to its first hex, if it is a path order of several adjacent hexes; else
    None."""
    typed = game.ruleset.read(game.state, action)
    spec = slots(type(typed))
    if not spec or spec[-1].kind is not Arg.PATH:
        return None
    path: tuple[Hex, ...] = getattr(typed, spec[-1].name)
    if len(path) < 2 or any(distance(a, b) != 1 for a, b in pairwise(path)):
        return None
    return Action(action.verb, action.args[: len(action.args) - len(path) + 1])


@cache
def examine(ruleset: str, scenario: str, seeds: range, per_position: int = 12) -> Findings:
    """Ask the positions of ``seeds``' playouts both questions (once per arguments: the tests share it)."""
    found = Findings()
    for seed in seeds:
        rng = random.Random(1000 + seed)
        for game in positions(ruleset, scenario, seed):
            where = f"{scenario} seed {seed} after {len(game.history)} actions"
            legal = game.legal_actions()
            listed = set(legal)
            for a in rng.sample(legal, min(per_position, len(legal))):
                try:
                    game.check(a)
                except Exception as err:  # every kind is a finding
                    found.refused_listed.append(f"{where}: listed {a} refused: {type(err).__name__}: {err}")
            for a in mutations(game, legal, rng, per_position):
                if a in listed or path_prefix(game, a) in listed:
                    continue
                found.checked += 1
                try:
                    game.check(a)
                except engine.IllegalActionError as err:
                    found.refusals += 1
                    if not RULE.search(str(err)):
                        found.no_rule.append(f"{where}: {a}: {err}")
                except engine.ActionError:
                    found.refusals += 1
                except Exception as err:  # a check that crashes is a finding
                    found.crashed.append(f"{where}: {a} raised {type(err).__name__}: {err}")
                else:
                    found.accepted_unlisted.append(f"{where}: {a} is accepted but not listed")
    return found


def report(lines: list[str], limit: int = 12) -> str:
    return "\n".join(lines[:limit]) + (f"\n... and {len(lines) - limit} more" if len(lines) > limit else "")


BLITZKRIEG = engine.scenario_ids("blitzkrieg1940")
ART_OF_TACTIC = engine.scenario_ids("art_of_tactic")


@pytest.mark.parametrize("scenario", BLITZKRIEG)
def test_blitzkrieg_check_agrees_with_legal_actions(scenario: str) -> None:
    """Issue 16 item 10: on random states, every listed action passes check, and random well-formed actions that
    are not listed are refused with an action error (``fire`` by a company riding its APC was accepted, 12.1)."""
    found = examine("blitzkrieg1940", scenario, range(SEEDS))
    assert found.checked > 500
    assert not found.problems(), report(found.problems())


@pytest.mark.parametrize("scenario", BLITZKRIEG)
def test_blitzkrieg_every_refusal_names_its_rule(scenario: str) -> None:
    """Issue 16 item 12: every IllegalActionError from random illegal notation in every Blitzkrieg scenario cites
    the rule (6.2 out of command, 9.1.1 close-combat entry, 12.1 a mounted company, and the rule of the decision
    asked for when the action is not one of its choices)."""
    found = examine("blitzkrieg1940", scenario, range(SEEDS))
    assert found.refusals > 500
    assert not found.no_rule, report(found.no_rule)


def test_art_of_tactic_check_agrees_with_legal_actions() -> None:
    """Issue 16 item 10 over every Art of Tactic scenario."""
    problems = [p for scenario in ART_OF_TACTIC for p in examine("art_of_tactic", scenario, range(SEEDS)).problems()]
    assert not problems, report(problems)


def test_art_of_tactic_every_refusal_names_its_rule() -> None:
    """Issue 16 item 12 over every Art of Tactic scenario."""
    missing = [p for scenario in ART_OF_TACTIC for p in examine("art_of_tactic", scenario, range(SEEDS)).no_rule]
    assert not missing, report(missing)


@pytest.mark.soak
@pytest.mark.parametrize(("ruleset", "scenario"), CASES)
def test_soak_check_agrees_with_legal_actions(ruleset: str, scenario: str) -> None:
    found = examine(ruleset, scenario, range(SEEDS, SEEDS + SOAK_SEEDS))
    assert not found.no_rule, report(found.no_rule)
    assert not found.problems(), report(found.problems())
