"""Tests engine.typed: records, their plain form, strict reading with paths, clones, and records inside a GameState."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, Literal

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import GameState, Hex, Ruleset, Unit
from engine.errors import StateError
from engine.hexgrid import offset_to_hex
from engine.typed import (
    ANY_DEPTH,
    clone,
    cloner,
    field,
    field_values,
    from_plain,
    record,
    state_of,
    status_of,
    to_plain,
)
from tests.minirules import MiniData, MiniStatus, Reaction
from tests.saves.helpers import play_random

# --- Records used throughout -----------------------------------------------------------------------------------


@record
class Leaf:
    label: str
    n: int = 0
    tags: set[str] = field(default_factory=set)


@record
class Everything:
    """One field of every supported kind."""

    i: int
    hexes: list[Hex]
    f: float = 0.0
    s: str = ""
    b: bool = False
    nothing: None = None
    opt: int | None = None
    kind: Literal["open", "closed", 3] = "open"
    ints: list[int] = field(default_factory=list)
    grid: list[list[int]] = field(default_factory=list)
    path: tuple[Hex, ...] = ()
    pair: tuple[str, list[int]] = field(default_factory=lambda: ("", []))
    seen: set[Hex] = field(default_factory=set)
    frozen: frozenset[str] = frozenset()
    by_name: dict[str, Leaf] = field(default_factory=dict)
    by_int: dict[int, list[str]] = field(default_factory=dict)
    by_hex: dict[Hex, Hex | None] = field(default_factory=dict)
    leaf: Leaf | None = None
    leaves: list[Leaf] = field(default_factory=list)
    extra: Any = None


@record
class Flags:
    hidden: bool = False
    moving: bool = False
    ammo: int | None = None


@record(omit_defaults=False)
class Full:
    a: int = 0
    b: list[str] = field(default_factory=list)


@record
class Deep:
    grid: list[list[int]] = field(default_factory=list)
    extra: Any = None
    table: dict[str, Any] = field(default_factory=dict)


# --- Strategies ---------------------------------------------------------------------------------------------------

hexes = st.builds(offset_to_hex, st.integers(1, 120), st.integers(1, 120))
words = st.text(max_size=6)
ints = st.integers(-(2**63), 2**63 - 1)
plain = st.recursive(
    st.none() | st.booleans() | ints | st.floats(allow_nan=False) | words,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(words, inner, max_size=3),
    max_leaves=8,
)
leaves = st.builds(Leaf, words, ints, st.sets(words, max_size=3))
everything = st.builds(
    Everything,
    i=ints,
    hexes=st.lists(hexes, max_size=3),
    f=st.floats(allow_nan=False),
    s=words,
    b=st.booleans(),
    opt=st.none() | ints,
    kind=st.sampled_from(["open", "closed", 3]),
    ints=st.lists(ints, max_size=3),
    grid=st.lists(st.lists(ints, max_size=3), max_size=3),
    path=st.lists(hexes, max_size=3).map(tuple),
    pair=st.tuples(words, st.lists(ints, max_size=3)),
    seen=st.sets(hexes, max_size=3),
    frozen=st.frozensets(words, max_size=3),
    by_name=st.dictionaries(words, leaves, max_size=3),
    by_int=st.dictionaries(ints, st.lists(words, max_size=2), max_size=3),
    by_hex=st.dictionaries(hexes, st.none() | hexes, max_size=3),
    leaf=st.none() | leaves,
    leaves=st.lists(leaves, max_size=3),
    extra=plain,
)


def through_msgpack(value: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False, strict_map_key=False)


def plain_only(value: Any) -> bool:
    """True if ``value`` is plain data: dicts with str keys, lists and scalars (no tuple, set, Hex or record)."""
    if isinstance(value, dict):
        return all(type(k) is str and plain_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_only(v) for v in value)
    return type(value) in (str, int, float, bool, type(None))


def mutable_parts(value: Any) -> list[Any]:
    """Every list, dict, set and record inside ``value`` (``value`` included), depth first."""
    out: list[Any] = []
    if isinstance(value, (list, dict, set)) or dataclasses.is_dataclass(value):
        out.append(value)
    if isinstance(value, dict):
        for k, v in value.items():
            out += mutable_parts(k) + mutable_parts(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            out += mutable_parts(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            out += mutable_parts(getattr(value, f.name))
    return out


def scribble(value: Any) -> None:
    """Change every list, dict, set and record inside ``value``."""
    for part in mutable_parts(value):
        if isinstance(part, list):
            part.append("scribble")
        elif isinstance(part, dict):
            part["scribble"] = "scribble"
        elif isinstance(part, set):
            part.add("scribble")
        else:
            setattr(part, dataclasses.fields(part)[0].name, "scribble")


# --- Round trips --------------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(everything)
def test_round_trip_through_msgpack(value: Everything) -> None:
    plain_form = to_plain(value)
    assert plain_only(plain_form)
    back = from_plain(Everything, through_msgpack(plain_form))
    assert back == value
    assert to_plain(back) == plain_form


@settings(max_examples=100, deadline=None)
@given(everything)
def test_to_plain_and_from_plain_share_no_container(value: Everything) -> None:
    before = to_plain(value)
    plain_form = to_plain(value)
    scribble(plain_form)
    assert to_plain(value) == before
    back = from_plain(Everything, before)
    scribble(before)
    assert to_plain(back) == to_plain(value)


def test_plain_form_of_each_kind() -> None:
    h1, h2, h3 = Hex(3, 1), Hex(0, 0), Hex(1, 0)
    value = Everything(
        i=1,
        hexes=[h1],
        f=2.5,
        opt=4,
        kind=3,
        path=(h1, h2),
        pair=("x", [1]),
        seen={h3, h1, h2},
        frozen=frozenset({"b", "a"}),
        by_name={"z": Leaf("a", tags={"q", "p"})},
        by_int={10: ["x"], -2: []},
        by_hex={h1: None, h2: h3},
        leaf=Leaf("l", 2),
        extra={"k": [1, {"m": None}]},
    )
    assert to_plain(value) == {
        "i": 1,
        "hexes": ["0403"],
        "f": 2.5,
        "opt": 4,
        "kind": 3,
        "path": ["0403", "0101"],
        "pair": ["x", [1]],
        "seen": ["0101", "0201", "0403"],
        "frozen": ["a", "b"],
        "by_name": {"z": {"label": "a", "tags": ["p", "q"]}},
        "by_int": {"10": ["x"], "-2": []},
        "by_hex": {"0403": None, "0101": "0201"},
        "leaf": {"label": "l", "n": 2},
        "extra": {"k": [1, {"m": None}]},
    }


def test_sets_are_written_sorted() -> None:
    labels = ["1204", "0101", "0309", "0302"]
    value = Everything(0, [], seen={engine.parse_hex(lab) for lab in labels}, frozen=frozenset({"b", "c", "a"}))
    written = to_plain(value)
    assert written["seen"] == sorted(labels) and written["frozen"] == ["a", "b", "c"]


def test_hex_keys_and_values_use_labels_and_come_back_as_hexes() -> None:
    wide = offset_to_hex(105, 3)
    value = Everything(0, [wide], by_hex={wide: Hex(2, 2), Hex(0, 0): None})
    written = to_plain(value)
    assert written["hexes"] == ["105003"] and written["by_hex"] == {"105003": "0304", "0101": None}
    back = from_plain(Everything, written)
    assert back.by_hex == {wide: Hex(2, 2), Hex(0, 0): None}
    assert all(type(k) is Hex for k in back.by_hex) and type(back.hexes[0]) is Hex


def test_literal_values_are_checked_by_type_and_value() -> None:
    assert from_plain(Everything, {"i": 0, "hexes": [], "kind": "closed"}).kind == "closed"
    assert from_plain(Everything, {"i": 0, "hexes": [], "kind": 3}).kind == 3
    for bad in ("shut", 4, True, 3.0, None):
        with pytest.raises(StateError, match=r"^data\.kind: expected one of 'open', 'closed', 3, got "):
            from_plain(Everything, {"i": 0, "hexes": [], "kind": bad})


def test_float_fields_read_ints_as_floats() -> None:
    value = from_plain(Everything, {"i": 0, "hexes": [], "f": 3})
    assert value.f == 3.0 and type(value.f) is float


# --- Defaults -----------------------------------------------------------------------------------------------------


def test_fields_equal_to_their_defaults_are_omitted() -> None:
    assert to_plain(Flags()) == {}
    assert to_plain(Flags(hidden=True)) == {"hidden": True}
    assert to_plain(Flags(ammo=0)) == {"ammo": 0}
    assert to_plain(Leaf("x", tags=set())) == {"label": "x"}  # a required field is always written
    assert to_plain(Everything(0, [])) == {"i": 0, "hexes": []}
    assert to_plain(Everything(0, [], pair=("", [1]))) == {"i": 0, "hexes": [], "pair": ["", [1]]}


def test_omit_defaults_false_writes_every_field() -> None:
    assert to_plain(Full()) == {"a": 0, "b": []}


def test_missing_fields_take_their_defaults_and_a_factory_gives_a_new_value() -> None:
    a, b = from_plain(Everything, {"i": 1, "hexes": []}), from_plain(Everything, {"i": 1, "hexes": []})
    assert a == Everything(1, [])
    assert a.ints is not b.ints and a.by_name is not b.by_name
    assert from_plain(Flags, {}) == Flags()


# --- Strict reading ------------------------------------------------------------------------------------------------

B: dict[str, Any] = {"i": 1, "hexes": []}
"""The required fields of Everything."""


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"hexes": []}, "data: missing field 'i'"),
        ({**B, "j": 2}, "data: unknown field 'j' (Everything has b, by_hex, by_int, "),
        ({"i": "x", "hexes": []}, "data.i: expected int, got 'x'"),
        ({"i": True, "hexes": []}, "data.i: expected int, got True"),
        ({"i": 1.0, "hexes": []}, "data.i: expected int, got 1.0"),
        ({**B, "b": 1}, "data.b: expected bool, got 1"),
        ({**B, "f": "1"}, "data.f: expected float, got '1'"),
        ({**B, "opt": "1"}, "data.opt: expected int or None, got '1'"),
        ({**B, "nothing": 0}, "data.nothing: expected None, got 0"),
        ({"i": 1, "hexes": ["0101", "99x"]}, "data.hexes[1]: expected a hex label, got '99x'"),
        ({"i": 1, "hexes": [Hex(0, 0)]}, "data.hexes[0]: expected a hex label, got Hex(0, 0)"),
        ({"i": 1, "hexes": "0101"}, "data.hexes: expected a list, got '0101'"),
        ({**B, "grid": [[1], [2, "3"]]}, "data.grid[1][1]: expected int, got '3'"),
        ({**B, "pair": ["a"]}, "data.pair: expected a list of 2, got ['a']"),
        ({**B, "pair": ["a", [None]]}, "data.pair[1][0]: expected int, got None"),
        ({**B, "seen": ["0101", "0101"]}, "data.seen: Hex(0, 0) appears twice in a set"),
        (
            {**B, "by_name": {"f1": {"label": "x", "n": "x"}}},
            "data.by_name['f1'].n: expected int, got 'x'",
        ),
        ({**B, "by_name": {"f1": {"n": 1}}}, "data.by_name['f1']: missing field 'label'"),
        ({**B, "by_name": {"f1": ["x"]}}, "data.by_name['f1']: expected a dict (Leaf), got ['x']"),
        (
            {**B, "by_name": {"f1": {"label": "x", "tags": ["a", 1]}}},
            "data.by_name['f1'].tags[1]: expected str, got 1",
        ),
        ({**B, "by_name": {1: {"label": "x"}}}, "data.by_name[1]: expected a str key, got 1"),
        (
            {**B, "by_int": {"01": []}},
            "data.by_int['01']: expected an int key (decimal digits), got '01'",
        ),
        ({**B, "by_int": {"x": []}}, "data.by_int['x']: expected an int key (decimal digits), got 'x'"),
        (
            {**B, "by_hex": {"0000": None}},
            "data.by_hex['0000']: expected a hex label as key, got '0000'",
        ),
        (
            {**B, "by_hex": {"0101": None, "001001": None}},
            "data.by_hex['001001']: the key '001001' names the same key",
        ),
        ({**B, "by_hex": {"0101": "x"}}, "data.by_hex['0101']: expected a hex label or None, got 'x'"),
        ({**B, "leaf": {"label": 2}}, "data.leaf.label: expected str, got 2"),
        ({**B, "leaves": [{"label": "a"}, 3]}, "data.leaves[1]: expected a dict (Leaf), got 3"),
        (
            {**B, "extra": {"a": [1, {2.5}]}},
            "data.extra['a'][1]: expected plain data (a dict, list, str, int, ",
        ),
        ({**B, "extra": {(1, 2): 3}}, "data.extra[(1, 2)]: expected a str or int key, got (1, 2)"),
        ([1], "data: expected a dict (Everything), got [1]"),
    ],
)
def test_bad_values_raise_state_error_naming_the_path(value: Any, message: str) -> None:
    with pytest.raises(StateError) as info:
        from_plain(Everything, value)
    assert str(info.value).startswith(message), str(info.value)
    assert isinstance(info.value, ValueError)


def test_where_names_the_start_of_the_path() -> None:
    with pytest.raises(StateError, match=r"^units\['red-1'\]\.status\.hidden: expected bool, got 1$"):
        from_plain(Flags, {"hidden": 1}, where="units['red-1'].status")


def test_int_keys_round_trip_as_decimal_strings() -> None:
    value = Everything(0, [], by_int={-3: ["a"], 0: [], 12: ["b"]})
    written = to_plain(value)
    assert written["by_int"] == {"-3": ["a"], "0": [], "12": ["b"]}
    assert from_plain(Everything, written).by_int == {-3: ["a"], 0: [], 12: ["b"]}


def test_a_post_init_check_becomes_a_state_error() -> None:
    @record
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError(f"n must be positive, got {self.n}")

    assert from_plain(Positive, {"n": 2}) == Positive(2)
    with pytest.raises(StateError, match=r"^data: Positive: n must be positive, got 0$"):
        from_plain(Positive, {"n": 0})


# --- Hostile values --------------------------------------------------------------------------------------------------


def nested_lists(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def nested_dicts(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"grid": nested_lists(1000)}, "data.grid[0][0]: expected int, got [[[[["),
        ({"extra": nested_lists(1000)}, "data.extra" + "[0]" * ANY_DEPTH + ": plain data nested deeper than"),
        ({"table": {"k": nested_dicts(1000)}}, "data.table['k']" + "['a']" * ANY_DEPTH + ": plain data nested"),
        ({"grid": [[1]], "extra": nested_dicts(5000)}, "data.extra" + "['a']" * ANY_DEPTH + ": plain data nested"),
    ],
)
def test_deep_nesting_gives_a_state_error_not_a_recursion_error(value: Any, path: str) -> None:
    with pytest.raises(StateError) as info:
        from_plain(Deep, value)
    assert str(info.value).startswith(path)


def test_plain_data_as_deep_as_allowed_is_read() -> None:
    value = from_plain(Deep, {"extra": nested_lists(ANY_DEPTH), "table": {"k": nested_dicts(ANY_DEPTH)}})
    assert value.extra == nested_lists(ANY_DEPTH) and value.table == {"k": nested_dicts(ANY_DEPTH)}


def test_a_hostile_record_nesting_is_refused_at_the_first_wrong_level() -> None:
    hostile: Any = {"label": "x"}
    for _ in range(1000):
        hostile = {"label": "x", "tags": [hostile]}
    with pytest.raises(StateError, match=r"^data\.leaf\.tags\[0\]: expected str, got \{"):
        from_plain(Everything, {"i": 1, "hexes": [], "leaf": hostile})


# --- Clones --------------------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(everything)
def test_clone_is_equal_and_shares_no_mutable_part(value: Everything) -> None:
    copy = clone(value)
    assert copy == value and copy is not value
    shared = {id(p) for p in mutable_parts(value)} & {id(p) for p in mutable_parts(copy)}
    assert not shared


@settings(max_examples=100, deadline=None)
@given(everything)
def test_changing_a_clone_at_every_depth_leaves_the_original_alone(value: Everything) -> None:
    before = to_plain(value)
    copy = clone(value)
    scribble(copy)
    assert to_plain(value) == before
    assert copy != value


def test_clone_shares_immutable_values() -> None:
    value = Everything(
        1, [Hex(1, 1)], s="name", path=(Hex(0, 0),), frozen=frozenset({"a"}), pair=("p", [1]), extra=("t", 1)
    )
    copy = clone(value)
    assert copy.s is value.s and copy.path is value.path and copy.frozen is value.frozen
    assert copy.hexes[0] is value.hexes[0] and copy.pair[0] is value.pair[0]
    assert copy.pair[1] is not value.pair[1] and copy.hexes is not value.hexes
    assert copy.extra is value.extra  # copy_plain shares a tuple


def test_clone_of_plain_data_in_an_any_field_copies_it_like_copy_plain() -> None:
    value = Deep(extra={"a": [1, [2]]}, table={"b": {"c": []}})
    copy = clone(value)
    copy.extra["a"][1].append(3)
    copy.table["b"]["c"].append(4)
    assert value == Deep(extra={"a": [1, [2]]}, table={"b": {"c": []}})


@record
class Scenario:
    turn: int
    tables: dict[str, Any] = field(metadata={"shared": True})
    cup: list[str] = field(default_factory=list)


def test_a_shared_field_is_shared_by_clones_and_written_as_any_other() -> None:
    value = Scenario(1, {"special": {"min_column": 1}}, ["a"])
    copy = clone(value)
    assert copy == value and copy.tables is value.tables and copy.cup is not value.cup
    assert from_plain(Scenario, to_plain(value)) == value
    assert from_plain(Scenario, to_plain(value)).tables is not value.tables


def test_cloner_is_the_function_clone_calls() -> None:
    value = Deep(extra={"a": [1]}, table={})
    copy = cloner(Deep)(value)
    assert copy == value and copy.extra is not value.extra
    with pytest.raises(TypeError, match="not a record class"):
        cloner(dict)


# --- Class definitions -------------------------------------------------------------------------------------------


class NotARecord:
    pass


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        ("list", "needs its item types"),
        ("dict[str, list]", "needs its item types"),
        ("int | str", "a union is X | None, or of record classes with a kind: Literal[...] field"),
        ("Leaf | None | int", "a union is X | None, or of record classes"),
        ("dict[float, int]", "the keys of a dict must be str, int or Hex"),
        ("dict[tuple[int, int], int]", "the keys of a dict must be str, int or Hex"),
        ("set[list[int]]", "the items of a set must be"),
        ("set[Literal['a', 1]]", "the items of a set must be"),
        ("Literal[1.5]", "Literal values must be strs, ints, bools or None"),
        ("NotARecord", "is not a supported record field type"),
        ("bytes", "is not a supported record field type"),
        ("tuple[()]", "is not a supported record field type"),
    ],
)
def test_unsupported_annotations_are_refused_when_the_class_is_defined(annotation: str, message: str) -> None:
    namespace: dict[str, Any] = {}
    source = f"@record\nclass Bad:\n    x: {annotation}\n"
    with pytest.raises(TypeError, match=r"^Bad\.x: ") as info:
        exec(source, {**globals(), "__name__": __name__}, namespace)
    assert message in str(info.value)


def test_a_record_cannot_contain_its_own_class() -> None:
    with pytest.raises(TypeError, match=r"Node\.children: a record cannot contain its own class \(Node → Node\)"):

        @record
        class Node:
            children: list[Node]


@record
class Early:
    later: list[Later]


@record
class Later:
    n: int = 0


def test_a_forward_reference_is_resolved_at_first_use() -> None:
    assert to_plain(Early([Later(1), Later()])) == {"later": [{"n": 1}, {}]}
    assert from_plain(Early, {"later": [{}]}) == Early([Later()])


def test_a_name_that_never_resolves_fails_at_first_use() -> None:
    @record
    class Dangling:
        x: Missing  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(TypeError, match="Dangling: an annotation cannot be resolved"):
        to_plain(Dangling(1))


# --- Tagged unions and field keys --------------------------------------------------------------------------------


@record
class Deploy:
    kind: Literal["deploy"]
    side: str
    todo: list[str] = field(default_factory=list)


@record
class Window:
    kind: Literal["window", "lazy_window"]
    side: str
    hexes: set[Hex] = field(default_factory=set)


@record
class Stack:
    frames: list[Deploy | Window] = field(default_factory=list)
    top: Deploy | Window | None = None


def test_a_tagged_union_is_read_back_by_its_kind() -> None:
    stack = Stack([Deploy("deploy", "german", ["ger-1"]), Window("lazy_window", "french", {Hex(1, 1)})])
    stack.top = stack.frames[1]
    plain = to_plain(stack)
    assert plain["frames"] == [
        {"kind": "deploy", "side": "german", "todo": ["ger-1"]},
        {"kind": "lazy_window", "side": "french", "hexes": ["0202"]},
    ]
    back = from_plain(Stack, msgpack.unpackb(msgpack.packb(plain)))
    assert back == stack and type(back.frames[0]) is Deploy and type(back.top) is Window
    assert from_plain(Stack, {"top": None}) == Stack()


def test_a_clone_of_a_union_keeps_each_class_and_shares_nothing_mutable() -> None:
    stack = Stack([Deploy("deploy", "german", ["ger-1"]), Window("window", "french", {Hex(1, 1)})])
    copy = clone(stack)
    assert copy == stack and [type(x) for x in copy.frames] == [Deploy, Window]
    assert copy.frames[0] is not stack.frames[0]
    copy.frames[0].todo.append("ger-2")  # type: ignore[union-attr]
    assert stack.frames[0].todo == ["ger-1"]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"frames": [{"kind": "chit", "side": "x"}]}, r"data\.frames\[0\]\.kind: expected a kind of 'deploy', "),
        ({"frames": [{"side": "x"}]}, r"data\.frames\[0\]\.kind: expected a kind of .*got None"),
        ({"frames": [["deploy"]]}, r"data\.frames\[0\]: expected a dict \(Deploy or Window\)"),
        ({"top": {"kind": "window", "side": 3}}, r"data\.top\.side: expected str, got 3"),
    ],
)
def test_a_union_value_that_fits_no_member_names_the_path(value: Any, message: str) -> None:
    with pytest.raises(StateError, match=message):
        from_plain(Stack, value)


def test_a_union_member_needs_a_kind_literal_and_kinds_must_differ() -> None:
    with pytest.raises(TypeError, match=r"Bad\.x: Leaf has no kind: Literal\[\.\.\.\] field"):

        @record
        class Bad:
            x: Deploy | Leaf

    @record
    class Other:
        kind: Literal["deploy"]

    with pytest.raises(TypeError, match=r"Clash\.x: kind 'deploy' names both Deploy and Other"):

        @record
        class Clash:
            x: Deploy | Other


@record
class Moving:
    action: str
    origin: str | None = field(default=None, metadata={"key": "from"})


def test_a_field_may_be_written_under_another_key() -> None:
    assert to_plain(Moving("move", "0101")) == {"action": "move", "from": "0101"}
    assert to_plain(Moving("fm")) == {"action": "fm"}
    assert from_plain(Moving, {"action": "move", "from": "0101"}) == Moving("move", "0101")
    with pytest.raises(StateError, match="unknown field 'origin'"):
        from_plain(Moving, {"action": "move", "origin": "0101"})
    assert field_values(Moving("move", "0101")) == {"action": "move", "origin": "0101"}


def test_record_refuses_a_dataclass_and_codec_refuses_non_records() -> None:
    with pytest.raises(TypeError, match="use @record instead of @dataclass"):

        @record
        @dataclasses.dataclass
        class Twice:
            x: int

    for call in (lambda: to_plain({"a": 1}), lambda: clone([1]), lambda: from_plain(NotARecord, {})):
        with pytest.raises(TypeError, match="is not a record class"):
            call()


def test_records_have_slots_and_dataclass_equality() -> None:
    leaf = Leaf("a")
    with pytest.raises(AttributeError):
        leaf.lable = "b"  # type: ignore[attr-defined]
    assert Leaf("a", 1, {"x"}) == Leaf("a", 1, {"x"}) and Leaf("a") != Leaf("b") and Leaf("a") != Flags()


# --- Typed accessors -------------------------------------------------------------------------------------------------


def test_state_of_and_status_of_check_the_class(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=1)
    st = game.state
    assert state_of(st, MiniData) is st.data
    unit = st.units["red-sniper"]
    assert status_of(unit, MiniStatus) is unit.status and status_of(unit, MiniStatus).hidden
    with pytest.raises(TypeError, match="the state's data is a MiniData, not a Leaf"):
        state_of(st, Leaf)
    with pytest.raises(TypeError, match="the status of red-sniper is a MiniStatus, not a Flags"):
        status_of(unit, Flags)
    plain = GameState("r", "s", ("a",), st.board, data={"x": 1})
    with pytest.raises(TypeError, match="the state's data is a dict, not a MiniData"):
        state_of(plain, MiniData)


def test_field_values_reads_a_record_or_a_dict_by_name() -> None:
    assert field_values(Flags(hidden=True)) == {"hidden": True, "moving": False, "ammo": None}
    flags = {"moving": True}
    assert field_values(flags) is flags
    with pytest.raises(TypeError, match="is not a record class"):
        field_values([1])


# --- Records inside a GameState ------------------------------------------------------------------------------------


@record
class TinyData:
    turns: int
    cup: list[str] = field(default_factory=list)
    held: dict[Hex, str] = field(default_factory=dict)
    leaf: Leaf | None = None


class TinyRules(Ruleset):
    id = "tiny-typed"
    state_type: ClassVar[type[TinyData]] = TinyData
    status_type: ClassVar[type[Flags]] = Flags


@pytest.fixture
def tiny(duel: engine.Scenario) -> GameState:
    board = engine.new_game(duel, seed=1).board
    units = {
        "a-1": Unit("a-1", "inf", "a", Hex(1, 1), 2, None, Flags(hidden=True, ammo=3)),
        "b-1": Unit("b-1", "inf", "b", Hex(2, 2), 1, None, Flags()),
    }
    data = TinyData(4, ["x", "y"], {Hex(1, 1): "a"}, Leaf("l", tags={"t"}))
    return GameState("tiny-typed", "t", ("a", "b"), board, units, data=data)


def test_a_state_with_records_goes_through_to_dict_and_from_dict(tiny: GameState) -> None:
    d = tiny.to_dict()
    assert d["data"] == {"turns": 4, "cup": ["x", "y"], "held": {"0202": "a"}, "leaf": {"label": "l", "tags": ["t"]}}
    assert d["units"]["a-1"]["status"] == {"hidden": True, "ammo": 3} and d["units"]["b-1"]["status"] == {}
    back = GameState.from_dict(through_msgpack(d), tiny.board, data_type=TinyData, status_type=Flags)
    assert back == tiny and back.to_dict() == d
    assert isinstance(back.data, TinyData) and isinstance(back.units["b-1"].status, Flags)
    plain = GameState.from_dict(through_msgpack(d), tiny.board)
    assert plain.data == d["data"] and plain != tiny


def test_from_dict_names_the_path_of_a_bad_status_or_data(tiny: GameState) -> None:
    d = tiny.to_dict()
    d["units"]["b-1"]["status"] = {"hidden": 1}
    with pytest.raises(StateError, match=r"^units\['b-1'\]\.status\.hidden: expected bool, got 1$"):
        GameState.from_dict(d, tiny.board, data_type=TinyData, status_type=Flags)
    d = tiny.to_dict()
    d["data"]["held"] = {"0202": 5}
    with pytest.raises(StateError, match=r"^data\.held\['0202'\]: expected str, got 5$"):
        GameState.from_dict(d, tiny.board, data_type=TinyData, status_type=Flags)


def test_state_and_unit_clones_copy_records(tiny: GameState) -> None:
    before = tiny.to_dict()
    copy = tiny.clone()
    assert copy == tiny
    copy.data.cup.append("z")
    copy.data.held[Hex(0, 0)] = "b"
    assert copy.data.leaf is not None
    copy.data.leaf.tags.add("u")
    copy.units["a-1"].status.hidden = False
    unit = tiny.units["b-1"].clone()
    unit.status.moving = True
    assert tiny.to_dict() == before


def test_the_default_view_clones_records(tiny: GameState) -> None:
    before = tiny.to_dict()
    view = TinyRules().view(tiny, "a")
    assert view.viewer == "a" and view.data == tiny.data and view.data is not tiny.data
    view.data.cup.clear()
    view.units["a-1"].status.ammo = 0
    assert tiny.to_dict() == before


# --- The worked example: minirules ------------------------------------------------------------------------------


def test_minirules_keeps_the_snapshot_shape_of_its_plain_dicts(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=1)
    d = game.state.to_dict()
    assert d["data"] == {"acted": [], "ended": [], "reaction": None, "objective": "0403", "turns": 4}
    assert {uid: u["status"] for uid, u in d["units"].items() if u["status"]} == {"red-sniper": {"hidden": True}}
    game.apply("move red-tank-1 0204 0305 0405 0506")
    game.apply("end")
    game.apply("move blue-inf-2 0706 0606")
    d = game.state.to_dict()
    assert d["data"]["reaction"] == {"mover": "blue-inf-2", "candidates": ["red-tank-1"]}
    assert d["data"]["resume"] == "blue" and game.to_act == "red"
    assert game.state.data.reaction == Reaction("blue-inf-2", ["red-tank-1"])


def test_minirules_games_restore_with_records(duel: engine.Scenario) -> None:
    for seed in range(6):
        game = play_random(engine.new_game(duel, seed=seed), seed, random.Random(seed).randint(0, 30))
        snapshot = through_msgpack(game.state.to_dict())
        restored = engine.Game.restore(duel, seed, game.history, snapshot)
        assert restored.state == game.state and isinstance(restored.state.data, MiniData)
        play_random(restored, 99, 10)
        assert to_plain(game.state.data) == snapshot["data"]  # the restored game changed nothing of the original


def test_restore_refuses_a_state_object_without_the_ruleset_records(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=1)
    plain = GameState.from_dict(game.state.to_dict(), game.board)
    with pytest.raises(ValueError, match="the state's data is a dict, minirules keeps a MiniData"):
        engine.Game.restore(duel, 1, [], plain)
    plain = GameState.from_dict(game.state.to_dict(), game.board, data_type=MiniData)
    with pytest.raises(ValueError, match="the status of blue-inf-1 is a dict, minirules keeps a MiniStatus"):
        engine.Game.restore(duel, 1, [], plain)
    d = game.state.to_dict()
    d["data"]["turns"] = "4"
    with pytest.raises(StateError, match=r"^data\.turns: expected int, got '4'$"):
        engine.Game.restore(duel, 1, [], d)


# --- Tagged unions ---------------------------------------------------------------------------------------------


@record
class Walk:
    to: Hex
    steps: list[int] = dataclasses.field(default_factory=list)
    kind: Literal["walk"] = "walk"


@record
class Shoot:
    at: str
    kind: Literal["shoot"] = "shoot"


@record
class Plan:
    steps: list[Walk | Shoot] = dataclasses.field(default_factory=list)
    now: Walk | Shoot | None = None
    by_unit: dict[str, Walk | Shoot] = dataclasses.field(default_factory=dict)


def test_a_union_member_is_written_with_its_kind_first_and_read_by_it() -> None:
    plan = Plan([Walk(Hex(0, 0)), Shoot("red-1")], Shoot("red-2"), {"blue-1": Walk(Hex(1, 0), [1])})
    plain = to_plain(plan)
    assert plain["steps"] == [{"kind": "walk", "to": "0101"}, {"kind": "shoot", "at": "red-1"}]
    assert list(plain["steps"][1]) == ["kind", "at"], "the kind first, though it equals its default"
    assert plain["now"] == {"kind": "shoot", "at": "red-2"}
    assert from_plain(Plan, plain) == plan
    assert from_plain(Plan, msgpack.unpackb(msgpack.packb(plain))) == plan
    assert from_plain(Plan, {"now": None}) == Plan()


def test_a_union_clone_copies_each_member_with_its_own_class() -> None:
    plan = Plan([Walk(Hex(0, 0), [1, 2])], Walk(Hex(2, 0)))
    copy = clone(plan)
    assert copy == plan and type(copy.steps[0]) is Walk
    step = copy.steps[0]
    assert isinstance(step, Walk)
    step.steps.append(3)
    assert plan.steps[0] == Walk(Hex(0, 0), [1, 2]), "nothing of a member is shared"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            {"steps": [{"kind": "fly", "to": "0101"}]},
            "data.steps[0].kind: expected a kind of 'walk', 'shoot', got 'fly'",
        ),
        ({"steps": [{"to": "0101"}]}, "data.steps[0].kind: expected a kind of 'walk', 'shoot', got None"),
        ({"steps": ["walk"]}, "data.steps[0]: expected a dict (Walk or Shoot), got 'walk'"),
        ({"now": {"kind": "shoot", "at": 3}}, "data.now.at: expected str, got 3"),
        ({"by_unit": {"b": {"kind": "walk"}}}, "data.by_unit['b']: missing field 'to'"),
    ],
)
def test_a_bad_union_member_raises_state_error_naming_the_path(value: Any, message: str) -> None:
    with pytest.raises(StateError) as info:
        from_plain(Plan, value)
    assert str(info.value) == message


def test_writing_a_class_outside_the_union_is_refused() -> None:
    with pytest.raises(TypeError, match="Untagged is not one of Walk, Shoot"):
        to_plain(Plan([Untagged(1)]))  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ("Walk | int", "a union is X | None, or of record classes with a kind: Literal[...] field"),
        ("Walk | Untagged", "Untagged has no kind: Literal[...] field to tell it apart in a union"),
        ("Walk | Walk2", "kind 'walk' names both Walk and Walk2"),
    ],
)
def test_a_union_needs_records_with_their_own_kinds(members: str, message: str) -> None:
    namespace: dict[str, Any] = {}
    source = f"@record\nclass Bad:\n    x: {members}\n"
    with pytest.raises(TypeError, match=r"^Bad\.x: ") as info:
        exec(source, {**globals(), "__name__": __name__}, namespace)
    assert message in str(info.value)


@record
class Untagged:
    n: int = 0


@record
class Walk2:
    kind: Literal["walk"] = "walk"


# --- Frozen records


@record(frozen=True)
class Note:
    text: str
    at: Hex | None = None
    path: tuple[Hex, ...] = ()


@record
class Sheet:
    notes: dict[str, Note] = field(default_factory=dict)
    last: Note | None = None


def test_a_frozen_record_is_shared_by_clones_and_read_back_equal() -> None:
    note = Note("hold", Hex(1, 0), (Hex(1, 1),))
    sheet = Sheet({"a": note}, note)
    copy = clone(sheet)
    assert copy == sheet and copy.notes is not sheet.notes
    assert copy.notes["a"] is note and copy.last is note and clone(note) is note
    assert to_plain(sheet) == {"notes": {"a": {"text": "hold", "at": "0201", "path": ["0202"]}}, "last": to_plain(note)}
    assert from_plain(Sheet, msgpack.unpackb(msgpack.packb(to_plain(sheet)))) == sheet
    with pytest.raises(dataclasses.FrozenInstanceError):
        note.text = "fire"  # type: ignore[misc]
    assert dataclasses.replace(note, text="fire") == Note("fire", Hex(1, 0), (Hex(1, 1),))


def test_a_frozen_record_is_read_strictly() -> None:
    with pytest.raises(StateError, match=r"^data\.last\.path: expected a list"):
        from_plain(Sheet, {"last": {"text": "x", "path": "0101"}})
    with pytest.raises(StateError, match=r"^data\.notes\['a'\]: missing field 'text'"):
        from_plain(Sheet, {"notes": {"a": {}}})


def test_a_frozen_record_with_a_mutable_field_is_refused() -> None:
    namespace: dict[str, Any] = {}
    source = "@record(frozen=True)\nclass Bad:\n    xs: list[int] = field(default_factory=list)\n"
    with pytest.raises(TypeError, match=r"^Bad\.xs: a frozen record's fields must be immutable"):
        exec(source, {**globals(), "__name__": __name__}, namespace)
