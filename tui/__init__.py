"""Provides the Textual game client and the planspiel command line."""
