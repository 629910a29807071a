"""The server's accounts (names, registration bound to a key, atomic) and limits (rate, caps, TERM, text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.serve.accounts import Accounts, name_problem
from tui.serve.limits import Counter, RateLimit, clean_text, safe_term


@pytest.mark.parametrize("name", ["al", "alice", "bob_2", "z-9", "a" * 24])
def test_names_allowed(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize("name", ["a", "a" * 25, "Alice", "9lives", "al ice", "../x", "al\x1b[2J", "root", "guest"])
def test_names_refused_say_why(name: str) -> None:
    problem = name_problem(name)
    assert problem is not None and ("not allowed" in problem or "reserved" in problem)
    assert "\x1b" not in problem


def test_registration_binds_a_key_once(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path)
    assert accounts.get("alice") is None and not accounts.taken("alice")
    account = accounts.register("alice", "SHA256:abc", "ssh-ed25519 AAAA alice\n")
    assert account.home.is_dir() and account.folder.stat().st_mode & 0o777 == 0o700
    again = accounts.get("alice")
    assert again is not None and again.fingerprint == "SHA256:abc"
    with pytest.raises(ValueError, match="taken"):
        accounts.register("alice", "SHA256:other", "ssh-ed25519 BBBB")
    assert accounts.get("alice").fingerprint == "SHA256:abc"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not allowed"):
        accounts.register("../etc", "SHA256:x", "k")


def test_a_broken_record_is_no_account_and_blocks_the_name(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path)
    (accounts.folder / "bob").mkdir()
    (accounts.folder / "bob" / "key.json").write_text("{not json", encoding="utf-8")
    assert accounts.get("bob") is None and accounts.taken("bob")


def test_rate_limit_counts_per_address_in_its_window() -> None:
    now = [0.0]
    rate = RateLimit(2, 60.0, clock=lambda: now[0])
    assert rate.allow("1.2.3.4") and rate.allow("1.2.3.4")
    assert not rate.allow("1.2.3.4") and rate.allow("5.6.7.8")
    now[0] = 60.0
    assert rate.allow("1.2.3.4")


def test_counter_caps_per_key() -> None:
    c = Counter(2)
    assert c.take("a") and c.take("a") and not c.take("a") and c.take("b")
    c.give_back("a")
    assert c.count("a") == 1 and c.take("a")


def test_safe_term_and_clean_text() -> None:
    assert safe_term("xterm-256color") == "xterm-256color" and safe_term("screen.xterm+x") is not None
    for bad in (None, "", "xterm;ls", "x" * 65, "xterm\x1b]0;pwned\x07", "-xterm"):
        assert safe_term(bad) is None
    assert clean_text("hi\x1b[2J\x07 there\u202e!") == "hi[2J there!"
    assert len(clean_text("x" * 500)) == 200
