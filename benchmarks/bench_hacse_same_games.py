"""Shows that a change to the HACSE engine leaves play unchanged: ``same_games.py`` for the HACSE scenarios, with the
ruleset registered here (as it was before the package offered it; registering it again changes nothing).

Ten seeded random playouts of each scenario (odd seeds take the scenario's set-up, even seeds a random one); for
each game the ``play`` hash covers, at every decision, the side to act, the legal actions in order, the action
taken and every event (kind, text, who may see it, its data). Run it before and after a change and compare::

    nice -n 5 .venv/bin/python benchmarks/bench_hacse_same_games.py > /tmp/before.txt
    nice -n 5 .venv/bin/python benchmarks/bench_hacse_same_games.py --check /tmp/before.txt

Other options of ``same_games.py`` pass through (``--seeds``, ``--ai-seeds 1`` for AI games as well, ``--strict``).
``benchmarks/same_games/hacse-d56fdf5.txt`` holds the lines of main at d56fdf5 (before the speed work of issue 19),
``hacse-7238055.txt`` and ``hacse-9fe99af.txt`` those of main at 7238055 and 9fe99af (with the ground and the fire at
buildings of issue 19 merged, which change play).
"""

from __future__ import annotations

import sys

import same_games  # benchmarks/ is on the path when this file is run

import engine
from engine.rulesets.hacse.ruleset import Hacse

DEFAULTS = ["--rulesets", "hacse", "--seeds", ",".join(str(s) for s in range(10)), "--ai-seeds", ""]


def main(argv: list[str] | None = None) -> int:
    if "hacse" not in engine.ruleset_names():
        engine.register_ruleset(Hacse())
    return same_games.main([*DEFAULTS, *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(main())
