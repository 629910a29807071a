"""Regenerate the TUI text snapshots and the README's SVG screenshots (run after an intended change, then read
the diff)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

if __name__ == "__main__":
    env = {**os.environ, "PLANSPIEL_UPDATE_SNAPSHOTS": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/tui/test_snapshots.py"]
    sys.exit(subprocess.call(cmd, cwd=ROOT, env=env))
