"""Provides a campaign at the table: its save, the battle under way, the end of a battle and the next one.

The rules of a campaign are the engine's (:mod:`engine.campaign`): the carry-over, the replacements, the next
battle's set-up. This module only calls them in order and keeps the campaign save (:mod:`saves.campaign`) up to
date: after every action of a battle (the battle's game save is inside the campaign save), at the end of a battle
(the carry-over applied and the battle removed, in one atomic write) and when the next battle starts.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import engine
from engine import campaign as cp
from engine.ai import parse_player
from engine.game import Game

from .lastsave import load_saves

__all__ = ["CampaignPlay", "CampaignSaver"]


class CampaignPlay:
    """A campaign being played: the campaign file, its save and where the save goes.

    Args:
        save: the loaded or new :class:`saves.CampaignSave`.
        path: the campaign save's file.
    """

    def __init__(self, save: Any, path: Path) -> None:
        self.save = save
        self.path = Path(path)
        self.campaign: cp.Campaign = cp.load_campaign(save.ruleset, save.campaign)

    @classmethod
    def new(
        cls, ruleset: str, campaign_id: str, players: Mapping[str, str], seed: int | None, path: str | Path
    ) -> CampaignPlay:
        """Start a campaign: the roster of its first battle, battle 1 set up, the save written to ``path``.

        Raises:
            PlanspielError: no such campaign or a broken file; SaveError: the save cannot be written.
        """
        saves = load_saves()
        if saves is None:
            raise engine.PlanspielError("saves are not available in this installation")
        camp = cp.load_campaign(ruleset, campaign_id)
        roster = cp.initial_roster(camp)
        scenario = cp.battle_scenario(camp, camp.first.id, roster)
        game = engine.new_game(scenario, seed=secrets.randbelow(2**31) if seed is None else seed)
        save = saves.CampaignSave(
            campaign=camp.id,
            title=camp.title,
            ruleset=camp.ruleset,
            roster={uid: saves.RosterUnit.from_entry(e) for uid, e in roster.items()},
            battle=game,
            data={"battle": camp.first.id, "number": 1, "points": 0, "side": camp.side},
            players={s: players.get(s, "human") for s, _ in cp.campaign_sides(camp)},
        )
        play = cls(save, Path(path))
        play.write()
        return play

    @classmethod
    def load(cls, path: str | Path) -> CampaignPlay:
        """Load a campaign save and its campaign file.

        Raises:
            SaveError: the save cannot be loaded; PlanspielError: its campaign file is missing or broken;
            ValueError: the save does not match the campaign (a battle that is not in it).
        """
        saves = load_saves()
        if saves is None:
            raise engine.PlanspielError("saves are not available in this installation")
        play = cls(saves.load_campaign(path, verify="snapshot"), Path(path))
        battle_id = play.battle_id
        if battle_id is not None:
            try:
                battle = play.campaign.battle(battle_id)
            except KeyError:
                raise ValueError(f"{path}: battle {battle_id!r} is not in the campaign {play.campaign.id}") from None
            if play.game is not None and play.game.scenario.id != battle.scenario:
                raise ValueError(
                    f"{path}: the battle under way is {play.game.scenario.id}, the campaign expects {battle.scenario}"
                )
        return play

    # --- Where the campaign stands --------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The battle under way (None between battles and at the end)."""
        game: Game | None = self.save.battle
        return game

    @property
    def battle_id(self) -> str | None:
        """The battle under way or to come next (None: the campaign is over)."""
        bid = self.save.data.get("battle")
        return bid if isinstance(bid, str) and bid != cp.END else None

    @property
    def number(self) -> int:
        """The number of the battle under way or to come (1 for the first)."""
        n = self.save.data.get("number", 1)
        return n if isinstance(n, int) else 1

    @property
    def over(self) -> bool:
        """True when the campaign has ended."""
        return self.battle_id is None

    @property
    def points(self) -> int:
        """The campaign points so far."""
        p = self.save.data.get("points", 0)
        return p if isinstance(p, int) else 0

    @property
    def players(self) -> dict[str, str]:
        """Side → ``human`` or ``ai:<level>``."""
        return dict(self.save.players)

    def humans(self) -> list[str]:
        """The sides people play, in the campaign's carried order then the rest."""
        sides = list(self.campaign.carry) + [s for s in self.save.players if s not in self.campaign.carry]
        return [s for s in sides if parse_player(self.save.players.get(s, "human"))[0] == "human"]

    def roster(self) -> dict[str, cp.RosterEntry]:
        """The roster as the engine reads it."""
        return {uid: u.to_entry() for uid, u in self.save.roster.items()}

    def last_result(self) -> Mapping[str, Any] | None:
        """The record of the last battle fought (None before the first has ended)."""
        return self.save.results[-1] if self.save.results else None

    # --- Saving ---------------------------------------------------------------------------------------

    def write(self) -> None:
        """Write the campaign save atomically (its battle included).

        Raises:
            SaveError: not written; the previous save is intact.
        """
        saves = load_saves()
        if saves is None:
            raise engine.PlanspielError("saves are not available in this installation")
        saves.save_campaign(self.save, self.path)

    # --- The end of a battle and the next ---------------------------------------------------------------

    def finish_battle(self, losses: Mapping[str, int] | None = None) -> cp.CarryOver:
        """The battle under way has ended (whatever way): the engine's carry-over from its final state, applied to
        the roster, the result recorded, the battle removed, the save written in one atomic write.

        ``losses`` are the steps lost by side as the game's end showed them (kept with the result).

        Raises:
            ValueError: no battle is under way, or it has not ended.
        """
        game = self.game
        battle_id = self.battle_id
        if game is None or battle_id is None or game.outcome is None:
            raise ValueError("no finished battle to carry over")
        outcome = game.outcome
        carried = cp.carry_over(game.state, outcome.winner, self.roster(), self.campaign, battle_id)
        saves = load_saves()
        assert saves is not None
        self.save.results.append(
            {
                "battle": battle_id,
                "scenario": game.scenario.id,
                "title": game.scenario.title,
                "winner": outcome.winner,
                "reason": outcome.reason,
                "result": carried.result,
                "points": carried.points,
                "turns": game.state.turn,
                "losses": dict(losses or {}),
                "carried": [n.to_dict() for n in carried.notes],
                "next": carried.next or cp.END,
            }
        )
        self.save.roster = {uid: saves.RosterUnit.from_entry(e) for uid, e in carried.roster.items()}
        self.save.battle = None
        self.save.data = {
            **self.save.data,
            "battle": carried.next or cp.END,
            "number": self.number + 1 if carried.next else self.number,
            "points": self.points + carried.points,
        }
        self.write()
        return carried

    def points_left(self, side: str, picks: Sequence[str]) -> int:
        """Replacement points ``side`` has left before the next battle after ``picks`` (ValueError: a bad pick)."""
        assert self.battle_id is not None
        return cp.points_left(self.roster(), self.campaign, self.battle_id, side, picks)

    def start_battle(self, picks: Mapping[str, Sequence[str]], seed: int | None = None) -> Game:
        """Start the next battle: each side's replacements (``picks`` for the sides people play, the engine's
        :func:`~engine.campaign.auto_replacements` for the AI's), the battle set up with the carried force, the
        save written with it.

        Raises:
            ValueError: the campaign is over, or a pick cannot be bought (nothing changed then).
        """
        battle_id = self.battle_id
        if battle_id is None:
            raise ValueError("the campaign is over")
        roster = self.roster()
        notes: list[dict[str, str]] = []
        for side in self.campaign.carry:
            if parse_player(self.save.players.get(side, "human"))[0] == "human":
                chosen = list(picks.get(side, ()))
            else:
                chosen = cp.auto_replacements(roster, self.campaign, battle_id, side)
            roster, done = cp.apply_replacements(roster, self.campaign, battle_id, side, chosen)
            notes.extend(n.to_dict() for n in done)
        sc = cp.battle_scenario(self.campaign, battle_id, roster)
        game = engine.new_game(sc, seed=secrets.randbelow(2**31) if seed is None else seed)
        saves = load_saves()
        assert saves is not None
        self.save.roster = {uid: saves.RosterUnit.from_entry(e) for uid, e in roster.items()}
        self.save.battle = game
        replaced = dict(self.save.data.get("replaced", {}))
        replaced[battle_id] = notes
        self.save.data = {**self.save.data, "replaced": replaced}
        self.write()
        return game


class CampaignSaver:
    """The autosaver of a campaign battle: every save writes the whole campaign save with the battle in it (the
    battle's game save is linked to the campaign by being inside it). Has what a session needs of an autosaver."""

    def __init__(self, play: CampaignPlay, players: Mapping[str, str]) -> None:
        self.play = play
        self.players = dict(players)

    @property
    def path(self) -> Path:
        return self.play.path

    def save(self) -> None:
        """Write the campaign save with the battle as it stands (SaveError: not written)."""
        self.play.write()
