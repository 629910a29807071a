"""Provides typed ruleset state: the ``@record`` decorator and one codec for records (``to_plain``, ``from_plain``,
``clone``).

A ruleset declares the class of ``GameState.data`` and of ``Unit.status`` as records (``Ruleset.state_type`` and
``Ruleset.status_type``). A record is a dataclass with slots whose fields have the types listed below; the engine
writes it as plain, msgpack-safe data (``to_plain``), reads a snapshot back strictly (``from_plain`` raises
:class:`~engine.errors.StateError` naming the path of the first problem) and copies it with ``clone``, a function
generated once per class.

>>> from engine.hexgrid import Hex
>>> @record
... class Formation:
...     name: str
...     ff: int = 8
...     hq: Hex | None = None
>>> @record
... class Data:
...     turns: int
...     formations: dict[str, Formation] = field(default_factory=dict)
...     cup: list[str] = field(default_factory=list)
>>> d = Data(6, {"f1": Formation("1. Kürassiere", hq=Hex(3, 1))})
>>> to_plain(d)
{'turns': 6, 'formations': {'f1': {'name': '1. Kürassiere', 'hq': '0403'}}}
>>> from_plain(Data, to_plain(d)) == d
True
>>> from_plain(Data, {"turns": 6, "formations": {"f1": {"name": "x", "ff": "x"}}})
Traceback (most recent call last):
engine.errors.StateError: data.formations['f1'].ff: expected int, got 'x'
>>> c = clone(d)
>>> c.formations["f1"].ff -= 1
>>> d.formations["f1"].ff, c.formations["f1"].ff
(8, 7)

**Field types.** ``int``; ``float`` (an int is read as a float); ``str``; ``bool``; ``None``; ``X | None``;
``Literal[...]`` of strs, ints, bools or None; ``list[T]``; ``tuple[T, ...]`` and ``tuple[A, B]`` (written as
lists); ``set[T]`` and ``frozenset[T]`` of ints, floats, strs, hexes, one-type literals or tuples of these
(written as sorted lists); ``dict[K, T]`` with keys ``str``, ``int`` (written as decimal strings) or ``Hex``;
nested records (not recursive: a record cannot contain its own class); tagged unions of records, ``A | B | C``
(or ``A | B | None``), each class with a ``kind: Literal[...]`` field whose values tell it apart (the written
dict's ``kind`` picks the class when it is read back); :class:`~engine.hexgrid.Hex` (written as
its label with ``hex_label``, read with ``parse_hex``); and ``typing.Any``, the escape hatch for plain data (dicts
with str or int keys, lists, scalars), copied with :func:`engine.plain.copy_plain` and read back at most 64 levels
deep. The annotations are resolved once per class, when it is defined (or at its first use if one names a class
defined later in its module); any other annotation raises ``TypeError`` then.

**Keys.** A field is written under its name, or under ``field(metadata={"key": "from"})`` where the plain form
needs a name that Python does not allow.

**Defaults.** ``to_plain`` omits a field whose value equals its default, so a unit status with every flag off
is ``{}``; ``@record(omit_defaults=False)`` writes every field. A field without a default is always written.
``from_plain`` gives missing fields their defaults (a ``default_factory`` is called once per missing field, and
once per class to learn the value ``to_plain`` compares with); a missing field without a default, an unknown
key, a value of the wrong type (a bool where an int is expected, too), a bad hex label or a key that cannot be
read raises ``StateError``. It sets the fields directly, or calls the class's ``__init__`` if the class has a
``__post_init__`` (whose ``ValueError`` then becomes a ``StateError``) or is frozen. Fields are written in their
declared order, dicts in theirs.

**Copies and equality.** ``clone`` copies lists, dicts, sets and nested records at every depth and shares the
immutable values (strs, numbers, hexes, frozensets, tuples of immutable values, and the records of a class
declared ``@record(frozen=True)``, whose fields must all be immutable). A field declared
``field(metadata={"shared": True})`` is shared by every clone as it is: for a value set once (the scenario's tables
a state carries) that the rules only read; changing it in place would change every state holding it. Equality is
dataclass equality.

**In a ruleset** the rules read their state through a typed accessor, so mypy checks every field they use::

    @record
    class MiniStatus:
        hidden: bool = False

    class MiniRules(Ruleset):
        state_type: ClassVar[type[MiniData]] = MiniData  # annotated: a bare class would be a type alias to mypy
        status_type: ClassVar[type[MiniStatus]] = MiniStatus

    def data(st: GameState) -> MiniData:
        return state_of(st, MiniData)  # TypeError if the state holds anything else

    data(st).acted.append(unit.id)
    status_of(unit, MiniStatus).hidden = False

``tests/minirules`` is the worked example. ``field`` is ``dataclasses.field``; :func:`field_values` reads a record
or a plain dict by field name, for code that knows no ruleset's classes (a client's markers).
"""

