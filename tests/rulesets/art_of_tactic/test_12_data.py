"""Unit data (digest 12), terrain (10.1), fortifications and mines: the data files and their loader."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.errors import ScenarioError
from engine.rulesets.art_of_tactic import RULESET, data
from engine.rulesets.art_of_tactic.data import DataError, load_tables
from engine.rulesets.art_of_tactic.setup import purchase_cost

README = Path(RULESET.data_dir).parent / "README.md"


def test_12_3_roster_has_19_cards_plus_the_optional_i16() -> None:
    t = load_tables()
    assert len([u for u in t.units.values() if not u.generic]) == 20
    assert [c for c, u in t.units.items() if u.optional] == ["SU-I16"]


def test_12_5_generic_aircraft_cards_are_kept_apart_from_the_roster() -> None:
    t = load_tables()
    assert sorted(c for c, u in t.units.items() if u.generic) == ["DE-FJ", "DE-JU52", "DE-RECON", "SU-RECON", "SU-TB3"]
    assert t.units["SU-TB3"].cargo_limit == 4 and t.units["SU-TB3"].size == 3 and t.units["SU-TB3"].mission_boxes == 2
    assert int(t.rules["supply_drop"]["cargo_unit"]) == 5, "G24: 1 cargo unit = 5 ammunition points"
    recon = t.units["DE-RECON"]
    assert recon.observation_zone == 3 and recon.detection == (6, 5, 4, 3) and recon.mission_boxes == 3
    assert not recon.firepower and recon.can_order("recon"), "12.5: no attack"


def test_12_1_every_seed_value_is_kept() -> None:
    u = load_tables().units
    assert u["SU-T26"].firepower["LT"][0] == 7 and u["SU-T26"].range[2] == 2  # Fig. 3
    assert u["DE-PZ2"].type == "LT" and u["DE-PZ2"].defence == 2
    assert u["SU-INF"].size == 5 and u["SU-INF"].bravery == 8 and u["SU-INF"].firepower["INF"][0] == 10
    assert u["SU-MG"].firepower["INF"][0] == 10 and u["DE-MOR"].firepower["INF"][0] == 8
    assert u["SU-BM13"].firepower["INF"][0] == 16 and u["SU-BM13"].adjacent_firepower["INF"][0] == 4
    assert u["DE-OPEL"].size == 6 and dict(u["DE-OPEL"].cargo) == {"ammo": 30, "mines": 3}
    assert u["SU-AT"].size == 2 and u["SU-AT"].defence == 1
    assert u["SU-HQ"].command_range == 2


def test_ex23_12_2_errata_costs() -> None:
    t = load_tables()
    costs = {c: u.cost for c, u in t.units.items()}
    assert {k: costs[k] for k in ("SU-MG", "DE-MG", "SU-MOR", "SU-AT", "SU-T26", "DE-PZ2", "DE-MOR")} == {
        "SU-MG": 12, "DE-MG": 13, "SU-MOR": 15, "SU-AT": 20, "SU-T26": 23, "DE-PZ2": 21, "DE-MOR": 15}  # fmt: skip
    forts = {k: v["cost"] for k, v in t.fortifications.items()}
    assert forts == {"wire": 6, "dragons_teeth": 7, "trench": 5, "dugout": 20}


def test_12_4_minefield_values() -> None:
    m = load_tables().mines
    assert m["anti_tank"]["LT"] == [6, 3] and m["anti_tank"]["MT"] == [6, 2]
    assert m["anti_personnel"]["INF"] == [6, 3] and "LT" not in m["anti_personnel"]
    assert m["engineer_mine_cost"] == 10


def test_10_1_terrain_summary() -> None:
    t = load_tables().terrain
    assert {k for k, v in t.items() if v.blocks_los} == {"bushes", "light_woods", "woods", "village", "town"}
    assert t["woods"].defence_for("INF") == 2 and t["village"].defence_for("INF") == 2
    assert (
        t["village"].defence_for("LT") == 1 and t["town"].defence_for("INF") == 3 and t["town"].defence_for("MT") == 2
    )
    assert t["plain"].ambush == frozenset() and t["bushes"].ambush == {"INF", "ART"} and t["woods"].ambush == {"INF"}


def test_loader_names_the_broken_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("rules", "units", "terrain", "structures", "mines"):
        (tmp_path / f"{name}.toml").write_text((data.DATA / f"{name}.toml").read_text(encoding="utf-8"))
    text = (
        (tmp_path / "units.toml")
        .read_text(encoding="utf-8")
        .replace('type = "LT"                    # (S) Fig. 3', 'type = "XX"')
    )
    (tmp_path / "units.toml").write_text(text)
    monkeypatch.setattr(data, "DATA", tmp_path)
    load_tables.cache_clear()
    try:
        with pytest.raises(DataError, match=r"units.toml: types.DE-PZ2.type: expected one of"):
            load_tables()
    finally:
        monkeypatch.undo()
        load_tables.cache_clear()


def test_15_2_a_policy_class_naming_an_unknown_target_row_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The prefer-CLASS reaction policies (15.2 item 4) are data: each class names target rows of 3.1."""
    for name in ("rules", "units", "generic_aircraft", "terrain", "structures", "mines"):
        (tmp_path / f"{name}.toml").write_text((data.DATA / f"{name}.toml").read_text(encoding="utf-8"))
    text = (tmp_path / "rules.toml").read_text(encoding="utf-8")
    (tmp_path / "rules.toml").write_text(text.replace('tank = { rows = ["LT", "MT", "HT"]', 'tank = { rows = ["TANK"]'))
    monkeypatch.setattr(data, "DATA", tmp_path)
    load_tables.cache_clear()
    try:
        with pytest.raises(DataError, match=r"rules.toml: policy_classes.tank: expected"):
            load_tables()
    finally:
        monkeypatch.undo()
        load_tables.cache_clear()


def test_every_verb_is_listed_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    missing = [verb for verb in RULESET.verbs if f"`{verb}" not in text]
    assert not missing, f"README.md does not list: {', '.join(missing)}"


def test_every_verb_has_a_help_line_citing_a_rule() -> None:
    for verb, line in RULESET.verbs.items():
        assert line.startswith(verb), verb
        assert "(" in line and any(ch.isdigit() for ch in line.rsplit("(", 1)[1]), f"{verb}: no rule cited"


def test_ex23_11_6_purchase_validation_uses_the_errata_costs() -> None:
    sc = engine.load_scenario("art_of_tactic", "p3-stuetzpunkt")
    assert purchase_cost(RULESET, sc, "german") == 219
    assert purchase_cost(RULESET, sc, "soviet") == 180  # units 157 + trenches 10 + wire 6 + dragon's teeth 7
    text = sc.text.replace("points = 180", "points = 170")
    with pytest.raises(ScenarioError, match="costs 180 strength points, more than its 170"):
        engine.scenario.parse_scenario(text, sc.path)
    text = sc.text.replace('id = "sov-27-t26"\ntype = "SU-T26"', 'id = "sov-27-t26"\ntype = "SU-MG"')
    with pytest.raises(ScenarioError, match="3 copies of SU-MG"):
        engine.scenario.parse_scenario(text, sc.path)
