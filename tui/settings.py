"""Provides the player's settings (theme, hot-seat hand-off, AI pace, key bindings) in the user config folder.

The file is ``settings.json`` in ``$PLANSPIEL_HOME/config`` when ``PLANSPIEL_HOME`` is set, else in the
platform's user config folder. A missing or damaged file gives the defaults (and a note); it never stops the
game.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from .theme import DEFAULT_THEME, THEME_NAMES

__all__ = ["DEFAULT_REACTION_THRESHOLD", "HANDOFF_MODES", "REACTION_ORDERS", "Settings", "config_dir"]

HANDOFF_MODES: dict[str, str] = {
    "always": "whenever control passes from one human to another",
    "hidden": "only when the ruleset hides something from the other side (the default)",
    "never": "never (both players see everything anyway)",
}
"""Hot-seat hand-off modes → what they mean."""

REACTION_ORDERS: dict[str, str] = {
    "ask": "ask in every reaction window",
    "worth": "ask only when a reaction is worth it; let the other windows pass by themselves",
    "auto": "react by itself with the reaction worth most, when one is worth it",
    "never": "never react: every window passes by itself",
}
"""Standing reaction orders (:mod:`tui.standing`) → what they do."""

DEFAULT_REACTION_THRESHOLD = 0.10
"""The chance of an effect from which an attack in a reaction window is worth asking about (10 %)."""


def config_dir() -> Path:
    """The folder of ``settings.json``: ``$PLANSPIEL_HOME/config``, else the user config folder."""
    home = os.environ.get("PLANSPIEL_HOME")
    if home:
        return Path(home).expanduser() / "config"
    return Path(platformdirs.user_config_dir("planspiel", appauthor=False))


@dataclass
class Settings:
    """What a player can change in the settings screen."""

    theme: str = DEFAULT_THEME
    """One of :data:`~tui.theme.THEME_NAMES`."""
    handoff: str = "hidden"
    """One of :data:`HANDOFF_MODES`; the default follows DESIGN §6: a hand-off only with hidden information."""
    ai_delay: float = 0.2
    """Seconds to pause after each AI action so that a player can follow it."""
    keymap: dict[str, str] = field(default_factory=dict)
    """Binding id → keys (comma-separated), e.g. ``{"game.fire": "f,F"}``."""
    reactions: str = "auto"
    """Standing reaction orders of a human side in a new game (:data:`REACTION_ORDERS`)."""
    reaction_threshold: float = DEFAULT_REACTION_THRESHOLD
    """The chance of an effect from which a reaction is worth it (standing orders)."""
    last_ruleset: str = ""
    """The ruleset of the last new game started (the new-game screen offers it first); empty: none yet."""
    note: str = ""
    """Why the file could not be read (not saved)."""

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """Read the settings file (defaults when it is missing or damaged)."""
        target = path or config_dir() / "settings.json"
        try:
            raw: Any = json.loads(target.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as err:
            return cls(note=f"{target}: cannot be read ({err}); using the default settings")
        if not isinstance(raw, dict):
            return cls(note=f"{target}: not a settings object; using the default settings")
        s = cls()
        if raw.get("theme") in THEME_NAMES:
            s.theme = raw["theme"]
        if raw.get("handoff") in HANDOFF_MODES:
            s.handoff = raw["handoff"]
        if isinstance(raw.get("ai_delay"), (int, float)) and 0 <= raw["ai_delay"] <= 5:
            s.ai_delay = float(raw["ai_delay"])
        if raw.get("reactions") in REACTION_ORDERS:
            s.reactions = raw["reactions"]
        threshold = raw.get("reaction_threshold")
        if isinstance(threshold, (int, float)) and 0 <= threshold <= 1:
            s.reaction_threshold = float(threshold)
        if isinstance(raw.get("last_ruleset"), str):
            s.last_ruleset = raw["last_ruleset"]
        keymap = raw.get("keymap")
        if isinstance(keymap, dict):
            s.keymap = {str(k): str(v) for k, v in keymap.items() if isinstance(v, str) and v.strip()}
        return s

    def save(self, path: Path | None = None) -> Path:
        """Write the settings file (atomically: a temporary file, then a rename).

        Raises:
            OSError: the folder cannot be written.
        """
        target = path or config_dir() / "settings.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        data = {k: v for k, v in asdict(self).items() if k != "note"}
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, target)
        return target
