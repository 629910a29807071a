"""Provides msgpack save files for games and campaigns: atomic writes, autosaves, checked loading (FORMAT.md).

Saving and loading a game::

    import saves

    path = saves.saves_dir() / "hannut.planspiel"
    saves.save_game(game, path, players={"french": "ai:greedy"})
    game = saves.load_game(path)  # replays the history and compares it with the saved position
    game.players, game.warnings  # {"german": "human", "french": "ai:greedy"}, []
    game = saves.load_game(path, verify="snapshot")  # at once; saves.check_replay(game) later, in a worker
"""

from __future__ import annotations

from .autosave import KEEP_TURNS, Autosaver
from .campaign import CampaignSave, RosterUnit, decode_campaign, encode_campaign, load_campaign, save_campaign
from .codec import MAX_FILE_BYTES, MAX_HEADER_BYTES
from .errors import SaveError
from .fileio import backup_path, write_atomic
from .games import (
    GameEncoder,
    SavedGame,
    SaveEntry,
    Verify,
    check_replay,
    clear_scenario_cache,
    decode_game,
    encode_game,
    list_saves,
    load_game,
    read_header,
    read_history,
    save_game,
)
from .header import SaveHeader, SideInfo
from .migrations import FORMAT_VERSION
from .paths import HOME_VARIABLE, SUFFIX, autosave_dir, saves_dir
from .signals import SaveOnExit, deferred_signals, install_exit_handlers
from .verify import VerifyReport, verify_save

__all__ = [
    "FORMAT_VERSION",
    "HOME_VARIABLE",
    "KEEP_TURNS",
    "MAX_FILE_BYTES",
    "MAX_HEADER_BYTES",
    "SUFFIX",
    "Autosaver",
    "CampaignSave",
    "GameEncoder",
    "RosterUnit",
    "SaveEntry",
    "SaveError",
    "SaveHeader",
    "SaveOnExit",
    "SavedGame",
    "SideInfo",
    "Verify",
    "VerifyReport",
    "autosave_dir",
    "backup_path",
    "check_replay",
    "clear_scenario_cache",
    "decode_campaign",
    "decode_game",
    "deferred_signals",
    "encode_campaign",
    "encode_game",
    "install_exit_handlers",
    "list_saves",
    "load_campaign",
    "load_game",
    "read_header",
    "read_history",
    "save_campaign",
    "save_game",
    "saves_dir",
    "verify_save",
    "write_atomic",
]
