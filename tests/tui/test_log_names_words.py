"""Issue 18 item 6: the short names of units (``Presentation.unit_short``) and how a log line is worded with them
(:class:`tui.names.UnitNames`): only units of the side's view, never two units alike, the engine's text kept."""

from __future__ import annotations

import engine
from engine.rules import get_ruleset
from tui.client import LocalClient
from tui.names import UnitNames


def _names(ruleset: str, scenario: str, side: str) -> tuple[engine.Game, UnitNames]:
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=1)
    presenter = get_ruleset(ruleset).presentation(LocalClient(game, side).info)
    return game, UnitNames(game.view(side), presenter)


def test_blitzkrieg_names_are_formation_type_and_number_and_every_unit_has_its_own() -> None:
    game, names = _names("blitzkrieg1940", "hannut", "german")
    assert names.names["ger-i5pzr-pz1"] == "I/5 PzR Pz I"
    assert names.names["ger-i35pzr-pz1-2"] == "I/35 PzR Pz I #2"
    assert names.names["fra-2kur-s35-3"] == "2. Kürassiere S35 #3"
    assert names.names["ger-i12schr-hq"] == "I/12 SchR HQ"
    assert names.names["fra-11rdp-at25"] == "11 RDP AT gun", "an independent unit by its own group (10.3)"
    assert set(names.names) == set(game.view("german").units), "no two units read alike"
    assert max(len(n) for n in names.names.values()) <= 28, "short enough for a log line at 80 columns"


def test_a_line_names_the_units_and_keeps_the_rest_of_the_engines_words() -> None:
    _, names = _names("blitzkrieg1940", "hannut", "german")
    line = "fra-i11rdp-drg-2's owner takes a step loss instead of the N (rule 8.3)"
    assert names(line) == "I/11 RDP dragons #2's owner takes a step loss instead of the N (rule 8.3)"
    assert (
        names("medium attack on 1414: column fra-i11rdp-drg-2 5.")
        == "medium attack on 1414: column I/11 RDP dragons #2 5."
    )
    assert names("fra-i-11-rdp and ger-i5pzr-pz1x stay") == "fra-i-11-rdp and ger-i5pzr-pz1x stay", "not unit ids"


def test_art_of_tactic_names_and_a_concealed_hq_stays_unidentified() -> None:
    _, german = _names("art_of_tactic", "p1-grenzgefecht", "german")
    assert german.names["ger-2-pz2"] == "Pz II #2" and german.names["sov-22-t26"] == "T-26 #22"
    assert "sov-21-hq" not in german.names, "the German view knows no Soviet HQ (9.11)"
    assert german.names["soviet-unidentified-1"] == "unidentified #1"
    assert german("sov-21-hq defends") == "sov-21-hq defends", "an id the view does not hold stays as written"
    _, soviet = _names("art_of_tactic", "p1-grenzgefecht", "soviet")
    assert soviet.names["sov-21-hq"] == "HQ #21"


def test_two_units_that_would_read_alike_keep_their_ids() -> None:
    game, _ = _names("blitzkrieg1940", "hannut", "german")
    names = UnitNames(game.view("german"), _Alike())  # type: ignore[arg-type]
    assert names("ger-i5pzr-pz1 and ger-i5pzr-pz2") == "ger-i5pzr-pz1 and ger-i5pzr-pz2"


class _Alike:
    """A presentation that calls every tank alike."""

    def unit_short(self, view: object, unit: engine.Unit) -> str:
        return "tank" if unit.type.startswith("PZ") else unit.id
