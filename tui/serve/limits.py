"""Provides the server's limits: connections per address, unauthenticated connections, sessions per account,
safe terminal types and text cleaned of control characters."""

from __future__ import annotations

import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Counter", "RateLimit", "ServeLimits", "clean_text", "safe_term"]

_TERM_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$")


def safe_term(term: str | None) -> str | None:
    """``term`` when it is a plausible terminal type (letters, digits, ``. _ + -``, at most 64), else None."""
    if term is None or not _TERM_RE.match(term):
        return None
    return term


def clean_text(text: str, limit: int = 200) -> str:
    """``text`` without control characters (escape sequences included) or format characters, cut to ``limit``."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C")
    return kept[:limit]


@dataclass(slots=True)
class ServeLimits:
    """What the server allows (the defaults are in the README)."""

    connections_per_minute: int = 20
    """New connections one address may open in a minute."""
    max_unauthenticated: int = 32
    """Connections that have not logged in yet, all addresses together."""
    sessions_per_account: int = 3
    """Sessions one account may have open at once."""
    login_timeout: float = 60.0
    """Seconds a connection may take to log in."""
    idle_timeout: float = 3600.0
    """Seconds without a key pressed before a session is closed (its game is saved)."""
    memory_mb: int = 2048
    """Address space of each game process (RLIMIT_AS)."""
    cpu_seconds: int = 4 * 3600
    """CPU time of each game process (RLIMIT_CPU)."""
    open_files: int = 256
    """Open files of each game process (RLIMIT_NOFILE)."""


@dataclass(slots=True)
class RateLimit:
    """At most ``limit`` events per ``window`` seconds for each key (an address)."""

    limit: int
    window: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _seen: dict[str, deque[float]] = field(default_factory=dict)

    def allow(self, key: str) -> bool:
        """Count an event for ``key``; False (not counted) when ``key`` is over its limit."""
        now = self.clock()
        seen = self._seen.setdefault(key, deque())
        while seen and now - seen[0] >= self.window:
            seen.popleft()
        if len(seen) >= self.limit:
            return False
        seen.append(now)
        if len(self._seen) > 10_000:  # forget quiet addresses now and then
            self._seen = {k: v for k, v in self._seen.items() if v and now - v[-1] < self.window}
        return True


@dataclass(slots=True)
class Counter:
    """How many of something are open, per key, with a cap."""

    cap: int
    _open: dict[str, int] = field(default_factory=dict)

    def take(self, key: str = "") -> bool:
        """Open one for ``key``; False (nothing taken) when ``key`` is at its cap."""
        n = self._open.get(key, 0)
        if n >= self.cap:
            return False
        self._open[key] = n + 1
        return True

    def give_back(self, key: str = "") -> None:
        """Close one for ``key``."""
        n = self._open.get(key, 0) - 1
        if n > 0:
            self._open[key] = n
        else:
            self._open.pop(key, None)

    def count(self, key: str = "") -> int:
        """How many are open for ``key``."""
        return self._open.get(key, 0)
