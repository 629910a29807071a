"""Provides the built-in rulesets, one package per rule system."""
