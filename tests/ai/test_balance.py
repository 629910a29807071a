"""``planspiel balance`` (issue 20): one AI level against itself; win rates per side with 95 % intervals, draws,
the median length, the losses of each side per turn as a chart, and ``--json`` with the figures the issue names."""

from __future__ import annotations

import io
import json

import pytest

import engine
from engine.ai.balance import loss_chart, run_cli
from engine.ai.simulate import play_game, simulate
from tui.cli import main


def test_cli_prints_rates_length_a_chart_and_the_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["balance", "minirules", "duel", "--games", "6", "--ai", "greedy", "--seed", "3", "--json"])
    out = capsys.readouterr()
    assert code == 0 and "Traceback" not in out.err
    lines = out.out.strip().splitlines()
    data = json.loads(lines[-1])
    assert data["games"] == 6 and data["a_wins"] + data["b_wins"] + data["draws"] == 6
    assert data["a"] == data["b"] == "greedy", "the same agent on both sides"
    assert data["median_turns"] is not None and data["median_turns"] >= 1
    assert "a greedy as red" in out.out and "b greedy as blue" in out.out and "95 % CI" in out.out
    assert f"median length: {data['median_turns']:g} turn" in out.out
    chart = lines[lines.index(next(x for x in lines if x.startswith("Steps lost"))) :][:-1]
    assert chart[1].split()[:3] == ["turn", "red", "blue"]
    assert len(chart) == 2 + len(data["losses_by_turn"]), chart
    assert all(len(x) <= 80 for x in chart), "the chart reads at 80 columns"


def test_a_games_losses_per_turn_are_the_steps_each_side_lost() -> None:
    """The record of one game: per turn played, the steps lost by each side since the set-up (never fewer than
    the turn before), ending with the losses at the end of the game."""
    result = play_game("minirules", "duel", "greedy", "greedy", 4, 0)
    assert result.error is None and len(result.losses) == result.turns
    for before, after in zip(result.losses, result.losses[1:], strict=False):
        assert after[0] >= before[0] and after[1] >= before[1]
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=result.seed)
    start = {s: sum(u.steps for u in game.state.units.values() if u.side == s) for s in ("red", "blue")}
    assert 0 <= result.losses[-1][0] <= start["red"] and 0 <= result.losses[-1][1] <= start["blue"]
    assert sum(result.losses[-1]) > 0, "greedy against greedy: somebody lost something in the duel"


def test_same_seed_same_balance_whatever_the_workers() -> None:
    one = simulate("minirules", "duel", games=4, a="greedy", b="greedy", workers=1, seed=8)
    two = simulate("minirules", "duel", games=4, a="greedy", b="greedy", workers=2, seed=8)
    assert (one.a_wins, one.b_wins, one.draws, one.turns, one.losses) == (
        two.a_wins,
        two.b_wins,
        two.draws,
        two.turns,
        two.losses,
    )
    assert loss_chart(one) == loss_chart(two)


def test_bad_options_and_scenarios_are_refused_in_a_sentence() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_cli("minirules", "duel", 2, "ai:godlike", 1, 0, False, out=out, err=err) == 2
    assert run_cli("minirules", "nope", 2, "random", 1, 0, False, out=out, err=err) == 2
    assert run_cli("minirules", "duel", 2, "random", 0, 0, False, out=out, err=err) == 2
    said = err.getvalue()
    assert "unknown agent 'ai:godlike'" in said and "nope" in said and "--workers must be at least 1" in said
    assert "Traceback" not in said and out.getvalue() == ""
