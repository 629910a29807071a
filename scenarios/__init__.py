"""Provides the scenario and map data files, found with importlib.resources."""
