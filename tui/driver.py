"""Provides a terminal driver that notices the end of input (a closed terminal or pipe) and tells the app.

Textual's Linux driver keeps polling a standard input that has reached its end; this one posts
:class:`EndOfInput` to the app instead, so that the game saves and exits (DESIGN §8: SIGHUP, SIGTERM and end of
input save and exit cleanly).
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder

from textual.message import Message

__all__ = ["EndOfInput", "driver_class"]


class EndOfInput(Message):
    """The terminal's input ended: save and exit."""


def driver_class() -> type | None:
    """The driver to use on this platform, or None for Textual's own (Windows, or an unknown Textual)."""
    if os.name != "posix":
        return None
    try:
        from textual._xterm_parser import XTermParser  # noqa: PLC0415
        from textual.drivers.linux_driver import LinuxDriver  # noqa: PLC0415
    except ImportError:  # pragma: no cover - a Textual without these internals
        return None

    class PlanspielDriver(LinuxDriver):
        """Textual's Linux driver, plus: end of input (or a read error) posts :class:`EndOfInput`."""

        def run_input_thread(self) -> None:
            selector = selectors.SelectSelector()
            fileno = self.fileno
            selector.register(fileno, selectors.EVENT_READ)
            parser = XTermParser(self._debug)
            decode = getincrementaldecoder("utf-8")().decode
            ended = False
            try:
                while not self.exit_event.is_set() and not ended:
                    for _key, mask in selector.select(0.1):
                        if not mask & selectors.EVENT_READ:
                            continue
                        try:
                            data = os.read(fileno, 4096)
                        except OSError:
                            data = b""
                        if not data:
                            ended = True
                            break
                        for event in parser.feed(decode(data)):
                            self.process_message(event)
                    for event in parser.tick():
                        self.process_message(event)
            finally:
                selector.close()
            if ended:
                self.send_message(EndOfInput())

    return PlanspielDriver
