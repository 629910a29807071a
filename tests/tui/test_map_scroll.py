"""Issue 18 item 7: the map's row labels stay clear at 80×24 whatever the sideways scroll (no half hex column next to
them)."""

from __future__ import annotations

from tui.app import PlanspielApp
from tui.screens.game import GameScreen
from tui.widgets.hexmap import SIDE_GLYPHS, STEP, HexMap

from .conftest import hannut, make_app, screen_text


def _game(app: PlanspielApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def test_row_labels_stay_clear_at_80x24_at_every_sideways_scroll() -> None:
    """At 80×24 the map is scrolled sideways; at every position the cursor takes it to, right of each row label the
    map starts with a hex column's side, so that no half hex stands next to the labels, and the labels are intact."""
    app = make_app(hannut())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        m = _game(app).map
        seen: set[int] = set()
        for key in ["left"] * 20 + ["right"] * 20:
            await pilot.press(key)
            await pilot.pause()
            seen.add(m.scroll_offset.x)
            _check_clear(app, m)
        assert len(seen) >= 3, f"the map scrolled: {sorted(seen)}"
        assert m.scroll_offset.x == m.max_scroll_x, "and reached its right end"


def _check_clear(app: PlanspielApp, m: HexMap) -> None:
    lines = screen_text(app).splitlines()
    top, left = m.region.y, m.region.x
    view = m.region.width - m.label_width - 1  # the last column is the scrollbar
    sides = set("/\\ ") | set(SIDE_GLYPHS.values())  # a hexside feature replaces the slant
    _, sy = m.scroll_offset
    for i in range(1, m.region.height - 1):
        line = lines[top + i][left : left + m.label_width + view].ljust(m.label_width + view)
        label, rest = line[: m.label_width], line[m.label_width :]
        my = i - 1 + sy
        expected = f"{(my + 1) // 2:02d} " if my % 2 == 1 and (my + 1) // 2 <= m.rows else "   "
        assert label == expected, f"row label of line {i}: {label!r}"
        at_sides = {rest[j] for j in range(0, len(rest), STEP)}
        assert at_sides <= sides, f"line {i} starts inside a hex: {rest!r}"
    header = lines[top][left + m.label_width :]
    numbers = [header[j + 3 : j + 5] for j in range(0, view - STEP, STEP)]
    assert all(n.isdigit() for n in numbers), f"whole column labels over whole columns: {header!r}"
