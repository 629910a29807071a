"""Provides the widgets of the Planspiel screens: the hex map and the panels."""
