"""Builds a Board from an ASCII drawing of a hex map, for tests.

A drawing is a data table like a map file's ``terrain`` grid: one line per map row, one token per hex, the
token being a terrain code and a level digit (``.0``, ``W1``). On screen the even columns would sit half a
hex lower; in the drawing they are simply the 2nd, 4th, ... token of each line. A token may end with a
lower-case letter that names the hex for the test (``.1a`` is open ground at level 1, called ``a``).

>>> board, at = ascii_board('''
...     .0  .1a .0
...     W0  .0b .0
... ''')
>>> board.label(at["a"]), board.terrain(at["a"]), board.level(at["a"])
('0201', 'open', 1)
>>> board.terrain(board.parse("0102")), board.label(at["b"])
('woods', '0202')
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping

from engine.board import Board, MapData
from engine.hexgrid import Hex, offset_to_hex

__all__ = ["CODES", "ascii_board"]

CODES: Mapping[str, str] = {".": "open", "V": "village", "O": "orchard", "W": "woods"}
"""The Blitzkrieg 1940 map codes (digest 13.9)."""

_TOKEN = re.compile(r"^(?P<code>[^\d\sa-z])(?P<level>\d)(?P<mark>[a-z]?)$")


def ascii_board(
    drawing: str,
    codes: Mapping[str, str] = CODES,
    map_id: str = "ascii",
    lines: Mapping[str, tuple[tuple[str, tuple[Hex, ...]], ...]] | None = None,
) -> tuple[Board, dict[str, Hex]]:
    """The board drawn, and the hexes named by a mark letter.

    Raises:
        ValueError: a malformed token, rows of different lengths, or a mark used twice.
    """
    rows = [line.split() for line in textwrap.dedent(drawing).strip().splitlines() if line.strip()]
    if not rows:
        raise ValueError("empty drawing")
    cols = len(rows[0])
    terrain: dict[Hex, tuple[str, int]] = {}
    marks: dict[str, Hex] = {}
    for r, tokens in enumerate(rows, start=1):
        if len(tokens) != cols:
            raise ValueError(f"row {r} has {len(tokens)} hexes, row 1 has {cols}")
        for c, token in enumerate(tokens, start=1):
            m = _TOKEN.match(token)
            if m is None:
                raise ValueError(f"row {r} column {c}: bad token {token!r} (expected code + level, e.g. W1 or .0a)")
            h = offset_to_hex(c, r)
            terrain[h] = (m["code"], int(m["level"]))
            if m["mark"]:
                if m["mark"] in marks:
                    raise ValueError(f"mark {m['mark']!r} used twice")
                marks[m["mark"]] = h
    data = MapData(id=map_id, title=map_id, cols=cols, rows=len(rows), terrain=terrain, lines=dict(lines or {}))
    return Board(data, codes), marks
