"""Provides campaigns: chained battles with a carried-over force (``scenarios/<ruleset>/campaigns/<id>.toml``).

A campaign file is data: its battles in order, the branch each result takes (win, draw or loss of the campaign's
``side`` → the next battle or the end), which sides carry their units over, the mapping of one battle's units or
formations to the next battle's (where the orders of battle differ), the replacements between battles and the
scoring. :func:`parse_campaign` checks it and reports every problem with file and line, as scenarios are.

The carry-over is computed here, from a finished battle's final state, in one place (:func:`carry_over`),
whatever way the battle ended (victory check, last turn, resignation: the caller passes the result). The next
battle is set up from the roster by :func:`battle_scenario`: a unit lost is absent, a unit's lost steps stay lost
unless replaced (:func:`apply_replacements`). All functions are pure: they return new rosters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import Problem, ScenarioError
from .rules import get_ruleset, ruleset_names
from .scenario import (
    _ID_RE,
    _count,
    _load_toml,
    _Report,
    _shown,
    find_scenario,
    load_scenario,
    parse_scenario,
    read_checked,
)
from .specs import Scenario

__all__ = [
    "RESULTS",
    "Battle",
    "Campaign",
    "CarryNote",
    "CarryOver",
    "MapEntry",
    "Replacements",
    "RosterEntry",
    "apply_replacements",
    "auto_replacements",
    "battle_result",
    "battle_scenario",
    "campaign_ids",
    "carry_over",
    "find_campaign",
    "initial_roster",
    "list_campaigns",
    "load_campaign",
    "parse_campaign",
    "points_left",
    "replacement_points",
    "step_cost",
    "validate_campaign_path",
]

RESULTS = ("win", "draw", "loss")
"""A battle's result for the campaign's side."""

END = "end"
"""The branch target that ends the campaign."""


@dataclass(frozen=True, slots=True)
class MapEntry:
    """Units of an earlier battle that fight a battle as other units (PROPOSED in the campaign file)."""

    source: str
    """A unit or formation id of an earlier battle."""
    target: str
    """A unit or formation id of this battle."""
    why: str = ""
    line: int | None = None
    """Its line in the campaign file (for problems)."""


@dataclass(frozen=True, slots=True)
class Replacements:
    """Steps a side may restore before a battle: ``points`` to spend (``cost`` per step), or a fixed schedule."""

    side: str
    points: int = 0
    cost: int = 1
    schedule: tuple[tuple[str, int], ...] = ()
    """(unit id, steps restored), given whatever the player chooses."""
    why: str = ""
    line: int | None = None
    card: bool = False
    """``cost = "card"``: a step costs its unit type's card cost (the ruleset's purchase points)."""
    rebuild: bool = False
    """Lost units may be rebuilt (one step at a time)."""


@dataclass(frozen=True, slots=True)
class Battle:
    """One battle of a campaign."""

    id: str
    scenario: str
    next: Mapping[str, str]
    """Result (win, draw, loss) → the next battle's id or ``"end"``."""
    maps: tuple[MapEntry, ...] = ()
    """How units of earlier battles fight this one."""
    replacements: tuple[Replacements, ...] = ()
    """Given before this battle."""


@dataclass(frozen=True, slots=True)
class Campaign:
    """A loaded, checked campaign file."""

    id: str
    ruleset: str
    title: str
    side: str
    """The side whose results (win, draw, loss) choose the branches and are scored."""
    carry: tuple[str, ...]
    """The sides whose units carry over from battle to battle."""
    battles: tuple[Battle, ...]
    scoring: Mapping[str, int]
    """Result → campaign points of ``side``."""
    briefing: str = ""
    path: str = ""
    text: str = ""

    @property
    def first(self) -> Battle:
        return self.battles[0]

    def battle(self, battle_id: str) -> Battle:
        """The battle with that id (KeyError if none)."""
        for b in self.battles:
            if b.id == battle_id:
                return b
        raise KeyError(battle_id)


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """A unit carried by a campaign, under the id it has in the battle to come."""

    id: str
    type: str
    side: str
    steps: int
    """Steps left (0 with ``full`` above 0: lost for good)."""
    full: int
    """The unit type's full steps (0 for units without steps, such as headquarters)."""
    losses: int = 0
    """Steps lost in the campaign so far (replaced steps included)."""
    experience: int = 0
    formation: str | None = None
    was: tuple[str, ...] = ()
    """The ids it had in earlier battles, oldest first (a unit mapped to another)."""

    @property
    def lost(self) -> bool:
        return self.full > 0 and self.steps <= 0


