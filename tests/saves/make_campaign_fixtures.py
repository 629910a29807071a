"""Writes the frozen campaign-save fixtures of the current save format into tests/saves/fixtures/campaigns/: a
Mai 1940 campaign as the game client writes it, between its two battles and in the middle of battle 2.

Run from the repository root::

    .venv/bin/python tests/saves/make_campaign_fixtures.py

Files that exist are left alone (frozen test data that prove old campaign saves keep loading); bump
``saves.migrations.FORMAT_VERSION`` first to add the fixtures of a new format beside the old.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import saves  # noqa: E402
from engine import campaign as cp  # noqa: E402
from engine.state import Outcome  # noqa: E402
from tests.saves.helpers import play_random  # noqa: E402
from tests.saves.make_fixtures import write_missing  # noqa: E402
from tui.campaign import CampaignPlay  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "campaigns"
CREATED = "2026-01-01T12:00:00.000+00:00"


def _roster(play: CampaignPlay) -> dict[str, Any]:
    return {uid: u.to_dict() for uid, u in sorted(play.save.roster.items())}


def build() -> dict[str, tuple[bytes, dict[str, Any]]]:
    """The fixtures of this format: name → (bytes, what they must load as)."""
    camp = cp.load_campaign("blitzkrieg1940", "mai-1940")
    roster = cp.initial_roster(camp)
    game = engine.new_game(cp.battle_scenario(camp, "hannut", roster), seed=5)
    save = saves.CampaignSave(
        campaign=camp.id,
        title=camp.title,
        ruleset=camp.ruleset,
        roster={uid: saves.RosterUnit.from_entry(e) for uid, e in roster.items()},
        battle=game,
        data={"battle": "hannut", "number": 1, "points": 0, "side": camp.side},
        players={"german": "human", "french": "ai:easy"},
        created=CREATED,
    )
    out: dict[str, tuple[bytes, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        play = CampaignPlay(save, Path(tmp) / "mai.planspiel")
        st = game.state  # Hannut's end, made by hand: one unit lost, one down a step, a French victory
        st.units["ger-i35pzr-pz2"].steps, st.units["ger-i35pzr-pz2"].hex = 0, None
        st.units["ger-i33schr-sch-3"].steps = 1
        st.outcome = Outcome("french", "fixture")
        play.finish_battle({"german": 3, "french": 0})
        data, _ = saves.encode_campaign(play.save)
        expected = {
            "campaign": camp.id,
            "battle": None,
            "data": dict(play.save.data),
            "results": list(play.save.results),
            "roster": _roster(play),
            "players": dict(play.save.players),
        }
        out["mai1940_between"] = (data, expected)
        battle = play.start_battle({"german": ["ger-i69schr-sch-3"]}, seed=6)
        play_random(battle, 6, 30)
        data, _ = saves.encode_campaign(play.save)
        out["mai1940_battle2"] = (
            data,
            {
                **expected,
                "battle": {
                    "scenario": battle.scenario.id,
                    "seed": battle.seed,
                    "history": [battle.describe(a) for a in battle.history],
                    "state_sha256": hashlib.sha256(
                        json.dumps(battle.state.to_dict(), sort_keys=True).encode()
                    ).hexdigest(),
                },
                "data": dict(play.save.data),
                "roster": _roster(play),
            },
        )
    return {k: (d, {**e, "file_sha256": hashlib.sha256(d).hexdigest()}) for k, (d, e) in out.items()}


def main() -> int:
    """Write the missing fixtures of the current format; returns the exit code."""
    return write_missing(FIXTURES, build())


if __name__ == "__main__":
    sys.exit(main())
