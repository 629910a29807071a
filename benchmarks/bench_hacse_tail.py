"""Where the 95th percentile of HACSE's ``legal_actions`` comes from (DESIGN §11: ≤ 0.5 ms): over the playouts of
``bench_hacse_speed.py`` (N per scenario, default 6), each listing in play timed with the thread's CPU time and
counted by kind: the phase; a whole side's listing (no unit in activation or firing, nothing else pending) or one
unit's (or another decision's); and, for a whole side, the first of that side in that turn and phase or a later one.
A first listing is where nothing found earlier in the phase could be kept for it (benchmarks/RESULTS.md, "HACSE
speed, round 6b").

    python benchmarks/bench_hacse_tail.py [N]
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

from bench_hacse_speed import SCENARIOS, _register  # benchmarks/ is on the path when this file is run

import engine
from engine.rulesets.hacse.model import data
from engine.state import GameState


def _kind(st: GameState, firsts: set[tuple[int, str, str | None]]) -> str:
    d = data(st)
    quiet = d.active is None and d.opp_mover is None and d.physical is None and d.hiding is None and d.offer is None
    if not (quiet and st.phase in ("movement", "attack")):
        return f"{st.phase}: one unit or another decision"
    key = (st.turn, st.phase, st.to_act)
    first = key not in firsts
    firsts.add(key)
    return f"{st.phase}: whole side, {'first' if first else 'later'}"


def tail(scenario: str, n: int) -> list[tuple[float, str]]:
    """(seconds, kind) of every listing in play of ``n`` seeded random playouts."""
    _register()
    rows: list[tuple[float, str]] = []
    for seed in range(n):
        game = engine.new_game(engine.load_scenario("hacse", scenario), seed=seed)
        rng = random.Random(seed)
        if seed % 2 == 0:
            engine.take_scenario_setup(game)
        firsts: set[tuple[int, str, str | None]] = set()
        while game.to_act is not None:
            st = game.state
            t0 = time.thread_time()
            legal = game.legal_actions()
            dt = time.thread_time() - t0
            if st.phase != "setup":
                rows.append((dt, _kind(st, firsts)))
            game.apply(rng.choice(legal))
    return rows


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    for scenario in SCENARIOS:
        rows = tail(scenario, n)
        times = sorted(t for t, _ in rows)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{scenario}: {len(rows)} listings in play, p95 {p95 * 1000:.3f} ms, 5 % = {len(rows) // 20} listings")
        count = Counter(k for _, k in rows)
        over = Counter(k for t, k in rows if t > 0.0005)
        for k in sorted(count):
            print(f"    {k:<40} {count[k]:>5} listings, {over[k]:>4} over 0.5 ms")


if __name__ == "__main__":
    main()
