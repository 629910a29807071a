"""The player's reference of HACSE (``REFERENCE.md``), held to what ``tests/rulesets/test_references.py`` asks of
every shipped ruleset, with HACSE's own checks besides (written before the ruleset was offered): it names every
verb of the notation, stays short, and every rule it cites (§N.N) is a numbered rule of the digest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rulesets.hacse.notation import NOTATIONS, VERBS
from tests.rulesets.test_references import CITE, _digest_dir, missing_citations

REFERENCE = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "hacse" / "REFERENCE.md"
DIGEST = "hacse.md"


def _text() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def test_the_reference_names_every_verb_and_stays_short() -> None:
    text = _text()
    assert set(NOTATIONS) == set(VERBS)
    left_out = [v for v in sorted(NOTATIONS) if not re.search(rf"`{re.escape(v)}[` ]", text)]
    assert not left_out, f"REFERENCE.md does not name these verbs (as `verb`): {left_out}"
    assert len(text.splitlines()) <= 400


def test_every_rule_the_reference_cites_is_in_the_digest() -> None:
    folder = _digest_dir()
    if folder is None or not (folder / DIGEST).is_file():
        pytest.skip(
            "the rules digests (shared/rules) are not next to this checkout; PLANSPIEL_RULES_DIGESTS names them"
        )
    text = _text()
    assert len(CITE.findall(text)) >= 20
    assert missing_citations(text, (folder / DIGEST).read_text(encoding="utf-8")) == []


def test_the_reference_tables_agree_with_the_data_files() -> None:
    from engine.rulesets.hacse.data import load_tables  # noqa: PLC0415

    text = _text()
    for sheet in load_tables().sheets.values():
        row = next((line for line in text.splitlines() if line.startswith(f"| {sheet.id} |")), None)
        assert row is not None, f"{sheet.id} is missing from the roster table"
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[2] == f"{sheet.mp} / {sheet.road_mp}", sheet.id
        a = sheet.armour
        assert cells[3] == (
            "0" if not (a.front or a.side or a.rear or a.top) else f"{a.front} / {a.side} / {a.rear} / {a.top}"
        )
        assert cells[5:] == [str(sheet.possible_damage), str(sheet.bv)], sheet.id
