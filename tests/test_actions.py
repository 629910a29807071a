"""Notation text (engine.actions): read in one pass with the same words as ``shlex.split``, the exact inverse of
``Action.__str__``, and bounded (issue 16, item 3)."""

from __future__ import annotations

import random
import shlex
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.actions import MAX_NOTATION, MAX_TOKEN, Action, parse_notation, split_notation
from engine.errors import InvalidActionError

# Text made mostly of the characters that matter to the grammar: blanks, both quotes, backslashes.
grammar_text = st.text(alphabet=st.sampled_from(list("ab -' \"\\\t\n\r#é")), max_size=24)

# Arguments as the engine writes them: ids, hex labels, keywords, counts, and words with spaces or nothing
# (which Action.__str__ quotes), including quotes inside quoted words.
argument = st.one_of(
    st.from_regex(r"[a-z]{2,4}-[a-z0-9]{1,6}(-[0-9])?", fullmatch=True),
    st.from_regex(r"[0-9]{4}", fullmatch=True),
    st.sampled_from(["light", "heavy", "on", "off", "", "hold fire", "it's here", 'say "no"', " ", "a  b"]),
    st.integers(-5, 99).map(str),
    st.text(alphabet=st.sampled_from(list("ab -'\"é")), min_size=1, max_size=12).filter(lambda t: " " in t),
)


def shlex_words(text: str) -> list[str] | str:
    try:
        return shlex.split(text)
    except ValueError as err:
        return str(err)


def our_words(text: str) -> list[str] | str:
    try:
        return split_notation(text)
    except InvalidActionError as err:
        return str(err).rsplit(": ", 1)[1]


@settings(max_examples=1000, deadline=None)
@given(grammar_text)
def test_the_tokenizer_splits_like_shlex(text: str) -> None:
    assert our_words(text) == shlex_words(text)


def test_the_tokenizer_splits_like_shlex_on_a_large_random_sample() -> None:
    rng = random.Random(16)
    alphabet = "ab '\"\\\t\n-#"
    for _ in range(50_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(16)))
        assert our_words(text) == shlex_words(text), text


@settings(max_examples=500, deadline=None)
@given(verb=st.from_regex(r"[a-z]{1,8}", fullmatch=True), args=st.lists(argument, max_size=6))
def test_notation_is_the_exact_inverse_of_str(verb: str, args: list[str]) -> None:
    action = Action(verb, tuple(args))
    assert parse_notation(str(action)) == action
    assert action.reads_back


@pytest.mark.parametrize(
    "action",
    [
        Action("move", ("u-1", "01'02")),  # a quote in a word without a space is written as it is
        Action("move", ("u-1", "a\\b")),
        Action("move", ("u-1", "a\nb")),
        Action("Move", ("u-1",)),
        Action("", ()),
        Action("move", ("x" * (MAX_TOKEN + 1),)),
        Action(123, ()),  # type: ignore[arg-type]
        Action("move", ["u-1"]),  # type: ignore[arg-type]
        Action("move", ("u-1", 5)),  # type: ignore[arg-type]
    ],
)
def test_actions_that_notation_cannot_write_do_not_read_back(action: Action) -> None:
    assert not action.reads_back


@pytest.mark.parametrize(("ruleset", "scenario"), [("blitzkrieg1940", "hannut"), ("art_of_tactic", "p2-die-bruecke")])
def test_every_legal_action_of_a_seeded_playout_reads_back(ruleset: str, scenario: str) -> None:
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=16)
    rng = random.Random(16)
    seen = 0
    while game.to_act is not None and len(game.history) < 150:
        legal = game.legal_actions()
        for action in legal:
            assert parse_notation(str(action)) == action
            assert game.parse(game.describe(action)) == action
            seen += 1
        try:
            game.apply(rng.choice(legal))
        except engine.IllegalActionError:
            continue
    assert seen > 1000


@pytest.mark.parametrize("length", [10_000, 400_000, 8 * 1024 * 1024])
def test_a_long_line_is_refused_at_once(length: int) -> None:
    text = "move " + "x" * length
    start = time.perf_counter()
    with pytest.raises(InvalidActionError, match=f"limited to {MAX_NOTATION} characters") as info:
        parse_notation(text)
    assert time.perf_counter() - start < 0.01
    assert len(str(info.value)) < 200  # the message shows the start of the text, not all of it


def test_a_long_word_is_refused() -> None:
    with pytest.raises(InvalidActionError, match=f"longer than {MAX_TOKEN} characters"):
        parse_notation("move " + "x" * (MAX_TOKEN + 1))
    assert parse_notation("move " + "x" * MAX_TOKEN).args == ("x" * MAX_TOKEN,)


def test_the_longest_line_is_read_quickly() -> None:
    """shlex was quadratic in a word's length (9.5 s for a 400,000-character entry); a line at the limit, with
    words at the limit, quoted and escaped, is read in about a millisecond."""
    word = "'" + "x " * (MAX_TOKEN // 2 - 1) + "x'"
    text = " ".join(["move", *[word] * 18, "a\\b" * 10])
    assert len(text) <= MAX_NOTATION
    start = time.perf_counter()
    for _ in range(20):
        assert len(parse_notation(text).args) == 19
    assert (time.perf_counter() - start) / 20 < 0.01


@pytest.mark.parametrize(
    ("text", "cause"),
    [("", "empty action"), ("   ", "empty action"), ("fire 'a", "No closing quotation"), ("x \\", "No escaped")],
)
def test_malformed_text_is_named(text: str, cause: str) -> None:
    with pytest.raises(InvalidActionError, match=cause):
        parse_notation(text)


@pytest.mark.parametrize("value", [None, 5, b"end", ["end"]])
def test_notation_must_be_text(value: object) -> None:
    with pytest.raises(InvalidActionError, match="must be text"):
        parse_notation(value)  # type: ignore[arg-type]
