"""Provides campaign saves: the roster of units carried from battle to battle, and the current battle's save.

A campaign save is a save file of kind ``"campaign"`` (same header, checks and atomic writes as a game save);
its body holds the roster by stable unit id with each unit's losses and experience, the results of the
battles fought, campaign data, the players, and the current battle as a complete game save (bytes), which
loads through the same checks as any game save.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from engine.campaign import END, RosterEntry
from engine.game import Game
from engine.rules import get_ruleset

from . import migrations
from .codec import MAX_FILE_BYTES, pack_save, unpack_save
from .errors import SaveError, shown
from .fileio import backup_path, read_bounded, write_atomic
from .games import SavedGame, Verify, decode_game, encode_game, is_good_save
from .header import SaveHeader, SideInfo, header_from_dict, utc_now

__all__ = ["CampaignSave", "RosterUnit", "decode_campaign", "encode_campaign", "load_campaign", "save_campaign"]


@dataclass(frozen=True, slots=True)
class RosterUnit:
    """A unit the campaign carries over between battles, by its stable id."""

    id: str
    """Stable id from the scenarios (``ger-5pzr-1``)."""
    type: str
    """Unit type in the ruleset."""
    side: str
    steps: int
    """Steps remaining (0: lost for good)."""
    losses: int = 0
    """Steps lost so far in the campaign."""
    experience: int = 0
    status: Mapping[str, Any] = field(default_factory=dict)
    """Other plain values the campaign rules carry over."""

    @classmethod
    def from_entry(cls, entry: RosterEntry) -> RosterUnit:
        """The save's record of an engine roster entry (its full steps, formation and earlier ids in ``status``)."""
        status = {"full": entry.full, "formation": entry.formation, "was": list(entry.was)}
        return cls(entry.id, entry.type, entry.side, entry.steps, entry.losses, entry.experience, status)

    def to_entry(self) -> RosterEntry:
        """The engine's roster entry (:mod:`engine.campaign`) of this unit."""
        full, formation, was = self.status.get("full"), self.status.get("formation"), self.status.get("was", [])
        return RosterEntry(
            id=self.id,
            type=self.type,
            side=self.side,
            steps=self.steps,
            full=full if isinstance(full, int) and not isinstance(full, bool) else self.steps,
            losses=self.losses,
            experience=self.experience,
            formation=formation if isinstance(formation, str) else None,
            was=tuple(w for w in was if isinstance(w, str)) if isinstance(was, list) else (),
        )

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for the save."""
        return {
            "id": self.id,
            "type": self.type,
            "side": self.side,
            "steps": self.steps,
            "losses": self.losses,
            "experience": self.experience,
            "status": dict(self.status),
        }


@dataclass(slots=True)
class CampaignSave:
    """A campaign in progress."""

    campaign: str
    """The campaign id (``scenarios/<ruleset>/campaigns/<id>.toml``)."""
    title: str
    ruleset: str
    roster: dict[str, RosterUnit] = field(default_factory=dict)
    """Unit id → the unit's state between battles."""
    battle: Game | None = None
    """The battle being fought, or None between battles."""
    results: list[dict[str, Any]] = field(default_factory=list)
    """One plain dict per battle fought (for example scenario, winner, reason)."""
    data: dict[str, Any] = field(default_factory=dict)
    """Campaign-specific plain values (branch taken, points...)."""
    players: dict[str, str] = field(default_factory=dict)
    """Side id → ``"human"`` or ``"ai:<level>"``."""
    created: str | None = None
    """When the campaign was first saved (set on load; kept on later saves)."""
    warnings: list[str] = field(default_factory=list)
    """Problems found while loading that did not stop it (the current battle's included)."""

    def losses(self, side: str | None = None) -> int:
        """Steps lost so far (by one side, or by all)."""
        return sum(u.losses for u in self.roster.values() if side is None or u.side == side)


def _header(campaign: CampaignSave, battle: SaveHeader | None, now: str) -> SaveHeader:
    if battle is not None:
        return SaveHeader(
            format=migrations.FORMAT_VERSION,
            kind="campaign",
            app=engine.__version__,
            ruleset=campaign.ruleset,
            ruleset_version=battle.ruleset_version,
            scenario=battle.scenario,
            title=battle.title,
            turn=battle.turn,
            actions=battle.actions,
            to_act=battle.to_act,
            winner=battle.winner,
            result=battle.result,
            sides=battle.sides,
            created=campaign.created or now,
            updated=now,
            campaign=campaign.campaign,
            campaign_title=campaign.title,
        )
    try:
        version = str(get_ruleset(campaign.ruleset).version)
    except LookupError:
        version = ""
    # A campaign that has ended reads as over (Continue then offers unfinished games first): its last battle's winner.
    done = campaign.data.get("battle") == END and bool(campaign.results)
    last = campaign.results[-1] if done else {}
    winner = str(last.get("winner") or "draw") if done else None
    return SaveHeader(
        format=migrations.FORMAT_VERSION,
        kind="campaign",
        app=engine.__version__,
        ruleset=campaign.ruleset,
        ruleset_version=version,
        scenario="",
        title="",
        turn=0,
        actions=0,
        to_act=None,
        winner=winner,
        result="the campaign is over" if done else None,
        sides=tuple(SideInfo(s, s.title(), p) for s, p in campaign.players.items()),
        created=campaign.created or now,
        updated=now,
        campaign=campaign.campaign,
        campaign_title=campaign.title,
    )


