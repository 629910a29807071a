"""Provides an order being written (the plan mode's entry) and what the screen shows of it.

An :class:`Entry` is a unit's order of one verb with the arguments chosen so far, the legal actions that still
agree with them, and, at the path stage, the path plotted so far. :func:`drawn` gives its map overlay and the
hex panel's lines, :func:`note` its status line: pure functions of the entry, the side's view and the ruleset's
presentation (whose :meth:`~engine.presentation.Presentation.path_preview` is the engine's word on a path's
cost). No Textual here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from engine import Action, Board, GameState, Hex
from engine.presentation import GameInfo, PathPreview, Presentation

from .marks import Overlay
from .overlay import Drawn

__all__ = ["Entry", "drawn", "labels", "next_hexes", "note", "path_action", "preview"]


@dataclass(frozen=True)
class Entry:
    """An order being written: its unit and verb, the arguments chosen so far and the candidates left."""

    unit: str
    verb: str
    actions: tuple[Action, ...]
    """The unit's legal actions of this verb that agree with the arguments chosen so far."""
    args: tuple[str, ...] = ()
    """Arguments chosen after the unit."""
    path: tuple[Hex, ...] | None = None
    """The plotted path (None: not in the path stage)."""
    targets: Mapping[Hex, tuple[str, ...]] = field(default_factory=dict)
    """In the target stage: hex → the argument values there."""
    verdict: str = ""
    """The engine's word on the path as plotted."""

    def but(self, **changes: object) -> Entry:
        """The entry with some fields changed (an entry is never changed in place: the screen watches it)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def labels(board: Board, hexes: tuple[Hex, ...]) -> list[str]:
    """Hex labels, in order."""
    return [board.label(h) for h in hexes]


def path_action(e: Entry, board: Board, extra: tuple[Hex, ...] = (), *, path: tuple[Hex, ...] | None = None) -> Action:
    """The order as written so far, with the plotted path (or ``path``), and ``extra`` hexes after it."""
    hexes = e.path if path is None else path
    return Action(e.verb, (e.unit, *e.args, *labels(board, (*(hexes or ()), *extra))))


class _Previews:
    """The previews asked of one view, kept until another view is asked about (a view never changes, and plotting
    a path asks about the same paths again and again: the status line and the hex panel both cost the path,
    the overlay costs each next hex)."""

    view: GameState | None = None
    presenter: Presentation | None = None
    found: dict[Action, PathPreview | None] = {}  # noqa: RUF012 - replaced, never shared


def preview(presenter: Presentation, view: GameState, action: Action) -> PathPreview | None:
    """The engine's cost of a movement order's path from this side's view (None: no path to cost)."""
    memo = _Previews
    if memo.view is not view or memo.presenter is not presenter:
        memo.view, memo.presenter, memo.found = view, presenter, {}
    if action not in memo.found:
        memo.found[action] = presenter.path_preview(view, action)
    return memo.found[action]


def next_hexes(e: Entry, info: GameInfo) -> list[Hex]:
    """Hexes that continue the plotted path along a path the engine lists for this order."""
    board = info.board
    start = info.path_start(e.verb) or 0
    written = labels(board, e.path or ())
    out = []
    for a in e.actions:
        path = list(a.args[start:])
        if len(path) > len(written) and path[: len(written)] == written:
            try:
                out.append(board.parse(path[len(written)]))
            except ValueError:
                continue
    return out


def cost_note(e: Entry, info: GameInfo, presenter: Presentation, view: GameState, *, short: bool = False) -> str:
    """``2 hexes, cost 3 of movement range 4, 1 left``: the engine's cost of the plotted path (4.11)."""
    path = e.path or ()
    cost = preview(presenter, view, path_action(e, info.board))
    if cost is None:
        return f"{len(path)} hex" + ("" if len(path) == 1 else "es")
    return cost.short if short else cost.words


def argument_name(e: Entry, info: GameInfo) -> str:
    """The next argument's name in the verb's notation (``FIRE-HEX`` → ``fire hex``), else ``target``."""
    pattern = info.verbs.get(e.verb, "").split(":", 1)[0].split()
    i = len(e.args) + 2  # the verb, the unit, then the arguments chosen so far
    name = pattern[i] if i < len(pattern) else "TARGET"
    return name.strip("[].").lower().replace("-", " ") or "target"


def note(e: Entry, info: GameInfo, presenter: Presentation, view: GameState) -> str:
    """The status line while the order is written: what to pick next, or the path's cost and the engine's word."""
    head = f"{presenter.verb_name(e.verb)} for {e.unit}"
    if e.path is None:
        return f"{head}: pick the {argument_name(e, info)} on the map (◎), Enter picks, Escape cancels"
    plotted = " ".join(labels(info.board, e.path)) or "none yet"
    verdict = f" · {e.verdict}" if e.verdict else ""
    return f"{head}: {cost_note(e, info, presenter, view, short=True)} · path {plotted}{verdict}"


def help_lines(e: Entry, info: GameInfo, presenter: Presentation, view: GameState) -> list[str]:
    """Lines for the hex panel while an order is written: the engine's verdict in full, then the keys."""
    if e.path is None:
        return [f"{e.verb} {e.unit}: Enter on a marked hex (◎) picks it, Escape cancels"]
    lines = [f"path: {cost_note(e, info, presenter, view)} (4.11)"]
    if e.verdict:
        lines.append(f"engine: {e.verdict}")
    lines.append("· marks a hex the movement range still allows (» one on a listed path)")
    lines.append("Enter adds the hex under the cursor, Backspace takes the last back,")
    lines.append("y or Enter on the last hex gives the order, Escape cancels")
    return lines


def drawn(e: Entry, info: GameInfo, presenter: Presentation, view: GameState, *, assault: bool) -> Drawn:
    """The map while the order is written: the targets (``◎``), or the path numbered hex by hex with the next hexes
    the movement range allows (``·``, ``»`` on a path the engine lists); ``assault``: the path's last hex is the
    target."""
    board = info.board
    overlay: dict[Hex, Overlay] = {}
    u = view.units.get(e.unit)
    if e.path is not None:
        start = u.hex if u is not None else None
        last = e.path[-1] if e.path else start
        if last is not None:
            for n in last.neighbours():
                if n in board.cells and n not in e.path and n != start:
                    cost = preview(presenter, view, path_action(e, board, (n,)))
                    if cost is None or not cost.problem:  # the engine would take the hex (e.g. AoT 4.1, 4.11)
                        overlay[n] = Overlay("reach", "·")
            for h in next_hexes(e, info):
                overlay[h] = Overlay("step", "»")
        for i, h in enumerate(e.path, start=1):
            last_is_target = assault and i == len(e.path)
            overlay[h] = Overlay("target" if last_is_target else "step", f"{i}")
    else:
        for h in e.targets:
            overlay[h] = Overlay("target", "◎")
    if u is not None and u.hex is not None:
        overlay[u.hex] = Overlay("select")
    return Drawn(overlay, tuple(help_lines(e, info, presenter, view)))
