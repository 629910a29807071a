"""The player's references (``REFERENCE.md`` of every shipped ruleset): one exists, it names every verb of the
ruleset's notation, and every rule it cites (``§N.N``) is a numbered heading or rule of the ruleset's digest."""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "engine" / "rulesets"

DIGESTS = {"blitzkrieg1940": "blitzkrieg-1940.md", "art_of_tactic": "art-of-tactic-barbarossa.md", "hacse": "hacse.md"}
"""Ruleset id → its rules digest (``shared/rules/``); a shipped ruleset must name one here."""

CITE = re.compile(r"§\s*(\d+(?:\.\d+)*)")
"""A rule the reference cites: §6.3.1, §11."""

HEADING = re.compile(r"^#+\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)
BOLD_RULE = re.compile(r"\*\*(\d+(?:\.\d+)+)\.?\s")
BOLD_PAREN = re.compile(r"\*\*[^*\n]*\((\d+(?:\.\d+)+)\)\.?\*\*")


def shipped() -> list[str]:
    """The registered rulesets whose package is under engine/rulesets (the test-only ones left out)."""
    return [n for n in engine.ruleset_names() if SHIPPED in _package(n).parents]


def _package(name: str) -> Path:
    return Path(inspect.getfile(type(engine.get_ruleset(name)))).parent


def _digest_dir() -> Path | None:
    env = os.environ.get("PLANSPIEL_RULES_DIGESTS")
    candidates = [Path(env)] if env else []
    candidates += [p / "shared" / "rules" for p in ROOT.parents]
    return next((c for c in candidates if c.is_dir()), None)


def rule_numbers(digest: str) -> set[str]:
    """The rule numbers a digest defines: its numbered headings and its bold rule numbers (**8.6.1 Procedure.**,
    **Range (8.2.4).**)."""
    found = set(HEADING.findall(digest)) | set(BOLD_RULE.findall(digest)) | set(BOLD_PAREN.findall(digest))
    return {n.rstrip(".") for n in found}


def missing_citations(reference: str, digest: str) -> list[str]:
    """The rule numbers the reference cites that the digest does not define."""
    known = rule_numbers(digest)
    return sorted({n for n in CITE.findall(reference) if n not in known})


def test_the_shipped_rulesets_are_found() -> None:
    assert set(DIGESTS) <= set(shipped())
    assert "minirules" not in shipped()


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_every_shipped_ruleset_has_a_reference_naming_every_verb(name: str) -> None:
    path = _package(name) / "REFERENCE.md"
    assert path.is_file(), f"{name} has no player's reference ({path})"
    text = path.read_text(encoding="utf-8")
    verbs = sorted(engine.get_ruleset(name).notations)
    assert verbs
    left_out = [v for v in verbs if not re.search(rf"`{re.escape(v)}[` ]", text)]
    assert not left_out, f"{path.name} of {name} does not name these verbs (as `verb`): {left_out}"
    assert len(text.splitlines()) <= 400, "a player's reference stays short"


def test_no_shipped_ruleset_lacks_a_digest() -> None:
    assert set(shipped()) <= set(DIGESTS), "name the new ruleset's digest in DIGESTS"


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_every_rule_the_reference_cites_is_in_the_digest(name: str) -> None:
    folder = _digest_dir()
    if folder is None or not (folder / DIGESTS[name]).is_file():
        pytest.skip(
            "the rules digests (shared/rules) are not next to this checkout; PLANSPIEL_RULES_DIGESTS names them"
        )
    digest = (folder / DIGESTS[name]).read_text(encoding="utf-8")
    reference = (_package(name) / "REFERENCE.md").read_text(encoding="utf-8")
    assert len(CITE.findall(reference)) >= 20, "the reference cites its rules as §N.N"
    missing = missing_citations(reference, digest)
    assert not missing, f"{name}: cited but not in the digest: {missing}"


def test_the_citation_check_can_fail() -> None:
    digest = "## 6.3 Reactions\n\n**6.3.1 Opportunity fire.** text\n\n* **Range (8.2.4).** text\n"
    assert missing_citations("see §6.3, §6.3.1 and §8.2.4", digest) == []
    assert missing_citations("see §6.3.2 and §99", digest) == ["6.3.2", "99"]