def encode_campaign(campaign: CampaignSave, *, name: str = "<campaign>") -> tuple[bytes, SaveHeader]:
    """The bytes of a campaign save and its header (nothing is written).

    Raises:
        SaveError: the campaign or its battle cannot be saved.
        ValueError: the battle is of another ruleset, or ``players`` names an unknown side.
    """
    now = utc_now()
    battle_bytes: bytes | None = None
    battle_header: SaveHeader | None = None
    if campaign.battle is not None:
        if campaign.battle.ruleset.id != campaign.ruleset:
            raise ValueError(
                f"the battle is played under {campaign.battle.ruleset.id}, the campaign under {campaign.ruleset}"
            )
        battle_bytes, battle_header = encode_game(
            campaign.battle,
            {s: p for s, p in campaign.players.items() if s in campaign.battle.scenario.side_ids()},
            name=f"{name} (current battle)",
        )
    header = _header(campaign, battle_header, now)
    body = {
        "roster": {uid: u.to_dict() for uid, u in sorted(campaign.roster.items())},
        "results": list(campaign.results),
        "data": dict(campaign.data),
        "players": dict(campaign.players),
        "battle": battle_bytes,
    }
    try:
        data = pack_save(header.to_dict(), body)
    except (TypeError, ValueError, OverflowError) as err:
        raise SaveError(name, f"cannot save: the campaign holds data a save cannot store ({err})") from None
    return data, header


def save_campaign(campaign: CampaignSave, path: str | os.PathLike[str]) -> SaveHeader:
    """Save a campaign atomically (the previous good file kept as ``<path>.bak``); returns the header written.

    Raises:
        SaveError: it cannot be saved or written; the previous save is then intact.
        ValueError: see :func:`encode_campaign`.
    """
    target = Path(path)
    data, header = encode_campaign(campaign, name=str(target))
    write_atomic(target, data, backup=True, is_good=is_good_save)
    if campaign.created is None:
        campaign.created = header.created
    return header


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _roster(value: Any, name: str) -> dict[str, RosterUnit]:
    if not isinstance(value, dict):
        raise SaveError(name, "is damaged: the roster is not a map")
    out: dict[str, RosterUnit] = {}
    for uid, u in value.items():
        if not (
            isinstance(uid, str)
            and isinstance(u, dict)
            and all(isinstance(u.get(k), str) for k in ("id", "type", "side"))
            and all(_int(u.get(k)) for k in ("steps", "losses", "experience"))
            and isinstance(u.get("status", {}), dict)
        ):
            raise SaveError(name, f"is damaged: roster entry {shown(uid)} is not a unit")
        out[uid] = RosterUnit(
            u["id"], u["type"], u["side"], u["steps"], u["losses"], u["experience"], u.get("status", {})
        )
    return out


def decode_campaign(data: bytes, name: str, *, verify: Verify = "replay") -> CampaignSave:
    """Load a campaign from the bytes of a campaign save (its battle checked as ``verify`` says).

    Raises:
        SaveError: the bytes are not a loadable campaign save.
    """
    header_dict, body = unpack_save(data, name)
    header = header_from_dict(header_dict, name)
    if header.kind != "campaign" or header.campaign is None:
        raise SaveError(name, f"is a {header.kind} save, not a campaign save (load it with saves.load_game)")
    results, extra, players = body.get("results"), body.get("data"), body.get("players")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise SaveError(name, "is damaged: the battle results are not a list of maps")
    if not isinstance(extra, dict):
        raise SaveError(name, "is damaged: the campaign data is not a map")
    if not isinstance(players, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in players.items()):
        raise SaveError(name, "is damaged: the players are not a map of side to player")
    battle_bytes = body.get("battle")
    battle: SavedGame | None = None
    warnings: list[str] = []
    if battle_bytes is not None:
        if not isinstance(battle_bytes, bytes):
            raise SaveError(name, "is damaged: the current battle is not a game save")
        battle = decode_game(battle_bytes, f"{name} (current battle)", verify=verify)
        warnings.extend(battle.warnings)
    return CampaignSave(
        campaign=header.campaign,
        title=header.campaign_title or header.campaign,
        ruleset=header.ruleset,
        roster=_roster(body.get("roster"), name),
        battle=battle,
        results=results,
        data=extra,
        players=players,
        created=header.created,
        warnings=warnings,
    )


def load_campaign(path: str | os.PathLike[str], *, verify: Verify = "replay", backup: bool = True) -> CampaignSave:
    """Load a campaign save (falling back to ``<path>.bak`` as :func:`saves.load_game` does).

    Raises:
        SaveError: the file (and its backup) cannot be loaded.
    """
    target = Path(path)
    try:
        return decode_campaign(read_bounded(target, MAX_FILE_BYTES), str(target), verify=verify)
    except SaveError as err:
        bak = backup_path(target)
        if not backup or not bak.is_file():
            raise
        try:
            loaded = decode_campaign(read_bounded(bak, MAX_FILE_BYTES), str(bak), verify=verify)
        except SaveError as bak_err:
            raise SaveError(target, f"{err.cause}; its backup cannot be loaded either: {bak_err.cause}") from None
        loaded.warnings.insert(0, f"{err}; loaded the backup {bak.name} (the save before it) instead")
        return loaded
