"""End to end over SSH: ``planspiel serve`` on 127.0.0.1 and the real OpenSSH client in tmux, keys made by the
test. A first login registers the name and shows the title screen; a game started and an order given survive a
dropped connection (the game is hung up, saves, and Continue after ``ssh`` again is at the same position); a
window resize redraws at the new size; a password login, a command and a port forward are refused."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_tmux import TMUX, Terminal

SSH = shutil.which("ssh")
SSH_KEYGEN = shutil.which("ssh-keygen")
PLANSPIEL = Path(sys.executable).with_name("planspiel")

pytestmark = [
    pytest.mark.skipif(not (SSH and SSH_KEYGEN and Path(TMUX).exists()), reason="needs ssh, ssh-keygen and tmux"),
    pytest.mark.skipif(not PLANSPIEL.exists(), reason="needs the planspiel entry point"),
]
pytest.importorskip("asyncssh")


class Served:
    """A running ``planspiel serve`` and what a player needs to reach it."""

    def __init__(self, tmp: Path, *options: str) -> None:
        self.root = tmp / "server"
        self.log = (tmp / "server.log").open("w")
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        self.process = subprocess.Popen(
            [str(PLANSPIEL), "serve", "--host", "127.0.0.1", "--port", "0", "--root", str(self.root), *options],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"on 127\.0\.0\.1:(\d+)", line)
        assert found, f"the server did not start: {line!r}"
        self.port = int(found.group(1))
        self.keys = tmp / "keys"
        self.keys.mkdir()

    def key(self, name: str) -> Path:
        path = self.keys / name
        if not path.exists():
            subprocess.run([SSH_KEYGEN or "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
        return path

    def ssh_args(self, *extra: str) -> list[str]:
        return [
            SSH or "ssh",
            *("-p", str(self.port)),
            *("-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"),
            *("-o", "IdentitiesOnly=yes", "-F", "/dev/null"),
            *extra,
        ]

    def run(self, *extra: str) -> subprocess.CompletedProcess[str]:
        """``ssh`` without a terminal (BatchMode: it never asks for a password)."""
        return subprocess.run(
            self.ssh_args("-o", "BatchMode=yes", *extra), capture_output=True, text=True, timeout=30, check=False
        )

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    srv = Served(tmp_path)
    yield srv
    srv.stop()
    subprocess.run([TMUX, "-S", str(tmp_path / "tmux.sock"), "kill-server"], check=False, capture_output=True)


def _login(served: Served, tmp: Path, name: str, size: tuple[int, int] = (100, 30)) -> Terminal:
    key = served.key(name)
    command = [*served.ssh_args("-t", "-i", str(key)), f"{name}@127.0.0.1"]
    return Terminal(tmp, command, size=size)


def test_register_play_drop_reconnect_resize(served: Served, tmp_path: Path) -> None:
    term = _login(served, tmp_path, "alice")
    term.wait_for("New game", timeout=30)
    assert (served.root / "accounts" / "alice" / "key.json").exists()  # the first login registered the name
    term.keys("n")
    term.wait_for("Players")
    term.keys("g")  # the New game screen's default: Art of Tactic O-1, German human against the AI
    term.wait_for("German plans in secret: 0 order(s)", timeout=30)
    term.keys(":")
    time.sleep(0.5)
    term.keys("hold ger-1-hq", "Enter")
    term.wait_for("1 order(s) given")
    # A window change reaches the game (SIGWINCH on its pty): it draws at the new size.
    subprocess.run([TMUX, "-S", term.socket, "resize-window", "-t", term.name, "-x", "140", "-y", "40"], check=True)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not any(len(line) > 110 for line in term.screen().splitlines()):
        time.sleep(0.2)
    assert any(len(line) > 110 for line in term.screen().splitlines()), term.screen()
    # The connection drops: the server hangs the game up, it saves and exits.
    term.kill()
    saves = served.root / "accounts" / "alice" / "home" / "saves"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and "ended after" not in (tmp_path / "server.log").read_text():
        time.sleep(0.2)
    assert "(dropped)" in (tmp_path / "server.log").read_text()
    assert list(saves.rglob("*.planspiel")), "no save in the account's folder"
    # ssh again: Continue is at the same position.
    again = _login(served, tmp_path, "alice", size=(80, 24))
    again.wait_for("Continue", timeout=30)
    again.keys("c")
    again.wait_for("1 order(s) given", timeout=30)
    again.keys("Q")
    again.wait_for("New game")
    again.keys("q")
    deadline = time.monotonic() + 15
    while again.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not again.alive()  # quitting the game ends the SSH session


def test_another_key_a_password_a_command_and_forwards_are_refused(served: Served) -> None:
    alice = served.key("alice")
    first = served.run("-i", str(alice), "-t", "-t", "alice@127.0.0.1", "exit-at-once")  # registers alice
    assert "no commands" in first.stderr and first.returncode == 1
    other = served.run("-i", str(served.key("mallory")), "alice@127.0.0.1")
    assert other.returncode == 255 and "Permission denied (publickey)" in other.stderr
    password = served.run("-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password", "alice@127.0.0.1")
    assert password.returncode == 255 and "Permission denied" in password.stderr
    command = served.run("-i", str(alice), "alice@127.0.0.1", "cat", "/etc/passwd")
    assert command.returncode == 1 and "no commands" in command.stderr and "root:" not in command.stdout
    no_tty = served.run("-T", "-i", str(alice), "alice@127.0.0.1")
    assert no_tty.returncode == 1 and "needs a terminal" in no_tty.stderr
    remote = served.run(
        "-i", str(alice), "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:22", "alice@127.0.0.1"
    )
    assert remote.returncode == 255 and "forwarding failed" in remote.stderr


def _lobby(term: Terminal) -> None:
    term.wait_for("Lobby: play others", timeout=30)
    term.keys("o")
    term.wait_for("Create a table (c)")


def _create_p1(alice: Terminal) -> None:
    """Alice creates a P-1 table as German, spectators allowed."""
    _lobby(alice)
    alice.keys("c")
    screen = alice.wait_for("P-1 Grenzgefecht")
    number = re.search(r"(\d)\. P-1 Grenzgefecht", screen)
    assert number, screen
    alice.keys(number.group(1))
    alice.wait_for("your side?")
    alice.keys("1")  # German (the scenario's first side)
    alice.wait_for("Your opponent?")
    alice.keys("1")  # another player of the server
    alice.wait_for("Spectators?")
    alice.keys("1")  # others may watch
    alice.wait_for("— waiting for a")


def _choose_first_table(term: Terminal, then: str) -> str:
    term.keys("Down")
    time.sleep(0.5)
    term.keys("Enter")
    return term.wait_for(then)


def test_two_players_on_two_connections_and_a_spectator(served: Served, tmp_path: Path) -> None:
    alice, bob, carol = (_login(served, tmp_path, name) for name in ("alice", "bob", "carol"))
    _create_p1(alice)
    _lobby(bob)
    bob.wait_for("alice (german) against a free seat (soviet)")
    _choose_first_table(bob, "Waiting for alice")  # join, and the game opens
    assert "you: Soviet" in bob.screen()
    alice.wait_for("bob (soviet) · turn 1", timeout=15)  # the lobby refreshes by itself
    _choose_first_table(alice, "German plans in secret: 0 order(s)")
    alice.keys(":")
    time.sleep(0.5)
    alice.keys("march ger-2-pz2 0305 0405", "Enter")
    alice.wait_for("1 order(s) given")
    _lobby(carol)
    carol.wait_for("Games you may watch")
    _choose_first_table(carol, "you: German")
    alice.keys("z")
    alice.wait_for("Commit the German orders?")
    alice.keys("y")
    alice.wait_for("Waiting for bob, Soviet")
    screen = bob.wait_for("Soviet plans in secret: 0 order(s)")
    assert "march ger-2-pz2" not in screen  # the German order stays secret on the Soviet screen
    carol.wait_for("Waiting for bob, Soviet")
    # Bob's connection drops: Alice's screen says so; Bob comes back, opens the table, and goes on.
    bob.kill()
    alice.wait_for("bob (not at the table now)", timeout=20)
    bob = _login(served, tmp_path, "bob", size=(100, 30))
    _lobby(bob)
    bob.wait_for("your move")
    _choose_first_table(bob, "Soviet plans in secret: 0 order(s)")
    bob.keys("z")
    bob.wait_for("Commit the Soviet orders?")
    bob.keys("y")
    for term in (alice, bob):
        term.wait_for("the orders revealed", timeout=20)
    carol.wait_for("Turn 2/8", timeout=20)  # the spectator's table goes on with the round played


def test_a_guest_logs_in_without_a_key_and_may_only_watch(tmp_path: Path) -> None:
    from tui.remote import TableLink  # noqa: PLC0415 - the tables' client, as the game processes use it

    served = Served(tmp_path, "--guests")
    try:
        sock = str(served.root / "tables.sock")
        alice, bob = TableLink(sock, "alice"), TableLink(sock, "bob")
        tid = alice.request(
            "create", ruleset="art_of_tactic", scenario="p1-grenzgefecht", side="german", spectators=True
        )["table"]
        bob.request("join", table=tid)
        command = [*served.ssh_args("-t", "-o", "PubkeyAuthentication=no"), "guest@127.0.0.1"]
        guest = Terminal(tmp_path, command, size=(100, 30))
        screen = guest.wait_for("Lobby: watch games", timeout=30)
        assert "New game" not in screen and "Continue" not in screen  # neither in the menu nor in the keys
        guest.keys("o")
        guest.wait_for("a guest: you may watch games")
        assert "Create a table" not in guest.screen()
        _choose_first_table(guest, "you: German")
        assert not (served.root / "accounts" / "guest").exists()
        alice.close()
        bob.close()
    finally:
        served.stop()
        subprocess.run([TMUX, "-S", str(tmp_path / "tmux.sock"), "kill-server"], check=False, capture_output=True)
