"""Provides Blitzkrieg 1940 line of sight, visibility and weapon range (digest section 4, range modifier 8.2.4).

Pure functions over a :class:`~engine.board.Board`. The numbers (maximum line of sight, visibility distances,
which unit types belong to which visibility class) come from :class:`SightRules`, which the ruleset fills from
its data files; the defaults are the seed's own values (4.1), not proposals.

>>> rules = SightRules()
>>> visibility_distance("small", False, rules), visibility_distance("vehicle", True, rules)
(2, 8)
>>> effective_range(3, enemy_adjacent=True, neutralised=False), effective_range(0, False, False)
(1, 1)
>>> range_modifier(3)
-2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.board import Board
from engine.hexgrid import Hex, distance
from engine.los import LosPolicy, LosResult, line_of_sight

__all__ = [
    "LOS_RULES",
    "FireKind",
    "FireMode",
    "SightResult",
    "SightRules",
    "Visibility",
    "can_fire",
    "can_fire_actively",
    "can_see",
    "effective_range",
    "los_policy",
    "range_modifier",
    "visibility_distance",
]

LOS_RULES: Mapping[str, str] = {
    "range": "4.1",
    "obstacle": "4.3.1",
    "higher": "4.3.2",
    "crest": "4.3.2",
    "blind": "4.3.2",
    "hexside": "4.3",
    "adjacent": "4.3",
}
"""Rule section cited for each line-of-sight reason key of :class:`~engine.los.LosPolicy`."""

VISIBILITY_RULE = "4.1"
"""The section of the visibility table and the maximum line of sight."""

FireMode = Literal["active", "opportunity", "return"]
"""Why a unit fires: in its own activation, as opportunity fire, or as return fire (6.3)."""

FireKind = Literal["direct", "close", "indirect"]
"""How the range modifier is counted (8.2.4): direct fire (also opportunity and return fire), close combat,
indirect fire."""


@dataclass(frozen=True, slots=True)
class Visibility:
    """How far away a visibility class can be spotted (4.1), by the terrain of the target's hex."""

    open: int
    """Visibility distance in open terrain."""
    other: int
    """Visibility distance in any other terrain (village, orchard, woods)."""

    def __post_init__(self) -> None:
        if self.open < 0 or self.other < 0:
            raise ValueError(f"visibility distances must be >= 0, got open={self.open} other={self.other}")


def _seed_visibility() -> dict[str, Visibility]:
    return {"vehicle": Visibility(open=8, other=4), "small": Visibility(open=4, other=2)}


@dataclass(frozen=True, slots=True)
class SightRules:
    """The numbers of section 4, filled by the ruleset from its data files (defaults: the seed's 4.1)."""

    max_los: int = 8
    """Maximum line of sight in hexes (4.1)."""
    visibility: Mapping[str, Visibility] = field(default_factory=_seed_visibility)
    """Visibility class → distances: ``vehicle`` (tanks, armoured cars, mounted infantry) 8/4 and ``small``
    (infantry, motorcycles, AT guns) 4/2 in the seed."""
    aliases: Mapping[str, str] = field(default_factory=dict)
    """Unit type or kind → visibility class (``"tank": "vehicle"``); the [P] rows of 4.1 (StuG, APC, MG,
    pioneers, HQs) belong here, from the data files."""
    obstacles: frozenset[str] = frozenset({"village", "orchard", "woods"})
    """Terrain classes that block a line at the viewers' level (4.3.1)."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names of terrain classes and unit kinds for messages (``"at_gun": "AT gun"``)."""

    def __post_init__(self) -> None:
        if self.max_los < 1:
            raise ValueError(f"max_los must be >= 1, got {self.max_los}")
        for alias, target in self.aliases.items():
            if target not in self.visibility:
                raise ValueError(
                    f"alias {alias!r} names unknown visibility class {target!r} "
                    f"(expected one of {', '.join(sorted(self.visibility))})"
                )

    @classmethod
    def from_data(cls, table: Mapping[str, Any]) -> SightRules:
        """Read the rules from a parsed TOML table; every key is optional (missing keys keep the seed values).

        Layout::

            max_los = 8
            obstacles = ["village", "orchard", "woods"]
            [visibility.vehicle]
            open = 8
            other = 4
            types = ["tank", "armoured_car", "mounted_infantry"]
            [names]
            at_gun = "AT gun"

        Raises:
            ValueError: a key of the wrong type, naming the key.
        """
        defaults = cls()
        max_los = table.get("max_los", defaults.max_los)
        if not isinstance(max_los, int) or isinstance(max_los, bool):
            raise ValueError(f"max_los: expected an integer, got {max_los!r}")
        visibility: dict[str, Visibility] = dict(defaults.visibility)
        aliases: dict[str, str] = {}
        raw_visibility = table.get("visibility", {})
        if not isinstance(raw_visibility, Mapping):
            raise ValueError("visibility: expected a table of visibility classes")
        for name, entry in raw_visibility.items():
            if not isinstance(entry, Mapping):
                raise ValueError(f"visibility.{name}: expected a table with open, other and types")
            values: dict[str, int] = {}
            for key in ("open", "other"):
                value = entry.get(key, getattr(visibility[name], key) if name in visibility else None)
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"visibility.{name}.{key}: expected an integer, got {value!r}")
                values[key] = value
            visibility[name] = Visibility(open=values["open"], other=values["other"])
            types = entry.get("types", [])
            if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
                raise ValueError(f"visibility.{name}.types: expected a list of unit types")
            for t in types:
                if t in aliases:
                    raise ValueError(f"visibility.{name}.types: {t!r} is already in class {aliases[t]!r}")
                aliases[t] = name
        obstacles = table.get("obstacles", sorted(defaults.obstacles))
        if not isinstance(obstacles, list) or not all(isinstance(o, str) for o in obstacles):
            raise ValueError("obstacles: expected a list of terrain classes")
        names = table.get("names", {})
        if not isinstance(names, Mapping) or not all(isinstance(v, str) for v in names.values()):
            raise ValueError("names: expected a table of display names")
        return cls(
            max_los=max_los, visibility=visibility, aliases=aliases, obstacles=frozenset(obstacles), names=dict(names)
        )

    def visibility_class(self, target_class: str) -> str:
        """The visibility class of a class name or alias.

        Raises:
            ValueError: neither a visibility class nor an alias.
        """
        if target_class in self.visibility:
            return target_class
        try:
            return self.aliases[target_class]
        except KeyError:
            known = ", ".join(sorted({*self.visibility, *self.aliases}))
            raise ValueError(f"unknown visibility class {target_class!r} (expected one of {known})") from None


