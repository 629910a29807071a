"""Helpers for Blitzkrieg 1940 tests: precise situations of the sequence of play, played through the ruleset.

A real game reaches most situations only after many draws. :func:`situation` builds the state right before the
first draw of turn 1 (setup and the administration phase done, digest 2.1), lets the test edit the plain data
(units' hexes and status, ``data["cup"]``, ``data["players"][side]``, formation records, ``data["frames"]``), then
runs the sequence of play (:func:`engine.rulesets.blitzkrieg1940.sequence.advance`) until a side must decide. The
returned :class:`Situation` answers like the :class:`engine.Game` facade: ``apply``, ``legal_actions``,
``to_act``, ``state``, ``parse``, ``describe``, ``events``.

Dice are scripted (:class:`engine.dice.ScriptedDice`). The chit draw is a die roll too: a die with ``len(cup)``
sides whose value ``k`` draws the ``k``-th chit of the (sorted) cup; :func:`draw_values` works the values out.
A draw that takes the last chit rolls nothing (digest 2.6: that chit is set aside).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

import engine
from engine.actions import Action
from engine.dice import ScriptedDice
from engine.events import Event
from engine.game import board_for
from engine.rules import Transition, get_ruleset
from engine.rulesets.blitzkrieg1940 import deployment, frames, sequence
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.model import formation_units, frame
from engine.rulesets.blitzkrieg1940.ruleset import Blitzkrieg1940
from engine.scenario import Scenario
from engine.state import GameState, Unit

__all__ = [
    "Situation",
    "chit_id",
    "cited_rules",
    "draw_values",
    "event_texts",
    "park_units",
    "place",
    "prepared_state",
    "refusal",
    "ruleset",
    "scenario",
    "situation",
    "skirmish",
]

Edit = Callable[[GameState], None]


@cache
def scenario(scenario_id: str) -> Scenario:
    """The built-in Blitzkrieg 1940 scenario ``scenario_id`` (``"hannut"`` or ``"stonne"``), loaded once."""
    return engine.load_scenario("blitzkrieg1940", scenario_id)


def ruleset() -> Blitzkrieg1940:
    """The registered Blitzkrieg 1940 ruleset."""
    rs = get_ruleset("blitzkrieg1940")
    assert isinstance(rs, Blitzkrieg1940)
    return rs


def chit_id(side: str, kind: str, turn: int = 1, n: int = 1) -> str:
    """The id of a non-formation chit as setup names it: ``chit_id("german", "replay")`` → ``"ger-replay-1-1"``."""
    return f"{side[:3]}-{kind}-{turn}-{n}"


def draw_values(cup: Sequence[str], order: Iterable[str]) -> list[int]:
    """The die values that draw the chits of ``order`` one after another from ``cup`` (2.2).

    Raises ValueError if a chit is not in the cup or a draw would take the last chit (that draw rolls nothing).
    """
    left = list(cup)
    out = []
    for cid in order:
        if cid not in left:
            raise ValueError(f"{cid} is not in the cup {left}")
        if len(left) == 1:
            raise ValueError(f"drawing {cid} empties the cup: no die is rolled (rule 2.6)")
        out.append(left.index(cid) + 1)
        left.remove(cid)
    return out


def event_texts(events: Iterable[Event]) -> list[str]:
    """The texts of ``events``."""
    return [e.text for e in events]


def update(rec: Any, **fields: Any) -> None:
    """Set fields of a state record (a formation, a player, a unit status) by name."""
    for key, value in fields.items():
        setattr(rec, key, value)


def set_status(u: Unit, key: str, value: Any) -> None:
    """Set the status field ``key`` of ``u`` (None: back to its default, the marker off)."""
    if value is None:
        bk.status(u).clear(key)
    else:
        setattr(bk.status(u), key, value)


def place(st: GameState, unit_id: str, hex_label: str | None, **status: Any) -> None:
    """Put a unit on ``hex_label`` (None: off the map) and set status keys (a value of None removes the key)."""
    u = st.units[unit_id]
    u.hex = st.board.parse(hex_label) if hex_label is not None else None
    for key, value in status.items():
        set_status(u, key, value)


def park_units(st: GameState, keep: Iterable[str]) -> None:
    """Take every unit not in ``keep`` off the map for good (``exited``), so that only the test's units act,
    react and block. Formations left without units become orphans (2.7): keep them out of the cup."""
    keep = set(keep)
    for u in st.units.values():
        if u.id not in keep:
            u.hex = None
            bk.status(u).exited = True
            bk.status(u).arrives = None


def cited_rules(text: str) -> set[str]:
    """The rule numbers a message cites: ``"... (rule 2.7, 5.5)"`` → ``{"2.7", "5.5"}``."""
    out: set[str] = set()
    for group in re.findall(r"\brules? (\d+(?:\.\d+)*(?:(?:, | and )\d+(?:\.\d+)*)*)", text):
        out.update(re.split(r", | and ", group))
    return out


def refusal(game: Any, notation: str, *rules: str) -> str:
    """Apply ``notation`` expecting :class:`engine.IllegalActionError` whose message cites one of ``rules``
    (``"... (rule 5.3)"``); returns the message. ``game`` is an :class:`engine.Game` or a :class:`Situation`."""
    try:
        game.apply(notation)
    except engine.IllegalActionError as err:
        text = str(err)
        assert cited_rules(text) & set(rules), (
            f"the refusal of {notation!r} does not cite rule {' or '.join(rules)}: {text}"
        )
        return text
    raise AssertionError(f"{notation!r} was accepted, expected a refusal citing rule {' or '.join(rules)}")


class Situation:
    """A game in a prepared state, answering like :class:`engine.Game` (no undo, no views)."""

    def __init__(self, sc: Scenario, state: GameState, events: Iterable[Event] = ()) -> None:
        self.scenario = sc
        self.ruleset = ruleset()
        self.states = [state]
        self.history: list[Action] = []
        self.events: list[Event] = list(events)

    @property
    def state(self) -> GameState:
        """The current state."""
        return self.states[-1]

    @property
    def to_act(self) -> str | None:
        """The side that must decide now, or None when the game is over."""
        return None if self.state.outcome is not None else self.state.to_act

    @property
    def frame(self) -> bk.Frame | None:
        """The pending decision (the top frame)."""
        return frame(self.state)

    @property
    def frames(self) -> list[bk.Frame]:
        """Every pending frame, bottom first."""
        return bk.data(self.state).frames

    def legal_actions(self) -> list[Action]:
        """Legal actions of the side to act."""
        return [] if self.to_act is None else self.ruleset.legal_actions(self.state)

    def legal(self) -> list[str]:
        """Legal actions as notation."""
        return [self.describe(a) for a in self.legal_actions()]

    def parse(self, text: str) -> Action:
        """Notation → action (no legality check)."""
        return self.ruleset.parse_action(self.state, text)

    def describe(self, action: Action) -> str:
        """Action → notation."""
        return self.ruleset.describe(self.state, action)

    def script(self, *values: int) -> Situation:
        """Script the next dice (replacing whatever was left)."""
        self.state.dice = ScriptedDice(list(values))
        return self

    def apply(self, action: Action | str) -> list[Event]:
        """Check and apply an action as :meth:`engine.Game.apply` does; returns its events."""
        state = self.state
        if isinstance(action, str):
            action = self.ruleset.parse_action(state, action)
        if self.to_act is None:
            raise engine.IllegalActionError("the game is over")
        self.ruleset.check(state, action)
        tr = Transition(state.clone())
        self.ruleset.apply(tr, action)
        self.states.append(tr.state)
        self.history.append(action)
        self.events.extend(tr.events)
        return list(tr.events)

    def play(self, *notations: str) -> list[Event]:
        """Apply several actions; returns all their events."""
        out: list[Event] = []
        for n in notations:
            out += self.apply(n)
        return out

    def draw(self, *order: str) -> list[int]:
        """The die values that draw ``order`` from the cup as it is now (see :func:`draw_values`)."""
        return draw_values(bk.data(self.state).cup, order)

    def units_of(self, fid: str) -> list[str]:
        """Ids of the formation's units on the map (HQ included)."""
        return [u.id for u in formation_units(self.state, fid)]


