"""15.2: saves made with Art of Tactic version 1 (main at 56142a3, before the Execution Phase became a cursor) still
load and play on exactly as they would have.

The fixtures in ``fixtures/`` are frozen: three games paused at an execution decision (version 1 kept a snapshot of
the round's start in the state: a Defend target in step 10, a transport's cargo loss in step 10, a second group-fire
target in step 3) and one in a Planning Phase. ``aot_v1_expected.json`` records, from version 1, what each offered
(its legal actions) and what playing on did: the last option, then the preset's, to the end of the round (every
event) and where every unit then stood.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import saves

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPECTED: dict[str, dict[str, Any]] = json.loads((FIXTURES / "aot_v1_expected.json").read_text(encoding="utf-8"))
REWORDED = {"up to 1 hexes": "up to 1 hex"}
"""Event texts worded better since version 1 (issue 18 item 9: a Defend range of one hex, step 1). Events are the
log's sentences, not the position: a save keeps the log it was written with, and its state and history load and
verify as before (the frozen record stays as version 1 wrote it; the comparison reads it with today's words)."""


def _today(text: str) -> str:
    """A version 1 event text with today's wording."""
    for old, new in REWORDED.items():
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("verify", ["replay", "snapshot"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_15_2_a_version_1_save_loads_and_plays_on_as_it_would_have(name: str, verify: saves.Verify) -> None:
    expected = EXPECTED[name]
    game = saves.load_game(FIXTURES / name, verify=verify, backup=False)
    assert game.header is not None and game.header.ruleset_version == "1"
    assert (game.state.phase, game.to_act, game.state.turn) == (expected["phase"], expected["to_act"], expected["turn"])
    assert len(game.history) == expected["history"]
    assert [game.describe(a) for a in game.legal_actions()] == expected["legal"]
    assert any("version 1" in w for w in game.warnings), "the player is told the save is of an older version"
    for step in expected["after"]:
        events = game.apply(step["action"])
        expected_events = [[kind, _today(text), seen] for kind, text, seen in step["events"]]
        assert [[e.kind, e.text, list(e.visible_to) if e.visible_to else None] for e in events] == expected_events
    units = {u.id: [u.hex and game.board.label(u.hex), u.steps] for u in game.state.units.values()}
    assert units == expected["end_units"]


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "paused" in n))
def test_15_2_a_paused_version_1_save_is_rebuilt_by_replaying_its_history(name: str) -> None:
    """Version 1 kept the round's start inside a paused state; version 2 cannot read that position, so loading it
    replays the history (the migration): the game is paused at the same question with the cursor in its state."""
    game = saves.load_game(FIXTURES / name, verify="snapshot", backup=False)
    assert any("rebuilt by replaying the history" in w for w in game.warnings)
    assert game.snapshot is None, "nothing saved to compare the replay with"
    cursor = game.state.data.execution
    assert cursor is not None and cursor.pending is not None and cursor.frames
