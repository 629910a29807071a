"""Provides the HACSE presentation: the facing of every gun and vehicle as an arrow marker (2.2), the unit card
(sheet, armour by location, weapons and ammunition, MP spent), hidden / dug-in / activated markers, objectives
and their control, and the Movement Phase's step in the status bar (3.2).

No UI code: the TUI shows what these methods return.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.hexgrid import Hex
from engine.presentation import KIND_GLYPHS, TERRAIN_GLYPHS, Marker, Presentation
from engine.state import GameState, Unit

from . import sheets
from .damage import effects
from .data import Sheet, load_tables
from .model import FACING_NAMES, data, status

__all__ = ["FACING_ARROWS", "PRESENTATION", "HacsePresentation"]

FACING_ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")
"""The marker of each facing 0–5 (N, NE, SE, S, SW, NW): one glyph that reads in monochrome too (2.2)."""


class HacsePresentation(Presentation):
    """HACSE: facing arrows, unit sheets, hidden units, objectives."""

    ruleset = "hacse"
    score_name = "victory points"
    terrain_glyphs: ClassVar[Mapping[str, str]] = {
        **TERRAIN_GLYPHS,
        "clear": "",
        "mud": "∴",
        "swamp": "ψ",
        "snow": "∗",
        "light_forest": "♧",
        "dense_forest": "♣",
        "rough": "%",
        "rubble": "÷",
        "crop": "≡",
        "water": "~",
        "ford": "≃",
        "bridge": "Ξ",
        "light_buildings": "⌂",
        "medium_buildings": "▣",
        "heavy_buildings": "■",
    }
    OVERLAYS: ClassVar[dict[str, tuple[str, str, str]]] = {
        "front_arc": ("los", "·", "outline of the selected unit's front arc (2.2: front armour, front-arc weapons)"),
        "shell": ("target", "◎", "a hex the unit shelling may fire at (7.4: any hex meeting a precondition)"),
        "light": ("target", "✧", "a hex the searchlight being aimed may light (6.1: within 20 hexes, in sight)"),
    }
    water_terrain: ClassVar[frozenset[str]] = frozenset({"water", "ford", "bridge"})
    terrain_looks: ClassVar[Mapping[str, str]] = {
        "clear": "open",
        "crop": "field",
        "light_forest": "light_woods",
        "dense_forest": "woods",
        "rough": "hill",
        "mud": "marsh",
        "rubble": "town",
        "light_buildings": "village",
        "medium_buildings": "village",
        "heavy_buildings": "town",
    }
    short_names: ClassVar[Mapping[str, str]] = {k: s.short for k, s in load_tables().sheets.items()}

    def unit_glyph(self, unit: Unit) -> str:
        kind = str(self.unit_type(unit).get("kind", ""))
        return {"truck": "W", "mortar": "R"}.get(kind) or KIND_GLYPHS.get(kind, kind[:1].upper() or "?")

    def unit_markers(self, unit: Unit) -> list[Marker]:
        s = status(unit)
        out: list[Marker] = []
        if s.facing is not None:
            out.append(Marker(FACING_ARROWS[s.facing], f"facing {FACING_NAMES[s.facing].upper()} (2.2)"))
        if s.hidden:
            out.append(Marker("h", "hidden (13.2)"))
        if s.dug_in:
            out.append(Marker("d", "dug in (13.8)"))
        if s.activated:
            out.append(Marker("✓", "activated this turn (3.2)"))
        if s.embarked_in:
            out.append(Marker("e", f"embarked in {s.embarked_in} (4.5)"))
        if s.towed_by:
            out.append(Marker("t", f"towed by {s.towed_by} (4.6)"))
        if s.die is not None and unit.hex is not None:
            glyph = str(s.die) if 0 <= s.die <= 9 else "◆"
            out.append(Marker(glyph, f"target die {s.die:+d} (5)"))
        if s.rows_hit:
            out.append(Marker("x", f"{len(s.rows_hit)} rows hit (8.5)"))
        if s.shaken:
            out.append(Marker("!", "shaken (9.5)"))
        return out

    def unit_facts(self, unit: Unit) -> list[tuple[str, str]]:
        tables = load_tables()
        sheet = tables.sheets.get(unit.type)
        if sheet is None:
            return super().unit_facts(unit)
        s = status(unit)
        a = sheet.armour
        rows = [
            ("type", f"{sheet.name} ({sheet.id})"),
            ("kind", f"{sheet.unit_type}, moves {sheet.move_class}"),
            ("experience", s.experience),
            ("rows", f"{unit.steps} of {sheet.possible_damage} intact"),
            ("MP", f"{sheet.mp} (road {sheet.road_mp}), spent {s.half_mp / 2:g}"),
            ("armour", f"F {a.front} / S {a.side} / R {a.rear} / T {a.top}"),
            ("profile", f"{sheet.target_profile:+d}"),
        ]
        if s.facing is not None:
            rows.append(("facing", f"{FACING_ARROWS[s.facing]} {FACING_NAMES[s.facing].upper()}"))
        if s.die is not None:
            rows.append(("target die", f"{s.die:+d} (placed at the end of its activation, 5)"))
        if s.rows_hit:
            rows.append(("rows hit", ", ".join(f"{r} {_row_kind(sheet, r)}" for r in s.rows_hit)))
            eff = effects(sheets.target(sheet, s.rows_hit))
            state = [
                n
                for n, on in (
                    ("immobilised", eff.immobilised),
                    ("burning", eff.burning),
                    ("out of action", eff.out_of_action),
                    ("turret jammed", eff.turret_jammed),
                )
                if on
            ]
            if state:
                rows.append(("damage", ", ".join(state) + " (8.5)"))
        rows.append(("morale", "shaken (9.5)" if s.shaken else "steady"))
        for i, m in enumerate(sheet.mounts, start=1):
            ammo = ", ".join(f"{k} {v - s.spent.get(f'{i - 1}.{k}', 0)}/{v}" for k, v in m.ammo.items())
            notes = [t for t, on in (("jammed, 6.6", i - 1 in s.jammed), ("destroyed", m.row in s.rows_hit)) if on]
            extra = f" — {', '.join(notes)}" if notes else ""
            rows.append(("weapon", f"{m.count}× {tables.weapons[m.weapon].name} ({m.mount}; {ammo}){extra}"))
        if unit.formation:
            rows.append(("platoon", unit.formation))
        return rows

    def hex_markers(self, view: GameState, h: Hex) -> list[Marker]:
        d = data(view)
        out: list[Marker] = []
        if h in d.points:
            holder = d.control.get(h)
            owner = f", held by {self.info.side_name(holder)}" if holder else ""
            out.append(Marker("★", f"objective, {d.points[h]} points{owner} (15.9)", holder))
        for m in d.mines:
            if m.hex == h:
                what = "AT mines" if m.kind == "at" else "booby traps"
                out.append(Marker("m", f"{m.count} {self.info.side_name(m.side)} {what} (13.4)", m.side))
        if h in d.wire:
            out.append(Marker("#", "barbed wire (13.5)"))
        if h in d.obstacles:
            out.append(Marker("x", "AT obstacles: no vehicle may enter (13.6)"))
        if h in d.ditches:
            out.append(Marker("v", "AT ditch: no vehicle may cross (13.7)"))
        if h in d.charges:
            out.append(Marker("c", f"{d.charges[h]} demolition charges attached (4.10)"))
        return out

    def hex_control(self, view: GameState, h: Hex) -> str | None:
        return data(view).control.get(h)

    def status_items(self, view: GameState) -> list[str]:
        d = data(view)
        items: list[str] = []
        if d.first:
            items.append(f"{self.info.side_name(d.first)} moved first")
        if d.mover and view.outcome is None:
            items.append(f"{self.info.side_name(d.mover)}: {d.quota} to activate")
        if d.active:
            items.append(f"{d.active} in activation")
        return items

    def waiting_for(self, view: GameState) -> str:
        if view.outcome is not None:
            return f"The game is over: {view.outcome.reason}"
        d = data(view)
        side = self.info.side_name(view.to_act)
        if view.phase == "attack":
            if d.active:
                return f"{side}: {d.active} fires on with another weapon, or ceases fire (3.2 Phase 3b)"
            return f"{side}: fire with a unit, or let it cease fire (3.2 Phase 3b)"
        if view.phase == "end" and d.offer is not None:
            return f"{side}: blow the bridge at {view.board.label(d.offer)} or spare it (4.10)"
        if d.active:
            return f"{side}: go on with {d.active}, or stop it"
        return f"{side}: activate a unit ({d.quota} this step)"


def _row_kind(sheet: Sheet, index: int) -> str:
    """A damage row's kind as the sheet names it (2.3), e.g. ``track_axle`` → ``(track axle)``."""
    row = next((r for r in sheet.rows if r.index == index), None)
    return f"({row.role or row.kind.replace('_', ' ')})" if row is not None else ""


PRESENTATION = HacsePresentation