from __future__ import annotations

import contextlib
import dataclasses
import reprlib
import sys
import threading
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, field
from typing import Any, Literal, Protocol, TypeVar, dataclass_transform, overload

from .errors import StateError
from .hexgrid import Hex, hex_label, parse_hex
from .plain import copy_plain

__all__ = [
    "ANY_DEPTH",
    "clone",
    "cloner",
    "field",
    "field_values",
    "from_plain",
    "record",
    "state_of",
    "status_of",
    "to_plain",
]

_T = TypeVar("_T")

ANY_DEPTH = 64
"""How deeply plain data in an ``Any`` field may nest when it is read back (deeper raises ``StateError``)."""


# --- The decorator -----------------------------------------------------------------------------------------


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, omit_defaults: bool = True, frozen: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[_T] | None = None, /, *, omit_defaults: bool = True, frozen: bool = False) -> Any:
    """Make ``cls`` a record: a ``dataclass(slots=True)`` that :func:`to_plain`, :func:`from_plain` and
    :func:`clone` know.

    Args:
        cls: the class (``@record``), or None when options are given (``@record(omit_defaults=False)``).
        omit_defaults: whether :func:`to_plain` leaves out fields whose value equals their default.
        frozen: a frozen dataclass whose fields must all be immutable: a value is never copied, :func:`clone`
            and the clones of the records holding it share it (change it with ``dataclasses.replace``).

    Raises:
        TypeError: a field's annotation is not a supported type (or, in a frozen record, a mutable one), or the
            record contains its own class.
    """
    if cls is None:

        def wrap(c: type[_T]) -> type[_T]:
            return _register(c, omit_defaults, frozen, sys._getframe(1).f_locals)

        return wrap
    return _register(cls, omit_defaults, frozen, sys._getframe(1).f_locals)


# --- The codec -----------------------------------------------------------------------------------------------


def to_plain(obj: object) -> dict[str, Any]:
    """The record ``obj`` as plain, msgpack-safe data: a dict with str keys, lists and scalars (new containers,
    never shared with ``obj``), without the fields that equal their defaults.

    Raises:
        TypeError: ``obj`` is not a record.
    """
    write = _WRITERS.get(obj.__class__) or _compiled(obj.__class__).write
    assert write is not None
    return write(obj)


def from_plain(cls: type[_T], value: object, *, where: str = "data") -> _T:
    """A new ``cls`` record read from plain data (the inverse of :func:`to_plain`; nothing of ``value`` is shared).

    Args:
        cls: the record class.
        value: plain data, as :func:`to_plain` wrote it (possibly after a round trip through msgpack).
        where: the path of ``value`` in error messages (``units['ger-1'].status``).

    Raises:
        StateError: the value does not fit ``cls``; the message names the path and the problem.
        TypeError: ``cls`` is not a record class.
    """
    read = _compiled(cls).read
    assert read is not None
    try:
        result: _T = read(value)
    except _Bad as bad:
        raise StateError(where + "".join(reversed(bad.path)) + ": " + bad.message) from None
    return result


def clone(obj: _T) -> _T:
    """A deep copy of the record ``obj``: lists, dicts, sets and records are copied at every depth, immutable
    values are shared.

    Raises:
        TypeError: ``obj`` is not a record.
    """
    copy: Callable[[Any], Any] | None
    try:
        copy = _CLONERS[obj.__class__]
    except KeyError:
        copy = _compiled(obj.__class__).clone
        assert copy is not None
    result: _T = copy(obj)  # not typing.cast: a call on the engine's hot path
    return result


def cloner(cls: type[_T]) -> Callable[[_T], _T]:
    """The function :func:`clone` calls for records of ``cls`` (for a loop that clones many records of one class).

    Raises:
        TypeError: ``cls`` is not a record class.
    """
    copy = _CLONERS.get(cls) or _compiled(cls).clone
    assert copy is not None
    return copy


class _HasData(Protocol):
    """A game state (:class:`engine.state.GameState`), as far as :func:`state_of` reads it."""

    data: Any


class _HasStatus(Protocol):
    """A unit (:class:`engine.state.Unit`), as far as :func:`status_of` reads it."""

    id: str
    status: Any


def state_of(state: _HasData, cls: type[_T]) -> _T:
    """``state.data`` typed as the ruleset's record class ``cls``.

    Raises:
        TypeError: the state's data is not a ``cls`` (a plain dict, or another class).
    """
    data = state.data
    if isinstance(data, cls):
        return data
    raise TypeError(f"the state's data is a {type(data).__name__}, not a {cls.__name__}")


