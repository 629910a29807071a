"""``ai:N``: the planner with N seconds per decision (issue 20), next to the named levels."""

from __future__ import annotations

import json

import pytest

from engine.ai import make_agent, parse_player
from engine.ai.planner import LEVELS, PlannerAgent
from engine.ai.simulate import agent_level
from tui.cli import main


@pytest.mark.parametrize(
    ("seconds", "like"), [("0.3", "easy"), ("1", "normal"), ("2.5", "normal"), ("5", "hard"), ("30", "hard")]
)
def test_seconds_take_the_widths_of_the_largest_level_they_cover(seconds: str, like: str) -> None:
    agent = make_agent(seconds, seed=1)
    assert isinstance(agent, PlannerAgent) and agent.budget_s == float(seconds)
    assert (agent.settings.width, agent.settings.reply_width) == (LEVELS[like].width, LEVELS[like].reply_width)
    assert parse_player(f"ai:{seconds}") == ("ai", seconds) and agent_level(f"ai:{seconds}") == seconds


@pytest.mark.parametrize("bad", ["ai:0", "ai:-1", "ai:nan", "ai:inf", "ai:601", "ai:fast"])
def test_bad_seconds_are_refused_with_what_is_expected(bad: str) -> None:
    with pytest.raises(ValueError, match=r"above 0|unknown player"):
        parse_player(bad)


def test_simulate_takes_ai_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "blitzkrieg1940", "hannut", "--games", "1", "--a", "ai:0.05", "--b", "random", "--json"]
    assert main([*argv, "--seed", "3"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["games"] == 1 and result["a"] == "0.05"