@dataclass(frozen=True, slots=True)
class CarryNote:
    """One line of what carried over and why."""

    unit: str
    side: str
    what: str
    why: str

    def __str__(self) -> str:
        return f"{self.unit}: {self.what} ({self.why})"

    def to_dict(self) -> dict[str, str]:
        return {"unit": self.unit, "side": self.side, "what": self.what, "why": self.why}


@dataclass(frozen=True, slots=True)
class CarryOver:
    """The result of :func:`carry_over`."""

    roster: dict[str, RosterEntry]
    notes: tuple[CarryNote, ...]
    result: str
    """win, draw or loss of the campaign's side."""
    next: str | None
    """The next battle's id, or None when the campaign ends."""
    points: int
    """Campaign points of this battle (scoring)."""


# --- Files -----------------------------------------------------------------------------------------------------

_KEYS = {"ruleset", "id", "title", "briefing", "side", "carry", "scoring", "battles", "notes"}
_BATTLE_KEYS = {"id", "scenario", "win", "draw", "loss", "map", "replacements", "notes"}


def _campaign_dir(ruleset_id: str) -> Path | None:
    d = resources.files("scenarios") / ruleset_id / "campaigns"
    return Path(str(d)) if d.is_dir() else None


def campaign_ids(ruleset_id: str) -> list[str]:
    """Ids of the campaigns shipped for a ruleset, sorted."""
    d = _campaign_dir(ruleset_id)
    return sorted(p.stem for p in d.glob("*.toml")) if d is not None else []


def find_campaign(ruleset_id: str, campaign_id: str) -> Path:
    """The path of a shipped campaign.

    Raises:
        ScenarioError: no such campaign.
    """
    get_ruleset(ruleset_id)
    d = _campaign_dir(ruleset_id)
    if d is not None and _ID_RE.match(campaign_id) and (d / f"{campaign_id}.toml").is_file():
        return d / f"{campaign_id}.toml"
    known = ", ".join(campaign_ids(ruleset_id)) or "none"
    raise ScenarioError(
        [Problem(f"{ruleset_id}/{campaign_id}", "", f"no such campaign for {ruleset_id} (known: {known})")]
    )


def load_campaign(ruleset_id: str, campaign_id: str) -> Campaign:
    """Load a shipped campaign.

    Raises:
        ScenarioError: missing or broken (every problem listed); UnknownRulesetError.
    """
    path = find_campaign(ruleset_id, campaign_id)
    return parse_campaign(path.read_text(encoding="utf-8"), str(path))


def list_campaigns() -> list[Campaign | ScenarioError]:
    """Every shipped campaign of every installed ruleset (a broken one as its error), ruleset then id order."""
    out: list[Campaign | ScenarioError] = []
    for rs in ruleset_names():
        for cid in campaign_ids(rs):
            try:
                out.append(load_campaign(rs, cid))
            except ScenarioError as err:
                out.append(err)
    return out


def validate_campaign_path(path: Path) -> list[Problem]:
    """Check a campaign file; the problems found (empty if none)."""
    text = read_checked(path)
    if isinstance(text, list):
        return text
    try:
        parse_campaign(text, str(path))
    except ScenarioError as err:
        return err.problems
    return []


