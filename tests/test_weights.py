"""``engine.weights.read_weights``: a ruleset's table of AI weights, read and checked the same way by every
ruleset (Art of Tactic's and HACSE's ``data/ai.toml``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.weights import read_weights


class BadData(Exception):
    pass


def test_weights_are_read_as_floats(tmp_path: Path) -> None:
    path = tmp_path / "ai.toml"
    path.write_text("[ai]\nmaterial = 1\nobjective = 2.5\n", encoding="utf-8")
    assert read_weights(path, BadData) == {"material": 1.0, "objective": 2.5}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[ai]\nmaterial = 'lots'\n", "ai.toml: ai.material: expected a number, got 'lots'"),
        ("[ai]\nflag = true\n", "ai.toml: ai.flag: expected a number"),
        ("material = 1\n", "ai.toml: expected an [ai] table of weights"),
        ("[ai\n", "ai.toml: cannot read it"),
    ],
)
def test_a_bad_file_is_refused_with_its_name_and_key(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "ai.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadData, match=None) as err:
        read_weights(path, BadData)
    assert said in str(err.value)