def status_of(unit: _HasStatus, cls: type[_T]) -> _T:
    """``unit.status`` typed as the ruleset's record class ``cls``.

    Raises:
        TypeError: the unit's status is not a ``cls``.
    """
    status = unit.status
    if isinstance(status, cls):
        return status
    raise TypeError(f"the status of {unit.id} is a {type(status).__name__}, not a {cls.__name__}")


def field_values(value: object) -> Mapping[str, Any]:
    """A record's fields by name (a new, shallow dict), or a plain dict as it is: for code that reads ruleset
    state by name without knowing the ruleset's classes (a client showing every true status flag).

    Raises:
        TypeError: ``value`` is neither a dict nor a record.
    """
    if isinstance(value, dict):
        return value
    names = _compiled(value.__class__).names
    return {name: getattr(value, name) for name in names}


# --- Field types ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class _Spec:
    """A field type, parsed once: what the generated code does with a value of it."""

    kind: str
    """scalar, float, literal, hex, any, optional, list, vtuple, tuple, set, frozenset, dict or record."""
    shown: str
    """What a value should be, for error messages (``int``, ``a list``, ``a hex label``)."""
    scalar: type | None = None
    """The exact type of a scalar (int, str, bool, NoneType)."""
    args: tuple[_Spec, ...] = ()
    """Item types: the inner type of ``X | None``, the items of a list or tuple, a dict's key and value."""
    values: tuple[Any, ...] = ()
    """The values of a literal."""
    cls: type | None = None
    """The class of a record."""
    immutable: bool = True
    """Whether a value can be shared by a clone."""
    plain: bool = True
    """Whether a value is its own plain form."""


_SUPPORTED = (
    "int, float, str, bool, None, X | None, Literal[...], list[T], tuple[T, ...], tuple[A, B], set[T], "
    "frozenset[T], dict[K, T] with K str, int or Hex, Hex, typing.Any, @record classes and unions of @record "
    "classes with a kind: Literal[...] field"
)
_SCALARS: dict[Any, _Spec] = {
    int: _Spec("scalar", "int", scalar=int),
    str: _Spec("scalar", "str", scalar=str),
    bool: _Spec("scalar", "bool", scalar=bool),
    type(None): _Spec("scalar", "None", scalar=type(None)),
    float: _Spec("float", "float"),
}
_HEX = _Spec("hex", "a hex label", plain=False)
_ANY = _Spec("any", "plain data", immutable=False, plain=False)


def _parse(tp: Any, where: str, stack: tuple[type, ...]) -> _Spec:
    """The spec of annotation ``tp`` of field ``where`` (``Formation.ff``); ``stack``: the records being compiled."""
    if tp is None:
        tp = type(None)
    if tp in _SCALARS:
        return _SCALARS[tp]
    if tp is Hex:
        return _HEX
    if tp is Any:
        return _ANY
    if isinstance(tp, type) and tp in _INFO:
        if tp in stack:
            chain = " → ".join(c.__name__ for c in (*stack[stack.index(tp) :], tp))
            raise TypeError(f"{where}: a record cannot contain its own class ({chain})")
        _compile(_INFO[tp], stack)
        return _Spec("record", f"a dict ({tp.__name__})", cls=tp, immutable=_INFO[tp].frozen, plain=False)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        if not args or any(type(a) not in (str, int, bool, type(None)) for a in args):
            raise TypeError(f"{where}: Literal values must be strs, ints, bools or None, got {tp!r}")
        return _Spec("literal", "one of " + ", ".join(repr(a) for a in args), values=args)
    if origin is typing.Union or origin is types.UnionType:
        return _parse_union(args, where, stack)
    if origin is list and len(args) == 1:
        return _Spec("list", "a list", args=(_parse(args[0], where, stack),), immutable=False, plain=False)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _parse(args[0], where, stack)
        return _Spec("vtuple", "a list", args=(item,), immutable=item.immutable, plain=False)
    if origin is tuple and args and Ellipsis not in args and args != ((),):
        items = tuple(_parse(a, where, stack) for a in args)
        immutable = all(i.immutable for i in items)
        return _Spec("tuple", f"a list of {len(items)}", args=items, immutable=immutable, plain=False)
    if origin in (set, frozenset) and len(args) == 1:
        item = _parse(args[0], where, stack)
        if not _sortable(item):
            raise TypeError(
                f"{where}: the items of a set must be ints, floats, strs, hexes, literals of one type or tuples of "
                f"these (a set is written sorted), got {tp!r}"
            )
        kind = "set" if origin is set else "frozenset"
        return _Spec(kind, "a list", args=(item,), immutable=kind == "frozenset", plain=False)
    if origin is dict and len(args) == 2:
        key = _parse(args[0], where, stack)
        if key is not _HEX and key.scalar not in (str, int):
            raise TypeError(f"{where}: the keys of a dict must be str, int or Hex, got {tp!r}")
        value = _parse(args[1], where, stack)
        return _Spec("dict", "a dict", args=(key, value), immutable=False, plain=False)
    if tp in (list, dict, set, frozenset, tuple):
        raise TypeError(f"{where}: {tp!r} needs its item types (list[int], dict[str, int], tuple[int, ...])")
    raise TypeError(f"{where}: {tp!r} is not a supported record field type (supported: {_SUPPORTED})")


