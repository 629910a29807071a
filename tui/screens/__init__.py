"""Provides the Planspiel screens: title, new game, load, game, hand-off, end of game, help, settings."""
