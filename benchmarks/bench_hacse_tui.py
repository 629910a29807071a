"""The cursor move and full redraw of the whole game screen (DESIGN §11: ≤ 5 ms and ≤ 1 KB a move, ≤ 30 ms a
redraw) with a HACSE game on it, one per scenario: ``bench_tui.measure_game_screen`` with the ruleset registered
here (as before the package offered it)::

    nice -n 5 .venv/bin/python benchmarks/bench_hacse_tui.py
"""

from __future__ import annotations

import asyncio

import bench_tui  # benchmarks/ is on the path when this file is run

import engine
from engine.rulesets.hacse.ruleset import Hacse

SCENARIOS = ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk")


def main() -> None:
    from tui import output  # noqa: PLC0415

    if "hacse" not in engine.ruleset_names():
        engine.register_ruleset(Hacse())
    output.install()
    print("| HACSE scenario (160×48) | cursor move (median) | full redraw (median) | DESIGN §11 budget |")
    print("|---|---|---|---|")
    for sid in SCENARIOS:
        f = asyncio.run(bench_tui.measure_game_screen(ruleset="hacse", scenario=sid))
        print(
            f"| {sid} | {f.move_ms:.2f} ms, {f.move_bytes} B | {f.redraw_ms:.2f} ms, {f.redraw_bytes} B "
            "| ≤ 5 ms and ≤ 1 KB; ≤ 30 ms |"
        )


if __name__ == "__main__":
    main()
