"""7.2.1 and 7.3 [P]: a unit moving in column that has no road hex to go on to and stands in a full hex (it is
passing through, 7.3) leaves the road instead of being stuck: its column ends (7.2.1 "when the unit stops using
the road"). Found by `planspiel simulate blitzkrieg1940 stonne --games 50 --a greedy --b ai:normal --seed 2028`
(game 4): the French had no legal action at all. The fixture is that game's actions up to that point."""

from __future__ import annotations

from pathlib import Path

import engine
from engine.rulesets.blitzkrieg1940 import model as bk

FIXTURE = Path(__file__).parent / "fixtures" / "stonne_column_dead_end.txt"
GAME_SEED = 1235625841


def _game() -> engine.Game:
    g = engine.new_game(engine.load_scenario("blitzkrieg1940", "stonne"), seed=GAME_SEED)
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            g.apply(line)
    return g


def test_7_2_1_a_column_unit_with_no_road_on_and_no_room_to_stop_leaves_the_road() -> None:
    g = _game()
    u = g.state.units["fra-ii205ri-fin-3"]
    assert g.to_act == "french" and (m := bk.status(u).moving) is not None and m.column
    here = [x.id for x in g.state.units.values() if x.hex == u.hex]
    assert len(here) == 4  # 7.3: three is the limit, so it may not stop here
    legal = [str(a) for a in g.legal_actions()]
    assert legal, "no legal action: the game is stuck"
    assert all(a.startswith("move fra-ii205ri-fin-3 ") for a in legal)
    events = g.apply(legal[0])
    assert not bk.status(u).column or not bk.status(g.state.units[u.id]).column
    moving = bk.status(g.state.units[u.id]).moving
    assert moving is None or not moving.column  # 7.2.1: it stopped using the road
    assert any(e.kind == "move" for e in events)


def test_7_3_the_game_goes_on_to_its_end_from_there() -> None:
    g = _game()
    import random  # noqa: PLC0415

    rng = random.Random(1)
    for _ in range(5000):
        if g.to_act is None:
            break
        acts = g.legal_actions()
        assert acts, f"no legal action for {g.to_act} after {len(g.history)} actions"
        g.apply(rng.choice(acts))
    assert g.outcome is not None
