"""Provides where saves live: the user data folder (platformdirs), or ``$PLANSPIEL_HOME/saves``."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["HOME_VARIABLE", "SUFFIX", "autosave_dir", "saves_dir"]

HOME_VARIABLE = "PLANSPIEL_HOME"
"""The environment variable that moves Planspiel's data folder (saves go to ``$PLANSPIEL_HOME/saves``)."""

SUFFIX = ".planspiel"
"""The file name suffix of save files."""


def saves_dir() -> Path:
    """The folder for save files: ``$PLANSPIEL_HOME/saves``, else ``<user data folder>/planspiel/saves``.

    The folder is not created here; :func:`saves.save_game` creates the folders it writes into.
    """
    home = os.environ.get(HOME_VARIABLE)
    if home:
        return Path(home).expanduser() / "saves"
    return Path(platformdirs.user_data_dir("planspiel", appauthor=False)) / "saves"


def autosave_dir() -> Path:
    """The folder for autosaves: ``saves_dir() / "autosave"``."""
    return saves_dir() / "autosave"