def _text(data: Mapping[str, Any], key: str, report: _Report, *path: Any, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value:
        report.add(f'expected {key} = "..." (text), got {_shown(value)}', *path, key)
        return ""
    return value


def parse_campaign(text: str, file: str = "<campaign>") -> Campaign:
    """Parse and check a campaign file against its ruleset and the scenarios it names.

    Raises:
        ScenarioError: with every problem found.
    """
    report = _Report(file, text)
    data = _load_toml(text, report)
    if data is None:
        raise ScenarioError(report.problems)
    for key in data:
        if key not in _KEYS:
            report.add(f"unknown key {_shown(key)} (expected one of {', '.join(sorted(_KEYS))})", key)
    rs_id = _text(data, "ruleset", report)
    if rs_id and rs_id not in ruleset_names():
        report.add(f"unknown ruleset {_shown(rs_id)} (installed: {', '.join(ruleset_names())})", "ruleset")
        raise ScenarioError(report.problems)
    cid = data.get("id", Path(file).stem)
    if not isinstance(cid, str) or not _ID_RE.match(cid):
        report.add('expected id = "name" (letters, digits, - or _)', "id")
        cid = Path(file).stem
    title = _text(data, "title", report)
    side = _text(data, "side", report)
    carry_raw = data.get("carry", [])
    if not (isinstance(carry_raw, list) and all(isinstance(s, str) for s in carry_raw)):
        report.add(f"expected carry = [side ids], got {_shown(carry_raw)}", "carry")
        carry_raw = []
    scoring = _scoring(data.get("scoring", {}), report)
    battles_raw = data.get("battles")
    if not isinstance(battles_raw, list) or not battles_raw:
        report.add("expected one [[battles]] table per battle, in order", "battles")
        raise ScenarioError(report.problems)
    scenarios: dict[str, Scenario] = {}
    battles: list[Battle] = []
    counts = {"map": 0, "replacements": 0}
    for i, b in enumerate(battles_raw):
        battle = _battle(b, i, rs_id, report, scenarios, counts) if rs_id else None
        if battle is not None:
            battles.append(battle)
    if report.problems:
        raise ScenarioError(report.problems)
    _check_links(battles, side, tuple(carry_raw), scenarios, report)
    if report.problems:
        raise ScenarioError(report.problems)
    briefing = data.get("briefing", "")
    return Campaign(
        id=cid,
        ruleset=rs_id,
        title=title,
        side=side,
        carry=tuple(carry_raw),
        battles=tuple(battles),
        scoring=scoring,
        briefing=briefing if isinstance(briefing, str) else "",
        path=file,
        text=text,
    )


def _scoring(raw: Any, report: _Report) -> dict[str, int]:
    out = {"win": 3, "draw": 1, "loss": 0}
    if not isinstance(raw, dict):
        report.add("expected a table [scoring] with win, draw and loss points", "scoring")
        return out
    for key, value in raw.items():
        if key not in RESULTS:
            report.add(f"unknown key {_shown(key)} (expected win, draw or loss)", "scoring", key)
        elif not _count(value, -999, 999):
            report.add(f"expected a whole number of points, got {_shown(value)}", "scoring", key)
        else:
            out[key] = value
    return out


def _battle(
    raw: Any, i: int, rs_id: str, report: _Report, scenarios: dict[str, Scenario], counts: dict[str, int]
) -> Battle | None:
    """One [[battles]] table; ``counts`` numbers its [[battles.map]] and [[battles.replacements]] tables across
    the file, as the line locator does."""
    where = ("battles", i)
    if not isinstance(raw, dict):
        report.add("expected a [[battles]] table", *where)
        return None
    for key in raw:
        if key not in _BATTLE_KEYS:
            report.add(f"unknown key {_shown(key)} (expected one of {', '.join(sorted(_BATTLE_KEYS))})", *where, key)
    sc_id = _text(raw, "scenario", report, *where)
    bid = raw.get("id", sc_id)
    if not isinstance(bid, str) or not _ID_RE.match(bid):
        report.add('expected id = "name" (letters, digits, - or _)', *where, "id")
        return None
    if sc_id:
        try:
            scenarios[bid] = load_scenario(rs_id, sc_id)
        except ScenarioError as err:
            report.add(f"scenario {_shown(sc_id)} cannot be loaded: {err.problems[0].message}", *where, "scenario")
    nxt: dict[str, str] = {}
    for result in RESULTS:
        target = raw.get(result, END)
        if not isinstance(target, str):
            report.add(f'expected {result} = "<battle id>" or "end", got {_shown(target)}', *where, result)
            continue
        nxt[result] = target
    maps: list[MapEntry] = []
    raw_maps = raw.get("map", [])
    if not isinstance(raw_maps, list):
        report.add("expected [[battles.map]] tables", *where, "map")
        raw_maps = []
    for j, m in enumerate(raw_maps):
        line = report.loc.lines.get(("battles", "map", counts["map"]))
        counts["map"] += 1
        if not isinstance(m, dict) or not isinstance(m.get("from"), str) or not isinstance(m.get("to"), str):
            report.add(
                'expected from = "<unit or formation id>" and to = "<unit or formation id>"',
                *where,
                "map",
                j,
                line=line,
            )
            continue
        for key in m:
            if key not in ("from", "to", "why"):
                report.add(f"unknown key {_shown(key)} (expected from, to, why)", *where, "map", j, key, line=line)
        maps.append(MapEntry(m["from"], m["to"], str(m.get("why", "")), line))
    reps: list[Replacements] = []
    raw_reps = raw.get("replacements", [])
    if not isinstance(raw_reps, list):
        report.add("expected [[battles.replacements]] tables", *where, "replacements")
        raw_reps = []
    for j, r in enumerate(raw_reps):
        line = report.loc.lines.get(("battles", "replacements", counts["replacements"]))
        counts["replacements"] += 1
        rep = _replacements(r, report, line, *where, "replacements", j)
        if rep is not None:
            reps.append(rep)
    return Battle(bid, sc_id, nxt, tuple(maps), tuple(reps))


def _replacements(r: Any, report: _Report, line: int | None, *where: Any) -> Replacements | None:
    if not isinstance(r, dict) or not isinstance(r.get("side"), str):
        report.add('expected side = "<side id>" with points = N or schedule = [["unit-id", steps], ...]', *where)
        return None
    for key in r:
        if key not in ("side", "points", "cost", "schedule", "why", "rebuild"):
            report.add(f"unknown key {_shown(key)} (expected side, points, cost, schedule, why, rebuild)", *where, key)
    points, cost = r.get("points", 0), r.get("cost", 1)
    card = cost == "card"
    cost = 1 if card else cost
    rebuild = r.get("rebuild", False)
    if not isinstance(rebuild, bool):
        report.add(f"rebuild must be true or false, got {_shown(rebuild)}", *where, "rebuild")
        rebuild = False
    if not _count(points, 0, 999):
        report.add(f"points must be a whole number from 0 to 999, got {_shown(points)}", *where, "points")
        points = 0
    if not _count(cost, 1, 999):
        report.add(f'cost must be a whole number from 1 to 999 or "card", got {_shown(cost)}', *where, "cost")
        cost = 1
    schedule: list[tuple[str, int]] = []
    raw_schedule = r.get("schedule", [])
    ok = isinstance(raw_schedule, list)
    for item in raw_schedule if ok else []:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and _count(item[1], 1, 99):
            schedule.append((item[0], item[1]))
        else:
            ok = False
    if not ok:
        report.add(f'expected schedule = [["unit-id", steps], ...], got {_shown(raw_schedule)}', *where, "schedule")
    return Replacements(r["side"], points, cost, tuple(schedule), str(r.get("why", "")), line, card, rebuild)


def _ids(sc: Scenario) -> tuple[set[str], dict[str, list[str]]]:
    formations: dict[str, list[str]] = {}
    for u in sc.units:
        if u.formation is not None:
            formations.setdefault(u.formation, []).append(u.id)
    return {u.id for u in sc.units}, formations


def _check_links(
    battles: list[Battle], side: str, carry: tuple[str, ...], scenarios: dict[str, Scenario], report: _Report
) -> None:
    ids = [b.id for b in battles]
    for i, b in enumerate(battles):
        where = ("battles", i)
        if ids.count(b.id) > 1:
            report.add(f"battle id {_shown(b.id)} is used twice", *where, "id")
        sc = scenarios.get(b.id)
        if sc is None:
            continue
        sides = sc.side_ids()
        if side and side not in sides and not any(p.where.endswith("side") for p in report.problems):
            report.add(f"{_shown(side)} is not a side of {sc.id} ({', '.join(sides)})", "side")
        for s in carry:
            if s not in sides and not any(_shown(s) in p.message for p in report.problems):
                report.add(f"{_shown(s)} is not a side of {sc.id} ({', '.join(sides)})", "carry")
        for result, target in b.next.items():
            if target != END and target not in ids:
                report.add(f"no battle {_shown(target)} (battles: {', '.join(ids)}, or end)", *where, result)
            elif target != END and ids.index(target) <= i:
                report.add(f"battle {_shown(target)} is not a later battle (no loops)", *where, result)
        _check_maps_and_replacements(b, i, sc, battles, scenarios, carry, report)
    _check_types(battles, scenarios, carry, report)
    if battles and _unreachable(battles) and not report.problems:
        report.add(f"battles never reached from the first: {', '.join(_unreachable(battles))}", "battles")


def _check_types(
    battles: list[Battle], scenarios: dict[str, Scenario], carry: tuple[str, ...], report: _Report
) -> None:
    """A carried unit keeps its id and type from battle to battle: an id used for another unit type in a later
    battle (or a mapped id) would carry one unit's losses to another."""
    seen: dict[str, tuple[str, str]] = {}
    mapped = {x.split("/")[0] for b in battles for m in b.maps for x in (m.source, m.target)}
    for i, b in enumerate(battles):
        sc = scenarios.get(b.id)
        if sc is None:
            continue
        for u in sc.units:
            if u.side not in carry:
                continue
            first = seen.setdefault(u.id, (u.type, b.id))
            if first[0] != u.type and u.id not in mapped:  # a mapped id's other unit is held as ID/TYPE
                report.add(
                    f"unit {u.id} is a {first[0]} in {first[1]} and a {u.type} in {b.id}: a carried unit keeps its "
                    "type (give the unit another id, or map it with [[battles.map]])",
                    "battles",
                    i,
                    "scenario",
                )


def _check_maps_and_replacements(
    b: Battle,
    i: int,
    sc: Scenario,
    battles: list[Battle],
    scenarios: dict[str, Scenario],
    carry: tuple[str, ...],
    report: _Report,
) -> None:
    where = ("battles", i)
    units, formations = _ids(sc)
    earlier_units: set[str] = set()
    earlier_formations: set[str] = set()
    for e in battles[:i]:
        if e.id in scenarios:
            u, f = _ids(scenarios[e.id])
            earlier_units |= u | {f"{x.id}/{x.type}" for x in scenarios[e.id].units}  # held units (_map_into)
            earlier_formations |= set(f)
            earlier_units |= {m.target for m in e.maps}
    for j, m in enumerate(b.maps):
        if m.source not in earlier_units | earlier_formations:
            report.add(
                f"from: no unit or formation {_shown(m.source)} in an earlier battle", *where, "map", j, line=m.line
            )
        elif m.target not in units | set(formations):
            report.add(f"to: no unit or formation {_shown(m.target)} in {sc.id}", *where, "map", j, line=m.line)
        elif (m.source in earlier_formations) != (m.target in formations):
            report.add("from and to must both be units or both be formations", *where, "map", j, line=m.line)
    for j, r in enumerate(b.replacements):
        if r.side not in carry:
            report.add(f"side {_shown(r.side)} does not carry units over (carry = {list(carry)})", *where,
                       "replacements", j, line=r.line)  # fmt: skip
        for uid, _ in r.schedule:
            if uid not in units:
                report.add(f"schedule: no unit {_shown(uid)} in {sc.id}", *where, "replacements", j, line=r.line)


def _unreachable(battles: Sequence[Battle]) -> list[str]:
    """The ids of battles no branch leads to from the first."""
    seen = {battles[0].id}
    todo = [battles[0]]
    by_id = {b.id: b for b in battles}
    while todo:
        b = todo.pop()
        for t in b.next.values():
            if t in by_id and t not in seen:
                seen.add(t)
                todo.append(by_id[t])
    return [b.id for b in battles if b.id not in seen]


# --- The roster and the carry-over --------------------------------------------------------------------------


def _full_steps(ruleset_id: str, unit_type: str, fallback: int) -> int:
    """A unit type's full steps: the ruleset's ``steps`` of the type, else ``fallback`` (its steps at set-up)."""
    spec = get_ruleset(ruleset_id).unit_types.get(unit_type, {})
    steps = spec.get("steps") if isinstance(spec, Mapping) else None
    return steps if _count(steps, 0, 99) else fallback


@lru_cache(maxsize=32)
def _start_steps(ruleset_id: str, scenario_id: str) -> dict[str, int]:
    """Each unit's steps when the shipped scenario is set up (for rulesets whose unit types name no steps)."""
    from .game import new_game  # noqa: PLC0415 - the game module is not needed to read campaign files

    game = new_game(load_scenario(ruleset_id, scenario_id), seed=0)
    return {u.id: u.steps for u in game.state.units.values()}


def campaign_sides(campaign: Campaign) -> list[tuple[str, str]]:
    """Every side that fights in the campaign as (id, name), in the order the battles bring them in: a side of a
    later battle only (HACSE's Soviets in H-2) is chosen a player at the start like the first battle's."""
    out: dict[str, str] = {}
    for b in campaign.battles:
        for s in load_scenario(campaign.ruleset, b.scenario).sides:
            out.setdefault(s.id, s.name)
    return list(out.items())


def initial_roster(campaign: Campaign) -> dict[str, RosterEntry]:
    """The roster before the first battle: every unit of the carried sides, as the first scenario sets it up."""
    sc = load_scenario(campaign.ruleset, campaign.first.scenario)
    out: dict[str, RosterEntry] = {}
    for u in sc.units:
        if u.side not in campaign.carry:
            continue
        start = _start_steps(campaign.ruleset, campaign.first.scenario).get(u.id, 1)
        full = _full_steps(campaign.ruleset, u.type, u.steps if u.steps is not None else start)
        steps = u.steps if u.steps is not None else full
        out[u.id] = RosterEntry(u.id, u.type, u.side, steps, full, formation=u.formation)
    return out


def battle_result(campaign: Campaign, winner: str) -> str:
    """win, draw or loss of the campaign's side, for a battle's winner (a side id or ``"draw"``)."""
    if winner == "draw":
        return "draw"
    return "win" if winner == campaign.side else "loss"


def carry_over(
    state: Any, winner: str, roster: Mapping[str, RosterEntry], campaign: Campaign, battle_id: str
) -> CarryOver:
    """The roster after battle ``battle_id``, from its final ``state`` (an :class:`~engine.state.GameState`),
    ready for the next battle, with the list of what carried and why.

    ``winner`` is the side that won or ``"draw"``, however the battle ended (the rules' victory check, the last
    turn, a resignation: the caller passes the result, so that every ending is carried over the same way).
    """
    battle = campaign.battle(battle_id)
    result = battle_result(campaign, winner)
    nxt = battle.next[result]
    notes: list[CarryNote] = []
    out: dict[str, RosterEntry] = dict(roster)
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.side not in campaign.carry:
            continue
        before = roster.get(u.id)
        if before is None:  # a unit not in the roster yet (joins the campaign's force in this battle)
            start = _start_steps(campaign.ruleset, battle.scenario).get(u.id, max(u.steps, 1))
            full = _full_steps(campaign.ruleset, u.type, start)
            before = RosterEntry(u.id, u.type, u.side, full, full, formation=u.formation)
        steps = max(0, min(get_ruleset(campaign.ruleset).carried_steps(u), before.full)) if before.full > 0 else 0
        lost_now = max(0, before.steps - steps) if before.full > 0 else 0
        entry = replace(before, steps=steps, losses=before.losses + lost_now)
        out[u.id] = entry
        if entry.lost:
            what, why = "lost", f"eliminated at {battle_id}: not in later battles"
        elif before.full == 0:
            what, why = "carries", "no steps to lose (a headquarters is re-formed between battles)"
        elif lost_now:
            what = f"{steps} of {before.full} steps ({lost_now} lost at {battle_id})"
            why = "steps lost stay lost unless replaced"
        elif steps < before.full:
            what, why = f"{steps} of {before.full} steps", "steps lost earlier stay lost unless replaced"
        else:
            what, why = "full strength", "survived unhurt"
        notes.append(CarryNote(u.id, u.side, what, why))
    # A unit that fought this battle and is gone from the final state (a ruleset that removes destroyed units)
    # is lost: a unit never survives by leaving the state.
    fought = {u.id for u in load_scenario(campaign.ruleset, battle.scenario).units}
    for uid in sorted(fought):
        e = out.get(uid)
        if e is not None and uid not in state.units and e.full > 0 and not e.lost:
            out[uid] = replace(e, steps=0, losses=e.losses + e.steps)
            notes.append(CarryNote(uid, e.side, "lost", f"not in {battle_id}'s final state"))
    if nxt != END:
        out, mapped = _map_into(out, campaign, campaign.battle(nxt))
        notes.extend(mapped)
    return CarryOver(out, tuple(notes), result, None if nxt == END else nxt, campaign.scoring[result])


def _members(target: str, sc: Scenario) -> list[tuple[str, str]]:
    """(unit id, type) of a unit or of the units of a formation, in scenario order."""
    found = [(u.id, u.type) for u in sc.units if u.id == target]
    return found or [(u.id, u.type) for u in sc.units if u.formation == target]


def _map_into(
    roster: dict[str, RosterEntry], campaign: Campaign, battle: Battle
) -> tuple[dict[str, RosterEntry], list[CarryNote]]:
    """The roster renamed for ``battle``'s order of battle by its ``map`` entries: each unit of the target
    formation takes the first unpaired unit of the source formation of the same type (a unit to a unit: paired
    whatever the type). Units of the target left unpaired come fresh; source units left unpaired stay in the
    roster under their own ids, out of this battle; one whose id a unit of another type holds in this battle is
    held as ``ID/TYPE`` (a later map may name it so)."""
    sc = load_scenario(campaign.ruleset, battle.scenario)
    types = {u.id: u.type for u in sc.units}
    out = dict(roster)
    notes: list[CarryNote] = []
    placed: dict[str, RosterEntry] = {}
    for m in battle.maps:
        sources = [e for e in out.values() if e.id == m.source or (e.formation == m.source and e.id != m.source)]
        sources = [e for e in sources if types.get(e.id) != e.type]  # not those fighting there as themselves
        targets = _members(m.target, sc)
        single = len(targets) == 1 and targets[0][0] == m.target
        for tid, ttype in targets:
            pick = next((e for e in sources if single or e.type == ttype), None)
            if pick is None or tid in placed:
                continue
            sources.remove(pick)
            del out[pick.id]
            tformation = sc.unit(tid).formation
            full = _full_steps(campaign.ruleset, ttype, _start_steps(campaign.ruleset, battle.scenario).get(tid, 1))
            steps = 0 if pick.lost else (full if pick.full == 0 else min(full, pick.steps))
            placed[tid] = replace(
                pick, id=tid, type=ttype, full=full, steps=steps, formation=tformation, was=(*pick.was, pick.id)
            )
            why = m.why or f"{m.source} fights {battle.id} as {m.target}"
            state = "lost: it is absent" if placed[tid].lost else f"{steps} of {full} steps"
            notes.append(CarryNote(tid, pick.side, f"is {pick.id} ({state})", why))
    for e in sorted(out.values(), key=lambda e: e.id):  # an id another unit type holds in this battle
        if (e.id in types and types[e.id] != e.type) or e.id in placed:
            del out[e.id]
            held = f"{e.id}/{e.type}"
            out[held] = replace(e, id=held, was=(*e.was, e.id))
            notes.append(CarryNote(held, e.side, f"is {e.id} (out of {battle.id})", "no counterpart in this battle"))
    out.update(placed)
    return out, notes


# --- Replacements and the next battle's set-up ------------------------------------------------------------


def step_cost(campaign: Campaign, rep: Replacements, entry: RosterEntry) -> int:
    """What one step of ``entry`` costs under ``rep``: its ``cost``, or with ``cost = "card"`` the unit type's
    card cost in the ruleset's data (the purchase rules' points) divided by its steps, rounded up (PROPOSED: a
    whole platoon bought back costs about its card)."""
    if not rep.card:
        return rep.cost
    spec = get_ruleset(campaign.ruleset).unit_types.get(entry.type, {})
    cost = spec.get("cost") if isinstance(spec, Mapping) else None
    if not _count(cost, 1, 9999):
        return rep.cost
    return -(-cost // max(1, entry.full))


def _replacements_of(campaign: Campaign, battle_id: str, side: str) -> Replacements | None:
    return next((r for r in campaign.battle(battle_id).replacements if r.side == side), None)


def apply_replacements(
    roster: Mapping[str, RosterEntry], campaign: Campaign, battle_id: str, side: str, picks: Sequence[str] = ()
) -> tuple[dict[str, RosterEntry], list[CarryNote]]:
    """The roster after ``side``'s replacements before battle ``battle_id``: the schedule's steps, then one step
    per entry of ``picks`` (unit ids; a unit may be named more than once) while the points last. A lost unit is
    rebuilt only where the file says ``rebuild = true``; a unit never exceeds its full steps.

    Raises:
        ValueError: a pick names a unit that is not in the roster, is lost (without rebuild) or is at full
            strength, or the points do not pay for it.
    """
    out = dict(roster)
    notes: list[CarryNote] = []
    rep = _replacements_of(campaign, battle_id, side)
    if rep is None:
        if picks:
            raise ValueError(f"{side} has no replacements before {battle_id}")
        return out, notes
    for uid, n in rep.schedule:
        e = out.get(uid)
        if e is None or (e.lost and not rep.rebuild) or e.steps >= e.full:
            continue
        add = min(n, e.full - e.steps)
        out[uid] = replace(e, steps=e.steps + add)
        notes.append(CarryNote(uid, side, f"+{add} step{'s' if add != 1 else ''}", rep.why or "schedule"))
    points = rep.points
    for uid in picks:
        e = out.get(uid)
        if e is None or e.side != side:
            raise ValueError(f"{uid!r} is not a unit of {side} in the roster")
        if e.lost and not rep.rebuild:
            raise ValueError(f"{uid} is lost for good: it cannot be rebuilt")
        if e.steps >= e.full:
            raise ValueError(f"{uid} is at full strength")
        cost = step_cost(campaign, rep, e)
        if points < cost:
            raise ValueError(f"{points} points left; a step of {uid} costs {cost}")
        points -= cost
        what = "rebuilt" if e.lost else "+1 step"
        out[uid] = replace(e, steps=e.steps + 1)
        notes.append(CarryNote(uid, side, what, f"{rep.why or 'replacement'}, {cost} point{'s' if cost != 1 else ''}"))
    return out, notes


def points_left(
    roster: Mapping[str, RosterEntry], campaign: Campaign, battle_id: str, side: str, picks: Sequence[str] = ()
) -> int:
    """The replacement points ``side`` has left before battle ``battle_id`` after ``picks`` (as
    :func:`apply_replacements` spends them).

    Raises:
        ValueError: a pick cannot be bought (see :func:`apply_replacements`).
    """
    rep = _replacements_of(campaign, battle_id, side)
    if rep is None:
        if picks:
            raise ValueError(f"{side} has no replacements before {battle_id}")
        return 0
    apply_replacements(roster, campaign, battle_id, side, picks)  # raises for a pick that cannot be bought
    before, _ = apply_replacements(roster, campaign, battle_id, side, ())
    spent = sum(step_cost(campaign, rep, before[uid]) for uid in picks)
    return rep.points - spent


def replacement_points(campaign: Campaign, battle_id: str, side: str) -> int:
    """The points ``side`` may spend on replacements before battle ``battle_id`` (0 when none)."""
    rep = _replacements_of(campaign, battle_id, side)
    return rep.points if rep is not None else 0


def auto_replacements(roster: Mapping[str, RosterEntry], campaign: Campaign, battle_id: str, side: str) -> list[str]:
    """The AI's picks: one step at a time to the weakest unit below full strength that fights the next battle
    (fewest steps left, then the cheapest, then id; lost units too where they may be rebuilt), while the points
    last."""
    rep = _replacements_of(campaign, battle_id, side)
    if rep is None:
        return []
    sc = load_scenario(campaign.ruleset, campaign.battle(battle_id).scenario)
    in_battle = {u.id for u in sc.units}
    units = [e for e in roster.values() if e.side == side and e.id in in_battle and (rep.rebuild or not e.lost)]
    steps = {e.id: e.steps for e in units}
    full = {e.id: e.full for e in units}
    cost = {e.id: step_cost(campaign, rep, e) for e in units}
    points = rep.points
    picks: list[str] = []
    while True:
        can = sorted((steps[u], cost[u], u) for u in steps if steps[u] < full[u] and cost[u] <= points)
        if not can:
            return picks
        uid = can[0][2]
        steps[uid] += 1
        picks.append(uid)
        points -= cost[uid]


def _toml_string(s: str) -> str:
    return '"' + re.sub(r'(["\\])', r"\\\1", s) + '"'


def battle_scenario(campaign: Campaign, battle_id: str, roster: Mapping[str, RosterEntry]) -> Scenario:
    """Battle ``battle_id``'s scenario set up with the carried force: a lost unit is absent, a reduced unit
    has its steps. The changes are a ``[campaign]`` table appended to the scenario's text, so that the battle's
    save (which keeps the text) sets up the same force when loaded."""
    battle = campaign.battle(battle_id)
    path = find_scenario(campaign.ruleset, battle.scenario)
    text = path.read_text(encoding="utf-8")
    base = parse_scenario(text, str(path))
    absent: list[str] = []
    steps: dict[str, int] = {}
    for u in base.units:
        e = roster.get(u.id)
        if e is None or e.side != u.side or e.type != u.type:
            continue
        if e.lost:
            absent.append(u.id)
        elif e.full > 0 and e.steps < e.full:
            steps[u.id] = e.steps
    lines = ["", "", "# Added by the campaign: the carried force (engine/campaign.py).", "[campaign]"]
    lines.append(f"id = {_toml_string(campaign.id)}")
    lines.append("absent = [" + ", ".join(_toml_string(a) for a in absent) + "]")
    lines.append("steps = {" + ", ".join(f"{_toml_string(k)} = {v}" for k, v in steps.items()) + "}")
    return parse_scenario(text.rstrip("\n") + "\n".join(lines) + "\n", str(path))


def campaign_path_problems(target: str) -> list[Problem] | None:
    """Problems of ``target`` if it names a campaign file (a ``.toml`` in a ``campaigns`` folder, or
    ``RULESET/campaigns/ID``), else None."""
    path = Path(target)
    parts = target.split("/")
    if not path.exists() and len(parts) == 3 and parts[1] == "campaigns" and not target.endswith(".toml"):
        try:
            return validate_campaign_path(find_campaign(parts[0], parts[2]))
        except ScenarioError as err:
            return err.problems
        except LookupError as err:
            return [Problem(target, "", str(err).strip("'\""))]
    if path.suffix == ".toml" and path.parent.name == "campaigns":
        return validate_campaign_path(path)
    return None
