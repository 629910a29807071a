"""Saving on SIGHUP, SIGTERM and end of input: in-process, and in a subprocess running a game loop."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import saves

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")


def test_sigterm_saves_and_exits_in_process() -> None:
    calls: list[str] = []
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as info, saves.SaveOnExit(lambda: calls.append("saved")) as guard:
        assert guard.installed
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):  # the handler runs between bytecodes
            pass
    assert info.value.code == 128 + signal.SIGTERM
    assert calls == ["saved"]
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_custom_exit_and_a_second_signal() -> None:
    calls: list[object] = []

    def save() -> None:
        calls.append("save")
        os.kill(os.getpid(), signal.SIGHUP)  # a second signal while saving changes nothing
        for _ in range(1000):
            pass

    with saves.SaveOnExit(save, on_exit=calls.append):
        os.kill(os.getpid(), signal.SIGHUP)
        for _ in range(1000):
            pass
    assert calls == ["save", 128 + signal.SIGHUP]


def test_a_failed_save_is_reported_and_the_exit_goes_ahead(capsys: pytest.CaptureFixture[str]) -> None:
    def save() -> None:
        raise saves.SaveError("x.planspiel", "cannot save: the disk is full; the previous save is intact")

    uninstall = saves.install_exit_handlers(save)
    try:
        with pytest.raises(SystemExit):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):
                pass
    finally:
        uninstall()
    assert "planspiel: x.planspiel: cannot save: the disk is full" in capsys.readouterr().err


def spin() -> None:
    for _ in range(1000):  # a pending signal is handled between bytecodes
        pass


def test_deferred_signals_hold_the_exit_until_the_block_ends() -> None:
    calls: list[str] = []
    with saves.SaveOnExit(lambda: calls.append("saved")):
        with pytest.raises(SystemExit) as info, saves.deferred_signals():
            with saves.deferred_signals():
                os.kill(os.getpid(), signal.SIGTERM)
                spin()
                calls.append("inner block done")
            spin()
            calls.append("outer block done")
        assert calls == ["inner block done", "outer block done", "saved"]
        assert info.value.code == 128 + signal.SIGTERM


def test_deferred_signals_in_another_thread_change_nothing() -> None:
    seen: list[int] = []

    def run() -> None:
        from saves import signals  # noqa: PLC0415

        with saves.deferred_signals():
            seen.append(signals._depth)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert seen == [0]


def test_autosaver_apply_is_not_cut_in_half(tmp_path: Path) -> None:
    """A SIGTERM during Autosaver.apply is handled after the action and its save."""
    import engine  # noqa: PLC0415

    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=1)
    saver = saves.Autosaver(game, tmp_path / "a.planspiel", keep=0)
    real_apply = game.apply

    def apply_with_a_signal(*args: object, **kwargs: object) -> object:
        os.kill(os.getpid(), signal.SIGTERM)
        spin()
        return real_apply(*args, **kwargs)  # type: ignore[arg-type]

    game.apply = apply_with_a_signal  # type: ignore[method-assign]
    with saves.SaveOnExit(saver.save), pytest.raises(SystemExit):
        saver.apply("end")
    assert [str(a) for a in saves.load_game(saver.path).history] == ["end"]


def test_end_of_input_saves_and_exits_zero() -> None:
    calls: list[str] = []
    guard = saves.SaveOnExit(lambda: calls.append("saved"))
    stream = io.StringIO("move a 0101\r\n")
    assert guard.read_line(stream=stream) == "move a 0101"
    with pytest.raises(SystemExit) as info:
        guard.read_line(stream=stream)
    assert info.value.code == 0 and calls == ["saved"]


def test_install_and_uninstall_restore_handlers() -> None:
    def mine(signum: int, frame: object) -> None:
        pass

    old = signal.signal(signal.SIGHUP, mine)
    try:
        uninstall = saves.install_exit_handlers(lambda: None)
        assert signal.getsignal(signal.SIGHUP) is not mine
        uninstall()
        assert signal.getsignal(signal.SIGHUP) is mine
    finally:
        signal.signal(signal.SIGHUP, old)


def test_handlers_need_the_main_thread() -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            saves.SaveOnExit(lambda: None).install()
        except ValueError as err:
            errors.append(err)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert len(errors) == 1


def start_loop(path: Path, mode: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.saves.game_loop", str(path), mode],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sighup_to_a_game_loop_leaves_a_save_with_the_last_action(tmp_path: Path) -> None:
    path = tmp_path / "hup.planspiel"
    proc = start_loop(path, "signal")
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "ready"
        for _ in range(15):
            assert proc.stdout.readline()
        proc.send_signal(signal.SIGHUP)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signal.SIGHUP, err
    printed = out.splitlines()
    last_n, last_action = printed[-1].split(" ", 1) if printed else ("15", "")
    game = saves.load_game(path)
    assert game.verified and game.players["french"] == "ai:test"
    # Each action and its line are one deferred_signals() block, so the save ends with the last printed action.
    assert len(game.history) == int(last_n)
    if last_action:
        assert game.describe(game.history[-1]) == last_action


def test_end_of_input_to_a_game_loop_saves_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "eof.planspiel"
    proc = start_loop(path, "stdin")
    try:
        out, err = proc.communicate("\n" * 6, timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out.splitlines()[-1].startswith("6 ")
    assert len(saves.load_game(path).history) == 6
