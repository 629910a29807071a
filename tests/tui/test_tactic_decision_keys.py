"""Art of Tactic 15.2 on the execution screen: a decision with more than nine options (supply amounts, smoke
hexes) is answered by keys too: up and down move the highlight over every option, Enter takes it."""

from __future__ import annotations

from textual.app import App

from engine.presentation import Report as RoundReport
from tui.screens.resolution import ExecutionScreen


class Host(App[None]):
    def __init__(self, screen: ExecutionScreen) -> None:
        super().__init__()
        self.execution = screen
        self.answer: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.execution, self.answer.append)


def decision(n: int) -> dict[str, object]:
    return {
        "side": "german",
        "rule": "9.16",
        "question": "ger-5-inf takes supply from ger-9-opel: how many points?",
        "options": [[str(k), f"{k} points"] for k in range(n, 0, -1)],
    }


async def test_15_2_down_reaches_the_eleventh_option_and_enter_takes_it() -> None:
    host = Host(ExecutionScreen(RoundReport(3, ["(the round's log)"], [], []), decision(12)))
    async with host.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert "▶  1  12 points  (preset)" in host.execution.text
        for _ in range(10):
            await pilot.press("down")
        await pilot.press("up", "down")
        assert "▶ 11  2 points" in host.execution.text
        await pilot.press("enter")
        await pilot.pause()
    assert host.answer == ["2"]


async def test_15_2_up_from_the_preset_wraps_to_the_last_option() -> None:
    host = Host(ExecutionScreen(RoundReport(3, ["(the round's log)"], [], []), decision(12)))
    async with host.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("up", "enter")
        await pilot.pause()
    assert host.answer == ["1"]


async def test_15_2_enter_alone_still_takes_the_preset() -> None:
    host = Host(ExecutionScreen(RoundReport(3, ["(the round's log)"], [], []), decision(3)))
    async with host.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert host.answer == ["3"]
