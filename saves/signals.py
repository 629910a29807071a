"""Provides saving on hang-up, termination and end of input, so that a dropped connection loses nothing.

A line-based game loop::

    with SaveOnExit(autosaver.save) as guard:
        while True:
            autosaver.apply(guard.read_line("> "))  # at end of input: save, then exit(0)

SIGHUP (the terminal or SSH connection went away) and SIGTERM (shutdown) run the save function once and
exit with status 128 + the signal number; the exit is a ``SystemExit`` raised in the main thread, so
``finally`` blocks and context managers still run. Handlers can be installed only from the main thread.

A signal can arrive between any two bytecodes, for example half-way through ``game.apply`` (the new state
recorded, the action not yet) or through a save. Code that must not be cut in half runs inside
:func:`deferred_signals`: a signal that arrives there is handled when the block ends. ``Autosaver.apply`` and
``Autosaver.save`` do this; a game loop that calls ``game.apply`` itself wraps the call the same way.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from types import FrameType, TracebackType
from typing import NoReturn, Self, TextIO

from .errors import SaveError

__all__ = ["DEFAULT_SIGNALS", "SaveOnExit", "deferred_signals", "install_exit_handlers"]

log = logging.getLogger("saves")

DEFAULT_SIGNALS: tuple[int, ...] = tuple(
    int(getattr(signal, name)) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)
)
"""SIGHUP and SIGTERM, where the platform has them."""

_Handler = Callable[[int, FrameType | None], object] | int | None

_depth = 0
"""How many :func:`deferred_signals` blocks the main thread is in."""
_pending: list[Callable[[], None]] = []
"""The handling of a signal that arrived inside such a block."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold the handling of SIGHUP and SIGTERM (by :class:`SaveOnExit`) until the block ends.

    Wrap what must not be cut in half: applying an action, saving. Blocks nest; in another thread than the
    main one (where signal handlers run) this does nothing.
    """
    global _depth
    if not _in_main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending:
            handle = _pending[0]
            _pending.clear()
            handle()


class SaveOnExit:
    """Save and exit cleanly on SIGHUP, SIGTERM or end of input.

    Args:
        save: called once to save the game (for example ``Autosaver.save``); a :class:`SaveError` it raises is
            logged and printed to stderr, and the exit goes ahead.
        signals: the signals to handle.
        on_exit: called with the exit status after saving (default: ``raise SystemExit(status)``). A Textual app
            passes a function that calls ``app.exit()``.
    """

    def __init__(
        self,
        save: Callable[[], object],
        *,
        signals: Iterable[int] = DEFAULT_SIGNALS,
        on_exit: Callable[[int], object] | None = None,
    ) -> None:
        self._save = save
        self._signals = tuple(signals)
        self._exit = on_exit
        self._previous: dict[int, _Handler] = {}
        self._saving = False
        self._done = False

    @property
    def installed(self) -> bool:
        """True while the handlers are installed."""
        return bool(self._previous)

    def install(self) -> Self:
        """Install the signal handlers (main thread only); returns self.

        Raises:
            ValueError: not called from the main thread.
        """
        if self._previous:
            return self
        try:
            for sig in self._signals:
                self._previous[sig] = signal.signal(sig, self._on_signal)
        except BaseException:
            self.uninstall()
            raise
        return self

    def uninstall(self) -> None:
        """Put back the handlers that were there before."""
        previous, self._previous = self._previous, {}
        for sig, handler in previous.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)

    def __enter__(self) -> Self:
        return self.install()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.uninstall()

    def save_now(self) -> bool:
        """Run the save function once more (ignored while a save is running); True if it saved."""
        if self._saving:
            return False
        self._saving = True
        try:
            self._save()
        except SaveError as err:
            log.error("%s", err)
            print(f"planspiel: {err}", file=sys.stderr)
            return False
        finally:
            self._saving = False
        return True

    def _finish(self, status: int) -> None:
        self._done = True
        self.save_now()
        if self._exit is not None:
            self._exit(status)
        else:
            raise SystemExit(status)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self._done or self._saving:
            return  # already saving or leaving: a second signal changes nothing
        if _depth > 0:  # inside deferred_signals(): handled when the block ends
            if not _pending:
                _pending.append(lambda: self._on_signal(signum, None))
            return
        log.info("signal %d: saving and exiting", signum)
        self._finish(128 + signum)

    def end_of_input(self) -> NoReturn:
        """The player's input ended (a closed terminal or pipe): save, then exit with status 0."""
        self._finish(0)
        raise SystemExit(0)  # when a custom exit returns

    def read_line(self, prompt: str = "", stream: TextIO | None = None) -> str:
        """Read one line of input (without its newline); at end of input, save and exit.

        Args:
            prompt: written to stdout first.
            stream: where to read (default ``sys.stdin``).
        """
        if prompt:
            print(prompt, end="", flush=True)
        line = (stream if stream is not None else sys.stdin).readline()
        if not line:
            self.end_of_input()
        return line.rstrip("\r\n")


def install_exit_handlers(
    save: Callable[[], object],
    *,
    signals: Iterable[int] = DEFAULT_SIGNALS,
    on_exit: Callable[[int], object] | None = None,
) -> Callable[[], None]:
    """Install :class:`SaveOnExit` handlers; returns the function that uninstalls them."""
    guard = SaveOnExit(save, signals=signals, on_exit=on_exit).install()
    return guard.uninstall
