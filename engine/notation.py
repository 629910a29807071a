"""Provides typed notation: one class per verb (or per form of a verb) whose fields are the action's arguments.

An :class:`~engine.actions.Action` is the notation players type and saves keep (``fire ger-1 fra-2``). A ruleset
declares, for each verb, a frozen dataclass deriving from :class:`Notation` whose fields are typed with the
argument kinds below; :func:`read` turns an action into that class (hexes as :class:`~engine.hexgrid.Hex`, counts
as ``int``, units as ids), once, at the edge, and :meth:`Notation.action` writes it back (the exact inverse). The
same declarations tell clients what an action means (:func:`action_info`) and what a verb's arguments are
(:func:`slots`), so neither the TUI nor the AI needs to know any verb.

Argument kinds (``typing.Annotated`` markers):

- :data:`Actor`: the unit that acts (the first such field); :data:`Friend`: another unit of the acting side
  that takes part; :data:`Target`: an enemy unit aimed at; :data:`TargetOrHex`: an enemy unit, or a hex.
- :class:`~engine.hexgrid.Hex`: a hex label; :data:`Path`: one or more hex labels to the end of the notation
  (zero or more if the field has a default).
- ``int``: a count; ``Literal["a", "b"]``: one of those words; ``str`` (or :data:`Word`): an id or a keyword.
- ``X | None = None``: an optional argument, read if the next word fits its kind (a hex for a hex, a number for a
  count, one of the words for a ``Literal``; anything for a unit or a word).

>>> from dataclasses import dataclass
>>> from engine.contract import Role
>>> @dataclass(frozen=True, slots=True)
... class Move(Notation, verb="move", roles={Role.MOVE, Role.ORDER}):
...     unit: Actor
...     path: Path
>>> import engine
>>> board = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut")).board
>>> m = read([Move], Action("move", ("ger-1", "0102", "0202")), board)
>>> m.path
(Hex(0, 1), Hex(1, 1))
>>> m.action(board)
Action('move', ('ger-1', '0102', '0202'))
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Self

from .actions import Action
from .contract import ActionInfo, Role
from .errors import InvalidActionError
from .hexgrid import Hex

if TYPE_CHECKING:
    from .board import Board
    from .state import GameState

__all__ = [
    "Actor",
    "Arg",
    "Friend",
    "Notation",
    "Path",
    "Slot",
    "Target",
    "TargetOrHex",
    "Word",
    "action_info",
    "read",
    "slots",
    "usage",
    "verb_table",
]


class Arg(StrEnum):
    """The kind of a notation argument."""

    ACTOR = "actor"
    UNIT = "unit"
    TARGET = "target"
    HEX = "hex"
    PATH = "path"
    INT = "int"
    CHOICE = "choice"
    WORD = "word"


Actor = Annotated[str, Arg.ACTOR]
"""The unit that acts (a unit id of the deciding side; another id, e.g. a formation, is read as a word)."""
Friend = Annotated[str, Arg.UNIT]
"""Another unit of the acting side that takes part (a passenger, an observer, a partner)."""
Target = Annotated[str, Arg.TARGET]
"""An enemy unit aimed at."""
TargetOrHex = Annotated[str | Hex, Arg.TARGET]
"""An enemy unit aimed at, or a hex (a label, all digits)."""
Word = Annotated[str, Arg.WORD]
"""An id or a keyword (a chit, a formation, a card, an option)."""
Path = Annotated[tuple[Hex, ...], Arg.PATH]
"""Hexes to the end of the notation, in order."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One argument of a verb's notation."""

    name: str
    """The field's name (``facing_hex``); :attr:`words` gives it as a player reads it."""
    kind: Arg
    optional: bool = False
    choices: tuple[str, ...] = ()
    """The words a :data:`~Arg.CHOICE` accepts."""
    or_hex: bool = False
    """A unit argument that may also be a hex."""

    @property
    def words(self) -> str:
        """The name for a player (``facing hex``)."""
        return self.name.replace("_", " ")


