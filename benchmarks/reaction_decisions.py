"""Counts the decisions a human player makes per turn, with and without standing reaction orders (issue 18 item 1).

One side of a scenario is the "human": a stand-in agent (``--human``, ``greedy`` by default) decides whenever the
table would ask the player; the table's standing orders (:mod:`tui.standing`) answer the reaction windows they
cover, exactly as the game screen does. The other side is an AI (``--ai``). For each turn the script prints the
decisions the player was asked for (the steps of one unit's move, one after another, count as one: movement by
destination), the windows the orders answered, and, for comparison, what the player would
have been asked with the orders set to ``ask`` (every window asked). The games are seeded.

    nice -n 5 .venv/bin/python benchmarks/reaction_decisions.py --scenario hannut --human-side german --turns 1
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

import engine
from engine import Role
from engine.ai import make_agent
from tui.client import LocalClient
from tui.overlay import effect_chance
from tui.standing import ORDERS, Standing, decide, window_pass

BUDGET_S = 0.05
"""The AI's time per decision here (the count does not depend on its strength)."""


def play(scenario: str, human_side: str, order: str, threshold: float, seed: int, turns: int, ai: str, human: str):
    """One seeded game up to ``turns`` turns: per turn, (decisions asked, windows answered by the orders)."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", scenario), seed=seed)
    engine.take_scenario_setup(game)
    sides = game.state.sides
    if human_side not in sides:
        raise SystemExit(f"unknown side {human_side!r}: {', '.join(sides)}")
    agents = {s: make_agent(human if s == human_side else ai, seed * 7 + i) for i, s in enumerate(sides)}
    standing = Standing(order, threshold)
    client = LocalClient(game, human_side)
    names = {s.id: s.name for s in game.scenario.sides}
    last_mover: str | None = None
    asked: Counter[int] = Counter()
    windows: Counter[int] = Counter()
    answered: Counter[int] = Counter()
    while game.to_act is not None and game.state.turn <= turns:
        side = game.to_act
        if engine.take_scenario_setup(game):
            continue
        turn = game.state.turn
        if side == human_side:
            legal = client.legal_actions()
            infos = tuple((a, client.action_info(a)) for a in legal)
            verdict = decide(standing, client.view(), side, infos, client.odds, names, client.waiting())
            if verdict.action is not None:
                client.apply(verdict.action, auto=True)
                answered[turn] += 1
                continue
            action = agents[side].choose(game.view(side), BUDGET_S)
            info = client.action_info(action)
            # Movement by destination: the steps of one unit's move, one after the other, are one Enter.
            walking = info.has(Role.MOVE) and not info.is_assault and info.unit is not None and info.unit == last_mover
            if len(legal) > 1 and not walking:
                asked[turn] += 1
                if window_pass(infos) is not None:
                    windows[turn] += 1
            last_mover = info.unit if info.has(Role.MOVE) and not info.is_assault else None
            game.apply(action, side=side)
            continue
        game.apply(agents[side].choose(game.view(side), BUDGET_S), side=side)
    return asked, answered, windows


def ai_windows(scenario: str, level: str, seeds: list[int], turns: int, budget: float) -> None:
    """What an AI does in the reaction windows of its own games (both sides are ``level``): per band of the best
    attack's chance of an effect, how often it fires, retreats or lets the moment pass. The standing orders'
    default (``auto``: fire the best attack of 10 % or more) is read against it."""
    bands = ((0.0, "< 10 %"), (0.10, "10-20 %"), (0.20, "20-30 %"), (0.30, "30-50 %"), (0.50, ">= 50 %"))
    tally: dict[str, Counter[str]] = {name: Counter() for _, name in bands}
    for seed in seeds:
        game = engine.new_game(engine.load_scenario("blitzkrieg1940", scenario), seed=seed)
        engine.take_scenario_setup(game)
        agents = {s: make_agent(level, seed * 7 + i) for i, s in enumerate(game.state.sides)}
        clients = {s: LocalClient(game, s) for s in game.state.sides}
        while game.to_act is not None and game.state.turn <= turns:
            side = game.to_act
            if engine.take_scenario_setup(game):
                continue
            client = clients[side]
            infos = tuple((a, client.action_info(a)) for a in client.legal_actions())
            action = agents[side].choose(game.view(side), budget)
            passing = window_pass(infos)
            chances = [
                effect_chance(o)
                for a, i in infos
                if i.has(Role.ATTACK) and i.has(Role.CHANCE) and (o := client.odds(a)) is not None
            ]
            if passing is not None and chances:
                band = next(name for low, name in reversed(bands) if max(chances) >= low)
                info = client.action_info(action)
                took = "pass" if action == passing else "retreat" if info.has(Role.RETREAT) else "fire"
                tally[band][took] += 1
            game.apply(action, side=side)
    print(f"{level} in its windows ({scenario}, seeds {seeds}, turns 1-{turns}): best attack offered → what it did")
    for _, name in bands:
        t = tally[name]
        print(
            f"  {name:>8}: {sum(t.values()):4d} windows, fired {t['fire']:4d}, retreated {t['retreat']:3d}, "
            f"let pass {t['pass']:3d}"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="hannut")
    p.add_argument("--human-side", default="german")
    p.add_argument("--order", default=Standing().order, choices=sorted(ORDERS))
    p.add_argument("--threshold", type=float, default=0.10)
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--ai", default="greedy", help="the other side's player")
    p.add_argument("--human", default="greedy", help="the stand-in for the human's own decisions")
    p.add_argument("--ai-windows", metavar="LEVEL", help="instead: what an AI of LEVEL does in its own windows")
    a = p.parse_args()
    if a.ai_windows:
        ai_windows(a.scenario, a.ai_windows, [int(x) for x in a.seeds.split(",")], max(a.turns, 2), 0.3)
        return
    rows = []
    for seed in (int(x) for x in a.seeds.split(",")):
        for order in (a.order, "ask"):
            asked, answered, windows = play(a.scenario, a.human_side, order, a.threshold, seed, a.turns, a.ai, a.human)
            for turn in sorted(set(asked) | set(answered)):
                rows.append((seed, order, turn, asked[turn], answered[turn], windows[turn]))
                print(
                    f"seed {seed} {order:>5} turn {turn}: asked {asked[turn]:4d} (windows {windows[turn]:3d}), "
                    f"windows answered by the orders {answered[turn]:3d}"
                )
    for order in (a.order, "ask"):
        counts = [r[3] for r in rows if r[1] == order]
        if counts:
            wins = [r[5] for r in rows if r[1] == order]
            print(
                f"{order}: median {statistics.median(counts):g} decisions asked per turn, "
                f"{statistics.median(wins):g} of them reaction windows (n = {len(counts)} turns)"
            )


if __name__ == "__main__":
    main()
