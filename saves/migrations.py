"""Provides the migration chain that brings a save of an older format up to :data:`FORMAT_VERSION`.

Each step upgrades the raw header and body dicts of format ``n`` to format ``n + 1`` in place. A step is
given the body as None when only the header is being read (listing saves), so it must upgrade the header on
its own. Format 1 is the first format, so the chain is empty today; to change the format:

1. bump :data:`FORMAT_VERSION` in this module and describe the new layout in ``saves/FORMAT.md``;
2. add ``MIGRATIONS[n] = _n_to_n1`` below (it also updates ``body["header"]``, the header's copy);
3. run ``tests/saves/make_fixtures.py`` to freeze a fixture of the new format beside the old ones, which are
   never regenerated: they prove that old files keep loading.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["FORMAT_VERSION", "MIGRATIONS", "Migration", "migrate"]

FORMAT_VERSION = 1
"""The save format this version writes (and the newest it reads)."""

Migration = Callable[[dict[str, Any], dict[str, Any] | None], None]
"""Upgrades ``(header, body)`` of one format to the next, in place; ``body`` is None when reading a header."""

MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` upgrades format ``n`` to ``n + 1``."""


def migrate(header: dict[str, Any], body: dict[str, Any] | None, version: int) -> None:
    """Upgrade ``header`` (and ``body``) from format ``version`` to :data:`FORMAT_VERSION`, in place.

    Raises:
        KeyError: a step of the chain is missing (a programming error, caught by the tests).
    """
    while version < FORMAT_VERSION:
        MIGRATIONS[version](header, body)
        version += 1
        header["format"] = version
        if body is not None and isinstance(body.get("header"), dict):
            body["header"]["format"] = version
