"""Provides the words of the game screen's lists and questions: each action with the engine's explanation and
odds, long lists grouped by verb and unit, the details of a shot before it is confirmed, units to pick from.

No Textual here (Rich text only): the dialogs show what these functions write.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text

from engine import Action, ActionInfo, GameState, Odds, Role, distance
from engine.notation import Arg
from engine.presentation import GameInfo, Presentation

from .client import GameClient
from .overlay import effect_chance, window_pass

__all__ = ["GROUP_OVER", "Item", "Words", "odds_lines"]

GROUP_OVER = 16
"""Choice lists longer than this show one line per verb and unit, then the hexes."""

Item = tuple[Action | list[Action], Text]
"""A line of a choice list: an action, or a group of actions to list next."""


def odds_lines(odds: Odds, width: int = 20) -> list[Text]:
    """The exact odds as lines with bars: ``step loss   41.7% ████████``."""
    out = []
    for e in odds.entries:
        p = float(e.probability)
        bar = "█" * round(p * width)
        line = Text(f"{e.result:<14} {p:6.1%} ")
        line.append(bar, style="bold" if e.value > 0 else "dim")
        line.append(f"  ({e.probability.numerator}/{e.probability.denominator})", style="dim")
        out.append(line)
    return out


@dataclass(frozen=True, eq=False)
class Words:
    """What a side's screen says about actions, from its client and the ruleset's presentation."""

    client: GameClient
    presenter: Presentation
    info: GameInfo
    view: GameState
    info_of: Callable[[Action], ActionInfo]
    """What an action means (the legal ones read once per refresh)."""

    def explanation(self, action: Action) -> str:
        """The engine's sentence about an action, without the notation it may start with."""
        explanation = self.client.explain(action)
        notation = str(action)
        if explanation.startswith(notation):
            explanation = explanation[len(notation) :].lstrip(" :—-")
        return explanation

    def label(self, action: Action) -> Text:
        """One line of a choice list: the notation, the ruleset's note, the explanation, the odds, the observer."""
        text = Text(self.client.describe(action), style="bold")
        who = self._who(action)
        if who:
            text.append(f"  {who}", style="dim")
        explanation = self.explanation(action)
        note = self.presenter.action_note(self.view, action)
        if note:
            text.append(f"  ({note})", style="italic")
        extra = self._argument_words(action)
        if extra:
            text.append(f"  {extra}", style="italic")
        explanation = explanation or self.info.verb_help(action.verb)
        if explanation:
            text.append(f"  {explanation}")
        info = self.info_of(action)
        if info.is_direct_fire or info.is_assault or info.is_barrage:
            odds = self.client.odds(action)
            if odds is not None:
                text.append(f"  [effect {effect_chance(odds):.0%}]", style="bold")
        if info.is_barrage and info.units:
            obs = self.view.units[info.units[0]]
            if obs.hex is not None:
                name = self.presenter.unit_title(self.view, obs)
                text.append(f"  observer {name} at {self.info.board.label(obs.hex)}", style="italic")
        if info.is_barrage and info.hexes:
            there = [u for u in self.view.units_at(info.hexes[0]) if u.side != self.client.side]
            if there:
                shown = ", ".join(self.presenter.unit_label(u) for u in self.presenter.stack_order(there))
                text.append(f"  in the hex: {shown}", style="italic")
        return text

    def _who(self, action: Action) -> str:
        """The names of the acting unit and of its target, as a player reads them (issue 18 item 6): the notation
        keeps the ids."""
        info = self.info_of(action)
        names = []
        for uid in (info.unit, *info.targets[:1]):
            unit = self.view.units.get(uid) if uid else None
            if unit is not None:
                names.append(self.presenter.unit_title(self.view, unit))
        return " → ".join(names)

    def _argument_words(self, action: Action) -> str:
        """What the numbers and words of an action stand for (``stuka 1202 2``: its ``count`` 2), in the ruleset's
        words where it has them (:meth:`~engine.presentation.Presentation.argument_label`)."""
        for slots in self.info.forms.get(action.verb, ()):
            required = sum(1 for x in slots if not x.optional)
            if not required <= len(action.args) <= len(slots) or any(x.kind is Arg.PATH for x in slots):
                continue
            words = []
            for slot, value in zip(slots, action.args, strict=False):
                if slot.kind in (Arg.INT, Arg.WORD, Arg.CHOICE):
                    label = self.presenter.argument_label(action.verb, slot.name, value)
                    words.append(label if label != value else f"{slot.words} {value}")
            return ", ".join(words)
        return ""

    def items(self, actions: Sequence[Action]) -> list[Item]:
        """Items of a choice list: passing first in a long list and in every reaction window (so that ``1`` lets
        a window pass, whatever it offers); one line per unit and verb when very long.

        A list that is a single group (e.g. the group just picked: one unit's 18 moves) is listed in full, since
        grouping it again would only offer the same group back (a dead end)."""
        infos = tuple((a, self.client.action_info(a)) for a in actions)
        if len(actions) > 9 or window_pass(infos) is not None:
            passes = {a for a, i in infos if Role.PASS in i.roles}
            actions = [a for a in actions if a in passes] + [a for a in actions if a not in passes]
        groups: dict[tuple[str, str], list[Action]] = {}
        for a in actions:
            groups.setdefault((a.verb, a.args[0] if a.args else ""), []).append(a)
        if len(actions) <= GROUP_OVER or len(groups) == 1:
            return [(a, self.label(a)) for a in actions]
        items: list[Item] = []
        for (verb, first), group in groups.items():
            if len(group) == 1:
                items.append((group[0], self.label(group[0])))
                continue
            label = Text(f"{verb} {first} …", style="bold")
            label.append(f"  {len(group)} choices")
            help_text = self.info.verb_help(verb)
            if help_text:
                label.append(f"  {help_text}")
            items.append((group, label))
        return items

    def fire_details(self, action: Action, odds: Odds) -> list[Text | str]:
        """A shot before it is confirmed: who at whom, range and line of sight, the exact odds."""
        board = self.info.board
        info = self.info_of(action)
        units = self.view.units
        shooter = units.get(info.unit) if info.unit else None
        target = units.get(info.targets[0]) if info.targets else None
        lines: list[Text | str] = []
        if shooter is not None and target is not None and shooter.hex is not None and target.hex is not None:
            pr = self.presenter
            lines.append(
                f"{shooter.id} ({pr.unit_name(shooter)}) at {board.label(shooter.hex)} → "
                f"{target.id} ({pr.unit_name(target)}) at {board.label(target.hex)}"
            )
            los = self.client.line_of_sight(board.label(shooter.hex), board.label(target.hex))
            path = " ".join(board.label(h) for h in los.path)
            if los.visible:
                lines.append(f"Range {_hexes(distance(shooter.hex, target.hex))} · line of sight clear ({path})")
            else:
                where = board.label(los.blocker) if los.blocker else "?"
                lines.append(f"Range {_hexes(distance(shooter.hex, target.hex))} · terrain line blocked at {where}")
        lines.append(Text("Exact odds:", style="bold"))
        lines.extend(odds_lines(odds))
        if odds.note:
            lines.append(Text(odds.note, style="italic"))
        return lines

    def units(self, ids: Sequence[str]) -> list[tuple[str, Text | str]]:
        """Units to pick from on a hex: ``GT2  ger-1  I/35 PzR, Panzer IV N`` (counter, id, name, markers)."""
        pr = self.presenter
        out: list[tuple[str, Text | str]] = []
        for uid in ids:
            u = self.view.units[uid]
            flags = " ".join(m.glyph for m in pr.unit_markers(u))
            out.append((uid, Text(f"{pr.unit_label(u)}  {uid}  {pr.unit_title(self.view, u)} {flags}".rstrip())))
        return out


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"
