"""Provides the Art of Tactic presentation: the unit card, the order given this round, secret planning and steps.

Everything shown comes from one side's view: its own order sheet (``data["orders"]`` holds only the viewer's
orders before the reveal), its units in full, the enemy as the view shows it (a hidden unit is off the map, a
concealed HQ an unidentified unit).
The presentation never decides a rule: the orders a unit may take come from the engine's legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from engine.actions import Action
from engine.events import Event
from engine.hexgrid import Hex
from engine.presentation import Marker, PathPreview, Presentation, Report
from engine.rules import get_ruleset
from engine.state import GameState, Unit

from .frames import Decision
from .gamedata import data
from .model import UNIDENTIFIED
from .movement import PathCost, order_path_cost
from .orders import policies
from .records import Order, status

__all__ = [
    "ORDER_NAMES",
    "PRESENTATION",
    "ArtOfTacticPresentation",
    "cost_text",
    "order_sheet",
    "path_words",
    "round_report",
]

ORDER_NAMES: Mapping[str, str] = {
    "defend": "Defend",
    "ambush": "Ambush",
    "suppress": "Suppression fire",
    "fire": "Open fire",
    "assault": "Assault",
    "facing": "Change field of fire",
    "deploy": "Deploy",
    "withdraw": "Withdraw",
    "move": "Cautious movement",
    "march": "March",
    "firemove": "Fire on the move",
    "hold": "Hold",
    "location": "Fire at location",
    "smoke": "Smoke",
    "merge": "Merge",
    "entrench": "Entrench",
    "supply": "Receive supply",
    "tow": "Tow",
    "mines": "Lay mines",
    "clearmines": "Clear mines",
    "unteeth": "Remove tank obstacle",
    "clearpath": "Clear a path",
    "pontoon": "Build pontoon bridge",
    "load": "Load supply",
    "unwire": "Remove barbed wire",
    "demolish": "Demolition charges",
    "intercept": "Intercept",
    "patrol": "Air patrol",
    "escort": "Escort",
    "airstrike": "Air strike",
    "mount": "Mount",
    "dismount": "Dismount",
    "cancel": "Take the order back",
    "commit": "Commit: end planning",
}
"""Verb → the order's name on the card (the README's table of verbs)."""

CARD_ORDER_KEYS: Mapping[str, str] = {"move": "cautious", "firemove": "fire_on_move"}
"""Verb → the key of the order on the card where the two differ."""

_TARGET_TYPES = ("INF", "VEH", "ARM", "LT", "MT", "HT", "AIR")
_TYPE_GLYPHS: Mapping[str, str] = {"INF": "I", "VEH": "V", "ARM": "A", "LT": "T", "MT": "T", "HT": "T", "ART": "G"}
"""Card type → the counter's letter (tanks of every weight are T; guns G)."""
_ABILITY_GLYPHS: Mapping[str, str] = {
    "hq": "H",
    "machine_gun": "M",
    "engineer": "E",
    "flak": "F",
    "fighter": "J",
    "bomber": "B",
    "transport": "V",
    "indirect_fire": "R",
}
"""Abilities that name a unit's role on its counter, first match wins."""


def cost_text(verb: str, cost: PathCost, *, short: bool = False) -> str:
    """The engine's cost of a path in the digest's words (4.2, 4.3, 4.11): ``cost 3 of movement range 4, 1 left``
    (``short``: ``cost 3 of 4, 1 left``, for the status line of a narrow terminal)."""
    what = "" if short else ("assault distance " if verb == "assault" else "movement range ")
    road = " road" if short else " road bonus"
    limit = f"{what}{cost.allowance}" + (f" + {cost.bonus}{road}" if cost.bonus else "")
    if cost.left >= 0:
        left = f"{cost.left} left"
    elif not cost.problem and cost.hexes == 1:
        left = (
            "one hex is always allowed"
            if short
            else "allowed: one hex is always allowed where it may be entered (4.11)"
        )
    else:
        left = f"{-cost.left} over"
    return f"cost {cost.cost} of {limit}, {left}"


