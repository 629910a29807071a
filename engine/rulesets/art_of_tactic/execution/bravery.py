"""Provides steps 4, 7 and 11 of the Execution Phase: bravery tests of the units that took losses (8.1)."""

from __future__ import annotations

from ..combat import bravery_test
from ..records import status
from .common import step
from .machine import Run

__all__ = ["run_step"]


def run_step(x: Run, n: int) -> None:
    """Step ``n`` (4, 7 or 11): every unit marked for a test takes it, the first side first, by id (15.4)."""
    rs, st, tr = x.rs, x.st, x.tr
    step(rs, tr, n, "Bravery tests")
    for side in rs.tables.sides:
        for u in st.units.values():
            if u.side == side and status(u).pending and u.steps > 0:
                bravery_test(rs, tr, st, u, "losses, rule 8.1")
