"""A stand-in for the game client in the server's tests: reports its terminal and environment, echoes keys,
reports window changes (SIGWINCH) and, on SIGHUP, writes ``hung-up`` into its home folder and exits (as the game
saves and exits)."""

from __future__ import annotations

import os
import select
import shutil
import signal
import sys
import time
from pathlib import Path


def main() -> None:
    home = Path(os.environ["PLANSPIEL_HOME"])

    def size() -> str:
        cols, rows = shutil.get_terminal_size((0, 0))
        return f"{cols}x{rows}"

    changed = [False]

    def on_winch(signum: int, frame: object) -> None:
        changed[0] = True  # reported by the loop (printing here could re-enter a print of the loop)

    def on_hup(signum: int, frame: object) -> None:
        (home / "hung-up").write_text("yes", encoding="utf-8")
        sys.exit(0)

    signal.signal(signal.SIGWINCH, on_winch)
    signal.signal(signal.SIGHUP, on_hup)
    env = {k: os.environ.get(k, "-") for k in ("TERM", "COLUMNS", "LINES")}
    print(f"READY home={home.name} tty={os.isatty(0)} TERM={env['TERM']} COLUMNS={env['COLUMNS']} size={size()}")
    print(f"CWD-HAS-HOME={(Path.cwd() / 'home').exists()}", flush=True)
    print(f"PLAYER={os.environ.get('PLANSPIEL_PLAYER')} GUEST={os.environ.get('PLANSPIEL_GUEST', '-')}", flush=True)
    while True:
        if changed[0]:
            changed[0] = False
            print(f"SIZE {size()}", flush=True)
        if not select.select([sys.stdin], [], [], 0.05)[0]:
            continue
        line = sys.stdin.readline()
        if not line:
            time.sleep(0.05)
            continue
        if line.strip() == "quit":
            print("BYE", flush=True)
            return
        print(f"GOT {line.strip()}", flush=True)


if __name__ == "__main__":
    main()