def path_words(verb: str, written: int, cost: PathCost, *, short: bool = False) -> str:
    """A path of ``written`` hexes and its cost: ``2 hexes, cost 3 of movement range 4, 1 left``; an assault's
    step into the target's hex is named apart, as it does not count against the distance (4.11 item 7)."""
    head = f"{cost.hexes} hex" + ("" if cost.hexes == 1 else "es")
    if verb == "assault" and written > cost.hexes:
        head += " + assault" if short else " + the assault step"
    return f"{head}, {cost_text(verb, cost, short=short)}"


def order_sheet(view: GameState, side: str) -> dict[str, Order]:
    """The orders ``side`` has given this round, as its view holds them (unit id → order)."""
    return dict(data(view).orders.get(side, {}))


def round_report(events: Sequence[Event]) -> Report | None:
    """The last executed round in a side's events: the orders revealed, then the twelve steps (None if no round
    has been executed yet)."""
    start = None
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind == "step" and e.data.get("step") == 1:
            start = i
            break
    if start is None:
        return None
    i = start - 1
    rnd = 0
    if i >= 0 and events[i].kind == "phase":
        rnd = int(events[i].data.get("round", 0))
        i -= 1
    orders: list[str] = []
    while i >= 0 and events[i].kind == "order":
        orders.insert(0, events[i].text)
        i -= 1
    steps: list[tuple[str, list[str]]] = []
    after: list[str] = []
    for e in events[start:]:
        if e.kind == "step":
            steps.append((e.text, []))
        elif e.kind == "phase" and steps and "Planning" in e.text:
            after.append(e.text)
            break
        elif after or (len(steps) >= 12 and e.kind in ("outcome", "victory")):
            after.append(e.text)
        elif steps:
            steps[-1][1].append(e.text)
    return Report(rnd, orders, steps, after)


