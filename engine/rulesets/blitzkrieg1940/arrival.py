"""Provides the assignment of an arriving independent unit to a formation (2.1 [P], 12.2 [P], 10.3): the 67 RI AT
gun of Stonne joins a formation with a chit when it arrives, before the turn's first draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.notation import Notation
from engine.rules import Transition
from engine.state import GameState, Unit

from . import notation as N
from .handler import FrameHandler
from .model import ArrivalFrame, data, formation, push, status

if TYPE_CHECKING:
    from .model import Rules

__all__ = ["ARRIVAL", "HANDLER", "ArrivalHandler", "arrival_assignments", "chit_formations"]

ARRIVAL: Final = "arrival_assign"
"""The frame kind of assigning an arriving independent unit to a formation (12.2 [P])."""


def chit_formations(st: GameState, side: str) -> list[str]:
    """Formations of ``side`` with an activation chit in play now (10.3): in the cup by this turn, not removed,
    not an independent formation's own chit."""
    return sorted(
        c.formation
        for cid, c in data(st).chits.items()
        if c.kind == "formation"
        and c.formation is not None
        and c.side == side
        and c.turn <= st.turn
        and cid not in data(st).removed_chits
        and not data(st).formations[c.formation].independent
        and not data(st).formations[c.formation].removed
    )


def _arrival_choices(st: GameState, u: Unit) -> list[str]:
    """Formations of ``u``'s side with a chit in play this turn (10.3), or the scenario's ``to`` list."""
    for entry in data(st).special.get("at_gun_assignment", []):
        if entry.get("group") == status(u).group and entry.get("when") == "arrival" and entry.get("to"):
            return sorted(str(t) for t in entry["to"])
    return chit_formations(st, u.side)


def arrival_assignments(tr: Transition) -> None:
    """2.1 [P]: at the start of the turn an independent unit arrives, its owner assigns it to a formation with a
    chit (12.2 [P]: the 67 RI AT gun in turn 4); a decision frame per unit, before the first draw."""
    st = tr.state
    groups = {
        str(e.get("group")): e for e in data(st).special.get("at_gun_assignment", []) if e.get("when") == "arrival"
    }
    for u in sorted(st.units.values(), key=lambda x: x.id, reverse=True):
        if status(u).group in groups and status(u).arrives == st.turn and u.hex is None:
            choices = _arrival_choices(st, u)
            if len(choices) > 1:
                push(st, ArrivalFrame("arrival_assign", u.side, u.id, choices))


class ArrivalHandler(FrameHandler[ArrivalFrame]):
    """``arrival_assign`` (the unit's owner): ``assign UNIT FORMATION`` for each formation it may join."""

    kind = ARRIVAL
    rule = "12.2"

    def actions(self, rs: Rules, st: GameState, f: ArrivalFrame) -> list[Action]:
        return [Action("assign", (f.unit, fid)) for fid in f.to]

    def check(self, rs: Rules, st: GameState, f: ArrivalFrame, action: Action, typed: Notation) -> None:
        """Refuse anything but one of the assignments, saying what is asked."""
        if action not in self.actions(rs, st, f):
            choices = ", ".join(f.to)
            raise IllegalActionError(
                f"Cannot {action}: {str(f.side).title()} first assigns the arriving {f.unit} to one of "
                f"{choices} (rules 12.2, 10.3)",
                rule="12.2",
            )

    def apply(self, rs: Rules, tr: Transition, f: ArrivalFrame, typed: Notation) -> None:
        """The arriving unit joins the formation: it enters with that formation's activation (12.2 [P], 10.3)."""
        assert isinstance(typed, N.Assign)
        st = tr.state
        data(st).frames.remove(f)
        u = st.units[typed.unit]
        u.formation = typed.formation
        name = formation(st, typed.formation).name
        tr.emit("organisation", f"{u.id} arrives and is assigned to {name} (rules 12.2, 10.3)", unit=u.id)

    def waiting_for(self, st: GameState, f: ArrivalFrame) -> str:
        side = str(f.side).title()
        return f"{side} assigns the arriving {f.unit} to a formation with a chit (rules 12.2, 10.3)"


HANDLER = ArrivalHandler()
"""The handler of arrival frames."""
