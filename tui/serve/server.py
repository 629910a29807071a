"""Provides the SSH side of ``planspiel serve`` (asyncssh): who may log in, and a game process per session.

A connection logs in with a public key only: the first login with a name registers it with that key
(:mod:`.accounts`), later logins under the name need the same key. A session must ask for a terminal; commands,
subsystems and every kind of forwarding are refused with one line. Each session runs the game client as a child
process on its own pseudo-terminal (:class:`~.child.Child`), with the account's folder as its home, and the bytes
are passed through as they are: a window change is passed on (SIGWINCH in the game), a dropped connection hangs
the game up (it saves and exits, as a local game does on SIGHUP), and so does a session left without a key for
the idle timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import shutil
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncssh

from .accounts import GUEST, Account, Accounts, name_problem
from .child import Child, child_env
from .limits import Counter, RateLimit, ServeLimits, clean_text, safe_term
from .tables import TableService

__all__ = ["Hub", "host_key", "run_server", "start_server"]

log = logging.getLogger("planspiel.serve")

_HANG_UP_WAIT = 10.0
"""Seconds a game has to save and exit after SIGHUP before it is killed."""


def host_key(root: Path) -> asyncssh.SSHKey:
    """The server's host key, ``<root>/host_key``: generated (Ed25519, mode 0600) on the first start, then kept."""
    path = root / "host_key"
    if path.exists():
        return asyncssh.read_private_key(str(path))
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519")
    tmp = root / "host_key.tmp"
    key.write_private_key(str(tmp))
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return key


class Hub:
    """What every connection of one server shares: the accounts, the limits and their counters, the games running.

    Args:
        root: the server's folder (host key, accounts and their games).
        limits: what the server allows.
        client: the command of the game client (default: this Python running ``tui.cli``).
    """

    def __init__(
        self,
        root: Path,
        limits: ServeLimits | None = None,
        client: Sequence[str] | None = None,
        guests: bool = False,
    ) -> None:
        self.root = root
        self.guests = guests
        """Whether ``ssh guest@HOST`` logs in without a key, to watch games only."""
        self.guest_sessions = Counter(10)
        self.limits = limits or ServeLimits()
        self.accounts = Accounts(root)
        # -I: the game must not import from its working folder (an account's home holds a "saves" folder, which
        # would shadow the saves package) nor read PYTHON* variables.
        self.client = list(client) if client else [sys.executable, "-I", "-m", "tui.cli"]
        self.rate = RateLimit(self.limits.connections_per_minute, 60.0)
        self.unauthenticated = Counter(self.limits.max_unauthenticated)
        self.sessions = Counter(self.limits.sessions_per_account)
        self.children: set[Child] = set()
        self.tables = TableService(root)
        self.tables_socket = root / "tables.sock"
        """The Unix socket of the tables (two-player games, spectators), for the game processes."""

    async def open_tables(self) -> None:
        """Start the tables' socket."""
        await self.tables.start(self.tables_socket)

    async def close_tables(self) -> None:
        await self.tables.stop()

    def hang_up_all(self) -> None:
        """Hang up every game (the server stops: each saves and exits)."""
        for child in list(self.children):
            child.hang_up()


class _Connection(asyncssh.SSHServer):
    """One SSH connection: its limits, and authentication by public key."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.peer = "?"
        self.refusal: str | None = None
        self.counted = False
        self.pending: tuple[str, str, str] | None = None
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        if not self.hub.rate.allow(self.peer):
            self.refusal = "too many new connections from your address: wait a minute"
        elif not self.hub.unauthenticated.take():
            self.refusal = "the server is busy: try again in a minute"
        else:
            self.counted = True

    def _release(self) -> None:
        if self.counted:
            self.hub.unauthenticated.give_back()
            self.counted = False

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None:
            log.info("refused %s: %s", self.peer, self.refusal)
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
        if username == GUEST and self.hub.guests:
            log.info("guest from %s", self.peer)
            self._release()
            return False  # no authentication: a guest watches games, and nothing else
        problem = name_problem(username)
        if problem is not None:
            log.info("refused %s: bad name %r", self.peer, clean_text(username, 40))
            raise asyncssh.DisconnectError(asyncssh.DISC_ILLEGAL_USER_NAME, problem)
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    # No forwarding of any kind (the game is the only thing this server offers).

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        log.info("refused a port forward to %s:%d from %s", clean_text(dest_host, 60), dest_port, self.peer)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "no forwarding on this server")

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("refused a remote forward of port %d from %s", listen_port, self.peer)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "no forwarding on this server")

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint("sha256")
        account = self.hub.accounts.get(username)
        if account is not None:
            return account.fingerprint == fingerprint
        if self.hub.accounts.taken(username):
            return False
        # A free name: the key that proves itself (asyncssh checks the signature after this) registers it.
        self.pending = (username, fingerprint, key.export_public_key("openssh").decode("ascii", "replace"))
        return True

    def auth_completed(self) -> None:
        self._release()
        if self.pending is None:
            return
        name, fingerprint, line = self.pending
        self.pending = None
        if self.hub.accounts.get(name) is not None:
            return
        try:
            self.hub.accounts.register(name, fingerprint, line)
        except (ValueError, OSError) as err:
            log.warning("registration of %s failed: %s", name, err)
            if self.conn is not None:
                self.conn.disconnect(asyncssh.DISC_ILLEGAL_USER_NAME, f"cannot register {name}: {err}")
            return
        log.info("registered %s (%s) from %s", name, fingerprint, self.peer)


def _refuse(process: asyncssh.SSHServerProcess[bytes], message: str) -> None:
    """One line on the client's error stream, then the session ends with status 1."""
    with contextlib.suppress(Exception):
        process.stderr.write(f"planspiel: {message}\r\n".encode())
        process.exit(1)