class ArtOfTacticPresentation(Presentation):
    """Art of Tactic: secret orders per unit, revealed and carried out in twelve steps."""

    ruleset = "art_of_tactic"
    score_name = "victory hexes held"
    OVERLAYS: ClassVar[dict[str, tuple[str, str, str]]] = {}

    # --- Units ------------------------------------------------------------------------------------------

    short_names: ClassVar[Mapping[str, str]] = {
        "SU-HQ": "HQ",
        "DE-HQ": "HQ",
        "SU-INF": "rifles",
        "DE-INF": "infantry",
        "DE-PIO": "Pioniere",
        "SU-MG": "Maxim",
        "DE-MG": "MG 34",
        "SU-MOR": "82 mm mortar",
        "DE-MOR": "8 cm mortar",
        "SU-AT": "45 mm AT",
        "SU-FLAK": "37 mm Flak",
        "SU-BM13": "BM-13",
        "SU-T26": "T-26",
        "DE-PZ2": "Pz II",
        "SU-T34": "T-34",
        "DE-251": "SdKfz 251",
        "SU-ZIS5": "Zis-5",
        "DE-OPEL": "Opel Blitz",
        "DE-STUKA": "Stuka",
        "SU-I16": "I-16",
        "DE-RECON": "Fw 189",
        "SU-RECON": "R-5",
        "DE-JU52": "Ju 52",
        "SU-TB3": "TB-3",
        "DE-FJ": "Fallschirmjäger",
        UNIDENTIFIED: "unidentified",
    }

    def unit_short(self, view: GameState, unit: Unit) -> str:
        """The card's short name and the counter's number in the scenario (``Pz II #2`` for ``ger-2-pz2``); a
        concealed enemy HQ is the unidentified unit its view shows (``unidentified #1``, 9.11)."""
        short = self.short_names.get(unit.type) or self.unit_name(unit)
        number = next((part for part in unit.id.split("-")[1:] if part.isdigit()), "")
        return f"{short} #{number}" if number else short

    def full_steps(self, unit: Unit) -> int:
        if status(unit).unidentified:
            return 0  # a concealed enemy HQ: its size is not known (9.11, 15.1); the counter shows "·"
        return int(self.unit_type(unit).get("size", max(unit.steps, 1)))

    def unit_glyph(self, unit: Unit) -> str:
        """The counter's letter: the unit's role (HQ, MG, engineer...) or its card type (tank, vehicle...)."""
        t = self.unit_type(unit)
        abilities = set(t.get("abilities") or [])
        for ability, glyph in _ABILITY_GLYPHS.items():
            if ability in abilities:
                return glyph
        return _TYPE_GLYPHS.get(str(t.get("type", "")), unit.type[:1])

    def unit_markers(self, unit: Unit) -> list[Marker]:
        s = status(unit)
        out: list[Marker] = []
        if s.hidden:
            out.append(Marker("?", "hidden (ambush, 3.11)"))
        if s.suppressed:
            out.append(Marker("S", "suppressed (8)"))
        if s.bound:
            out.append(Marker("B", "bound in close combat (7)"))
        if s.unidentified:
            out.append(Marker("c", "unidentified: cannot be targeted until found (9.11)"))
        elif s.concealed:
            out.append(Marker("c", "HQ concealed (9.11)"))
        on = s.ongoing
        if on is not None:
            out.append(Marker("»", f"{on.kind} in progress: {on.boxes} of {on.need} time boxes (2.7)"))
        if s.carrying:
            out.append(Marker("+", f"carrying {', '.join(s.carrying)}"))
        if s.carried_by:
            out.append(Marker("^", f"aboard {s.carried_by}"))
        if s.entrenched:
            out.append(Marker("T", "entrenched (9.10)"))
        return out

    def card_orders(self, unit: Unit) -> list[str]:
        """The orders printed on the unit's card, with their values (``march 3``)."""
        out = []
        for name, values in (self.unit_type(unit).get("orders") or {}).items():
            nums = "/".join(str(v) for v in (values or {}).values())
            out.append(f"{name} {nums}" if nums else str(name))
        return out

    def unit_facts(self, unit: Unit) -> list[tuple[str, str]]:
        t = self.unit_type(unit)
        s = status(unit)
        rows = [("card", f"{self.unit_name(unit)} ({unit.type})")]
        if s.unidentified:
            rows = [("card", "unidentified unit: not known until found (9.11)")]
        if s.hidden and unit.hex is None:
            return [*rows, ("where", "hidden: last seen only (3.11)")]
        if s.unidentified:
            return rows
        rows.append(("type", str(t.get("type", "?"))))
        rows.append(("size", f"{unit.steps} of {self.full_steps(unit)}"))
        fp = t.get("firepower") or {}
        if fp:
            losses = self.full_steps(unit) - unit.steps
            cells = []
            for target in _TARGET_TYPES:
                if target in fp:
                    dice = fp[target]
                    cells.append(f"{target} {dice[min(max(losses, 0), len(dice) - 1)]}")
            rows.append(("firepower", " ".join(cells)))
        if t.get("range"):
            rows.append(("range", "-".join(str(x) for x in t["range"])))
        rows.append(("bravery", f"{t.get('bravery', '?')} (-{t.get('bravery_loss', 0)} a loss)"))
        rows.append(("defence", str(t.get("defence", "?"))))
        if t.get("ammo") is not None:
            rows.append(("ammunition", f"{s.ammo} of {t.get('ammo', '?')}"))
        if t.get("abilities"):
            rows.append(("abilities", ", ".join(str(a).replace("_", " ") for a in t["abilities"])))
        rows.append(("orders", ", ".join(self.card_orders(unit))))
        return rows

    def unit_order(self, view: GameState, unit: Unit) -> str | None:
        """The order given to ``unit`` this round, if the viewer may see it (its own side's sheet only)."""
        if view.viewer is not None and unit.side != view.viewer:
            return None
        order = order_sheet(view, unit.side).get(unit.id)
        if order is None:
            ongoing = status(unit).ongoing
            if ongoing is not None:
                left = f", {ongoing.need - ongoing.boxes} time box(es) left"
                return f"none: continues its {ongoing.kind}{left} (2.7)"
            return "none yet (holds, 2.3)" if view.phase == "planning" and unit.hex is not None else None
        return order.notation

    # --- Hexes ------------------------------------------------------------------------------------------

    def hex_markers(self, view: GameState, h: Hex) -> list[Marker]:
        d = data(view)
        out: list[Marker] = []
        if h in d.victory.hexes:
            control = d.control.get(h)
            who = f"controlled by {self.info.side_name(control)}" if control else "controlled by nobody"
            out.append(Marker("★", f"victory hex, {who} (11.2)", control))
        field = d.minefields.get(h)
        if field is not None:
            out.append(Marker("m", "minefield (9.6)", field.owner))
        if h in d.smoke:
            out.append(Marker("░", "smoke (3.9)"))
        return out

    def hex_control(self, view: GameState, h: Hex) -> str | None:
        return data(view).control.get(h)

    # --- The decision -----------------------------------------------------------------------------------

    def waiting_for(self, view: GameState) -> str:
        if view.outcome is not None:
            return f"The game is over: {view.outcome.reason}"
        side = self.info.side_name(view.to_act)
        if view.phase == "planning":
            given = len(order_sheet(view, view.to_act or ""))
            return f"{side} plans in secret: {given} order(s) given (2.3); z commits"
        pending = _pending(view)
        if pending is not None:
            return f"execution waits: {side} decides: {pending.question} (15.2); r shows it"
        return super().waiting_for(view)

    def status_items(self, view: GameState) -> list[str]:
        items: list[str] = []  # the round is the status line's "Turn N/M" (2.1): not said twice
        if view.viewer is not None and view.phase == "planning" and view.viewer in data(view).ask:
            items.append("you decide in execution")  # 15.2 (P switches; the presets are the default, not shown)
        committed = data(view).committed
        if committed:
            items.append("committed: " + ", ".join(self.info.side_name(s) for s in committed))
        return items

    def path_cost(self, view: GameState, action: Action) -> PathCost | None:
        """What the path of a movement order costs against the unit's allowance, as the engine answers it from
        this side's view (4.11); None for an order without a path."""
        return order_path_cost(get_ruleset(self.ruleset), view, action)  # type: ignore[arg-type]

    def path_preview(self, view: GameState, action: Action) -> PathPreview | None:
        """A movement order's path cost against its movement range or assault distance (4.11)."""
        cost = self.path_cost(view, action)
        if cost is None:
            return None
        info = get_ruleset(self.ruleset).action_info(view, action)
        written = len(action.args) - (info.path_start if info.path_start is not None else len(action.args))
        return PathPreview(
            path_words(action.verb, written, cost), path_words(action.verb, written, cost, short=True), cost.problem
        )

    def verb_name(self, verb: str) -> str:
        return ORDER_NAMES.get(verb, verb)

    def argument_label(self, verb: str, slot: str, value: str) -> str:
        return f"range {value} {'hex' if value == '1' else 'hexes'}" if slot == "range" else value

    def argument_options(self, verb: str, slot: str) -> list[tuple[str, str]]:
        """15.2 item 4: the reaction policies of Defend and Ambush, the default (``first``) first."""
        return policies(verb) if slot == "policy" and verb in ("defend", "ambush") else []

    def given_orders(self, view: GameState, side: str) -> list[tuple[str, str, str]]:
        out = []
        for uid, o in sorted(order_sheet(view, side).items()):
            out.append((uid, ORDER_NAMES.get(o.notation.split(" ", 1)[0], o.kind), o.notation))
        return out

    def report(self, events: Sequence[Event]) -> Report | None:
        return round_report(events)

    def action_note(self, view: GameState, action: Action) -> str:
        """The order's name; for a movement order also its path's cost, as the engine answers it (4.11); for an
        answer to an execution decision (15.2) the option as the question words it."""
        if action.verb == "choose" and action.args:
            pending = _pending(view)
            options = pending.options if pending is not None else []
            return next((label for key, label in options if key == action.args[0]), "")
        name = ORDER_NAMES.get(action.verb, "")
        info = get_ruleset(self.ruleset).action_info(view, action)
        written = len(action.args) - (info.path_start if info.path_start is not None else len(action.args))
        cost = self.path_cost(view, action) if written > 0 else None
        return f"{name}: {path_words(action.verb, written, cost)}" if cost is not None else name

    def score(self, view: GameState) -> dict[str, int] | None:
        """The scenario's victory hexes (11.2) each side controls; every controlled hex where it names none."""
        control = data(view).control
        objectives = data(view).victory.hexes or list(control)
        return {s.id: sum(1 for h in objectives if control.get(h) == s.id) for s in self.info.sides}

    def score_label(self, view: GameState) -> str:
        return "victory hexes held" if data(view).victory.hexes else "hexes controlled"


def _pending(view: GameState) -> Decision | None:
    """The decision execution waits for (15.2), as the view holds it."""
    c = data(view).execution
    return c.pending if c is not None else None


PRESENTATION = ArtOfTacticPresentation