def _parse_union(args: tuple[Any, ...], where: str, stack: tuple[type, ...]) -> _Spec:
    """``X | None``, a tagged union of records, or a tagged union of records ``| None``."""
    rest = [a for a in args if a is not type(None)]
    inner = _union(rest, where, stack) if len(rest) > 1 else _parse(rest[0], where, stack)
    if len(rest) == len(args):
        return inner
    return _Spec("optional", f"{inner.shown} or None", args=(inner,), immutable=inner.immutable, plain=inner.plain)


def _union(members: list[Any], where: str, stack: tuple[type, ...]) -> _Spec:
    """A tagged union: record classes told apart by the value of their ``kind`` field (a ``Literal``)."""
    specs = []
    for tp in members:
        if not (isinstance(tp, type) and tp in _INFO):
            raise TypeError(
                f"{where}: {tp!r} is not supported in a union: a union is X | None, or of record classes with a "
                "kind: Literal[...] field"
            )
        specs.append(_parse(tp, where, stack))
    tags: dict[Any, type] = {}
    for spec in specs:
        assert spec.cls is not None
        info = _INFO[spec.cls]
        if not info.tags:
            raise TypeError(f"{where}: {spec.cls.__name__} has no kind: Literal[...] field to tell it apart in a union")
        for tag in info.tags:
            if tag in tags:
                raise TypeError(f"{where}: kind {tag!r} names both {tags[tag].__name__} and {spec.cls.__name__}")
            tags[tag] = spec.cls
    shown = "a dict (" + " or ".join(c.__name__ for c in dict.fromkeys(tags.values())) + ")"
    return _Spec("union", shown, args=tuple(specs), values=tuple(tags.items()), immutable=False, plain=False)


def _sortable(spec: _Spec) -> bool:
    if spec.kind in ("float", "hex") or spec.scalar in (int, str):
        return True
    if spec.kind == "literal":
        return len({type(v) for v in spec.values}) == 1 and spec.values[0] is not None
    return spec.kind in ("tuple", "vtuple") and all(_sortable(a) for a in spec.args)


# --- Compiling a record class ----------------------------------------------------------------------------------


class _Bad(Exception):
    """A value that does not fit; ``path`` collects the path's parts, innermost first, on the way out."""

    def __init__(self, message: str, *path: str) -> None:
        super().__init__(message)
        self.message = message
        self.path = list(path)


class _Unresolved(TypeError):
    """An annotation names something not defined (yet): the class is compiled at its first use."""


class _Info:
    """A record class and, once compiled, its generated functions."""

    __slots__ = ("clone", "cls", "frozen", "names", "namespace", "omit_defaults", "read", "tags", "write")

    def __init__(self, cls: type, omit_defaults: bool, frozen: bool, namespace: Mapping[str, Any]) -> None:
        self.cls = cls
        self.omit_defaults = omit_defaults
        self.frozen = frozen
        self.namespace = namespace
        """Where the class was defined (the names its annotations may use besides its module's)."""
        self.names: tuple[str, ...] = ()
        self.tags: tuple[Any, ...] = ()
        """The values of the class's ``kind`` field, if it is a ``Literal`` (what tells it apart in a union)."""
        self.write: Callable[[Any], dict[str, Any]] | None = None
        self.read: Callable[[Any], Any] | None = None
        self.clone: Callable[[Any], Any] | None = None


_INFO: dict[type, _Info] = {}
_WRITERS: dict[type, Callable[[Any], dict[str, Any]]] = {}
_CLONERS: dict[type, Callable[[Any], Any]] = {}
_LOCK = threading.RLock()


def _register(cls: type[_T], omit_defaults: bool, frozen: bool, namespace: Mapping[str, Any]) -> type[_T]:
    if "__dataclass_fields__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} is already a dataclass: use @record instead of @dataclass")
    new = dataclasses.dataclass(slots=True, frozen=frozen)(cls)
    info = _Info(new, omit_defaults, frozen, namespace)
    with _LOCK:
        _INFO[new] = info
        with contextlib.suppress(_Unresolved):  # an annotation names a class defined later: compiled at first use
            _compile(info, ())
    return new


