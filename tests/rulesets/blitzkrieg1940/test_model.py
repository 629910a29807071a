"""The state model (model.py): every decision-frame kind (2.9) has its handler, and the typed state goes through
the engine's codec unchanged at every decision of a playout."""

from __future__ import annotations

import random
import typing

import pytest

import engine
from engine.rulesets.blitzkrieg1940 import model
from engine.rulesets.blitzkrieg1940.frames import HANDLERS
from engine.state import GameState


def _kinds() -> set[str]:
    out: set[str] = set()
    for cls in typing.get_args(model.Frame):
        hint = typing.get_type_hints(cls)["kind"]
        out |= set(typing.get_args(hint))
    return out


def test_2_9_every_frame_kind_has_one_handler() -> None:
    assert set(HANDLERS) == _kinds()
    for kind, handler in HANDLERS.items():
        assert handler.kind == kind


@pytest.mark.parametrize("scenario", ["hannut", "stonne"])
def test_the_state_goes_through_the_codec_unchanged(scenario: str) -> None:
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", scenario), seed=5)
    rng = random.Random(5)
    rules = game.ruleset
    kinds: set[str] = set()
    for _ in range(400):
        if game.to_act is None:
            break
        st = game.state
        kinds |= {f.kind for f in model.data(st).frames}
        plain = st.to_dict()
        back = GameState.from_dict(plain, game.board, data_type=rules.state_type, status_type=rules.status_type)
        assert back.to_dict() == plain
        assert back.data == st.data and all(back.units[u].status == st.units[u].status for u in st.units)
        game.apply(rng.choice(game.legal_actions()))
    assert {"deploy", "chit", "activation"} <= kinds