@dataclass(frozen=True, slots=True)
class SightResult:
    """The answer to "can the observer see this target?" (4.1, 4.3), with the explanation."""

    visible: bool
    observer: Hex
    target: Hex
    distance: int
    """Hexes from observer to target (the target's hex counts, the observer's does not)."""
    limit: int
    """The target's visibility distance (4.1) where it stands."""
    los: LosResult
    """The traced line of sight (terrain, levels, maximum range)."""
    reason: str
    """A sentence for the player, with the rule cited."""
    rule: str | None
    """The section that decided."""

    def __bool__(self) -> bool:
        return self.visible


_POLICIES: dict[int, tuple[SightRules, LosPolicy]] = {}


def los_policy(rules: SightRules) -> LosPolicy:
    """The Blitzkrieg 1940 line-of-sight policy (4.3, algorithm 4.4): obstacles, levels, blind hexes, the
    hexside rule ("both" hexes must block) and the maximum line of sight. Built once per rules object."""
    known = _POLICIES.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    policy = _build_policy(rules)
    _POLICIES[id(rules)] = (rules, policy)
    return policy


def _build_policy(rules: SightRules) -> LosPolicy:
    obstacles = "+".join(sorted(rules.obstacles))
    return LosPolicy(
        id=f"blitzkrieg1940:los{rules.max_los}:{obstacles}",
        obstacles=rules.obstacles,
        max_range=rules.max_los,
        levels=True,
        blind_hexes=True,
        hexside="both",
        tracer="nudge",
        rules=LOS_RULES,
        names=rules.names,
    )


def visibility_distance(target_class: str, target_terrain_is_open: bool, rules: SightRules) -> int:
    """How far away a target can be spotted (4.1): its class's distance in open or in other terrain.

    Raises:
        ValueError: an unknown class.
    """
    vis = rules.visibility[rules.visibility_class(target_class)]
    return vis.open if target_terrain_is_open else vis.other


def _where(board: Board, h: Hex, is_open: bool, rules: SightRules) -> str:
    if is_open:
        return "in the open"
    terrain = board.terrain(h)
    return f"in {rules.names.get(terrain, terrain)}"


