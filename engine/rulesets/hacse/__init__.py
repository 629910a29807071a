"""Provides the HACSE ruleset (squads and vehicles with facing, 2d10, armour by location).

The rules are those of the digest ``shared/rules/hacse.md``; ``README.md`` beside this module lists the layout, the
readings chosen where the digest is silent and what is not implemented yet.
"""

from __future__ import annotations

from .ruleset import Hacse

RULESET = Hacse()

__all__ = ["RULESET", "Hacse"]
