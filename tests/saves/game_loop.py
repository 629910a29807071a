"""Provides a headless game loop for the signal tests (run as ``python -m tests.saves.game_loop PATH MODE``).

``signal`` mode plays seeded random Hannut actions until a signal arrives, printing ``N notation`` after each
action; the SaveOnExit handler writes the save (there is no autosave, so the file proves the handler ran).
``stdin`` mode applies one random action per input line (printing the same), and saves at end of input.
"""

from __future__ import annotations

import random
import sys
import time


def main(argv: list[str]) -> int:
    """Play until a signal or the end of input; returns the exit code (the handlers exit before)."""
    import engine  # noqa: PLC0415 - imported here, so that importing this module for doctests stays cheap
    import saves  # noqa: PLC0415

    path, mode = argv[0], argv[1]
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=21)
    rng = random.Random(21)

    def step() -> None:
        actions = [a for a in game.legal_actions() if a.verb != "assault"]  # close combat: see helpers.play_random
        with saves.deferred_signals():  # a signal half-way through the action is handled after it
            game.apply(rng.choice(actions))
            print(len(game.history), game.describe(game.history[-1]), flush=True)

    with saves.SaveOnExit(lambda: saves.save_game(game, path, players={"french": "ai:test"})) as guard:
        print("ready", flush=True)
        if mode == "signal":
            while game.to_act is not None:
                step()
                time.sleep(0.005)
        else:
            while True:
                guard.read_line()
                step()
    return 3  # the game ended before any signal: the test reads this as a failure


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
