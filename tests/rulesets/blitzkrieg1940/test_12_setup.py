"""The set-up decisions (2.9 "Setup", 12.1, 12.2, 3.4, 7.3, 10.1–10.3): who places what, where, and in which order.

Games start through the :class:`engine.Game` facade; ``default`` takes the scenario file's set-up for one step.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.rules import Transition
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940 import sequence
from engine.rulesets.blitzkrieg1940.victory import losses

from .helpers import prepared_state, ruleset, scenario, skip_setup

T = ruleset().tables


def _game(scenario_id: str, seed: int = 1) -> engine.Game:
    return engine.new_game(scenario(scenario_id), seed=seed)


def _legal(game: engine.Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def _todo(game: engine.Game) -> list[dict[str, Any]]:
    f = bk.data(game.state).frames[-1]
    assert f.kind == "deploy"
    todo: list[bk.DeployItem] = f.todo
    return todo


def _refused(game: engine.Game, notation: str, *words: str, rule: str = "12") -> str:
    with pytest.raises(engine.IllegalActionError) as info:
        game.apply(notation)
    text = str(info.value)
    for w in words:
        assert w in text, text
    assert rule in text, text
    return text


def _play(game: engine.Game, *notations: str) -> None:
    for n in notations:
        game.apply(n)


def _losses(game: engine.Game, *units: str) -> None:
    for u in units:
        game.apply(f"loss {u}")


def _place_next(game: engine.Game) -> None:
    """Place the next unit in its scenario-file hex if that is legal, else in the first legal hex."""
    uid = _todo(game)[0].unit
    default = bk.data(game.state).deploy.default.hex[uid]
    legal = [a for a in game.legal_actions() if a.verb == "place"]
    game.apply(next((a for a in legal if a.args[1] == default), legal[0]))


def _place_all(game: engine.Game, until: str | None = None) -> None:
    """Place units until the next decision is not a placement (or concerns ``until``)."""
    while (
        bk.data(game.state).frames[-1].kind == "deploy"
        and _todo(game)
        and _todo(game)[0].what == "place"
        and _todo(game)[0].unit != until
    ):
        _place_next(game)


def test_2_9_setup_is_the_first_decision_french_first_in_hannut() -> None:
    game = _game("hannut")
    assert game.state.phase == "setup" and game.to_act == "french"
    legal = _legal(game)
    assert legal[0] == "default"
    assert {a.split()[0] for a in legal[1:]} == {"loss"}
    # Every unit of a set-up step is off the map until placed (12.1: the zones are filled by the players).
    assert all(u.hex is None for u in game.state.units.values() if u.side == "french")


def test_12_1_setup_losses_two_on_one_counter_eliminate_it() -> None:
    game = _game("hannut")
    _losses(game, "fra-2kur-h39-1", "fra-2kur-h39-1", "fra-2kur-s35-1")
    assert game.state.units["fra-2kur-h39-1"].steps == 0
    assert "loss fra-2kur-h39-1" not in _legal(game)  # nothing left to lose
    assert "default" not in _legal(game)  # the step has begun
    game.apply("loss fra-2kur-s35-2")
    assert [i.what for i in _todo(game)][:2] == ["assign", "place"]
    game.apply("assign fra-11rdp-at25 fra-i-11-rdp")
    _place_all(game)
    placed = [t for t in (e.text for e in game.events_since(0)) if "sets up in" in t]
    assert not any("fra-2kur-h39-1 sets up" in t for t in placed)  # eliminated before the set-up
    # 12.1 / 13.8: the four losses count for the German VP (2 per tank step).
    assert losses(T, game.state).french_tank == 4


def test_12_1_placing_outside_the_zone_is_refused_with_the_rule() -> None:
    game = _game("hannut")
    _losses(game, "fra-2kur-h39-1", "fra-2kur-h39-2", "fra-2kur-s35-2", "fra-2kur-s35-3")
    game.apply("assign fra-11rdp-at25 fra-iii-11-rdp")
    _refused(game, "place fra-12kur-hq 0101", "outside the set-up zone", "within 2 hexes of 1202", rule="12.1")
    _refused(game, "place fra-12kur-mot-1 1202", "sets up fra-12kur-hq")  # the HQ comes first (3.4)
    game.apply("place fra-12kur-hq 1202")
    assert game.state.units["fra-12kur-hq"].hex == game.board.parse("1202")


def test_7_3_setup_stacking_limit_of_three() -> None:
    game = _game("hannut")
    _losses(game, "fra-2kur-h39-1", "fra-2kur-h39-2", "fra-2kur-s35-2", "fra-2kur-s35-3")
    game.apply("assign fra-11rdp-at25 fra-iii-11-rdp")
    _play(game, "place fra-12kur-hq 1203", "place fra-12kur-mot-1 1203", "place fra-12kur-mot-2 1203")
    game.apply("place fra-12kur-p178-1 1203")  # the HQ does not count: three units
    _refused(game, "place fra-12kur-p178-2 1203", "already holds 3 units", rule="7.3")
    assert "place fra-12kur-p178-2 1203" not in _legal(game)


def test_3_4_setup_within_the_doctrine_distance_of_the_hq() -> None:
    game = _game("hannut")
    _losses(game, "fra-2kur-h39-1", "fra-2kur-h39-2", "fra-2kur-s35-2", "fra-2kur-s35-3")
    game.apply("assign fra-11rdp-at25 fra-iii-11-rdp")
    _place_all(game, until="fra-iii11rdp-hq")
    game.apply("place fra-iii11rdp-hq 1004")
    # Dragoons are doctrine-bound (French: 2 hexes); 1406 is in the zone but 4 hexes from 1004.
    _refused(game, "place fra-iii11rdp-drg-1 1406", "hexes from the HQ", rule="3.4")
    game.apply("place fra-iii11rdp-drg-1 1105")


def test_12_1_at_gun_sets_up_with_a_unit_of_its_battalion() -> None:
    game = _game("hannut")
    _losses(game, "fra-2kur-h39-1", "fra-2kur-h39-2", "fra-2kur-s35-2", "fra-2kur-s35-3")
    assert _legal(game) == [f"assign fra-11rdp-at25 {b}" for b in ("fra-i-11-rdp", "fra-ii-11-rdp", "fra-iii-11-rdp")]
    game.apply("assign fra-11rdp-at25 fra-ii-11-rdp")
    _place_all(game)
    at = game.state.units["fra-11rdp-at25"]
    assert at.hex is not None and at.formation == "fra-ii-11-rdp" and bk.status(at).independent
    mates = {u.formation for u in game.state.units_at(at.hex) if u.id != at.id}
    assert "fra-ii-11-rdp" in mates
    # The battalion's zone only: a hex of I/11 RDP is refused even though it is in the AT gun's zone table.
    ii_zone = {"1511", "1512", "1513", "1611", "1612", "1613"}
    assert game.board.label(at.hex) in ii_zone


def test_10_2_fortifications_only_with_own_infantry() -> None:
    game = _game("hannut")
    game.apply("default")
    assert game.to_act == "german"
    game2 = _game("hannut")
    _losses(game2, "fra-2kur-h39-1", "fra-2kur-h39-2", "fra-2kur-s35-2", "fra-2kur-s35-3")
    game2.apply("assign fra-11rdp-at25 fra-iii-11-rdp")
    _place_all(game2)
    assert _todo(game2)[0] == bk.DeployItem("marker", kind="fortification", left=5)
    infantry = {
        game2.board.label(u.hex)
        for u in game2.state.iter_units("french")
        if u.hex is not None and T.units[u.type].fortification_benefit
    }
    assert {a.args[0] for a in game2.legal_actions()} == infantry
    tank_hex = game2.board.label(game2.state.units["fra-12kur-p178-1"].hex)
    if tank_hex not in infantry:
        _refused(game2, f"fort {tank_hex}", "needs french infantry", rule="10.2")
    first = sorted(infantry)[0]
    game2.apply(f"fort {first}")
    _refused(game2, f"fort {first}", "already has a fortification", rule="10.2")


def test_2_8_hannut_kept_chits_after_the_german_setup_before_the_1_kur() -> None:
    game = _game("hannut")
    game.apply("default")
    assert game.to_act == "german" and _legal(game)[0] == "default"
    game.apply("default")
    # 12.1 step 2: the German picks his kept chits; the French 1. Kürassiere has not set up yet.
    assert all(a.startswith("keep ger-") for a in _legal(game))
    assert all(u.hex is None for u in game.state.units.values() if u.formation == "fra-1-kur")
    game.apply("keep ger-i-5-pzr")
    assert game.to_act == "french" and _todo(game)[0].unit == "fra-1kur-hq"
    game.apply("default")
    assert game.state.phase == "operations"
    assert sorted(_legal(game)) == ["first ger-artillery-1-1", "first ger-i-5-pzr", "first ger-stuka-1-1"]


def test_12_1_optional_company_on_the_i_33_apc() -> None:
    game = _game("hannut")
    game.apply("default")
    # German: first the I/33 APC question (12.1 [I]), then the placements.
    assert _todo(game)[0] == bk.DeployItem("mount", formation="ger-i-33-schr", apc="ger-i33schr-apc")
    legal = _legal(game)
    assert legal[0] == "default" and legal[-1] == "nomount"
    assert all(a.startswith("mount ger-i33schr-") for a in legal[1:-1])
    _refused(game, "mount ger-i5pzr-pz3", "decides whether a company starts on the APC", rule="12.1")
    game.apply("mount ger-i33schr-sch-2")
    _place_all(game)
    st = game.state
    company = st.units["ger-i33schr-sch-2"]
    assert bk.status(company).carried_by == "ger-i33schr-apc"
    assert bk.status(st.units["ger-i33schr-apc"]).carrying == company.id
    assert company.hex == st.units["ger-i33schr-apc"].hex is not None
    placed = [e.text for e in game.events_since(0) if "sets up in" in e.text]
    assert not any(t.startswith("ger-i33schr-sch-2 sets up") for t in placed)  # it rides the APC


def test_12_2_dissolving_4_bcc_assigns_its_units_and_removes_its_chit() -> None:
    game = _game("stonne")
    assert _legal(game) == ["default", "ownchit fra-4-bcc", "dissolve fra-4-bcc"]
    game.apply("dissolve fra-4-bcc")
    targets = ["fra-i-205-ri", "fra-ii-205-ri", "fra-iii-205-ri"]
    for uid, fid in zip(["fra-4bcc-fcm-1", "fra-4bcc-fcm-2", "fra-4bcc-fcm-3"], targets, strict=True):
        assert _todo(game)[0] == bk.DeployItem("assign", unit=uid, to=targets)
        game.apply(f"assign {uid} {fid}")
    game.apply("assign fra-205ri-at25 fra-iii-205-ri")
    _place_all(game)
    while bk.data(game.state).frames[-1].kind == "deploy" and game.to_act == "french":
        game.apply(game.legal_actions()[0])
    skip_setup(game)
    st = game.state
    assert "fra-4-bcc" in bk.data(st).removed_chits and "fra-4-bcc" not in bk.data(st).cup
    for uid, fid in zip(["fra-4bcc-fcm-1", "fra-4bcc-fcm-2", "fra-4bcc-fcm-3"], targets, strict=True):
        u = st.units[uid]
        assert (u.formation, bk.status(u).independent, u.hex is not None) == (fid, True, True)
    # 10.3: the adopted units count for the formation's demoralisation (its steps).
    own = sum(T.units[u.type].steps for u in st.units.values() if u.formation == "fra-i-205-ri" and "hq" not in u.id)
    assert bk.data(st).formations["fra-i-205-ri"].steps_total == own


def test_12_2_french_exclusion_ring_and_zones() -> None:
    game = _game("stonne")
    _play(game, "ownchit fra-4-bcc", "assign fra-205ri-at25 fra-i-205-ri")
    hexes = {a.args[1] for a in game.legal_actions()}
    assert hexes and all(game.board.parse(h) in game.board for h in hexes)
    near = [
        h
        for h in hexes
        if any(engine.distance(game.board.parse(h), game.board.parse(x)) <= 2 for x in ("0108", "0112", "0114", "0401"))
    ]
    assert not near
    assert hexes <= {"0607", "0608", "0609", "0610", "0707", "0708", "0709", "0710", "0807", "0808", "0809", "0810"}


def test_12_default_setup_is_the_scenario_file() -> None:
    for sid in ("hannut", "stonne"):
        sc = scenario(sid)
        game = skip_setup(_game(sid))
        if bk.data(game.state).frames[-1].kind == "t1_keep":
            game.apply(game.legal_actions()[0])
            skip_setup(game)
        assert game.state.phase == "operations"
        for spec in sc.units:
            if spec.hex is not None:
                assert game.state.units[spec.id].hex == spec.hex, spec.id
        markers = {m["hex"] for m in sc.raw.get("markers", []) if m["kind"] == "fortification"}
        assert set(bk.data(game.state).forts) == markers


def test_12_restart_when_the_next_unit_has_no_legal_hex() -> None:
    game = _game("stonne")
    _play(game, "ownchit fra-4-bcc", "assign fra-205ri-at25 fra-i-205-ri", "place fra-i205ri-hq 0708")
    # Fill the zone so that the next unit has nowhere to go (a stuck set-up, as random play can reach).
    zone = next(z for z in bk.data(game.state).deploy.zones if "fra-i-205-ri" in z.formations)
    zone.hexes = ["0708"]
    _play(game, "place fra-i205ri-fin-1 0708", "place fra-i205ri-fin-2 0708", "place fra-i205ri-fin-3 0708")
    assert _legal(game) == ["restart"]
    game.apply("restart")
    assert _legal(game) == ["default", "ownchit fra-4-bcc", "dissolve fra-4-bcc"]
    assert all(u.hex is None for u in game.state.units.values() if u.formation == "fra-i-205-ri")


def test_12_setup_notation_round_trips_and_help_cites_rules() -> None:
    game = _game("stonne")
    for a in game.legal_actions():
        assert game.parse(game.describe(a)) == a
        assert "(" in game.explain(a) or a.verb in ("ownchit", "dissolve", "default")


def test_12_2_the_67_ri_at_gun_is_assigned_on_arrival() -> None:
    """12.2 [P] (A17): the 67 RI AT gun is assigned on arrival (turn 4) to a French formation with a chit."""
    st, _ = prepared_state("stonne", dice=(1, 1, 1, 1))
    st.turn = 4
    bk.data(st).frames.clear()
    tr = Transition(st)
    sequence.administration(ruleset(), tr)
    f = bk.data(st).frames[-1]
    assert (f.kind, f.side, f.unit) == ("arrival_assign", "french", "fra-67ri-at47")
    legal = [str(a) for a in ruleset().legal_actions(st)]
    assert "assign fra-67ri-at47 fra-i-67-ri" in legal and "assign fra-67ri-at47 fra-ii-205-ri" in legal
    assert not any("fra-4-bcc" in a or "ger-" in a for a in legal)  # own formations with a chit only
    with pytest.raises(engine.IllegalActionError, match=r"arriving fra-67ri-at47.*rules 12\.2"):
        ruleset().check(st, engine.Action("end"))
    tr2 = Transition(st)
    ruleset().apply(tr2, engine.Action("assign", ("fra-67ri-at47", "fra-ii-205-ri")))
    gun = tr2.state.units["fra-67ri-at47"]
    assert gun.formation == "fra-ii-205-ri" and bk.status(gun).independent
