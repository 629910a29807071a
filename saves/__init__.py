"""Provides msgpack save files for games and campaigns (see saves/FORMAT.md once written)."""