def _compiled(cls: type) -> _Info:
    """The record class's info, compiled (TypeError if ``cls`` is not a record class)."""
    info = _INFO.get(cls)
    if info is None:
        raise TypeError(f"{cls.__name__} is not a record class (decorate it with @engine.typed.record)")
    if info.clone is None:
        with _LOCK:
            _compile(info, ())
    return info


def _compile(info: _Info, stack: tuple[type, ...]) -> None:
    """Generate the class's three functions (and those of the records it contains)."""
    if info.clone is not None:
        return
    cls = info.cls
    localns = {**info.namespace, cls.__name__: cls}
    try:
        hints = typing.get_type_hints(cls, localns=localns)
    except NameError as err:
        raise _Unresolved(f"{cls.__name__}: an annotation cannot be resolved: {err}") from None
    fields = dataclasses.fields(cls)
    for f in fields:
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: a record field must be set by __init__ (init=False)")
    specs = [(f, _parse(hints[f.name], f"{cls.__name__}.{f.name}", (*stack, cls))) for f in fields]
    if info.frozen:
        for f, spec in specs:
            if not spec.immutable:
                raise TypeError(f"{cls.__name__}.{f.name}: a frozen record's fields must be immutable ({spec.shown})")
    ns: dict[str, Any] = {
        "_C": cls,
        "_new": object.__new__,
        "_hl": hex_label,
        "_cp": copy_plain,
        "_Bad": _Bad,
        "_bad": _bad,
        "_M": MISSING,
    }
    gen = _Gen(ns)
    info.names = tuple(f.name for f, _ in specs)
    info.tags = next((spec.values for f, spec in specs if f.name == "kind" and spec.kind == "literal"), ())
    info.write = gen.function("write", _write_lines(gen, specs, info.omit_defaults), cls)
    info.read = gen.function("read", _read_lines(gen, cls, specs, info.frozen), cls)
    clone_lines = ["return obj"] if info.frozen else _clone_lines(gen, specs)
    info.clone = gen.function("clone", clone_lines, cls)  # last: a set clone means compiled
    _WRITERS[cls] = info.write
    _CLONERS[cls] = info.clone


class _Gen:
    """Builds the source of generated functions: fresh variable names and the values they refer to."""

    def __init__(self, ns: dict[str, Any]) -> None:
        self.ns = ns
        self.n = 0

    def var(self) -> str:
        self.n += 1
        return f"x{self.n}"

    def value(self, prefix: str, value: Any) -> str:
        self.n += 1
        name = f"_{prefix}{self.n}"
        self.ns[name] = value
        return name

    def function(self, name: str, body: list[str], cls: type) -> Callable[[Any], Any]:
        source = f"def {name}(obj):\n" + "".join(f"    {line}\n" for line in body)
        exec(compile(source, f"<record {cls.__module__}.{cls.__qualname__}.{name}>", "exec"), self.ns)
        fn: Callable[[Any], Any] = self.ns.pop(name)
        fn.__qualname__ = f"{cls.__qualname__}.<{name}>"
        return fn


def _key(f: dataclasses.Field[Any]) -> str:
    """The key of a field in the plain form: its name, or ``field(metadata={"key": ...})`` (a Python keyword)."""
    key = f.metadata.get("key", f.name)
    if not isinstance(key, str):
        raise TypeError(f"{f.name}: the key of a field must be a str, got {key!r}")
    return key


def _defaults(f: dataclasses.Field[Any]) -> tuple[bool, Any]:
    """Whether the field has a default, and its value (a ``default_factory`` is called once)."""
    if f.default is not MISSING:
        return True, f.default
    if f.default_factory is not MISSING:
        return True, f.default_factory()
    return False, None


# --- to_plain


def _write_lines(gen: _Gen, specs: list[tuple[dataclasses.Field[Any], _Spec]], omit: bool) -> list[str]:
    lines = ["out = {}"]
    for f, spec in specs:
        expr = _write_expr(gen, spec, "v")
        has_default, default = _defaults(f)
        lines.append(f"v = obj.{f.name}")
        if not omit or not has_default:
            lines.append(f"out[{_key(f)!r}] = {expr}")
            continue
        if default is None:
            test = "v is not None"
        elif type(default) in (list, dict, set) and not default:
            test = "v"
        else:
            test = f"v != {gen.value('d', default)}"
        lines += [f"if {test}:", f"    out[{_key(f)!r}] = {expr}"]
    return [*lines, "return out"]


