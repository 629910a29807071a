"""Provides shared fixtures: the test-only minirules ruleset, registered for the whole session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engine
from tests.minirules import RULESET as MINIRULES


@pytest.fixture(scope="session", autouse=True)
def _minirules() -> Iterator[None]:
    engine.register_ruleset(MINIRULES, replace=True)
    yield
    engine.unregister_ruleset(MINIRULES.id)


@pytest.fixture
def duel() -> engine.Scenario:
    """The minirules duel scenario."""
    return engine.load_scenario("minirules", "duel")
