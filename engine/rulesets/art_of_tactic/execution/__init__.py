"""Provides the Execution Phase of Art of Tactic (digest 2.4–2.9): the reveal, the twelve steps (one module each),
the status update, victory, and the start of the next round.

The Execution Phase runs as an explicit cursor in the state (:mod:`.machine`): the step, the frames of what is left
of it and, while a side that decides during execution is asked (15.2 item 4), the question; ``choose`` goes on from
there (:func:`resume`). Modules: :mod:`.reveal` (2.2, 2.4), :mod:`.defend` (step 1), :mod:`.fire` (steps 2 and 3),
:mod:`.bravery` (steps 4, 7, 11), :mod:`.air_missions` and :mod:`.air_combat` (step 5), :mod:`.assault` (step 6),
:mod:`.ambush` (step 8), :mod:`.special` (step 9), :mod:`.movement` (step 10), :mod:`.status` (step 12),
:mod:`.victory` (11.2); hits and losses (:mod:`.losses`) and minefields (:mod:`.mines`) are shared frames.
"""

from __future__ import annotations

from .reveal import start_round
from .round import execute, resume
from .victory import check_victory

__all__ = ["check_victory", "execute", "resume", "start_round"]