def _write_expr(gen: _Gen, spec: _Spec, v: str) -> str:
    """An expression giving the plain form of the value ``v`` (a name or an index, evaluated more than once)."""
    if spec.plain:
        return v
    kind = spec.kind
    if kind == "hex":
        return f"_hl({v})"
    if kind == "any":
        return f"_cp({v})"
    if kind == "optional":
        return f"(None if {v} is None else {_write_expr(gen, spec.args[0], v)})"
    if kind in ("list", "vtuple", "set", "frozenset"):
        item = spec.args[0]
        source = v if kind in ("list", "vtuple") else f"sorted({v})"
        if item.plain:
            return source if source != v else f"list({v})"
        x = gen.var()
        return f"[{_write_expr(gen, item, x)} for {x} in {source}]"
    if kind == "tuple":
        return "[" + ", ".join(_write_expr(gen, a, f"{v}[{i}]") for i, a in enumerate(spec.args)) + "]"
    if kind == "dict":
        key, value = spec.args
        if key.scalar is str and value.plain:
            return f"dict({v})"
        k, x = gen.var(), gen.var()
        kexpr = k if key.scalar is str else f"str({k})" if key.scalar is int else f"_hl({k})"
        return f"{{{kexpr}: {_write_expr(gen, value, x)} for {k}, {x} in {v}.items()}}"
    if kind == "union":
        return f"{gen.value('wu', _union_writer(spec))}({v})"
    assert kind == "record" and spec.cls is not None
    return f"{gen.value('w', _WRITERS[spec.cls])}({v})"


# --- clone


def _clone_lines(gen: _Gen, specs: list[tuple[dataclasses.Field[Any], _Spec]]) -> list[str]:
    lines = ["new = _new(_C)"]
    for f, spec in specs:
        v = "obj." + f.name
        lines.append(f"new.{f.name} = {v if f.metadata.get('shared') else _clone_expr(gen, spec, v)}")
    return [*lines, "return new"]


def _clone_expr(gen: _Gen, spec: _Spec, v: str) -> str:
    """An expression giving a copy of the value ``v`` that shares only immutable values."""
    if spec.immutable:
        return v
    kind = spec.kind
    if kind == "any":
        return f"_cp({v})"
    if kind == "optional":
        x = gen.var()
        return f"(None if ({x} := {v}) is None else {_clone_expr(gen, spec.args[0], x)})"
    if kind in ("list", "set"):
        item = spec.args[0]
        if item.immutable:
            return f"{v}.copy()"
        x = gen.var()
        return f"[{_clone_expr(gen, item, x)} for {x} in {v}]"
    if kind == "vtuple":
        x = gen.var()
        return f"tuple([{_clone_expr(gen, spec.args[0], x)} for {x} in {v}])"
    if kind == "tuple":
        return "(" + ", ".join(_clone_expr(gen, a, f"{v}[{i}]") for i, a in enumerate(spec.args)) + ",)"
    if kind == "dict":
        value = spec.args[1]
        if value.immutable:
            return f"{v}.copy()"
        k, x = gen.var(), gen.var()
        return f"{{{k}: {_clone_expr(gen, value, x)} for {k}, {x} in {v}.items()}}"
    if kind == "union":
        cloners = {a.cls: _CLONERS[a.cls] for a in spec.args if a.cls is not None}
        return f"{gen.value('cu', cloners)}[{v}.__class__]({v})"
    assert kind == "record" and spec.cls is not None
    return f"{gen.value('c', _CLONERS[spec.cls])}({v})"


# --- from_plain


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 4, 50, 50


def _show(value: object) -> str:
    """A short repr of a value read (any value: a hostile one may be nested thousands of levels deep)."""
    text = _REPR.repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _bad(at: str, shown: str, value: object) -> _Bad:
    return _Bad(f"expected {shown}, got {_show(value)}", at)


