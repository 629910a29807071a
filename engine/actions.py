"""Provides actions: a verb with arguments, written and read as notation (``move ger-1 0705 0706``).

Notation is split into words the way a POSIX shell splits a command line (``shlex.split``: blanks separate words,
single and double quotes group them, a backslash escapes the next character), by a tokenizer that reads each
character once, so that reading a line takes time in proportion to its length. A line longer than
:data:`MAX_NOTATION` characters or a word longer than :data:`MAX_TOKEN` characters is refused before any work.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from .errors import InvalidActionError

__all__ = ["MAX_NOTATION", "MAX_TOKEN", "Action", "parse_notation", "split_notation"]

MAX_NOTATION = 4000
"""The longest notation read, in characters. The longest notation the rulesets write is under 100 characters (a
stack of three units and a hex); a path of 700 hexes would still fit."""

MAX_TOKEN = 200
"""The longest word of notation read, in characters (the longest unit id is under 30)."""

_BLANKS = " \t\r\n"
"""The characters that separate words (``shlex``'s whitespace)."""
_PLAIN = re.compile(r"[^ \t\r\n'\"\\]+")
"""A run of characters that stand for themselves outside quotes."""
_IN_DOUBLE = re.compile(r'[^"\\]+')
"""A run of characters that stand for themselves inside double quotes."""
_WRITES_PLAIN = re.compile(r"[^ \t\r\n'\"\\]+\Z")
"""An argument that notation writes as it is and reads back unchanged (no blank, quote or backslash)."""


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One decision: ``Action("fire", ("ger-4pz-1", "fra-2cu-3"))``; ``str()`` gives its notation."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *(shlex.quote(a) if (" " in a or not a) else a for a in self.args)))

    def __repr__(self) -> str:
        return f"Action({self.verb!r}, {self.args!r})"

    @property
    def notation(self) -> str:
        """The action as notation (same as ``str()``)."""
        return str(self)

    @property
    def reads_back(self) -> bool:
        """True if :func:`parse_notation` reads ``str(self)`` back to this action (the verb and the arguments are
        text, the verb a lower-case word, every argument written so that it reads back unchanged)."""
        verb, args = self.verb, self.args
        if not (isinstance(verb, str) and isinstance(args, tuple) and all(isinstance(a, str) for a in args)):
            return False
        if not (_WRITES_PLAIN.match(verb) and verb.lower() == verb):
            return False
        if all(_WRITES_PLAIN.match(a) for a in args):
            return len(verb) <= MAX_TOKEN and all(len(a) <= MAX_TOKEN for a in args)
        try:
            return parse_notation(str(self)) == self
        except InvalidActionError:
            return False


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to about ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 3]) + f"... ({len(text)} characters)"


def _word_too_long(text: str, start: int) -> InvalidActionError:
    return InvalidActionError(
        f"cannot read {_shown(text)}: the word at character {start + 1} is longer than {MAX_TOKEN} characters "
        "(unit ids, hex labels and keywords are far shorter)"
    )


def _double_quoted(text: str, i: int, parts: list[str]) -> int:
    """Read the double-quoted text that starts after the quote at ``i - 1``; returns the index after the closing
    quote. Inside double quotes a backslash escapes only a backslash or a double quote, as in ``shlex``."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            return i + 1
        if c == "\\":
            if i + 1 >= n:
                raise InvalidActionError(f"cannot read {_shown(text)}: No escaped character")
            nxt = text[i + 1]
            parts.append(nxt if nxt in '"\\' else "\\" + nxt)
            i += 2
            continue
        m = _IN_DOUBLE.match(text, i)
        assert m is not None
        parts.append(m.group())
        i = m.end()
    raise InvalidActionError(f"cannot read {_shown(text)}: No closing quotation")


def split_notation(text: str) -> list[str]:
    """Split notation into words, in one pass over the text; the same words as ``shlex.split(text)``.

    Raises:
        InvalidActionError: an unbalanced quote, a backslash at the end, or a word longer than :data:`MAX_TOKEN`
            characters.

    >>> split_notation("policy ger-1 'hold fire' \\"a b\\"")
    ['policy', 'ger-1', 'hold fire', 'a b']
    """
    tokens: list[str] = []
    parts: list[str] = []
    in_word = False
    start = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _BLANKS:
            if in_word:
                tokens.append(_joined(parts, text, start))
                parts, in_word = [], False
            i += 1
            continue
        if not in_word:
            in_word, start = True, i
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise InvalidActionError(f"cannot read {_shown(text)}: No closing quotation")
            parts.append(text[i + 1 : end])
            i = end + 1
        elif c == '"':
            i = _double_quoted(text, i + 1, parts)
        elif c == "\\":
            if i + 1 >= n:
                raise InvalidActionError(f"cannot read {_shown(text)}: No escaped character")
            parts.append(text[i + 1])
            i += 2
        else:
            m = _PLAIN.match(text, i)
            assert m is not None
            parts.append(m.group())
            i = m.end()
    if in_word:
        tokens.append(_joined(parts, text, start))
    return tokens


def _joined(parts: list[str], text: str, start: int) -> str:
    word = parts[0] if len(parts) == 1 else "".join(parts)
    if len(word) > MAX_TOKEN:
        raise _word_too_long(text, start)
    return word


def parse_notation(text: str) -> Action:
    """Split notation into verb and arguments (no check against a ruleset).

    Raises:
        InvalidActionError: not text, empty, longer than :data:`MAX_NOTATION` characters, a word longer than
            :data:`MAX_TOKEN`, or unbalanced quotes.

    >>> parse_notation("move ger-1 0705 0706")
    Action('move', ('ger-1', '0705', '0706'))
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"notation must be text, not {type(text).__name__}")
    if len(text) > MAX_NOTATION:
        raise InvalidActionError(
            f"cannot read {_shown(text)}: notation is limited to {MAX_NOTATION} characters (real notation is under 100)"
        )
    tokens = split_notation(text.strip())
    if not tokens:
        raise InvalidActionError("empty action: type a verb and its arguments, e.g. 'pass'")
    return Action(tokens[0].lower(), tuple(tokens[1:]))