class Notation:
    """Base of a ruleset's typed actions: subclass it as a frozen dataclass with ``verb=`` and ``roles=``.

    Class keywords: ``verb`` (the notation verb), ``roles`` (the :class:`~engine.contract.Role` values of every
    action of this form) and ``secondary`` (offered on the map only when nothing else fits the hex).
    """

    verb: ClassVar[str] = ""
    roles: ClassVar[frozenset[Role]] = frozenset()
    secondary: ClassVar[bool] = False
    __slots__ = ()

    def __init_subclass__(
        cls, *, verb: str = "", roles: Iterable[Role] = (), secondary: bool = False, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        if verb:
            cls.verb = verb
            cls.roles = frozenset(roles)
            cls.secondary = secondary

    @classmethod
    def slots(cls) -> tuple[Slot, ...]:
        """The arguments of this form, in notation order."""
        return slots(cls)

    def action(self, board: Board) -> Action:
        """The action written as notation (the exact inverse of :func:`read`)."""
        label = board.label
        args: list[str] = []
        for name, path in _WRITERS.get(type(self)) or _writer(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            if path:
                args.extend([label(h) for h in value])
            elif isinstance(value, Hex):
                args.append(label(value))
            else:
                args.append(str(value))
        return Action(self.verb, tuple(args))

    @classmethod
    def read(cls, action: Action, board: Board) -> Self:
        """Read an action of this form (raises :class:`~engine.errors.InvalidActionError`)."""
        return cls(**_read_values(cls, action, board))


_SLOTS: dict[type, tuple[Slot, ...]] = {}
_WRITERS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _writer(cls: type[Notation]) -> tuple[tuple[str, bool], ...]:
    """What :meth:`Notation.action` writes for ``cls``: each field's name and whether it is a path."""
    got = _WRITERS[cls] = tuple((s.name, s.kind is Arg.PATH) for s in slots(cls))
    return got


def _slot_of(name: str, hint: Any, optional: bool) -> Slot:
    kind: Arg | None = None
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        rest = [a for a in args if a is not type(None)]
        optional = optional or len(rest) < len(args)
        if len(rest) != 1:
            raise TypeError(f"notation field {name}: unsupported union {hint!r}")
        hint = rest[0]
    if typing.get_origin(hint) is Annotated:
        base, *extras = typing.get_args(hint)
        kind = next((x for x in extras if isinstance(x, Arg)), None)
        hint = base
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and set(typing.get_args(hint)) == {str, Hex}:
        return Slot(name, kind or Arg.TARGET, optional, or_hex=True)
    args = typing.get_args(hint)
    if kind is not None and kind is not Arg.PATH:
        return Slot(name, kind, optional)
    if kind is Arg.PATH or (typing.get_origin(hint) is tuple and args[:1] == (Hex,)):
        return Slot(name, Arg.PATH, optional)
    if typing.get_origin(hint) is Literal:
        return Slot(name, Arg.CHOICE, optional, choices=tuple(str(a) for a in args))
    if hint is Hex:
        return Slot(name, Arg.HEX, optional)
    if hint is int:
        return Slot(name, Arg.INT, optional)
    if hint is str:
        return Slot(name, Arg.WORD, optional)
    raise TypeError(f"notation field {name}: unsupported type {hint!r}")


def slots(cls: type[Notation]) -> tuple[Slot, ...]:
    """The arguments of a typed action class, in notation order (read once per class)."""
    got = _SLOTS.get(cls)
    if got is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        out = []
        for f in fields(cls):  # type: ignore[arg-type]
            optional = f.default is not MISSING or f.default_factory is not MISSING
            out.append(_slot_of(f.name, hints[f.name], optional))
        paths = [i for i, s in enumerate(out) if s.kind is Arg.PATH]
        if paths and paths[0] != len(out) - 1:
            raise TypeError(f"{cls.__name__}: a path must be the last argument")
        got = _SLOTS[cls] = tuple(out)
    return got


def _looks_like_hex(token: str) -> bool:
    return token.isdigit() and len(token) in (4, 6)


def _fits(slot: Slot, token: str, board: Board) -> bool:
    """Whether an optional argument may be read from ``token``."""
    if slot.kind is Arg.HEX:
        try:
            board.parse(token)
        except ValueError:
            return False
        return True
    if slot.kind is Arg.INT:
        return token.lstrip("-").isdigit()
    if slot.kind is Arg.CHOICE:
        return token in slot.choices
    return not _looks_like_hex(token) or slot.or_hex


def _usage(cls: type[Notation]) -> str:
    parts = []
    for s in slots(cls):
        name = "|".join(s.choices) if s.kind is Arg.CHOICE else s.name.upper().replace("_", "-")
        if s.kind is Arg.PATH:
            name += "..."
        parts.append(f"[{name}]" if s.optional else name)
    return " ".join((cls.verb, *parts))


def _hex(cls: type[Notation], slot: Slot, token: str, board: Board) -> Hex:
    try:
        return board.parse(token)
    except ValueError as err:
        raise InvalidActionError(f"{cls.verb}: {slot.words}: {err}") from None


def _read_values(cls: type[Notation], action: Action, board: Board) -> dict[str, Any]:
    tokens = action.args
    values: dict[str, Any] = {}
    spec = slots(cls)
    # How many words the required arguments after each one need (a path needs one unless it may be empty).
    needed = [0] * (len(spec) + 1)
    for k in range(len(spec) - 1, -1, -1):
        needed[k] = needed[k + 1] + (0 if spec[k].optional else 1)
    i = 0
    for k, slot in enumerate(spec):
        if slot.kind is Arg.PATH:
            rest = tokens[i:]
            if not rest and not slot.optional:
                raise InvalidActionError(f"{cls.verb}: missing {slot.words}; usage: {_usage(cls)}")
            values[slot.name] = tuple(_hex(cls, slot, t, board) for t in rest)
            i = len(tokens)
            continue
        if slot.optional and (
            i >= len(tokens) or len(tokens) - i - 1 < needed[k + 1] or not _fits(slot, tokens[i], board)
        ):
            values[slot.name] = None
            continue
        if i >= len(tokens):
            raise InvalidActionError(f"{cls.verb}: missing {slot.words}; usage: {_usage(cls)}")
        token = tokens[i]
        i += 1
        if slot.kind is Arg.HEX or (slot.or_hex and _looks_like_hex(token)):
            values[slot.name] = _hex(cls, slot, token, board)
        elif slot.kind is Arg.INT:
            try:
                values[slot.name] = int(token)
            except ValueError:
                raise InvalidActionError(f"{cls.verb}: {slot.words} must be a number, got {token!r}") from None
        elif slot.kind is Arg.CHOICE and token not in slot.choices:
            raise InvalidActionError(
                f"{cls.verb}: {slot.words} must be one of {', '.join(slot.choices)}, got {token!r}"
            )
        else:
            values[slot.name] = token
    if i < len(tokens):
        raise InvalidActionError(f"{cls.verb}: too many arguments ({' '.join(tokens[i:])}); usage: {_usage(cls)}")
    return values


def verb_table(classes: Iterable[type[Notation]]) -> dict[str, tuple[type[Notation], ...]]:
    """Verb → its forms, in the order given (the first form that reads an action wins)."""
    out: dict[str, list[type[Notation]]] = {}
    for cls in classes:
        if not cls.verb:
            raise TypeError(f"{cls.__name__} has no verb")
        slots(cls)  # checks the declaration now rather than at the first action
        out.setdefault(cls.verb, []).append(cls)
    return {v: tuple(forms) for v, forms in out.items()}


def read(forms: Sequence[type[Notation]], action: Action, board: Board) -> Notation:
    """Read an action into the first of ``forms`` that accepts it.

    Raises:
        InvalidActionError: no form accepts it (the message is the first form's, with its usage).
    """
    first: InvalidActionError | None = None
    for cls in forms:
        try:
            return cls.read(action, board)
        except InvalidActionError as err:
            first = first or err
    if first is None:
        raise InvalidActionError(f"unknown verb {action.verb!r}")
    raise first


def action_info(typed: Notation, view: GameState) -> ActionInfo:
    """What a typed action means in ``view`` (see :class:`~engine.contract.ActionInfo`)."""
    cls = type(typed)
    roles = cls.roles
    actor: str | None = None
    units: list[str] = []
    targets: list[str] = []
    hexes: list[Hex] = []
    path: tuple[Hex, ...] = ()
    path_start: int | None = None
    last_hex: Hex | None = None
    written = 0
    seen_actor = False
    for slot in slots(cls):
        value = getattr(typed, slot.name)
        if value is None:
            continue
        if slot.kind is Arg.PATH:
            path = tuple(value)
            path_start = written
            hexes.extend(path)
            written += len(path)
            continue
        written += 1
        if isinstance(value, Hex):
            hexes.append(value)
            last_hex = value
            continue
        if slot.kind is Arg.ACTOR and not seen_actor:
            seen_actor = True
            if value in view.units:
                actor = value
            continue
        if slot.kind in (Arg.UNIT, Arg.TARGET, Arg.ACTOR) and value in view.units:
            (targets if slot.kind is Arg.TARGET else units).append(value)
            u = view.units[value]
            if u.hex is not None:
                hexes.append(u.hex)
    moving = roles & {Role.MOVE, Role.RETREAT, Role.PLACE}
    destination = (path[-1] if path else last_hex) if moving else None
    return ActionInfo(
        verb=cls.verb,
        roles=roles,
        unit=actor,
        units=tuple(units),
        targets=tuple(targets),
        hexes=tuple(hexes),
        path=path,
        path_start=path_start,
        destination=destination,
        secondary=cls.secondary,
    )


def usage(forms: Sequence[type[Notation]]) -> str:
    """The notation pattern of a verb's forms (``sell UNIT | sell KIND HEX [HEX]``)."""
    return " | ".join(_usage(cls) for cls in forms)
