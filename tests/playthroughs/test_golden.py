"""Golden transcripts: a seeded game replays to exactly the stored notation and events (OpenSpiel style)."""

from __future__ import annotations

import difflib
import re

import pytest

from .golden import GAMES, path_of, transcript


@pytest.mark.parametrize(("ruleset", "scenario", "seed"), GAMES)
def test_golden_transcript(ruleset: str, scenario: str, seed: int) -> None:
    expected = path_of(ruleset, scenario, seed).read_text(encoding="utf-8")
    actual = transcript(ruleset, scenario, seed)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "stored", "now", n=2))
        pytest.fail(
            "the game no longer plays as recorded; if the change is deliberate, regenerate with "
            "`.venv/bin/python -m tests.playthroughs.golden` and review the diff:\n" + diff[:4000]
        )


@pytest.mark.parametrize(("ruleset", "scenario", "seed"), GAMES)
def test_no_line_cites_a_rule_twice(ruleset: str, scenario: str, seed: int) -> None:
    """Issue 18 item 9: "heavy attack on 0907 (rule 8.6.1) (rule 8.6.1)"."""
    twice = [
        line
        for line in path_of(ruleset, scenario, seed).read_text(encoding="utf-8").splitlines()
        if len(cites := re.findall(r"\(rules? [^)]*\)", line)) != len(set(cites))
    ]
    assert not twice, twice[:5]
