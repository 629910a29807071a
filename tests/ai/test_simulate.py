"""``planspiel simulate``: deterministic for a seed whatever the worker count, statistics, errors reported."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from engine.ai import RandomAgent
from engine.ai.simulate import ProgressBar, agent_level, game_seed, run_cli, simulate, wilson
from tui.cli import main


def _summary(r: Any) -> tuple[Any, ...]:
    return (r.a_wins, r.b_wins, r.draws, r.turns, [len(ts) for ts in r.times.values()], r.errors)


def test_same_seed_same_results_whatever_the_workers() -> None:
    one = simulate("minirules", "duel", games=4, a="greedy", b="random", workers=1, seed=11)
    two = simulate("minirules", "duel", games=4, a="greedy", b="random", workers=2, seed=11)
    assert _summary(one) == _summary(two)
    assert one.finished == 4


def test_another_seed_plays_other_games() -> None:
    assert game_seed(1, 0) != game_seed(2, 0) != game_seed(1, 1)
    assert game_seed(1, 0, "a") != game_seed(1, 0, "b")


def test_cli_prints_a_report_and_a_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "minirules", "duel", "--games", "3", "--a", "ai:easy", "--b", "random", "--json"])
    out = capsys.readouterr()
    assert code == 0
    lines = out.out.strip().splitlines()
    data = json.loads(lines[-1])
    for key in ("games", "a_wins", "b_wins", "draws", "decision_s_median", "decision_s_max"):
        assert key in data
    assert data["games"] == 3 and data["a_wins"] + data["b_wins"] + data["draws"] == 3
    assert data["a_side"] == "red"  # --a plays the scenario's first side
    assert "a easy as red" in out.out and "95 % CI" in out.out
    assert "Traceback" not in out.err


def test_a_failing_game_is_reported_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: RandomAgent, view: Any, budget_s: float, progress: Any = None) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(RandomAgent, "choose", boom)
    out, err = io.StringIO(), io.StringIO()
    code = run_cli("minirules", "duel", 2, "random", "random", 1, 5, True, out=out, err=err)
    assert code == 1
    text = out.getvalue()
    assert f"game 0 (game seed {game_seed(5, 0)}) failed: RuntimeError: boom" in text
    assert json.loads(text.strip().splitlines()[-1])["errors"] == 2
    assert "Traceback" not in text + err.getvalue()


def test_bad_options_are_refused_in_a_sentence() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_cli("minirules", "duel", 2, "ai:godlike", "random", 1, 0, False, out=out, err=err) == 2
    assert "unknown agent 'ai:godlike'" in err.getvalue()
    assert run_cli("minirules", "duel", 0, "random", "random", 1, 0, False, out=out, err=err) == 2
    assert "--games must be at least 1" in err.getvalue()
    assert agent_level("AI:Hard") == "hard"


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(190, 200)
    assert lo < 0.95 < hi
    assert wilson(200, 200)[1] == 1.0


def test_progress_bar_without_a_terminal_prints_lines() -> None:
    s = io.StringIO()
    bar = ProgressBar(s)
    for i in range(1, 21):
        bar(i, 20)
    lines = s.getvalue().splitlines()
    assert lines[-1].startswith("20/20 games") and len(lines) == 11
