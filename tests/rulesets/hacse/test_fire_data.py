"""The data files of the fire, damage and morale calculators: their loaders refuse a broken file, and the
calculators keep their invariants on random inputs (every distribution sums to 1, no row is hit twice)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.hacse import firedata
from engine.rulesets.hacse.damage import Target, allocate, location_odds
from engine.rulesets.hacse.fire import Ammo, Shot, hit_roll, shot_odds
from engine.rulesets.hacse.firedata import FireDataError
from engine.rulesets.hacse.targetdie import target_die

from .fire_sheets import BALL, K98, KWK40, PZGR39, SPRGR34, ger_inf_sqd, opel_blitz, pak40, pz4h, sdkfz251

LOADERS = (firedata.fire_table, firedata.damage_table, firedata.morale_table, firedata.location_table)


def _clear() -> None:
    firedata._load.cache_clear()
    for loader in LOADERS:
        loader.cache_clear()


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    target = tmp_path / "data"
    shutil.copytree(firedata.DATA_DIR, target)
    monkeypatch.setattr(firedata, "DATA_DIR", target)
    _clear()
    yield target
    monkeypatch.undo()
    _clear()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        ("fire", "medium_range = 4 ", 'medium_range = "4" ', r"fire\.toml\.hit\.medium_range: expected an integer"),
        ("fire", "aimed = 5 ", "# aimed ", r"fire\.toml\.hit\.aimed: missing"),
        ("damage", "he_min = 6", "he_min = 0", r"rising order"),
        ("morale", "denominator = 2", "denominator = 0", r"denominator: must be positive"),
        ("hitlocation", '"hull_weapon"', '"hull_gun"', r"unknown locations hull_gun"),
        ("hitlocation", '"commander", "ammunition"]\nside', '"commander"]\nside', r"a list of 19 names"),
    ],
)
def test_loaders_name_the_file_and_key(data_copy: Path, name: str, old: str, new: str, message: str) -> None:
    _edit(data_copy / f"{name}.toml", old, new)
    loader = {"fire": firedata.fire_table, "damage": firedata.damage_table, "morale": firedata.morale_table}.get(
        name, firedata.location_table
    )
    with pytest.raises(FireDataError, match=message):
        loader()


def test_missing_and_malformed_files(data_copy: Path) -> None:
    (data_copy / "morale.toml").unlink()
    with pytest.raises(FireDataError, match=r"morale\.toml: data file missing"):
        firedata.morale_table()
    (data_copy / "fire.toml").write_text("[roll\n")
    with pytest.raises(FireDataError, match=r"fire\.toml"):
        firedata.fire_table()


def test_every_data_value_cites_a_section() -> None:
    # Each "key = value" line of the four files carries a comment naming its digest section (§...), or sits in a
    # block whose first line or heading comment does (multi-line arrays, [[variable_damage]] rows).
    for name in ("fire", "damage", "morale", "hitlocation"):
        text = (firedata.DATA_DIR / f"{name}.toml").read_text()
        blocks = re.split(r"\n\s*\n", text)
        for block in blocks:
            if "=" in block and not block.lstrip().startswith("# "):
                assert "§" in block, f"{name}.toml block without a section: {block[:60]!r}"


# --- invariants on random inputs ------------------------------------------------------------------------------


SHEETS = (ger_inf_sqd, pz4h, sdkfz251, opel_blitz, pak40)


@settings(max_examples=60, deadline=None)
@given(
    sheet=st.sampled_from(SHEETS),
    hit=st.sets(st.integers(1, 15), max_size=8),
    column=st.sampled_from(("front", "side", "rear", "top")),
    points=st.integers(1, 12),
    seed=st.lists(st.integers(1, 10), min_size=80, max_size=80),
)
def test_allocation_never_hits_a_row_twice(
    sheet: Callable[[], Target], hit: set[int], column: str, points: int, seed: list[int]
) -> None:
    base = sheet()
    indices = {r.index for r in base.rows if r.counts}
    target = Target(base.unit_type, base.armour, base.rows, frozenset(hit & indices), base.embarked)
    odds = location_odds(target, column)
    if odds:
        assert sum(odds.values()) == 1

    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        values = [(v - 1) % sides + 1 for v in seed[:count]]
        del seed[:count]
        return tuple(values)

    alloc = allocate(target, column, points, roller)
    assert len(set(alloc.rows)) == len(alloc.rows)
    assert not set(alloc.rows) & target.hit
    assert len(alloc.rows) + alloc.cargo_hits + alloc.absorbed + alloc.lost >= points


@settings(max_examples=60, deadline=None)
@given(
    distance=st.integers(0, 27),
    hexes=st.integers(0, 12),
    base=st.integers(3, 5),
    ammo=st.sampled_from((PZGR39, SPRGR34)),
    column=st.sampled_from(("front", "side", "rear", "top")),
)
def test_shot_odds_are_distributions(distance: int, hexes: int, base: int, ammo: Ammo, column: str) -> None:
    shot = Shot(
        base,
        KWK40,
        ammo,
        distance=distance,
        target_die=target_die(
            profile=0,
            infantry=False,
            hexes_entered=hexes,
        ),
    )
    odds = shot_odds(shot, pz4h(), column)
    assert sum(odds.damage.values()) == 1
    assert odds.hit + odds.jam <= 1
    assert odds.penetrate <= odds.hit
    assert odds.hit == (hit_roll(shot).chance if hit_roll(shot).possible else 0)


def test_rifle_pool_odds_against_infantry_sum_to_one() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=0)
    odds = shot_odds(
        Shot(4, K98, BALL, distance=8, target_die=die, target_infantry=True, pooled=8), ger_inf_sqd(), "side"
    )
    assert sum(odds.damage.values()) == Fraction(1)
    assert odds.damage[0] == 1 - odds.hit
