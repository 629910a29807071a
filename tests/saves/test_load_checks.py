"""What loading checks beyond the bytes: format versions, the ruleset, the embedded scenario, the replayed
history against the snapshot (and which wins when they differ), and falling back to the ``.bak`` file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import msgpack
import pytest

import engine
import saves
from tests.saves.helpers import play_random, repack

NAME = "g.planspiel"


@pytest.fixture
def data(duel_game: engine.Game) -> bytes:
    return saves.encode_game(duel_game, {"blue": "ai:random"})[0]


def error_of(data: bytes, verify: saves.Verify = "replay") -> str:
    with pytest.raises(saves.SaveError) as info:
        saves.decode_game(data, NAME, verify=verify)
    assert str(info.value).startswith(f"{NAME}: ")
    return info.value.cause


def test_a_newer_format_is_refused_naming_both_versions(data: bytes) -> None:
    newer = repack(data, header=lambda h: h.update(format=99, app="9.9.0", surprise=[1, 2]))
    cause = error_of(newer)
    assert "newer version of Planspiel" in cause
    assert "save format 99" in cause and "formats 1 to 1" in cause
    assert "Planspiel 9.9.0" in cause and f"Planspiel {engine.__version__}" in cause


def test_a_newer_format_is_refused_even_with_an_unknown_layout() -> None:
    newer = msgpack.packb({"magic": "planspiel", "format": 2, "whatever": True}) + b"\xc1\xc1"
    assert "save format 2" in error_of(newer)


def test_format_zero_is_damage(data: bytes) -> None:
    assert "no valid save format (0)" in error_of(repack(data, header=lambda h: h.update(format=0)))


def test_an_unknown_ruleset_is_named(data: bytes) -> None:
    cause = error_of(repack(data, header=lambda h: h.update(ruleset="panzerblitz")))
    assert "ruleset 'panzerblitz'" in cause and "not installed" in cause and "blitzkrieg1940" in cause


def test_an_illegal_action_names_its_position(data: bytes) -> None:
    def edit(body: dict[str, Any]) -> None:
        body["history"][2] = "move red-inf-1 0909"

    cause = error_of(repack(data, body=edit))
    assert cause.startswith("illegal action in the history at position 3 ('move red-inf-1 0909')"), cause


def test_an_unknown_verb_names_its_position(data: bytes) -> None:
    cause = error_of(repack(data, body=lambda b: b["history"].insert(0, "dance")))
    assert "position 1" in cause and "unknown verb" in cause


def test_a_broken_embedded_scenario_is_reported(data: bytes) -> None:
    cause = error_of(
        repack(data, body=lambda b: b.update(scenario_text=b["scenario_text"].replace("turns = 4", "turns = 0")))
    )
    assert "holds a scenario that no longer loads" in cause and "duel.toml" in cause


def test_a_broken_snapshot_is_replaced_by_the_replayed_history(data: bytes, duel_game: engine.Game) -> None:
    broken = repack(data, body=lambda b: b["state"]["units"]["red-inf-1"].update(hex="zz"))
    game = saves.decode_game(broken, NAME, verify="snapshot")
    assert game.state == duel_game.state and game.history == duel_game.history
    assert game.warnings == [
        "the save holds a saved position that cannot be read (not a hex label: 'zz' (expected four digits CCRR, "
        "e.g. 0706)); the game continues from its history, replayed"
    ]
    assert game.snapshot is None and saves.check_replay(game) == []  # nothing left for the later check


def test_a_broken_snapshot_and_a_broken_history_are_both_named(data: bytes) -> None:
    def edit(body: dict[str, Any]) -> None:
        body["state"]["units"]["red-inf-1"]["hex"] = "zz"
        body["history"][2] = "move red-inf-1 0909"

    cause = error_of(repack(data, body=edit), verify="snapshot")
    assert cause.startswith(
        "holds a saved position that cannot be read (not a hex label: 'zz' (expected four digits CCRR, e.g. 0706)), "
        "and its history does not replay either: illegal action in the history at position 3 ('move red-inf-1 0909')"
    ), cause


def test_a_game_save_is_not_a_campaign_and_back(data: bytes) -> None:
    with pytest.raises(saves.SaveError, match="not a campaign save"):
        saves.decode_campaign(data, NAME)
    campaign = saves.CampaignSave("c", "C", "minirules")
    with pytest.raises(saves.SaveError, match="not a game save"):
        saves.decode_game(saves.encode_campaign(campaign)[0], NAME)


def test_snapshot_mismatch_same_version_the_replay_wins(
    data: bytes, duel_game: engine.Game, caplog: pytest.LogCaptureFixture
) -> None:
    tampered = repack(data, body=lambda b: b["state"]["units"]["red-inf-1"].update(steps=9))
    with caplog.at_level(logging.WARNING, logger="saves"):
        game = saves.decode_game(tampered, NAME)
    assert game.state == duel_game.state  # the replayed state, not the tampered snapshot
    assert not game.verified
    assert len(game.warnings) == 1
    assert "differs from the saved position" in game.warnings[0]
    assert "state.units.red-inf-1.steps: saved 9, replayed" in game.warnings[0]
    assert "continues from the replayed one" in game.warnings[0]
    assert any("differs from the saved position" in r.getMessage() for r in caplog.records)
    report = saves.check_replay(saves.decode_game(tampered, NAME, verify="snapshot"))
    assert report and "steps: saved 9" in report[0]


def test_snapshot_mismatch_other_version_the_snapshot_wins(data: bytes) -> None:
    def tamper(b: dict[str, Any]) -> None:
        b["state"]["units"]["red-inf-1"]["steps"] = 1

    tampered = repack(data, header=lambda h: h.update(ruleset_version="0"), body=tamper)
    game = saves.decode_game(tampered, NAME)
    assert game.state.units["red-inf-1"].steps == 1  # the saved position
    assert len(game.warnings) == 1
    w = game.warnings[0]
    assert "saved with minirules version 0, this is version 1" in w and "replays differently" in w


def test_an_illegal_history_under_another_version_loads_the_snapshot(data: bytes, duel_game: engine.Game) -> None:
    def edit(body: dict[str, Any]) -> None:
        body["history"][0] = "move red-inf-1 0909"

    game = saves.decode_game(repack(data, header=lambda h: h.update(ruleset_version="0"), body=edit), NAME)
    assert game.state == duel_game.state
    assert "no longer replays" in game.warnings[0] and "position 1" in game.warnings[0]


def test_another_version_that_replays_identically_is_fine(data: bytes) -> None:
    game = saves.decode_game(repack(data, header=lambda h: h.update(ruleset_version="0")), NAME)
    assert game.verified and game.warnings == []
    snap = saves.decode_game(repack(data, header=lambda h: h.update(ruleset_version="0")), NAME, verify="snapshot")
    assert "version 0, this is version 1" in snap.warnings[0] and "not been replayed" in snap.warnings[0]


def test_verify_must_be_known(data: bytes) -> None:
    with pytest.raises(ValueError, match="verify"):
        saves.decode_game(data, NAME, verify="maybe")  # type: ignore[arg-type]


def test_the_backup_is_loaded_when_the_save_is_damaged(duel_game: engine.Game, tmp_path: Path) -> None:
    path = tmp_path / NAME
    saves.save_game(duel_game, path)
    older = len(duel_game.history)
    play_random(duel_game, 2, 3)
    saves.save_game(duel_game, path)
    assert saves.backup_path(path).is_file()
    damaged = bytearray(path.read_bytes())
    damaged[-5] ^= 0xFF
    path.write_bytes(bytes(damaged))
    game = saves.load_game(path)
    assert len(game.history) == older
    assert game.path == path
    assert "checksum mismatch" in game.warnings[0] and "loaded the backup g.planspiel.bak" in game.warnings[0]
    with pytest.raises(saves.SaveError, match="checksum mismatch"):
        saves.load_game(path, backup=False)
    saves.backup_path(path).write_bytes(b"junk")
    with pytest.raises(saves.SaveError, match="its backup cannot be loaded either: is not a Planspiel save"):
        saves.load_game(path)


def test_a_damaged_save_never_replaces_a_good_backup(duel_game: engine.Game, tmp_path: Path) -> None:
    path = tmp_path / NAME
    saves.save_game(duel_game, path)
    saves.save_game(duel_game, path)
    good_backup = saves.backup_path(path).read_bytes()
    path.write_bytes(b"garbage")
    saves.save_game(duel_game, path)
    assert saves.backup_path(path).read_bytes() == good_backup
    saves.load_game(path, backup=False)


def test_verify_save_reports(duel_game: engine.Game, data: bytes, tmp_path: Path) -> None:
    good = tmp_path / "good.planspiel"
    saves.save_game(duel_game, good)
    report = saves.verify_save(good)
    assert report.ok and report.problems == () and report.header is not None and report.seconds > 0
    bad = tmp_path / "bad.planspiel"
    bad.write_bytes(repack(data, body=lambda b: b["state"].update(turn=3)))
    report = saves.verify_save(bad)
    assert not report.ok and "state.turn: saved 3" in report.problems[0]
    report = saves.verify_save(tmp_path / "none.planspiel")
    assert not report.ok and report.problems == ("no such file",)


def test_notation_the_ruleset_cannot_read_back_replays_when_it_is_a_legal_action(
    duel_game: engine.Game, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A ruleset bug (describe() writes what parse_action() refuses) must not make a save unloadable."""
    assert engine.Action("end") in duel_game.history
    data, _ = saves.encode_game(duel_game)
    ruleset = engine.get_ruleset("minirules")
    real = ruleset.parse_action

    def picky(state: engine.GameState, text: str) -> engine.Action:
        if text == "end":
            raise engine.InvalidActionError("cannot read 'end' today")
        return real(state, text)

    monkeypatch.setattr(ruleset, "parse_action", picky)
    with caplog.at_level(logging.WARNING, logger="saves"):
        game = saves.decode_game(data, NAME)
    assert game.verified and game.warnings == [] and game.history == duel_game.history
    assert (
        "minirules cannot read 'end' (cannot read 'end' today); it is the legal action Action('end', ())" in caplog.text
    )
    # Notation that reads as no legal action is still an illegal action at its position.
    bad = repack(data, body=lambda b: b["history"].insert(0, "end end"))
    assert "position 1 ('end end')" in error_of(bad)