def _read_lines(gen: _Gen, cls: type, specs: list[tuple[dataclasses.Field[Any], _Spec]], frozen: bool) -> list[str]:
    names = gen.value("names", frozenset(_key(f) for f, _ in specs))
    lines = [
        "if not isinstance(obj, dict):",
        f"    raise _Bad('expected a dict ({cls.__name__}), got ' + {gen.value('show', _show)}(obj))",
        f"if not {names}.issuperset(obj):",
        f"    {gen.value('unknown', _unknown)}(obj, {names}, {cls.__name__!r})",
    ]
    direct = not hasattr(cls, "__post_init__") and not frozen
    if direct:
        lines.append("new = _new(_C)")
    args = []
    for i, (f, spec) in enumerate(specs):
        a = f"a{i}"
        args.append(f"{f.name}={a}")
        at = f".{_key(f)}"
        if f.default is not MISSING:
            missing = f"{a} = {gen.value('d', f.default)}"
        elif f.default_factory is not MISSING:
            missing = f"{a} = {gen.value('f', f.default_factory)}()"
        else:
            missing = f"raise _Bad({'missing field ' + repr(_key(f))!r}) from None"
        lines += ["try:", f"    {a} = obj[{_key(f)!r}]", "except KeyError:", f"    {missing}"]
        inner = spec.args[0] if spec.kind == "optional" else spec
        if inner.kind == "scalar":
            test = f"type({a}) is not {gen.value('t', inner.scalar)}"
            if spec.kind == "optional":
                test = f"{a} is not None and {test}"
            lines += ["else:", f"    if {test}:", f"        raise _bad({at!r}, {spec.shown!r}, {a})"]
        else:
            reader = gen.value("r", _reader(spec))
            lines += [
                "else:",
                "    try:",
                f"        {a} = {reader}({a})",
                "    except _Bad as bad:",
                f"        bad.path.append({at!r})",
                "        raise",
            ]
        if direct:
            lines.append(f"new.{f.name} = {a}")
    if direct:
        return [*lines, "return new"]
    lines += [
        "try:",
        f"    return _C({', '.join(args)})",
        "except (TypeError, ValueError) as err:",
        f"    raise _Bad({cls.__name__ + ': '!r} + str(err)) from None",
    ]
    return lines


def _unknown(value: dict[Any, Any], names: frozenset[str], cls_name: str) -> None:
    extra = next(k for k in value if k not in names)
    raise _Bad(f"unknown field {_show(extra)} ({cls_name} has {', '.join(sorted(names)) or 'no fields'})")


def _reader(spec: _Spec, shown: str | None = None) -> Callable[[Any], Any]:
    """A function reading a plain value of type ``spec`` (raising ``_Bad``); ``shown`` names what is expected."""
    what = shown or spec.shown
    kind = spec.kind
    if kind in _LEAF_READERS:
        return _LEAF_READERS[kind](spec, what)
    if kind == "any":
        return _read_any
    if kind == "optional":
        inner = _reader(spec.args[0], what)

        def read_optional(v: Any) -> Any:
            return None if v is None else inner(v)

        return read_optional
    if kind in ("list", "vtuple", "set", "frozenset"):
        return _sequence_reader(spec, what)
    if kind == "tuple":
        return _tuple_reader(spec, what)
    if kind == "dict":
        return _dict_reader(spec, what)
    if kind == "union":
        return _union_reader(spec, what)
    assert kind == "record" and spec.cls is not None
    info = _INFO[spec.cls]
    assert info.read is not None
    return info.read


def _scalar_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    exact = spec.scalar

    def read_scalar(v: Any) -> Any:
        if type(v) is exact:
            return v
        raise _Bad(f"expected {what}, got {_show(v)}")

    return read_scalar


def _float_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    def read_float(v: Any) -> float:
        if type(v) is float:
            return v
        if type(v) is int:
            return float(v)
        raise _Bad(f"expected {what}, got {_show(v)}")

    return read_float


def _literal_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    allowed = frozenset((type(x), x) for x in spec.values)
    types_ = frozenset(type(x) for x in spec.values)

    def read_literal(v: Any) -> Any:
        if type(v) in types_ and (type(v), v) in allowed:
            return v
        raise _Bad(f"expected {what}, got {_show(v)}")

    return read_literal


def _hex_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    def read_hex(v: Any) -> Hex:
        if type(v) is str:
            try:
                return parse_hex(v)
            except ValueError:
                pass
        raise _Bad(f"expected {what}, got {_show(v)}")

    return read_hex


_LEAF_READERS: dict[str, Callable[[_Spec, str], Callable[[Any], Any]]] = {
    "scalar": _scalar_reader,
    "float": _float_reader,
    "literal": _literal_reader,
    "hex": _hex_reader,
}
"""Readers of the kinds that hold no other value."""


def _sequence_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    item_spec = spec.args[0]
    read_item = _reader(item_spec)
    leaf = frozenset({item_spec.scalar}) if item_spec.kind == "scalar" else None
    make: Callable[[list[Any]], Any] = {"list": list, "vtuple": tuple, "set": set, "frozenset": frozenset}[spec.kind]
    unique = spec.kind in ("set", "frozenset")

    def read_sequence(v: Any) -> Any:
        if type(v) is not list and type(v) is not tuple:
            raise _Bad(f"expected {what}, got {_show(v)}")
        if leaf is not None and leaf.issuperset(map(type, v)):
            items = list(v)
        else:
            items = []
            for i, x in enumerate(v):
                try:
                    items.append(read_item(x))
                except _Bad as bad:
                    bad.path.append(f"[{i}]")
                    raise
        out = make(items)
        if unique and len(out) != len(items):
            raise _Bad(f"{_show(_first_repeat(items))} appears twice in a set")
        return out

    return read_sequence


