"""The server's tables: creating, joining, opening and watching a table; the authoritative game (actions refused
out of turn, out of step, for a seat not held); saves that survive a restart; two game processes that stay the
same game and show each side only its own view; the finished game's history for each player."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from engine.errors import PlanspielError
from tui.remote import TableLink, open_table
from tui.serve.tables import TableService, _Conn

P1 = {"ruleset": "art_of_tactic", "scenario": "p1-grenzgefecht"}


class FakeWriter:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        self.sent.append(data)


def conn(service: TableService, name: str) -> _Conn:
    c = _Conn(FakeWriter())  # type: ignore[arg-type]
    assert service.handle(c, {"op": "hello", "rid": 0, "name": name}) == {"ok": True, "rid": 0}
    return c


def ask(service: TableService, c: _Conn, op: str, **fields: Any) -> dict[str, Any]:
    return service.handle(c, {"op": op, "rid": 1, **fields})


def test_requests_need_a_hello_and_a_known_op(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    c = _Conn(FakeWriter())  # type: ignore[arg-type]
    assert "hello first" in ask(service, c, "list")["error"]
    assert "no such request" in ask(service, conn(service, "alice"), "__class__")["error"]
    assert service.handle(c, ["not", "a", "map"])["error"] == "not a request"


def test_a_table_from_creation_to_play_and_its_refusals(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    alice, bob, carol = conn(service, "alice"), conn(service, "bob"), conn(service, "carol")
    assert "no side 'nobody'" in ask(service, alice, "create", **P1, side="nobody")["error"]
    tid = ask(service, alice, "create", **P1, side="german", spectators=False)["table"]
    table = service.tables[tid]
    assert table.state == "open" and table.seats == {"german": "alice", "soviet": None}
    assert "wait for the second player" in ask(service, alice, "act", table=tid, index=0, notation="x")["error"]
    assert "already play" in ask(service, alice, "join", table=tid)["error"]
    assert ask(service, bob, "join", table=tid)["side"] == "soviet"
    assert "no free seat" in ask(service, carol, "join", table=tid)["error"]
    assert "does not allow spectators" in ask(service, carol, "open", table=tid)["error"]
    opened = ask(service, bob, "open", table=tid)
    assert opened["side"] == "soviet" and not opened["watching"] and opened["history"] == []
    n = len(table.game.history)
    # Out of turn (German plans first), out of step, and an illegal action: refused, nothing changes.
    assert "not soviet's decision" in ask(service, bob, "act", table=tid, index=n, notation="commit")["error"]
    assert "out of step" in ask(service, alice, "act", table=tid, index=n + 3, notation="commit")["error"]
    refused = ask(service, alice, "act", table=tid, index=n, notation="march ger-2-pz2 0305 0905")
    assert "error" in refused and len(table.game.history) == n
    assert "no seat" in ask(service, carol, "act", table=tid, index=n, notation="commit")["error"]
    assert ask(service, alice, "act", table=tid, index=n, notation="march ger-2-pz2 0305 0405")["ok"]
    assert len(table.game.history) == n + 1
    assert bob.writer.sent, "bob, at the table, was told of the action"  # type: ignore[attr-defined]
    summary = ask(service, carol, "list")["tables"][0]
    assert summary["state"] == "playing" and summary["online"] == ["bob"]


def test_guests_may_watch_but_not_play(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    alice, bob, guest = conn(service, "alice"), conn(service, "bob"), conn(service, "guest-1a2b")
    assert "guests may only watch" in ask(service, guest, "create", **P1, side="german")["error"]
    tid = ask(service, alice, "create", **P1, side="german", spectators=True)["table"]
    assert "guests may only watch" in ask(service, guest, "join", table=tid)["error"]
    ask(service, bob, "join", table=tid)
    assert ask(service, guest, "open", table=tid)["watching"]
    assert "guests may only watch" in ask(service, guest, "act", table=tid, index=0, notation="commit")["error"]


def test_tables_survive_a_restart_and_finished_games_reach_the_players(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    alice, bob = conn(service, "alice"), conn(service, "bob")
    tid = ask(service, alice, "create", **P1, side="german", spectators=True)["table"]
    ask(service, bob, "join", table=tid)
    ask(service, alice, "act", table=tid, index=len(service.tables[tid].game.history), notation="commit")
    again = TableService(tmp_path)  # the server restarts
    table = again.tables[tid]
    assert table.seats == {"german": "alice", "soviet": "bob"} and table.spectators
    assert table.game.history == service.tables[tid].game.history
    assert table.game.state == service.tables[tid].game.state
    bob2 = conn(again, "bob")
    assert ask(again, bob2, "act", table=tid, index=len(table.game.history), notation="resign soviet")["ok"]
    assert table.state == "over" and table.game.outcome is not None and table.game.outcome.winner == "german"
    for name in ("alice", "bob"):
        text = (tmp_path / "accounts" / name / "home" / "finished" / f"{tid}.txt").read_text(encoding="utf-8")
        assert "result: Soviet resigned: German victory" in text and text.rstrip().endswith("resign soviet")


def _wait_incoming(remote: Any, session: Any, count: int = 1) -> None:
    got = 0
    for _ in range(200):
        got += remote.incoming(session)
        if got >= count:
            return
        threading.Event().wait(0.02)
    raise AssertionError(f"{count} action(s) did not arrive")


def test_two_game_processes_stay_one_game_and_each_sees_only_its_side(tables: tuple[TableService, str]) -> None:
    service, path = tables
    alice_link, bob_link, carol_link = TableLink(path, "alice"), TableLink(path, "bob"), TableLink(path, "carol")
    tid = alice_link.request("create", **P1, side="german", spectators=True)["table"]
    bob_link.request("join", table=tid)
    alice, alice_remote = open_table(alice_link, tid)
    bob, bob_remote = open_table(bob_link, tid)
    carol, carol_remote = open_table(carol_link, tid)
    assert carol_remote.watching and carol_remote.side == "german" and not carol.is_human("german")
    assert alice.is_remote("soviet") and not alice.is_remote("german") and bob.is_remote("german")
    assert not alice.client("german").can_undo
    with pytest.raises(PlanspielError, match="kept by the table"):
        alice.save()
    # Alice plans a secret order and commits: Bob's copy follows, and his view shows no German order.
    alice.client("german").apply("march ger-2-pz2 0305 0405")
    alice.client("german").apply("commit")
    assert alice_remote.error is None
    _wait_incoming(bob_remote, bob, 2)
    _wait_incoming(carol_remote, carol, 2)
    table = service.tables[tid].game
    for copy in (alice.game, bob.game, carol.game):
        assert copy.history == table.history and copy.state == table.state
    assert "march ger-2-pz2" in str(table.state.to_dict()["data"])  # the German secret order, in the full state
    assert "march" not in str(bob.client("soviet").view().to_dict()["data"])  # not in what Bob's screens read
    assert bob.game.to_act == "soviet"
    # Bob resigns at once: Alice's copy ends too.
    bob.client("soviet").resign()
    _wait_incoming(alice_remote, alice)
    assert alice.game.outcome is not None and alice.game.outcome.winner == "german"
    assert service.tables[tid].game.outcome == alice.game.outcome
    for link in (alice_link, bob_link, carol_link):
        link.close()


def test_a_copy_out_of_step_is_told_to_open_the_game_again(tables: tuple[TableService, str]) -> None:
    service, path = tables
    alice_link, bob_link = TableLink(path, "alice"), TableLink(path, "bob")
    tid = alice_link.request("create", **P1, side="german")["table"]
    bob_link.request("join", table=tid)
    alice, remote = open_table(alice_link, tid)
    alice.game.apply("march ger-2-pz2 0305 0405")  # behind the table's back: the copy now differs from it
    alice.client("german").apply("commit")
    assert remote.error is not None and "out of step" in remote.error
    assert service.tables[tid].game.history == ()  # the table is unchanged
    again, again_remote = open_table(alice_link, tid)  # opened again: the table's game
    assert again.game.history == () and again_remote.error is None
    for link in (alice_link, bob_link):
        link.close()


def test_a_table_opened_again_skips_what_its_copy_already_has(tables: tuple[TableService, str]) -> None:
    service, path = tables
    alice_link, bob_link = TableLink(path, "alice"), TableLink(path, "bob")
    tid = alice_link.request("create", **P1, side="german")["table"]
    bob_link.request("join", table=tid)
    alice, _ = open_table(alice_link, tid)
    bob, bob_remote = open_table(bob_link, tid)
    alice.client("german").apply("commit")
    _wait_incoming(bob_remote, bob)
    bob.client("soviet").apply("commit")  # Alice is back in the lobby: Bob's action waits on her link
    again, remote = open_table(alice_link, tid)  # she opens the table again: the table's game, Bob's commit in it
    assert again.game.history == service.tables[tid].game.history
    for _ in range(20):
        remote.incoming(again)  # the queued event of Bob's commit is already in this copy: not applied twice
        threading.Event().wait(0.01)
    assert remote.error is None and again.game.history == service.tables[tid].game.history
    for link in (alice_link, bob_link):
        link.close()
