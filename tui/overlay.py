"""Provides what the game screen's map shows over the terrain: units and markers per hex, and the overlays.

Both are pure functions of what the screen knows: :func:`hex_content` of a side's view and the selection;
:func:`draw` of a :class:`Scene` (the view, the legal actions with what each means, the selection, the cursor,
the flags, the presentation) and the :class:`Answers` of the side-scoped queries the scene needs (reachable
hexes, odds, line of sight, the ruleset's overlays), which :func:`ask` gets from the side's client. No Textual
here: the tests call these functions directly.

>>> from engine.hexgrid import Hex
>>> Overlay("step", "»1") == Overlay("step", "»1")
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from engine import Action, ActionInfo, Board, GameState, Hex, LosResult, Odds, Role, Unit, distance
from engine.errors import ActionError, PlanspielError
from engine.presentation import Presentation

from .client import GameClient
from .marks import HexContent, Overlay, UnitMark

__all__ = [
    "Answers",
    "Drawn",
    "Legal",
    "Scene",
    "ask",
    "draw",
    "effect_chance",
    "hex_content",
    "hint_hexes",
    "los_lines",
    "placements",
    "window_pass",
]

Legal = tuple[tuple[Action, ActionInfo], ...]
"""The legal actions in the engine's order, each with what it means."""


def window_pass(legal: Legal) -> Action | None:
    """The action that lets the moment pass, if the decision is a reaction window (else None): every other action
    is a reaction or a retreat of one of the side's units (a retreat offered after a close combat is one too)."""
    passes = [a for a, i in legal if i.has(Role.PASS) and i.unit is None]
    if len(passes) != 1 or len(legal) < 2:
        return None
    if all(i.any(Role.REACT, Role.RETREAT) or a == passes[0] for a, i in legal):
        return passes[0]
    return None


def effect_chance(odds: Odds) -> float:
    """The probability that a chance action achieves anything (results worth more than nothing)."""
    return float(sum(e.probability for e in odds.entries if e.value > 0))


@dataclass(frozen=True, eq=False)
class Scene:
    """What the overlays are drawn from: the screen's state, read once per change."""

    board: Board
    view: GameState
    """The side's view."""
    presenter: Presentation
    side: str
    """The side on screen."""
    legal: Legal
    selected: str | None = None
    cursor: Hex = field(default_factory=lambda: Hex(0, 0))
    los_on: bool = False
    command_on: bool = False
    placing: bool = False
    """Set-up and arrivals are marked on the map (``+``): the decision is given by selecting and acting."""
    hint: Action | None = None

    def unit(self, unit_id: str | None) -> Unit | None:
        """A unit of the view, if it is there."""
        return self.view.units.get(unit_id) if unit_id else None


@dataclass(frozen=True)
class Answers:
    """The side-scoped queries' answers a scene needs (see :func:`ask`)."""

    reach: Mapping[str, float] = field(default_factory=dict)
    """The selected unit's reachable hexes: ``{label: cost}``."""
    odds: Mapping[Action, Odds | None] = field(default_factory=dict)
    """Odds of the selected unit's shots at targets on the map."""
    los: LosResult | None = None
    """The line of sight from the selected unit to the cursor (with ``los_on``)."""
    marks: Mapping[str, AbstractSet[Hex]] | None = field(default_factory=dict)
    """The ruleset's overlays (name → hexes); None if the engine could not answer."""
    subject: str | None = None
    """The unit whose command range ``marks`` holds (``command_on``)."""
    hint_text: str = ""
    """The hinted action in notation."""
    hint_info: ActionInfo | None = None
    """What the hinted action means."""
    given_path: tuple[Hex, ...] = ()
    """The path of the order the selected unit of this side was given (rulesets with written orders)."""


@dataclass(frozen=True)
class Drawn:
    """The overlays of a scene and the lines that explain them (for the hex panel)."""

    overlay: dict[Hex, Overlay]
    notes: tuple[str, ...] = ()


def hex_content(view: GameState, presenter: Presentation, board: Board, selected: str | None) -> dict[Hex, HexContent]:
    """Each hex with units or markers: its top unit (the selected one if it stands there), count and marker."""
    stacks: dict[Hex, list[Unit]] = defaultdict(list)
    for u in view.iter_units():
        if u.hex is not None:
            stacks[u.hex].append(u)
    out: dict[Hex, HexContent] = {}
    for h in board:
        units = stacks.get(h, [])
        markers = presenter.hex_markers(view, h)
        if not units and not markers:
            continue
        mark = None
        if units:
            ordered = presenter.stack_order(units)
            top = next((u for u in ordered if u.id == selected), ordered[0])
            flags = "".join(m.glyph for m in presenter.unit_markers(top))
            mark = UnitMark(presenter.side_index.get(top.side, 0), presenter.unit_label(top), flags)
        marker = markers[0] if markers else None
        out[h] = HexContent(
            mark,
            len(units),
            marker.glyph if marker else "",
            presenter.side_index.get(marker.side) if marker and marker.side else None,
        )
    return out