def prepared_state(
    scenario_id: str, dice: Sequence[int] = (), turn1_kept: bool = True
) -> tuple[GameState, list[Event]]:
    """The state right before the first draw of turn 1, set up as the scenario file does (Hannut: before the
    German keeps his turn-1 chits, 2.8,
    unless ``turn1_kept`` is false, which drops that rule so that turn 1 starts with a plain draw)."""
    sc = scenario(scenario_id)
    rs = ruleset()
    st = rs.setup(sc, board_for(sc, rs), ScriptedDice(list(dice)))
    if not turn1_kept:
        bk.data(st).special.pop("turn1_kept_chits", None)
    tr = Transition(st)
    deployment.default_setup(rs, tr)  # 12: the scenario file's set-up, without the set-up decisions
    sequence.begin_game(rs, tr)
    return tr.state, list(tr.events)


def situation(
    scenario_id: str = "stonne", dice: Sequence[int] = (), edit: Edit | None = None, *, turn1_kept: bool = True
) -> Situation:
    """A prepared situation: the turn-1 state before the first draw, edited by ``edit``, then advanced until a
    side must decide (the next draw uses ``dice``, see :func:`draw_values`)."""
    st, events = prepared_state(scenario_id, dice, turn1_kept)
    if edit is not None:
        edit(st)
        bk.data(st).cup = sorted(bk.data(st).cup)
    tr = Transition(st)
    frames.advance(ruleset(), tr)
    return Situation(scenario(scenario_id), tr.state, [*events, *tr.events])


def skirmish(
    active: str,
    placements: dict[str, str],
    *,
    status: dict[str, dict[str, Any]] | None = None,
    edit: Edit | None = None,
    dice: Sequence[int] = (),
    scenario_id: str = "hannut",
) -> Situation:
    """A small fight: only the units of ``placements`` (unit id → hex) are on the map, with ``status`` keys set
    (and no out-of-command markers unless given); formation ``active``'s chit is drawn and activated, so its
    owner is to act in the activation (6.1) and the other side reacts (6.3). Hannut is played without its
    turn-1 kept chits (2.8). ``dice`` follow the draw (rally rolls first, if the formation has neutralised units).
    The cup keeps both Generals, so the draw after the activation rolls a 2-sided die.
    """
    fillers = [chit_id("french", "general"), chit_id("german", "general")]  # never orphans (2.7)
    cup = sorted([active, *fillers])

    def _edit(st: GameState) -> None:
        park_units(st, placements)
        for uid, label in placements.items():
            place(st, uid, label, ooc=None)
            bk.status(st.units[uid]).exited = False
        for uid, keys in (status or {}).items():
            for key, value in keys.items():
                set_status(st.units[uid], key, value)
        bk.data(st).cup = list(cup)
        if edit is not None:
            edit(st)

    s = situation(scenario_id, [*draw_values(cup, [active]), *dice], _edit, turn1_kept=False)
    s.apply("activate")
    return s


def skip_setup(game: Any) -> Any:
    """Take the scenario file's set-up (``default``) for every set-up step now on top (12; stops at Hannut's
    kept-chit choice of 2.8, which comes between the German and the last French set-up step)."""
    while bk.data(game.state).frames and bk.data(game.state).frames[-1].kind == "deploy":
        game.apply("default")
    return game
