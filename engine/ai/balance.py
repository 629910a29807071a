"""Provides ``planspiel balance``: one AI level against itself on a scenario, to see whether it is fair and lasts.

It plays the games of :func:`engine.ai.simulate.simulate` with the same agent on both sides (the seeds follow from
the run's seed and each game's index, so the results do not depend on the number of workers) and reports, per
side, the wins with their 95 % interval, the draws, the median length of a game, and the steps each side has lost
by the end of each turn as a bar chart that reads at 80 columns and without colour. ``--json`` adds one line with
``games``, ``a_wins``, ``b_wins``, ``draws``, ``median_turns`` and the rest of ``planspiel simulate``'s figures.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from engine.errors import PlanspielError

from .simulate import ProgressBar, SimulationResult, agent_level, simulate

__all__ = ["loss_chart", "run_cli"]

BAR = 20
"""Characters of the longest bar in the chart."""


def loss_chart(result: SimulationResult, width: int = BAR) -> list[str]:
    """The steps lost by each side by the end of each turn (mean over the finished games), one row per turn:

    >>> r = SimulationResult("x", "y", "random", "random", ("red", "blue"), 0, 2)
    >>> r.losses = [((0, 1), (2, 3)), ((1, 1),)]
    >>> print("\\n".join(loss_chart(r, width=6)))
    Steps lost by the end of each turn (mean of 2 games)
    turn  red                    blue
       1  █▌             0.5     ███            1.0
       2  ████▌          1.5     ██████         2.0
    """
    rows = result.losses_by_turn()
    if not rows:
        return []
    top = max(max(a, b) for a, b in rows) or 1.0
    a_side, b_side = result.sides
    n = len([g for g in result.losses if g])
    lines = [
        f"Steps lost by the end of each turn (mean of {n} game{'s' if n != 1 else ''})",
        f"turn  {a_side:<{width + 16}} {b_side}",
    ]
    for turn, (a, b) in enumerate(rows, start=1):
        lines.append(f"{turn:>4}  {_bar(a, top, width)} {a:5.1f}     {_bar(b, top, width)} {b:5.1f}")
    return lines


def _bar(value: float, top: float, width: int) -> str:
    eighths = round(value / top * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + ("▏▎▍▌▋▊▉"[part - 1] if part else "")
    return f"{text:<{width + 6}}"


def run_cli(
    ruleset: str,
    scenario: str,
    games: int,
    ai: str,
    workers: int,
    seed: int,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
    backend: str = "process",
) -> int:
    """``planspiel balance``: play, show a progress bar on ``err``, print the summary, the chart (and the JSON
    line). Returns 0, 1 when a game failed (each failure is reported with its index and seed), 2 for bad options."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        level = agent_level(ai)
        result = simulate(
            ruleset, scenario, games, level, level, workers, seed, on_game=ProgressBar(err), backend=backend
        )
    except (ValueError, PlanspielError) as e:
        err.write(f"planspiel balance: {e}\n")
        return 2
    out.write(summary(result) + "\n")
    if as_json:
        out.write(json.dumps(result.to_json(), sort_keys=True) + "\n")
    return 1 if result.errors else 0


def summary(result: SimulationResult) -> str:
    """The report of ``planspiel simulate``, the median length, and the chart of losses."""
    lines = [result.report()]
    median = result.median_turns
    if median is not None:
        lines.append(f"  median length: {median:g} turn{'' if median == 1 else 's'}")
    chart = loss_chart(result)
    if chart:
        lines += ["", *chart]
    return "\n".join(lines)
