"""Provides the Blitzkrieg 1940 presentation: markers (N, OPP, OOC), chits, objectives and the German VP."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.actions import Action
from engine.hexgrid import Hex
from engine.presentation import Marker, Presentation, id_number
from engine.state import GameState, Unit

from . import frames, sequence, verbs, victory
from .data import load_tables
from .model import (
    ActivationFrame,
    CancelFrame,
    ChitFrame,
    CloseCombatFrame,
    Frame,
    NChoiceFrame,
    WindowFrame,
    data,
    status,
)
from .overlays import OVERLAY_NAMES

__all__ = ["PRESENTATION", "BlitzkriegPresentation"]


def _frame(view: GameState) -> Frame | None:
    frames = data(view).frames
    return frames[-1] if frames else None


class BlitzkriegPresentation(Presentation):
    """Blitzkrieg 1940: chit-pull activation, reaction windows, Hannut VP and Stonne possession."""

    ruleset = "blitzkrieg1940"
    score_name = "German VP"
    OVERLAYS: ClassVar[dict[str, tuple[str, str, str]]] = {
        name: (kind, glyphs, OVERLAY_NAMES[name])
        for name, (kind, glyphs, _) in Presentation.OVERLAYS.items()
        if name in OVERLAY_NAMES
    }

    def unit_markers(self, unit: Unit) -> list[Marker]:
        s = status(unit)
        out: list[Marker] = []
        if s.neutralised:
            out.append(Marker("N", "neutralised (8.3)"))
        if s.ooc:
            out.append(Marker("C", "OOC: out of command (3.5)"))
        if s.opp_used:
            out.append(Marker("O", "OPP used: opportunity fire spent (6.3.1)"))
        if s.moving:
            m = s.moving
            out.append(Marker("»", f"{m.action} under way, {m.mp - m.spent:g} MP left"))
        elif s.acted:
            out.append(Marker("✓", "has acted this activation"))
        if s.column:
            out.append(Marker("=", "in column (7.2.1)"))
        if s.carrying:
            out.append(Marker("+", f"carrying {s.carrying}"))
        if s.carried_by:
            out.append(Marker("^", f"on board {s.carried_by}"))
        if s.independent:
            out.append(Marker("i", "independent (10.3)"))
        return out

    def unit_title(self, view: GameState, unit: Unit) -> str:
        """The formation's name and the unit's type: ``I/35 PzR, Pz III company``."""
        f = data(view).formations.get(unit.formation or "")
        name = self.unit_name(unit)
        return f"{f.name}, {name}" if f is not None and f.name else name

    short_names: ClassVar[Mapping[str, str]] = {
        "PZ1": "Pz I",
        "PZ2": "Pz II",
        "PZ3": "Pz III",
        "PZ4": "Pz IV",
        "STUG": "StuG",
        "APC": "SdKfz 251",
        "ACG": "armd cars",
        "SCH": "Schützen",
        "MGG": "MG",
        "KRD": "Krad",
        "GDI": "rifles",
        "GDM": "MG/heavy",
        "PIO": "Pioniere",
        "PAK": "PaK 36",
        "S35": "S35",
        "H35": "H35",
        "H39": "H39",
        "FCM": "FCM 36",
        "B1": "B1 bis",
        "P178": "P178",
        "MOT": "motos",
        "DRG": "dragons",
        "FIN": "infantry",
        "FMG": "MG",
        "AT25": "25 mm AT",
        "AT47": "47 mm AT",
        "hq_de": "HQ",
        "hq_fr": "HQ",
    }

    def unit_short(self, view: GameState, unit: Unit) -> str:
        """The formation's name, the type's short name and the unit's number among its like (``I/5 PzR Pz I``,
        ``2. Kürassiere S35 #3``); an independent unit of a group of its own by the group's name (``11 RDP AT
        gun``), whatever formation it is assigned to (10.3)."""
        formations = data(view).formations
        group = formations.get(status(unit).group or "") if status(unit).independent else None
        if group is not None and group.name:
            number = id_number(unit.id)
            return f"{group.name} #{number}" if number else group.name
        f = formations.get(unit.formation or "")
        short = super().unit_short(view, unit)
        return f"{f.name} {short}" if f is not None and f.name else short

    def unit_facts(self, unit: Unit) -> list[tuple[str, str]]:
        t = self.unit_type(unit)
        rows = [("type", f"{self.unit_name(unit)} ({unit.type})")]
        if self.full_steps(unit):
            rows.append(("steps", f"{unit.steps} of {self.full_steps(unit)}"))
        if t.get("attack_full") is not None:
            reduced_side = unit.steps < self.full_steps(unit)
            full = t.get("back_attack_full" if reduced_side else "attack_full")
            moving = t.get("back_attack_reduced" if reduced_side else "attack_reduced")
            rows.append(("attack", f"{full} / {moving} moving"))
        for key, name in (("range", "range"), ("armour", "armour"), ("mp", "MP")):
            if t.get(key) is not None:
                rows.append((name, str(t[key])))
        if t.get("command_range") is not None:
            rows.append(("command", f"{t['command_range']} hexes"))
        if unit.formation:
            rows.append(("formation", unit.formation))
        if unit.hex is None:
            if status(unit).exited:
                rows.append(("where", "left the map"))
            elif unit.steps <= 0:
                rows.append(("where", "eliminated"))
            elif status(unit).arrives is not None:
                rows.append(("arrives", f"turn {status(unit).arrives} at {' '.join(status(unit).entry or [])}"))
        return rows

    def hex_markers(self, view: GameState, h: Hex) -> list[Marker]:
        label = view.board.label(h)
        out: list[Marker] = []
        holder = data(view).held_by.get(label)
        if holder is not None:
            out.append(Marker("★", f"objective held by {self.info.side_name(holder)} (11)", holder))
        mine = data(view).mines.get(label)
        if mine is not None:
            out.append(Marker("m", f"{self.info.side_name(mine)} minefield (10.1)", mine))
        if label in data(view).forts:
            out.append(Marker("F", "fortification (10.2)"))
        return out

    def hex_control(self, view: GameState, h: Hex) -> str | None:
        holder = data(view).held_by.get(view.board.label(h))
        return str(holder) if holder is not None else None

    def waiting_for(self, view: GameState) -> str:
        if view.outcome is not None:
            return f"The game is over: {view.outcome.reason}"
        f = _frame(view)
        if f is None:
            return super().waiting_for(view)
        side = self.info.side_name(f.side)
        if isinstance(f, WindowFrame):
            what = {"move": "the move of", "fire": "the fire of", "indirect": "the barrage on"}.get(
                f.trigger, "the action of"
            )
            target = f.active if f.active else " ".join(f.hexes)
            return f"{side} may react to {what} {target} (6.3), or close"
        if isinstance(f, CloseCombatFrame):
            return f"{side} decides in the close combat at {f.hex} (9)"
        if isinstance(f, NChoiceFrame):
            return f"{side} chooses for {f.unit}: keep the N result or take a step loss (8.3)"
        if isinstance(f, ActivationFrame):
            names = [data(view).formations[fid].name for fid in f.formations]
            if not names:
                return f"{side} fires the barrage: {', '.join(f.salvos or [])}"
            moving = next((u.id for u in view.iter_units(f.side) if status(u).moving), None)
            if moving:
                return f"{side} moves {moving} (step on, fire or stop)"
            return f"{side} acts with {' and '.join(names)}"
        return frames.waiting_for(view, f)

    def status_items(self, view: GameState) -> list[str]:
        items: list[str] = []
        f = _frame(view)
        chit = None
        for fr in reversed(data(view).frames):
            if isinstance(fr, ChitFrame | CancelFrame):
                chit = fr.chit
                break
            if isinstance(fr, ActivationFrame):
                chit = fr.art or next(iter(fr.formations), None)
                break
        if chit and chit in data(view).chits:
            items.append(f"chit: {sequence.chit_name(view, chit)}")
        if f is None and view.outcome is None:
            items.append(f"cup {len(data(view).cup)}")
        score = self.score(view)
        if score is not None and "german" in score:
            items.append(f"German VP {score['german']}")
        return items

    def argument_label(self, verb: str, slot: str, value: str) -> str:
        """8.6.2: the count of a Stuka attack or a salvo is how many concentrate on the hex; a salvo's calibre."""
        if slot == "count":
            what = "Stuka attacks" if verb == "stuka" else "salvos"
            return f"{value} {what} together (8.6.2)"
        if slot == "calibre":
            return f"{value} mm"
        return value

    def action_note(self, view: GameState, action: Action) -> str:
        chits = data(view).chits
        formations = data(view).formations
        names = []
        for arg in action.args:
            if arg in chits:
                names.append(sequence.chit_name(view, arg))
            elif arg in formations:
                names.append(formations[arg].name)
        f = _frame(view)
        if not names and isinstance(f, ChitFrame | CancelFrame) and f.chit in chits and action.verb in verbs.SEQUENCE:
            names.append(sequence.chit_name(view, f.chit))
        return ", ".join(names)

    def score(self, view: GameState) -> dict[str, int] | None:
        try:
            kind = victory.victory_kind(view)
        except ValueError:
            return None
        tables = load_tables()
        if kind == "vp":
            return {"german": victory.hannut_vp(tables, view)}
        held = data(view).held_by
        return {s.id: sum(1 for v in held.values() if v == s.id) for s in self.info.sides}

    def score_label(self, view: GameState) -> str:
        """What the score counts, for the end-of-game chart."""
        try:
            kind = victory.victory_kind(view)
        except ValueError:
            return "score"
        return "German VP (13.8)" if kind == "vp" else "objective hexes held (12.2)"


PRESENTATION = BlitzkriegPresentation
