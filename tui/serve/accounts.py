"""Provides the server's accounts: a player name bound to the public key of its first login.

Each account is a folder ``<root>/accounts/<name>/`` holding ``key.json`` (the key's fingerprint and its
OpenSSH public line) and ``home/``, the ``PLANSPIEL_HOME`` of the account's games (saves, settings). Names are
short, lower-case and safe as folder names; registration is atomic (two first logins racing for one name: one
wins, the other is refused).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GUEST", "NAME_RULE", "Account", "Accounts", "name_problem"]

_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{1,23}$")
NAME_RULE = "2 to 24 characters of a-z, 0-9, _ and -, starting with a letter"
"""What a player name may be, in words (the refusal says it)."""

_RESERVED = frozenset({"root", "admin", "planspiel", "server", "operator", "nobody"})

GUEST = "guest"
"""The login name of guests (``planspiel serve --guests``): no key, spectators only; no account may start with
it (a guest's session is named ``guest-XXXX`` at the tables)."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player name, or None when it can."""
    if not _NAME_RE.match(name):
        return f"the name {name[:30]!r} is not allowed: use {NAME_RULE}"
    if name in _RESERVED or name.startswith(GUEST):
        return f"the name {name!r} is reserved: choose another"
    return None


@dataclass(frozen=True, slots=True)
class Account:
    """A registered player."""

    name: str
    fingerprint: str
    """The SHA256 fingerprint of the public key bound to the name (``SHA256:...``)."""
    folder: Path

    @property
    def home(self) -> Path:
        """The ``PLANSPIEL_HOME`` of the account's games."""
        return self.folder / "home"


class Accounts:
    """The accounts under a server's root folder.

    Args:
        root: the server's folder (created with mode 0700 if missing).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / "accounts"
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)

    def get(self, name: str) -> Account | None:
        """The account of ``name``, or None if the name is free (or its record cannot be read)."""
        if name_problem(name) is not None:
            return None
        folder = self.folder / name
        try:
            record = json.loads((folder / "key.json").read_text(encoding="utf-8"))
            fingerprint = str(record["fingerprint"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return Account(name, fingerprint, folder)

    def taken(self, name: str) -> bool:
        """True if the name's folder exists (registered, or being registered right now)."""
        return (self.folder / name).exists()

    def register(self, name: str, fingerprint: str, public_line: str) -> Account:
        """Bind ``name`` to a key; the account's folder and home are made.

        Raises:
            ValueError: the name is not allowed, or already taken (by another connection too).
        """
        problem = name_problem(name)
        if problem is not None:
            raise ValueError(problem)
        folder = self.folder / name
        try:
            folder.mkdir(mode=0o700)  # atomic: of two first logins racing for one name, one wins
        except FileExistsError:
            raise ValueError(f"the name {name!r} is taken") from None
        record = {"fingerprint": fingerprint, "key": public_line.strip(), "registered": int(time.time())}
        tmp = folder / "key.json.tmp"
        try:
            tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            os.chmod(tmp, 0o600)
            os.replace(tmp, folder / "key.json")
            (folder / "home").mkdir(mode=0o700, exist_ok=True)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
                folder.rmdir()
            raise
        return Account(name, fingerprint, folder)
