"""Provides the Art of Tactic (Barbarossa 1941) ruleset: secret orders for both sides, then 12 execution steps.

The rules are those of the digest ``shared/rules/art-of-tactic-barbarossa.md``; ``README.md`` beside this module
lists the notation verbs, the readings chosen where the digest is silent, and what is implemented so far.
"""

from __future__ import annotations

from .ruleset import ArtOfTactic

RULESET = ArtOfTactic()

__all__ = ["RULESET", "ArtOfTactic"]