def can_see(
    board: Board,
    observer_hex: Hex,
    target_hex: Hex,
    target_class: str,
    target_terrain_is_open: bool,
    rules: SightRules,
) -> SightResult:
    """Whether a unit in ``observer_hex`` sees a target in ``target_hex`` (4.1, 4.3).

    Visibility is per direction (4.1 [I]): the observer sees the target only if the line of sight is clear
    and the distance is at most the *target's* visibility. Adjacent units always see each other.

    Args:
        board: the map.
        observer_hex: where the observing (firing) unit stands.
        target_hex: where the target stands.
        target_class: the target's visibility class (``vehicle``, ``small``) or an alias (``tank``).
        target_terrain_is_open: True if the target's hex is open terrain (roads and levels do not matter).
        rules: the section 4 numbers.

    Raises:
        ValueError: a hex off the map or an unknown class.
    """
    # The answer depends on the map and the rules alone: cached per map (the AI asks the same pairs many times).
    key = (_SEE, observer_hex, target_hex, target_class, target_terrain_is_open, id(rules))
    known = board.cache.get(key)
    if known is not None and known[0] is rules:
        return known[1]  # type: ignore[no-any-return]
    result = _can_see(board, observer_hex, target_hex, target_class, target_terrain_is_open, rules)
    board.cache[key] = (rules, result)
    return result


_SEE = "blitzkrieg1940.see"


def _can_see(
    board: Board,
    observer_hex: Hex,
    target_hex: Hex,
    target_class: str,
    target_terrain_is_open: bool,
    rules: SightRules,
) -> SightResult:
    for h in (observer_hex, target_hex):
        if h not in board:
            raise ValueError(f"hex {h} is off the {board.id} map")
    limit = visibility_distance(target_class, target_terrain_is_open, rules)
    d = distance(observer_hex, target_hex)
    los = line_of_sight(board, observer_hex, target_hex, los_policy(rules))
    where = board.label(target_hex)
    name = rules.names.get(target_class, target_class)
    spotted = f"{name} {_where(board, target_hex, target_terrain_is_open, rules)}"
    if d <= 1:
        text = f"Can see {where}: adjacent units always see each other (rule {los.rule})"
        return SightResult(True, observer_hex, target_hex, d, limit, los, text, los.rule)
    if not los.visible:
        if los.blocker is None:
            text = f"it is {d} hexes away, beyond the maximum line of sight of {rules.max_los}"
        else:
            text = los.reason
        return SightResult(
            False, observer_hex, target_hex, d, limit, los, f"Cannot see {where}: {text} (rule {los.rule})", los.rule
        )
    if d > limit:
        text = (
            f"Cannot see {where}: {spotted} is visible only at {limit} hexes or less, it is {d} away "
            f"(rule {VISIBILITY_RULE})"
        )
        return SightResult(False, observer_hex, target_hex, d, limit, los, text, VISIBILITY_RULE)
    line = "clear line of sight along a hexside (one side is open)" if los.hexside else "clear line of sight"
    text = f"Can see {where}: {line}, {d} hexes; {spotted} is visible up to {limit} (rule {VISIBILITY_RULE})"
    return SightResult(True, observer_hex, target_hex, d, limit, los, text, VISIBILITY_RULE)


def can_fire_actively(printed_range: int) -> bool:
    """False for a printed range of 0: such a unit fires only into an adjacent hex, as return fire (4.2)."""
    if printed_range < 0:
        raise ValueError(f"a printed range must be >= 0, got {printed_range}")
    return printed_range > 0


def effective_range(printed_range: int, enemy_adjacent: bool, neutralised: bool) -> int:
    """The farthest distance a unit may fire at (4.2 and its [I]).

    The range is reduced to 1 when an enemy combat unit (not an HQ) is adjacent to the firer or the firer is
    neutralised; otherwise it is the printed range, at least 1 (range 0 = adjacent hex only).
    """
    if printed_range < 0:
        raise ValueError(f"a printed range must be >= 0, got {printed_range}")
    if enemy_adjacent or neutralised:
        return 1
    return max(1, printed_range)


def can_fire(
    printed_range: int,
    target_distance: int,
    mode: FireMode = "active",
    *,
    enemy_adjacent: bool = False,
    neutralised: bool = False,
) -> bool:
    """Whether the range rules (4.2) let a unit fire at ``target_distance``: within the effective range, and a
    unit with printed range 0 only as return fire. Line of sight and visibility are checked by :func:`can_see`.
    """
    if target_distance < 1:
        return False
    if mode != "return" and not can_fire_actively(printed_range):
        return False
    return target_distance <= effective_range(printed_range, enemy_adjacent, neutralised)


def range_modifier(distance: int, kind: FireKind = "direct") -> int:
    """The range modifier (8.2.4, table lines F1–F3): direct fire into the adjacent hex 0 and −1 for each
    hex beyond the first; close combat (same hex) +1; indirect fire has no range count.

    Raises:
        ValueError: direct fire at a distance below 1, or a negative distance.
    """
    if distance < 0:
        raise ValueError(f"a distance must be >= 0, got {distance}")
    if kind == "close":
        return 1
    if kind == "indirect":
        return 0
    if distance < 1:
        raise ValueError("direct fire needs a target at distance 1 or more (close combat is kind='close')")
    return -(distance - 1)
