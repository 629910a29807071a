"""A bounded load test of ``planspiel serve`` on loopback (issue 22): N SSH sessions in N/2 two-player games.

Starts the real server (``planspiel serve --port 0``) in a temporary folder, registers N players (asyncssh clients
with their own keys), seats them in pairs at N/2 tables of P-1 (Art of Tactic), and opens every table from the
lobby with keys, as a player does. Then, for ``--seconds``, each session presses a cursor key (right, then left)
every ``--interval`` seconds (with a random offset, so that the sessions do not press at once) and records:

- the keypress-to-screen latency: from writing the key to the first bytes of the screen's answer;
- the bytes of that answer (until the screen is quiet for 100 ms): bytes per cursor move;
- nothing lost: every keypress is answered (a keypress without an answer within 5 s counts as lost).

At the end it reads the resident memory of the server process and of each game process (``/proc``). Prints a
Markdown table (and one JSON line with ``--json``).

Run: ``.venv/bin/python benchmarks/bench_serve_load.py --sessions 20 --seconds 120`` (needs asyncssh).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh

from tui.remote import TableLink

PLANSPIEL = str(Path(sys.executable).with_name("planspiel"))
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"


class Player:
    """One SSH session and what it measured."""

    def __init__(self, name: str, key: asyncssh.SSHKey) -> None:
        self.name, self.key = name, key
        self.buffer = bytearray()
        self.arrived = asyncio.Event()
        self.last_byte = 0.0
        self.latencies: list[float] = []
        self.sizes: list[int] = []
        self.lost = 0
        self.proc: Any = None
        self.conn: Any = None
        self.reader: Any = None

    async def connect(self, port: int) -> None:
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, username=self.name, client_keys=[self.key], known_hosts=None, agent_path=None
        )

    async def open_session(self) -> None:
        self.proc = await self.conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            data = await self.proc.stdout.read(65536)
            if not data:
                return
            self.buffer += data
            self.last_byte = time.perf_counter()
            self.arrived.set()

    def text(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.buffer.decode("utf-8", "replace"))

    async def wait_for(self, needle: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {needle!r} did not show")
            await asyncio.sleep(0.05)

    async def press(self, key: bytes, quiet: float = 0.1, timeout: float = 5.0) -> None:
        """Press a key; record the latency to the first answering bytes and the bytes until the screen is quiet."""
        self.arrived.clear()
        before = len(self.buffer)
        start = time.perf_counter()
        self.proc.stdin.write(key)
        try:
            await asyncio.wait_for(self.arrived.wait(), timeout)
        except TimeoutError:
            self.lost += 1
            return
        self.latencies.append(self.last_byte - start if len(self.buffer) > before else timeout)
        while time.perf_counter() - self.last_byte < quiet:
            await asyncio.sleep(quiet / 4)
        self.sizes.append(len(self.buffer) - before)


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False)
    return [int(x) for x in out.stdout.split()]


def _tables(sock: str, players: list[Player]) -> None:
    """Seat the players in pairs: the first of each pair creates a P-1 table as German, the second joins."""
    for a, b in zip(players[0::2], players[1::2], strict=True):
        la, lb = TableLink(sock, a.name), TableLink(sock, b.name)
        tid = la.request("create", ruleset="art_of_tactic", scenario="p1-grenzgefecht", side="german")["table"]
        lb.request("join", table=tid)
        la.close()
        lb.close()


async def run(sessions: int, seconds: float, interval: float) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="planspiel-load-"))
    server = subprocess.Popen(
        [PLANSPIEL, "serve", "--host", "127.0.0.1", "--port", "0", "--root", str(root / "server")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(re.search(r":(\d+) ", server.stdout.readline()).group(1))  # type: ignore[union-attr]
        players = [Player(f"p{i:02d}", asyncssh.generate_private_key("ssh-ed25519")) for i in range(sessions)]
        for p in players:  # the first login registers each name
            await p.connect(port)
        await asyncio.to_thread(_tables, str(root / "server" / "tables.sock"), players)
        for p in players:
            await p.open_session()
        for p in players:
            await p.wait_for("Lobby: play others")
            p.proc.stdin.write(b"o")
        for p in players:
            await p.wait_for("Your tables")
            await asyncio.sleep(0.3)
            p.proc.stdin.write(b"\x1b[B")
            await asyncio.sleep(0.3)
            p.proc.stdin.write(b"\r")
        for p in players:
            await p.wait_for("Turn 1/8", timeout=120)
        await asyncio.sleep(2.0)

        async def load(p: Player) -> None:
            await asyncio.sleep(random.random() * interval)
            end = time.monotonic() + seconds
            n = 0
            while time.monotonic() < end:
                started = time.monotonic()
                await p.press(RIGHT if n % 2 == 0 else LEFT)
                n += 1
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))

        await asyncio.gather(*(load(p) for p in players))
        server_kib = _rss_kib(server.pid)
        games = [_rss_kib(c) for c in _children(server.pid)]
        for p in players:
            p.conn.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    latencies = sorted(x for p in players for x in p.latencies)
    sizes = [x for p in players for x in p.sizes]
    return {
        "sessions": sessions,
        "games": sessions // 2,
        "seconds": seconds,
        "keypresses": len(latencies) + sum(p.lost for p in players),
        "lost": sum(p.lost for p in players),
        "latency_median_ms": round(statistics.median(latencies) * 1000, 1),
        "latency_p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))] * 1000, 1),
        "bytes_per_move_median": int(statistics.median(sizes)),
        "server_rss_mib": round(server_kib / 1024, 1),
        "game_process_rss_mib_median": round(statistics.median(games) / 1024, 1) if games else None,
        "game_processes": len(games),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--interval", type=float, default=0.5, help="seconds between a session's keypresses")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = asyncio.run(run(args.sessions, args.seconds, args.interval))
    print("| sessions (games) | keypresses | lost | latency median | p95 | bytes per move | server RSS | game RSS |")
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {r['sessions']} ({r['games']}) | {r['keypresses']} | {r['lost']} | {r['latency_median_ms']} ms "
        f"| {r['latency_p95_ms']} ms | {r['bytes_per_move_median']} | {r['server_rss_mib']} MiB "
        f"| {r['game_process_rss_mib_median']} MiB × {r['game_processes']} |"
    )
    if args.json:
        print(json.dumps(r, sort_keys=True))


if __name__ == "__main__":
    main()