def _union_writer(spec: _Spec) -> Callable[[Any], dict[str, Any]]:
    """Writes a member of a tagged union with its ``kind`` first, even where it equals the field's default (it
    tells the member apart when the union is read back)."""
    writers = {a.cls: _WRITERS[a.cls] for a in spec.args if a.cls is not None}
    names = ", ".join(c.__name__ for c in writers)

    def write_union(v: Any) -> dict[str, Any]:
        write = writers.get(v.__class__)
        if write is None:
            raise TypeError(f"{v.__class__.__name__} is not one of {names}")
        return {"kind": v.kind, **write(v)}

    return write_union


def _union_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    readers: dict[Any, Callable[[Any], Any]] = {}
    for tag, cls in spec.values:
        read = _INFO[cls].read
        assert read is not None
        readers[tag] = read
    known = ", ".join(repr(t) for t in readers)

    def read_union(v: Any) -> Any:
        if not isinstance(v, dict):
            raise _Bad(f"expected {what}, got {_show(v)}")
        tag = v.get("kind")
        read = readers.get(tag) if type(tag) in (str, int, bool) else None
        if read is None:
            raise _Bad(f"expected a kind of {known}, got {_show(tag)}", ".kind")
        return read(v)

    return read_union


def _first_repeat(items: list[Any]) -> Any:
    seen: set[Any] = set()
    for x in items:
        if x in seen:
            return x
        seen.add(x)
    return None


def _tuple_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    readers = [_reader(a) for a in spec.args]
    n = len(readers)

    def read_tuple(v: Any) -> tuple[Any, ...]:
        if (type(v) is not list and type(v) is not tuple) or len(v) != n:
            raise _Bad(f"expected {what}, got {_show(v)}")
        out = []
        for i, (read, x) in enumerate(zip(readers, v, strict=True)):
            try:
                out.append(read(x))
            except _Bad as bad:
                bad.path.append(f"[{i}]")
                raise
        return tuple(out)

    return read_tuple


def _dict_reader(spec: _Spec, what: str) -> Callable[[Any], Any]:
    key_spec, value_spec = spec.args
    read_value = _reader(value_spec)
    key_kind = "hex" if key_spec is _HEX else "int" if key_spec.scalar is int else "str"
    leaf = frozenset({value_spec.scalar}) if value_spec.kind == "scalar" and key_kind == "str" else None
    strs = frozenset({str})

    def read_key(k: Any) -> Any:
        if key_kind == "str":
            if type(k) is str:
                return k
            raise _Bad(f"expected a str key, got {_show(k)}")
        if key_kind == "int":
            if type(k) is int:
                return k
            if type(k) is str and k.lstrip("-").isdigit() and str(int(k)) == k:
                return int(k)
            raise _Bad(f"expected an int key (decimal digits), got {_show(k)}")
        if type(k) is str:
            try:
                return parse_hex(k)
            except ValueError:
                pass
        raise _Bad(f"expected a hex label as key, got {_show(k)}")

    def read_dict(v: Any) -> dict[Any, Any]:
        if not isinstance(v, dict):
            raise _Bad(f"expected {what}, got {_show(v)}")
        if leaf is not None and strs.issuperset(map(type, v)) and leaf.issuperset(map(type, v.values())):
            return dict(v)
        out: dict[Any, Any] = {}
        for k, x in v.items():
            try:
                key = read_key(k)
                if key in out:
                    raise _Bad(f"the key {_show(k)} names the same key as an earlier one")
                out[key] = read_value(x)
            except _Bad as bad:
                bad.path.append(f"[{_show(k)}]")
                raise
        return out

    return read_dict


def _read_any(v: Any, depth: int = 0) -> Any:
    """Plain data checked and copied (at most :data:`ANY_DEPTH` levels deep)."""
    t = type(v)
    if t is str or t is int or t is float or t is bool or v is None:
        return v
    if depth >= ANY_DEPTH and (t is list or t is tuple or t is dict):
        raise _Bad(f"plain data nested deeper than {ANY_DEPTH} levels")
    if t is list or t is tuple:
        out = []
        for i, x in enumerate(v):
            try:
                out.append(_read_any(x, depth + 1))
            except _Bad as bad:
                bad.path.append(f"[{i}]")
                raise
        return out
    if t is dict:
        copied: dict[Any, Any] = {}
        for k, x in v.items():
            try:
                if type(k) is not str and type(k) is not int:
                    raise _Bad(f"expected a str or int key, got {_show(k)}")
                copied[k] = _read_any(x, depth + 1)
            except _Bad as bad:
                bad.path.append(f"[{_show(k)}]")
                raise
        return copied
    raise _Bad(f"expected plain data (a dict, list, str, int, float, bool or None), got {_show(v)}")
