"""Registers the HACSE ruleset for the tests of this folder (the package does not export it yet)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engine
from engine.rulesets.hacse.ruleset import Hacse


@pytest.fixture(scope="package", autouse=True)
def _hacse() -> Iterator[None]:
    engine.register_ruleset(Hacse(), replace=True)
    yield
    engine.unregister_ruleset("hacse")
