"""``planspiel serve`` in process, with asyncssh's client and a stand-in game (``fake_game.py``): key login and
registration, the refusals (password, commands, no terminal, bad TERM, forwarding, names, limits), and the game
on its pty (home, terminal type, size, window changes, hang-up on a dropped connection or when idle)."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh")

from tui.serve.limits import ServeLimits  # noqa: E402 - after the skip
from tui.serve.server import Hub, host_key, start_server  # noqa: E402

FAKE_GAME = Path(__file__).with_name("fake_game.py")


class Server:
    def __init__(self, hub: Hub, port: int) -> None:
        self.hub, self.port = hub, port

    async def connect(self, name: str, key: object | None, **options: object) -> asyncssh.SSHClientConnection:
        return await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=name,
            client_keys=[key] if key is not None else None,
            known_hosts=None,
            agent_path=None,
            **options,
        )


async def _serve(root: Path, guests: bool = False, **limits: float) -> tuple[Server, asyncssh.SSHAcceptor]:
    hub = Hub(root, ServeLimits(**limits), client=[sys.executable, str(FAKE_GAME)], guests=guests)  # type: ignore[arg-type]
    acceptor = await start_server("127.0.0.1", 0, hub)
    return Server(hub, acceptor.get_port()), acceptor


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    srv, acceptor = await _serve(tmp_path / "root")
    yield srv
    acceptor.close()
    srv.hub.hang_up_all()
    await srv.hub.close_tables()
    await acceptor.wait_closed()


def new_key() -> object:
    return asyncssh.generate_private_key("ssh-ed25519")


async def read_until(stream: asyncssh.SSHReader[str], text: str, timeout: float = 15.0) -> str:
    seen = ""
    async with asyncio.timeout(timeout):
        while text not in seen:
            chunk = await stream.read(4096)
            if not chunk:
                break
            seen += chunk
    assert text in seen, f"{text!r} did not come; got {seen!r}"
    return seen


async def game(conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (90, 30)) -> asyncssh.SSHClientProcess[str]:
    return await conn.create_process(term_type="xterm-256color", term_size=size)


async def test_first_login_registers_the_name_and_only_that_key_logs_in_after(server: Server) -> None:
    alice, mallory = new_key(), new_key()
    async with await server.connect("alice", alice):
        pass
    account = server.hub.accounts.get("alice")
    assert account is not None and account.fingerprint == alice.get_fingerprint("sha256")  # type: ignore[attr-defined]
    assert (account.folder / "key.json").stat().st_mode & 0o777 == 0o600
    with pytest.raises(asyncssh.PermissionDenied):
        await server.connect("alice", mallory)
    async with await server.connect("alice", alice):  # the bound key still logs in
        pass
    async with await server.connect("mallory", mallory):  # and the other key may register another name
        pass


async def test_password_and_keyboard_interactive_are_refused(server: Server) -> None:
    with pytest.raises(asyncssh.PermissionDenied):
        await server.connect("bob", None, password="secret", kbdint_auth=True)
    assert server.hub.accounts.get("bob") is None


@pytest.mark.parametrize("name", ["Root!", "a", "x" * 30, "root", "../etc"])
async def test_names_that_are_not_allowed_are_refused_with_the_rule(server: Server, name: str) -> None:
    with pytest.raises((asyncssh.DisconnectError, asyncssh.PermissionDenied)):
        await server.connect(name, new_key())
    assert not any(server.hub.accounts.folder.iterdir())


async def test_commands_subsystems_and_sessions_without_a_terminal_get_one_line(server: Server) -> None:
    async with await server.connect("carol", new_key()) as conn:
        done = await conn.run("cat /etc/passwd")
        assert done.exit_status == 1 and "no commands" in str(done.stderr) and not done.stdout
        done = await conn.run()  # a shell without a pty (ssh -T)
        assert done.exit_status == 1 and "needs a terminal" in str(done.stderr)
        with pytest.raises(asyncssh.ChannelOpenError):  # no subsystem (sftp, scp): refused before a session
            await conn.run(subsystem="sftp")
        done = await conn.run(term_type="xterm;rm -rf ~", term_size=(80, 24))
        assert done.exit_status == 1 and "TERM" in str(done.stderr)


async def test_every_kind_of_forwarding_is_refused(server: Server) -> None:
    async with await server.connect("dave", new_key()) as conn:
        with pytest.raises(asyncssh.ChannelOpenError, match="no forwarding"):
            await conn.open_connection("127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/run/something.sock")


async def test_the_game_runs_on_a_pty_in_the_accounts_home_and_follows_the_window(server: Server) -> None:
    async with await server.connect("erin", new_key()) as conn:
        proc = await game(conn, (90, 30))
        seen = await read_until(proc.stdout, "CWD-HAS-HOME")
        assert "home=home tty=True TERM=xterm-256color COLUMNS=- size=90x30" in seen
        assert "CWD-HAS-HOME=True" in seen  # started in the account's folder, its home beside it
        proc.stdin.write("hello\n")
        await read_until(proc.stdout, "GOT hello")
        proc.change_terminal_size(120, 40)
        await read_until(proc.stdout, "SIZE 120x40")
        proc.change_terminal_size(100000, 100000)  # a client may claim any size: the game gets at most 500x200
        await read_until(proc.stdout, "SIZE 500x200")
        proc.stdin.write("quit\n")
        await read_until(proc.stdout, "BYE")
        assert (await proc.wait()).exit_status == 0
    home = server.hub.accounts.folder / "erin" / "home"
    assert not (home / "hung-up").exists()  # it ended by itself


async def _hung_up(home: Path, timeout: float = 15.0) -> bool:
    for _ in range(int(timeout / 0.1)):
        if (home / "hung-up").exists():
            return True
        await asyncio.sleep(0.1)
    return False


async def test_a_dropped_connection_hangs_the_game_up(server: Server) -> None:
    conn = await server.connect("frank", new_key())
    proc = await game(conn)
    await read_until(proc.stdout, "READY")
    conn.abort()  # the connection drops without a goodbye
    assert await _hung_up(server.hub.accounts.folder / "frank" / "home")
    for _ in range(100):
        if not server.hub.children and server.hub.sessions.count("frank") == 0:
            break
        await asyncio.sleep(0.05)
    assert not server.hub.children and server.hub.sessions.count("frank") == 0


async def test_a_session_idle_too_long_is_closed_and_its_game_hung_up(tmp_path: Path) -> None:
    srv, acceptor = await _serve(tmp_path / "root", idle_timeout=1.0)
    try:
        async with await srv.connect("gina", new_key()) as conn:
            proc = await game(conn)
            await read_until(proc.stdout, "READY")
            await read_until(proc.stdout, "without a key", timeout=20.0)
            assert await _hung_up(srv.hub.accounts.folder / "gina" / "home")
    finally:
        acceptor.close()
        await srv.hub.close_tables()
        await acceptor.wait_closed()


async def test_sessions_per_account_are_capped(tmp_path: Path) -> None:
    srv, acceptor = await _serve(tmp_path / "root", sessions_per_account=1)
    key = new_key()
    try:
        async with await srv.connect("hank", key) as first, await srv.connect("hank", key) as second:
            proc = await game(first)
            await read_until(proc.stdout, "READY")
            done = await second.run(term_type="xterm", term_size=(80, 24))
            assert done.exit_status == 1 and "1 sessions open already" in str(done.stderr)
            proc.stdin.write("quit\n")
            await proc.wait()
    finally:
        acceptor.close()
        await srv.hub.close_tables()
        await acceptor.wait_closed()


async def test_new_connections_per_address_are_rate_limited(tmp_path: Path) -> None:
    srv, acceptor = await _serve(tmp_path / "root", connections_per_minute=2)
    key = new_key()
    try:
        for _ in range(2):
            async with await srv.connect("ivan", key):
                pass
        with pytest.raises(asyncssh.DisconnectError, match="too many new connections"):
            await srv.connect("ivan", key)
    finally:
        acceptor.close()
        await srv.hub.close_tables()
        await acceptor.wait_closed()


def test_the_host_key_is_made_once_and_kept(tmp_path: Path) -> None:
    first = host_key(tmp_path).get_fingerprint("sha256")
    assert (tmp_path / "host_key").stat().st_mode & 0o777 == 0o600
    assert host_key(tmp_path).get_fingerprint("sha256") == first


async def test_guests_only_when_the_operator_allows_them_and_without_an_account(tmp_path: Path) -> None:
    srv, acceptor = await _serve(tmp_path / "root")
    try:
        with pytest.raises(asyncssh.DisconnectError, match="reserved"):
            await srv.connect("guest", None)
        with pytest.raises(asyncssh.DisconnectError, match="reserved"):
            await srv.connect("guest-1", new_key())  # no account may pass for a guest
    finally:
        acceptor.close()
        await srv.hub.close_tables()
        await acceptor.wait_closed()
    srv, acceptor = await _serve(tmp_path / "root2", guests=True)
    try:
        async with await srv.connect("guest", None) as conn:  # no key, no password
            proc = await game(conn)
            seen = await read_until(proc.stdout, "GUEST=1")
            assert re.search(r"PLAYER=guest-[0-9a-f]{4} GUEST=1", seen), seen
            guests = list((srv.hub.root / "guests").iterdir())
            assert len(guests) == 1  # a folder for this session only
            proc.stdin.write("quit\n")
            await proc.wait()
        assert not list((srv.hub.root / "guests").iterdir())  # gone with the session
        assert not any(srv.hub.accounts.folder.iterdir())  # no account made
    finally:
        acceptor.close()
        await srv.hub.close_tables()
        await acceptor.wait_closed()
