"""The values the player's references print are the ruleset's data (``data/*.toml``), so that a changed table
cannot leave the reference behind: the tables and numbers of each ``REFERENCE.md`` are checked against the files."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2] / "engine" / "rulesets"
MINUS = "−"


def _data(ruleset: str, name: str) -> dict[str, Any]:
    with (ROOT / ruleset / "data" / f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def _reference(ruleset: str) -> str:
    return (ROOT / ruleset / "REFERENCE.md").read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """The text with every run of white space (line breaks included) as one space."""
    return " ".join(text.split())


def _rows(text: str) -> dict[str, list[str]]:
    """Every Markdown table row of the text by its first cell: the other cells."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.setdefault(cells[0], cells[1:])
    return rows


def _signed(value: float) -> str:
    """+1, −2, 0 as the reference prints them."""
    n = int(value)
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


# --- Blitzkrieg 1940 ----------------------------------------------------------------------------------------

BK = "blitzkrieg1940"


def test_blitzkrieg_crt_is_the_data() -> None:
    crt = _data(BK, "crt")
    rows = _rows(_reference(BK))
    for column, cells in crt["columns"].items():
        label = f"{MINUS}{column[1:]}" if column.startswith("-") else column
        label = f"{label}+" if int(column) == crt["special"]["max_column"] else label
        expected = [_span(*cells[r]) if r in cells else "—" for r in crt["results"]]
        assert rows.get(label) == expected, f"CRT column {column}"


def test_blitzkrieg_modifiers_are_the_data() -> None:
    mods = _data(BK, "modifiers")["modifiers"]
    rows = _rows(_reference(BK))
    checked = 0
    for key, mod in mods.items():
        if key not in rows:
            continue
        for i, kind in enumerate(("direct", "close_combat", "indirect")):
            if kind in mod:
                cell = rows[key][1 + i]
                assert _signed(mod[kind]) in cell, f"{key} {kind}: {cell!r}"
                checked += 1
    assert checked >= 25


def test_blitzkrieg_terrain_and_reaction_tables_are_the_data() -> None:
    rows = _rows(_reference(BK))
    text = _flat(_reference(BK))
    terrain = _data(BK, "terrain")
    for code, cls in terrain["codes"].items():
        cost = terrain["classes"][cls]["cost"]
        cells = rows[f"{cls} `{code}`"]
        for i, mode in enumerate(("foot", "tracked", "wheeled")):
            assert cells[i] == (str(cost[mode]) if mode in cost else "road only"), f"{cls} {mode}"
        assert cells[4] == _signed(terrain["classes"][cls]["fire_modifier"])
    move = terrain["movement"]
    assert move["road_cost"] == 0.5 and "**½** MP a hex" in text
    assert f"Climbing: **+{move['climb_per_level']}** MP" in text
    assert f"Leaving a minefield: **+{move['leave_minefield']}** MP" in text
    reaction = _data(BK, "reaction")
    firsts = {"infantry": "infantry, MG, motorcycles, pioneers", "at_gun": "AT guns"}
    firsts |= {"armour": "tanks, StuG, armoured cars, APCs", "hq": "HQ (retreat only)"}
    for cls, first in firsts.items():
        assert rows[first] == [str(reaction["values"]["german"][cls]), str(reaction["values"]["french"][cls])]
    assert rows["Großdeutschland and Stu.Pion.Bat. 43 (all types)"][0] == str(reaction["elite"]["value"])


def test_blitzkrieg_indirect_fire_and_victory_are_the_data() -> None:
    text = _flat(_reference(BK))
    art = _data(BK, "artillery")
    for name, cal in art["calibres"].items():
        assert f"{name} {cal['mm']} mm **{cal['attack']}**" in text
    assert f"Stuka **{art['stuka']['attack']}**" in text
    assert f"2d6 ≤ **{art['transmission']['target']}**" in text
    hannut = _data(BK, "victory")["hannut"]
    windows = ", ".join(_span(lo, hi) for lo, hi in hannut["windows"])
    assert f"Windows, turns 1–{len(hannut['windows'])}: {windows}." in text
    a = hannut["awards"]
    assert (
        f"{a['french_tank_step']} × French tank steps lost + {a['french_other_step']} × other French steps lost + "
        f"{a['objective_held']} × objective" in text
    )
    assert f"{MINUS} {-a['german_step']} × German steps lost" in text
    stonne = _data(BK, "victory")["stonne"]
    assert f"({' and '.join(stonne['hexes'])}, PROPOSED) at the end of turn {stonne['check_turn']}" in text


# --- Art of Tactic ------------------------------------------------------------------------------------------

AOT = "art_of_tactic"


def test_art_of_tactic_numbers_are_the_data() -> None:
    text = _flat(_reference(AOT))
    rules = _data(AOT, "rules")
    bonus = rules["march"]["road_bonus"]
    words = ", ".join(f"{t} +{n}" for t, n in bonus.items() if t != "ART")
    assert f"**March road bonus (§4.3)**: {words}, ART {bonus['ART']} (towed)" in text
    ammo = rules["ammo"]
    assert (
        f"Defend {ammo['defend']}, Suppression fire {ammo['suppress']}, Open fire {ammo['fire']}, Fire at location "
        f"{ammo['location']}, Fire on the move {ammo['fire_on_move']}, an ambush shot {ammo['ambush']}, each "
        f"close-combat round {ammo['close_combat']}, smoke {ammo['smoke']} smoke point" in text
    )
    stack = rules["stacking"]
    assert f"{stack['vehicles']} vehicles and {stack['infantry_artillery']} infantry or artillery" in text
    assert f"**+{rules['hq']['morale_bonus']}** within the command range" in text
    assert f"within {rules['reconnoitre']['range']} hexes" in text
    assert f"kept between {rules['accuracy_min']} and {rules['accuracy_max']}" in text


def test_art_of_tactic_terrain_and_structures_are_the_data() -> None:
    rows = _rows(_reference(AOT))
    text = _flat(_reference(AOT))
    terrain = _data(AOT, "terrain")
    names = {row.split(",")[0]: cells for row, cells in rows.items()}
    for code, cls in terrain["codes"].items():
        c = terrain["classes"][cls]
        cells = names.get(c["name"]) or next(v for k, v in rows.items() if c["name"] in k.split(", "))
        assert f"`{code}`" in cells[0], f"{cls}: map code"
        assert cells[1].startswith("yes" if c["blocks_los"] else "no"), f"{cls}: sight"
        defence = c.get("defence")
        if defence is None:
            assert cells[2] == "—", cls
        elif defence["INF"] == defence["other"]:
            assert cells[2] == f"+{defence['INF']}", cls
        else:
            assert cells[2] == f"INF +{defence['INF']}, others +{defence['other']}", cls
    for t, n in terrain["classes"]["field"]["field_penalty"].items():
        assert f"{t} {n}" in names["field"][4]
    forts = _data(AOT, "structures")["fortifications"]
    assert f"barbed wire ({forts['wire']['cost']} points" in text
    assert f"dragon's teeth ({forts['dragons_teeth']['cost']};" in text
    assert f"trench ({forts['trench']['cost']}; +{forts['trench']['defence']})" in text
    dug = forts["dugout"]
    assert f"dugout ({dug['cost']}; +{dug['defence']}, {dug['hits']} hits" in text
