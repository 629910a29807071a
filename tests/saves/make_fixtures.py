"""Writes the frozen save fixtures of the current save format into tests/saves/fixtures/.

Run from the repository root::

    .venv/bin/python tests/saves/make_fixtures.py

Each fixture is ``format<N>_<name>.planspiel`` with its expected values in ``format<N>_expected.json``.
Files that exist are left alone: once written, fixtures are frozen test data that prove old saves keep
loading. Bump ``saves.migrations.FORMAT_VERSION`` first to add the fixtures of a new format beside the old.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import saves  # noqa: E402
from engine.dice import ScriptedDice  # noqa: E402
from tests.minirules import RULESET as MINIRULES  # noqa: E402
from tests.saves.helpers import play_random  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _duel(seed: int, actions: int, dice: ScriptedDice | None = None) -> engine.Game:
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=seed, dice=dice)
    return play_random(game, seed, actions)


def _expected(data: bytes, game: engine.Game, kind: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "ruleset": game.ruleset.id,
        "scenario": game.scenario.id,
        "seed": game.seed,
        "turn": game.state.turn,
        "history": [game.describe(a) for a in game.history],
        "state_sha256": hashlib.sha256(json.dumps(game.state.to_dict(), sort_keys=True).encode()).hexdigest(),
        "file_sha256": hashlib.sha256(data).hexdigest(),
    }


def build() -> dict[str, tuple[bytes, dict[str, Any]]]:
    """The fixtures of the current format: name → (bytes, expected values)."""
    out: dict[str, tuple[bytes, dict[str, Any]]] = {}
    duel = _duel(7, 12)
    data, _ = saves.encode_game(duel, {"blue": "ai:random"}, created="2026-01-01T12:00:00.000+00:00")
    out["duel"] = (data, {**_expected(data, duel, "game"), "players": {"red": "human", "blue": "ai:random"}})

    scripted = _duel(3, 8, ScriptedDice([6, 1, 5, 2, 4, 3] * 20))
    data, _ = saves.encode_game(scripted, created="2026-01-01T12:00:00.000+00:00")
    out["duel_scripted"] = (data, {**_expected(data, scripted, "game"), "players": {"red": "human", "blue": "human"}})

    hannut = play_random(engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=3), 3, 40)
    data, _ = saves.encode_game(hannut, {"french": "ai:greedy"}, created="2026-01-01T12:00:00.000+00:00")
    out["hannut"] = (data, {**_expected(data, hannut, "game"), "players": {"german": "human", "french": "ai:greedy"}})

    battle = _duel(11, 6)
    roster = {
        u.id: saves.RosterUnit(u.id, u.type, u.side, u.steps, losses=1 if u.id == "red-inf-1" else 0)
        for u in battle.state.units.values()
    }
    campaign = saves.CampaignSave(
        campaign="test-march",
        title="Test march",
        ruleset="minirules",
        roster=roster,
        battle=battle,
        results=[{"scenario": "duel", "winner": "red", "reason": "fixture"}],
        data={"branch": "north"},
        players={"red": "human", "blue": "ai:random"},
        created="2026-01-01T12:00:00.000+00:00",
    )
    data, _ = saves.encode_campaign(campaign)
    out["campaign"] = (
        data,
        {
            **_expected(data, battle, "campaign"),
            "campaign": "test-march",
            "roster": {uid: u.to_dict() for uid, u in sorted(roster.items())},
            "players": {"red": "human", "blue": "ai:random"},
        },
    )
    return out


def main() -> int:
    """Write the missing fixtures of the current format; returns the exit code."""
    engine.register_ruleset(MINIRULES, replace=True)
    return write_missing(FIXTURES, build())


def write_missing(folder: Path, built: dict[str, tuple[bytes, dict[str, Any]]]) -> int:
    """Write the fixtures of ``built`` (name → bytes and expectations) that ``folder`` does not hold yet, and their
    expectations into the folder's manifest; frozen files are kept. Returns the exit code."""
    version = saves.FORMAT_VERSION
    folder.mkdir(parents=True, exist_ok=True)

    def shown(path: Path) -> Path:
        return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path

    manifest_path = folder / f"format{version}_expected.json"
    manifest: dict[str, Any] = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    wrote = 0
    for name, (data, expected) in built.items():
        path = folder / f"format{version}_{name}{saves.SUFFIX}"
        if path.exists():
            print(f"kept   {shown(path)} (frozen)")
            continue
        path.write_bytes(data)
        manifest[path.name] = expected
        wrote += 1
        print(f"wrote  {shown(path)} ({len(data)} bytes)")
    if wrote:
        manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"wrote  {shown(manifest_path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
