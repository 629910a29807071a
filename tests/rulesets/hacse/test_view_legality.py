"""HACSE (13.2 hidden units, 6.1 sighting): the side to act has exactly the full state's legal actions in its own
view, at every decision of seeded random playouts of H-1 to H-3 to their end (see tests/test_view_legality.py)."""

from __future__ import annotations

import pytest

from tests.test_view_legality import check_playout

SCENARIOS = ["h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_13_2_legal_actions_are_read_from_the_view_of_the_side_to_act(scenario: str, seed: int) -> None:
    assert check_playout("hacse", scenario, seed=seed, limit=5000) > 50