def placements(legal: Legal, view: GameState) -> Legal:
    """Map actions for a unit not on the map (set-up, arrival) or for no unit at all (a marker)."""
    out = []
    for a, info in legal:
        if not info.any(Role.PLACE, Role.MOVE) or info.is_barrage or not info.hexes:
            continue
        unit = view.units.get(info.unit) if info.unit else None
        if info.unit is None or (unit is not None and unit.hex is None):
            out.append((a, info))
    return tuple(out)


def hint_hexes(scene: Scene, info: ActionInfo) -> list[Hex]:
    """The hexes a hinted action concerns: its unit's hex and the hexes it names."""
    out = list(info.hexes)
    unit = scene.unit(info.unit)
    if unit is not None and unit.hex is not None and unit.hex not in out:
        out.insert(0, unit.hex)
    return out


def command_subjects(scene: Scene) -> list[str | None]:
    """Units whose command range ``k`` may show: the selected one, else this side's units under the cursor."""
    selected = scene.unit(scene.selected)
    if selected is not None:
        return [selected.id]
    here = scene.presenter.stack_order(scene.view.units_at(scene.cursor))
    own: list[str | None] = [x.id for x in here if x.side == scene.side]
    return own[:4] or [None]


def ask(scene: Scene, client: GameClient) -> Answers:
    """The side-scoped queries a scene's overlays need, asked of the side's client."""
    u = scene.unit(scene.selected)
    reach: Mapping[str, float] = {}
    odds: dict[Action, Odds | None] = {}
    los = None
    if u is not None:
        if u.hex is not None:
            try:
                reach = client.reachable(u.id)
            except (ActionError, PlanspielError, ValueError):
                reach = {}
        for a, info in scene.legal:
            target = scene.unit(info.targets[0]) if info.targets else None
            if info.unit == u.id and info.is_direct_fire and target is not None and target.hex is not None:
                odds[a] = client.odds(a)
        if scene.los_on and u.hex is not None and u.hex != scene.cursor:
            los = client.line_of_sight(scene.board.label(u.hex), scene.board.label(scene.cursor))
    marks, subject = _ask_marks(scene, client)
    return Answers(
        reach=reach,
        odds=odds,
        los=los,
        marks=marks,
        subject=subject,
        hint_text=client.describe(scene.hint) if scene.hint is not None else "",
        hint_info=_info_of(scene, client, scene.hint),
        given_path=_given_path(scene, client),
    )


def _info_of(scene: Scene, client: GameClient, action: Action | None) -> ActionInfo | None:
    """What an action means: from the legal actions read with the scene, else from the engine."""
    if action is None:
        return None
    got = next((i for a, i in scene.legal if a == action), None)
    return got if got is not None else client.action_info(action)


def _ask_marks(scene: Scene, client: GameClient) -> tuple[Mapping[str, AbstractSet[Hex]] | None, str | None]:
    """The ruleset's overlays: with command ranges on, of the first subject that has a command range; else of the
    selected unit (a ruleset may mark what belongs to it, e.g. its arcs)."""
    subject: str | None = None
    marks: Mapping[str, AbstractSet[Hex]] = {}
    look = scene.presenter.overlay_look
    try:
        # The first unit of the stack under the cursor that has a command range (motorised units have none).
        for subject in command_subjects(scene) if scene.command_on else [scene.selected]:
            marks = client.overlays(subject)
            if any(look(n)[0] == "command" for n in marks):
                break
    except (PlanspielError, ValueError):
        return None, None
    return marks, subject


def _given_path(scene: Scene, client: GameClient) -> tuple[Hex, ...]:
    """The selected unit's written path (its own side's sheet only)."""
    u = scene.unit(scene.selected)
    if u is None or u.side != scene.side:
        return ()
    given = scene.presenter.given_orders(scene.view, u.side)
    notation = next((n for uid, _, n in given if uid == u.id), "")
    if not notation:
        return ()
    try:
        return tuple(client.action_info(client.parse(notation)).path)
    except (PlanspielError, ValueError):
        return ()


def draw(scene: Scene, answers: Answers) -> Drawn:
    """The overlays of a scene: the selected unit's reach, steps and targets, placements and barrages, the line
    of sight, the ruleset's overlays, the hint, and a written path; with the lines that explain them."""
    overlay: dict[Hex, Overlay] = {}
    u = scene.unit(scene.selected)
    if u is not None:
        _unit_marks(scene, answers, u, overlay)
    if scene.selected is None:
        _free_marks(scene, overlay)
    notes: list[str] = []
    if scene.los_on and u is not None and u.hex is not None and u.hex != scene.cursor and answers.los is not None:
        notes += los_lines(scene.board, answers.los, u.hex, scene.cursor, overlay)
    notes += _rule_marks(scene, answers, overlay)
    if scene.hint is not None:
        notes.append(f"HINT {answers.hint_text} (H plays it)")
        info = answers.hint_info
        for h in hint_hexes(scene, info) if info is not None else []:
            if overlay.get(h) is None or overlay[h].kind != "select":
                overlay[h] = Overlay("alert", "HINT")
    for i, h in enumerate(answers.given_path, start=1):
        overlay[h] = Overlay("step", f"{i}")
    return Drawn(overlay, tuple(notes))


