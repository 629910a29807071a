"""The ruleset README documents every notation verb the engine accepts (issue 3, item 10)."""

from __future__ import annotations

from pathlib import Path

from engine.rulesets.blitzkrieg1940 import RULESET

README = Path(RULESET.data_dir).parent / "README.md"


def test_every_verb_is_listed_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    missing = [verb for verb in RULESET.verbs if f"`{verb}`" not in text]
    assert not missing, f"README.md does not list: {', '.join(missing)}"


def test_every_verb_has_a_help_line_citing_a_rule() -> None:
    for verb, line in RULESET.verbs.items():
        assert line.startswith(verb), verb
        assert "(" in line and any(ch.isdigit() for ch in line.rsplit("(", 1)[1]), f"{verb}: no rule cited"