def _session_refusal(process: asyncssh.SSHServerProcess[bytes]) -> str | None:
    """Why this session is refused before a game starts, or None."""
    if process.command is not None:
        return "this server runs the game only, no commands: connect with ssh -p PORT NAME@HOST"
    if process.subsystem:
        return f"no {clean_text(process.subsystem, 30)!r} here: this server runs the game only"
    term = process.get_terminal_type()
    if term is None:
        return "the game needs a terminal: connect with ssh -t -p PORT NAME@HOST"
    if safe_term(term) is None:
        return "your terminal type (TERM) is not one the game can use: set TERM=xterm-256color"
    return None


async def _session(hub: Hub, process: asyncssh.SSHServerProcess[bytes]) -> None:
    """A session: refused with one line, or a game on a pty until it ends or the connection drops."""
    name = str(process.get_extra_info("username"))
    refusal = _session_refusal(process)
    if name == GUEST and hub.guests:
        if refusal is not None:
            _refuse(process, refusal)
        else:
            await _guest(hub, process)
        return
    account = hub.accounts.get(name)
    if refusal is None and account is None:
        refusal = "your account cannot be read on the server: tell its operator"
    if refusal is not None:
        log.info("session of %s refused: %s", name, refusal)
        _refuse(process, refusal)
        return
    assert account is not None
    if not hub.sessions.take(name):
        _refuse(process, f"{name} has {hub.limits.sessions_per_account} sessions open already: close one first")
        return
    try:
        await _play(hub, process, account)
    finally:
        hub.sessions.give_back(name)


async def _guest(hub: Hub, process: asyncssh.SSHServerProcess[bytes]) -> None:
    """A guest's session: a folder of its own for the session only, the lobby to watch games."""
    if not hub.guest_sessions.take():
        _refuse(process, "too many guests at the moment: try again later")
        return
    name = f"{GUEST}-{secrets.token_hex(2)}"
    folder = hub.root / "guests" / name
    try:
        (folder / "home").mkdir(parents=True, mode=0o700)
        await _play(hub, process, Account(name, "", folder), guest=True)
    finally:
        hub.guest_sessions.give_back()
        shutil.rmtree(folder, ignore_errors=True)


async def _play(hub: Hub, process: asyncssh.SSHServerProcess[bytes], account: Account, guest: bool = False) -> None:
    term = process.get_terminal_type() or "xterm"
    cols, rows = process.get_terminal_size()[:2]
    account.home.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        extra = {"PLANSPIEL_TABLES": str(hub.tables_socket), "PLANSPIEL_PLAYER": account.name}
        env = child_env(account.home, term, {**extra, "PLANSPIEL_GUEST": "1"} if guest else extra)
        child = Child(hub.client, env, (cols or 80, rows or 24), hub.limits, account.folder)
    except OSError as err:
        log.error("cannot start a game for %s: %s", account.name, err)
        _refuse(process, "the game could not be started on the server: try again later")
        return
    hub.children.add(child)
    log.info("session of %s: game process %d (%s, %dx%d)", account.name, child.pid, term, cols, rows)
    started = time.monotonic()
    try:
        status = await _bridge(process, child, hub.limits.idle_timeout)
    finally:
        hub.children.discard(child)
        child.close()
    log.info("session of %s ended after %.0f s (%s)", account.name, time.monotonic() - started, status)
    with contextlib.suppress(Exception):
        if status == "idle":
            process.stdout.write(b"\r\nplanspiel: closed after a long time without a key; your game is saved.\r\n")
        process.exit(child.process.returncode or 0)


