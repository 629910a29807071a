"""Provides the Blitzkrieg 1940 (Hannut, Stonne) ruleset: chit-pull formation activation, 2d6, company level.

The rules are those of the digest ``shared/rules/blitzkrieg-1940.md``; ``README.md`` beside this module lists
the notation verbs, the readings chosen where the digest is silent, and what is not enforced yet.
"""

from __future__ import annotations

from .ruleset import Blitzkrieg1940

RULESET = Blitzkrieg1940()

__all__ = ["RULESET", "Blitzkrieg1940"]