def _unit_marks(scene: Scene, answers: Answers, u: Unit, overlay: dict[Hex, Overlay]) -> None:
    """The selected unit: where it can go (with costs), its next steps, its targets with their odds."""
    board = scene.board
    for label, cost in answers.reach.items():
        h = board.parse(label)
        if h != u.hex:
            overlay[h] = Overlay("reach", f"{cost:g}")
    mine = [(a, i) for a, i in scene.legal if i.unit == u.id]
    for _, info in mine:
        if not info.has(Role.MOVE) or info.secondary:
            continue
        for h in info.hexes[:1]:
            step_cost = answers.reach.get(board.label(h))
            text = "»" + (f"{step_cost:g}" if step_cost is not None else "")
            overlay[h] = Overlay("target", "×") if info.is_assault else Overlay("step", text)
    for a, info in mine:
        if not info.is_direct_fire:
            continue
        target = scene.unit(info.targets[0]) if info.targets else None
        if target is None or target.hex is None:
            continue
        odds = answers.odds.get(a)
        text = f"◎{effect_chance(odds):.0%}" if odds is not None else "◎"
        overlay[target.hex] = Overlay("target", text)
    if u.hex is not None:
        overlay[u.hex] = Overlay("select")


def _free_marks(scene: Scene, overlay: dict[Hex, Overlay]) -> None:
    """No unit selected: where units may be placed (``+``) and barrage targets (``◎`` and the verb's letters)."""
    if scene.placing:
        for _, info in placements(scene.legal, scene.view):
            for h in info.hexes[:1]:
                overlay.setdefault(h, Overlay("step", "+"))
    for _, info in scene.legal:
        if info.is_barrage:
            for h in info.hexes[:1]:
                overlay.setdefault(h, Overlay("target", "◎" + info.verb[:2]))


def los_lines(board: Board, los: LosResult, src: Hex, cursor: Hex, overlay: dict[Hex, Overlay]) -> list[str]:
    """Mark a line of sight (``·`` on its way, ``✗`` at its blocker) and say it in words: the verdict in the
    engine's words, the rule, the range."""
    for h in los.path[1:-1]:
        overlay.setdefault(h, Overlay("los", "·"))
    if los.blocker is not None:
        overlay[los.blocker] = Overlay("block", "✗")
    clear = "clear"
    verdict = clear if los.visible else f"blocked at {board.label(los.blocker) if los.blocker else '?'}"
    if los.visible and los.reason.startswith(clear):
        verdict, why = los.reason, ""  # the engine's own words ("clear", "clear (along a hexside…)")
    else:
        why = f": {los.reason}" if los.reason else ""
    rule = f" (rule {los.rule})" if los.rule and f"rule {los.rule}" not in los.reason else ""
    d = distance(src, cursor)
    return [f"LOS from {board.label(src)}: {verdict}{why}{rule}", f"range {d} {'hex' if d == 1 else 'hexes'}"]


def _rule_marks(scene: Scene, answers: Answers, overlay: dict[Hex, Overlay]) -> list[str]:
    """Add the ruleset's overlays (a barrage always; command ranges with ``k``); returns their legend lines."""
    marks = answers.marks
    if marks is None:
        return []
    board, pr = scene.board, scene.presenter
    centre = next(iter(marks.get("hq", ())), None)
    notes: list[str] = []
    # Ranges first (one glyph each: the HQ's name last), then the alerts over them.
    order = sorted(marks, key=lambda n: (pr.overlay_look(n)[0] != "command", len(pr.overlay_look(n)[1]), n))
    for name in order:
        hexes = marks[name]
        kind, glyphs, legend = pr.overlay_look(name)
        if not scene.command_on and (kind == "command" or pr.overlay_on_demand(name)):
            continue
        for h in hexes:
            current = overlay.get(h)
            if kind == "command":
                text = glyphs if len(glyphs) > 1 or centre is None else f"{glyphs}{distance(h, centre)}{glyphs}"
                # Asked for with k, the range shows over the movement costs (issue 18 item 9), not over steps
                # and targets.
                if current is None or current.kind in ("los", "command", "reach"):
                    overlay[h] = Overlay(kind, text)
            elif current is None or current.kind in ("command", "reach", "los"):
                overlay[h] = Overlay(kind, glyphs)
        labels = sorted(board.label(h) for h in hexes)
        where = ", ".join(labels[:6]) + (f" and {len(labels) - 6} more" if len(labels) > 6 else "")
        if name == "command" and answers.subject is not None:
            where = f"{len(labels)} hexes around {board.label(centre) if centre else '?'} (for {answers.subject})"
        notes.append(f"{glyphs} {legend}: {where}")
    return notes