def _readable(fd: int) -> asyncio.Future[None]:
    """A future done when ``fd`` can be read."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        loop.remove_reader(fd)
        if not done.done():
            done.set_result(None)

    loop.add_reader(fd, ready)
    done.add_done_callback(lambda _: loop.remove_reader(fd))
    return done


async def _output(process: asyncssh.SSHServerProcess[bytes], child: Child) -> None:
    """The game's screen to the client, until the game closes its terminal."""
    while True:
        await _readable(child.master)
        data = child.read()
        if data is None:
            continue
        if not data:
            return
        process.stdout.write(data)
        await process.stdout.drain()  # a slow client slows this game, never the server


async def _input(process: asyncssh.SSHServerProcess[bytes], child: Child, typed: list[float]) -> None:
    """The player's keys and window changes to the game, until the connection ends."""
    while True:
        try:
            data = await process.stdin.read(4096)
        except asyncssh.TerminalSizeChanged as change:
            child.resize(change.width, change.height)
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (asyncssh.Error, OSError):
            return
        if not data:
            return
        typed[0] = time.monotonic()
        child.write(data)


async def _bridge(process: asyncssh.SSHServerProcess[bytes], child: Child, idle_timeout: float) -> str:
    """Pass bytes both ways until the game ends (``"quit"``), the connection drops (``"dropped"``) or nobody
    types for ``idle_timeout`` seconds (``"idle"``); the game is hung up in the last two cases."""
    typed = [time.monotonic()]
    output = asyncio.ensure_future(_output(process, child))
    keys = asyncio.ensure_future(_input(process, child, typed))
    status = "quit"
    try:
        while not output.done():
            await asyncio.wait({output, keys}, timeout=min(30.0, idle_timeout), return_when=asyncio.FIRST_COMPLETED)
            if keys.done() and not output.done():
                status = "dropped"
                break
            if time.monotonic() - typed[0] > idle_timeout:
                status = "idle"
                break
        if status == "quit" and output.done() and not output.cancelled() and output.exception() is not None:
            status = "dropped"  # the screen could not be sent: the connection went first, the game is still on
        if status != "quit":
            child.hang_up()
            await _wait_exit(child, _HANG_UP_WAIT)
    finally:
        keys.cancel()
        output.cancel()
        if child.process.poll() is None:
            child.kill()
            await _wait_exit(child, 5.0)
    return status


async def _wait_exit(child: Child, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while child.process.poll() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    if child.process.poll() is None:
        child.kill()
        with contextlib.suppress(Exception):
            child.process.wait(timeout=2)


async def start_server(host: str, port: int, hub: Hub) -> asyncssh.SSHAcceptor:
    """Listen on ``host:port`` (port 0: any free port; the acceptor's ``get_port()`` tells which)."""
    key = host_key(hub.root)
    await hub.open_tables()

    def process_factory(process: asyncssh.SSHServerProcess[Any]) -> Any:
        return _session(hub, process)

    return await asyncssh.create_server(
        lambda: _Connection(hub),
        host,
        port,
        server_host_keys=[key],
        process_factory=process_factory,
        encoding=None,
        line_editor=False,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        login_timeout=hub.limits.login_timeout,
        keepalive_interval=30,
        keepalive_count_max=4,
    )


def run_server(host: str, port: int, hub: Hub, announce: Any = print) -> int:
    """Run the server until SIGINT or SIGTERM; every game is hung up (and saves) before it returns 0."""

    async def main() -> None:
        acceptor = await start_server(host, port, hub)
        fingerprint = host_key(hub.root).get_fingerprint("sha256")
        announce(
            f"Planspiel server on {host}:{acceptor.get_port()} (host key {fingerprint}); accounts and games under "
            f"{hub.root}.\nPlayers connect with: ssh -p {acceptor.get_port()} NAME@HOST (the first login with a "
            "key registers the name). Stop with Ctrl+C."
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        acceptor.close()
        hub.hang_up_all()
        await hub.close_tables()
        deadline = time.monotonic() + _HANG_UP_WAIT
        while hub.children and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await acceptor.wait_closed()

    asyncio.run(main())
    return 0
