"""Helpers for Art of Tactic tests: small scenarios on a blank map (or MAP-A), scripted dice, whole rounds.

Digest 13: "Blank map" = all hexes plain, height 0, no roads. :func:`scenario` writes a scenario with its map
(terrain codes and heights by hex label, roads as hex paths); :func:`game` starts it with scripted dice and
:func:`play_round` gives both sides' orders in notation and commits them, which runs the Execution Phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import engine
from engine.dice import ScriptedDice
from engine.events import Event
from engine.hexgrid import Hex, hex_label, offset_to_hex, parse_hex
from engine.rules import Transition, get_ruleset
from engine.rulesets.art_of_tactic.execution.machine import Run
from engine.rulesets.art_of_tactic.execution.round import HANDLERS
from engine.rulesets.art_of_tactic.frames import Cursor, Decision, Frame
from engine.rulesets.art_of_tactic.gamedata import AotData, data
from engine.rulesets.art_of_tactic.records import AotStatus, status
from engine.rulesets.art_of_tactic.ruleset import ArtOfTactic
from engine.scenario import Scenario, parse_scenario
from engine.state import GameState, Unit

__all__ = [
    "MAP_A",
    "D",
    "P",
    "S",
    "event_texts",
    "game",
    "labels",
    "play_round",
    "rolls",
    "ruleset",
    "run_frame",
    "scenario",
]

_V = TypeVar("_V")
P = parse_hex
"""A hex from its label."""


def S(u: Unit) -> AotStatus:
    """The unit's status (typed)."""
    return status(u)


def D(st: GameState) -> AotData:
    """The state's data (typed)."""
    return data(st)


def labels(d: Mapping[Hex, _V]) -> dict[str, _V]:
    """A dict keyed by hexes, keyed by their labels (to compare with the digest's examples)."""
    return {hex_label(h): v for h, v in d.items()}


ROOT = Path(__file__).resolve().parents[3]
MAP_A = (ROOT / "scenarios" / "art_of_tactic" / "map-a.map").read_text(encoding="utf-8")


def ruleset() -> ArtOfTactic:
    rs = get_ruleset("art_of_tactic")
    assert isinstance(rs, ArtOfTactic)
    return rs


def blank_map(terrain: Mapping[str, str] | None = None, heights: Mapping[str, int] | None = None,
              roads: Sequence[str] = (), cols: int = 14, rows: int = 10) -> str:  # fmt: skip
    """A blank map's text: every hex plain at height 0 except those given."""
    terrain = dict(terrain or {})
    heights = dict(heights or {})
    lines = []
    for r in range(1, rows + 1):
        toks = []
        for c in range(1, cols + 1):
            label = hex_label(offset_to_hex(c, r))
            toks.append(f"{terrain.get(label, '.')}{heights.get(label, 0)}")
        lines.append(" ".join(toks))
    text = f'id = "blank"\nsize = [{cols}, {rows}]\nterrain = """\n' + "\n".join(lines) + '\n"""\n'
    for i, path in enumerate(roads, start=1):
        text += f'\n[[roads]]\nname = "road {i}"\npath = "{path}"\n'
    return text


def scenario(
    units: Iterable[tuple[str, str, str] | tuple[str, str, str, Mapping[str, Any]]],
    terrain: Mapping[str, str] | None = None,
    heights: Mapping[str, int] | None = None,
    roads: Sequence[str] = (),
    map_text: str | None = None,
    turns: int = 3,
) -> Scenario:
    """A scenario with the given units ``(id, card, hex[, status])``; the side comes from the card."""
    rs = ruleset()
    parts = [
        'ruleset = "art_of_tactic"\nid = "test"\ntitle = "Test"\nmap = "blank.map"\n',
        f'turns = {turns}\n[[sides]]\nid = "german"\n[[sides]]\nid = "soviet"\n',
    ]
    first_hex = None
    for item in units:
        uid, code, hx = item[0], item[1], item[2]
        status = dict(item[3]) if len(item) > 3 else {}  # type: ignore[misc]
        first_hex = first_hex or hx
        side = rs.tables.units[code].side
        st = ", ".join(f"{k} = {_toml(v)}" for k, v in status.items())
        parts.append(f'[[units]]\nid = "{uid}"\ntype = "{code}"\nside = "{side}"\nhex = "{hx}"\nstatus = {{ {st} }}\n')
    parts.append(f'[victory]\nhexes = "{first_hex}"\n')
    text = "\n".join(parts)
    return parse_scenario(
        text, "test.toml", map_text=map_text or blank_map(terrain, heights, roads), map_file="blank.map"
    )


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return f'"{v}"'


def game(sc: Scenario, dice: Sequence[int] = ()) -> engine.Game:
    """A new game of ``sc`` with scripted dice."""
    return engine.new_game(sc, dice=ScriptedDice(list(dice)))


def play_round(g: engine.Game, german: Sequence[str] = (), soviet: Sequence[str] = ()) -> list[Event]:
    """Give both sides' orders (notation) and commit; return every event of the round."""
    start = len(g.events)
    for text in german:
        g.apply(text, side="german")
    g.apply("commit", side="german")
    for text in soviet:
        g.apply(text, side="soviet")
    g.apply("commit", side="soviet")
    return list(g.events[start:])


def event_texts(events: Iterable[Event], kind: str | None = None) -> list[str]:
    return [e.text for e in events if kind is None or e.kind == kind]


def rolls(events: Iterable[Event]) -> list[tuple[str, list[int]]]:
    """Every roll as (purpose, dice)."""
    return [(str(e.data["purpose"]), list(e.data["dice"])) for e in events if e.kind == "roll"]


def run_frame(st: GameState, frame: Frame, answers: Sequence[str] = (), tr: Transition | None = None) -> list[Decision]:
    """Run an execution frame (``execution.losses.Losses`` ...) to its end on ``st`` as execution would, answering the
    decisions it asks with ``answers`` in order; the decisions asked (it stops at the first one with no answer)."""
    tr = tr or Transition(st)
    d = data(st)
    before = d.execution
    d.execution = Cursor()
    x = Run(ruleset(), tr, HANDLERS)
    x.push(frame)
    left = list(answers)
    asked: list[Decision] = []
    while True:
        x.run()
        c = x.cursor
        if c.pending is None:
            break
        asked.append(c.pending)
        if not left:
            break
        c.answer, c.asked, c.pending = left.pop(0), c.pending.question, None
    d.execution = before
    return asked
