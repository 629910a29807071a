"""Provides the HACSE direct-fire calculators: the hit roll (§6.3–6.7), the fire options of §11 and §6.8.

- :func:`hit_roll` gives a shot's target number with every modifier named and cited (base number, range bands,
  the target's die, intervening terrain and vehicles, building, the firer's own situation, aimed, rapid, relays,
  HE against infantry, numerous shooters, bundled weapons, physical attacks); :class:`ToHit` gives its exact odds
  on 2d10 and judges a rolled number (hit, miss, jam on a natural 2, or 3 under rapid fire).
- :func:`pools` splits numerous shooters (§11.3), :func:`bundle_ease` eases bundled weapons (§11.5),
  :func:`sustained_hits` and :func:`sustained_line` are the heavy MG's sustained fire (§11.6).
- :func:`resolve_attack` is the attack procedure of §6.8 with the dice coming from a :class:`~.firedata.Roller`;
  :func:`shot_odds` its exact distribution (hit, jam, penetration, damage, first location).

No line of sight or sighting here (§6.1–6.2): the caller says what the firer sees and what lies between.

>>> from .targetdie import target_die
>>> kwk, ap = Weapon("KWK40", "7.5 cm KwK 40", 7, 14, 27), Ammo("AP", 10, 1, is_ap=True)
>>> sherman = target_die(profile=-1, infantry=False, hexes_entered=6)
>>> hit_roll(Shot(4, kwk, ap, distance=10, target_die=sherman, firer_moved=True)).tn
11
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.errors import IllegalActionError
from engine.events import Modifier
from engine.odds import OddsEntry

from .cache import remember
from .damage import (
    Allocation,
    HitResult,
    Target,
    apply_hit,
    armour_used,
    effective_dk,
    infantry_damage,
    locate,
    location_odds,
    near_miss,
    pool_extra,
    range_dk,
    vehicle_damage,
)
from .firedata import TWO_D10, FireTable, Roller, Row, fire_table, mod, total
from .targetdie import TargetDie

__all__ = [
    "Ammo",
    "Attack",
    "Building",
    "RollOutcome",
    "Shot",
    "ShotOdds",
    "ToHit",
    "Weapon",
    "bundle_ease",
    "check_aimed_row",
    "check_rapid",
    "check_sustained",
    "hit_roll",
    "jam_cleared",
    "opportunity_eligible",
    "pools",
    "range_band",
    "range_modifiers",
    "resolve_attack",
    "rules_shots",
    "shot_odds",
    "sustained_attack",
    "sustained_hits",
    "sustained_line",
    "sustained_rules_shots",
]


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon type as the hit roll needs it (§2.3 WeaponType, §15.4): range bands in hexes and the flags."""

    key: str
    name: str
    short_max: int
    medium_max: int
    long_max: int
    min_range: int = 0
    burst: bool = False
    semi_auto: bool = False
    heavy: bool = False
    fire_mode: str = "direct"
    """``direct``, ``indirect`` (only) or ``both``."""
    poolable: bool = True


@dataclass(frozen=True, slots=True)
class Ammo:
    """One ammunition type of a weapon (§2.3, §15.4): Dk, HE value, AP flag (§8.3), smoke (HE = turns)."""

    key: str
    dk: int
    he: int
    is_ap: bool = False
    is_smoke: bool = False


@dataclass(frozen=True, slots=True)
class Building:
    """The building (or bunker) the target occupies: its armour (§4.9)."""

    armour: int
    bunker: bool = False


def range_band(weapon: Weapon, distance: int, *, indirect: bool = False) -> str:
    """The band (``short``, ``medium``, ``long``) of a target ``distance`` hexes away (§6.3; §7.1 doubled).

    Raises :class:`IllegalActionError` beyond the long band or inside the minimum range.

    >>> k98 = Weapon("K98", "Karabiner 98k", 3, 6, 10)
    >>> range_band(k98, 3), range_band(k98, 4), range_band(k98, 10)
    ('short', 'medium', 'long')
    """
    # §7.1: guns that can fire directly double their ranges when firing indirectly
    factor = fire_table().indirect["range_factor"] if indirect and weapon.fire_mode == "both" else 1
    if distance < weapon.min_range:
        raise IllegalActionError(
            f"Cannot fire: the target is {distance} hexes away, inside the minimum range of the {weapon.name} "
            f"({weapon.min_range})",
            "15.4",
        )
    limits = (weapon.short_max, weapon.medium_max, weapon.long_max)
    for band, limit in zip(("short", "medium", "long"), limits, strict=True):
        if distance <= limit * factor:
            return band
    raise IllegalActionError(
        f"Cannot fire: the target is {distance} hexes away, beyond the long range of the {weapon.name} "
        f"({weapon.long_max * factor})",
        "7.1" if factor != 1 else "6.3",
    )


def range_modifiers(band: str) -> tuple[Modifier, ...]:
    """The hit modifiers of a range band (§6.3 note a): medium +4; long +4 more (+8 in all)."""
    hit = fire_table().hit
    if band == "short":
        return ()
    medium = mod(hit["medium_range"], "medium range", "6.3")
    return (medium,) if band == "medium" else (medium, mod(hit["long_range"], "long range", "6.3"))


def pools(count: int, weapon: Weapon) -> tuple[int, ...]:
    """How ``count`` weapons of one type of one unit roll (§11.3): pools of 3–10, the rest one by one.

    More than 10 (P): pools of 10 first, a remainder of 3 or more forms another pool, 1–2 roll individually.

    >>> k98 = Weapon("K98", "Karabiner 98k", 3, 6, 10)
    >>> pools(2, k98), pools(3, k98), pools(12, k98), pools(13, k98)
    ((1, 1), (3,), (10, 1, 1), (10, 3))
    """
    table = fire_table().pool
    if not weapon.poolable:
        return (1,) * count
    out: list[int] = []
    left = count
    while left >= table["min_weapons"]:
        size = min(left, table["max_weapons"])
        out.append(size)
        left -= size
    return (*out, *(1,) * left)


def bundle_ease(count: int, *, built_in: bool = False) -> int:
    """How much bundled weapons ease the hit roll (§11.5): 1 with 2, 2 with 4, 3 with 8 ... (⌊log₂ n⌋, DERIVED).

    Permanently installed bundles have the ease in the sheet already (``built_in``: 0).

    >>> [bundle_ease(n) for n in (1, 2, 3, 4, 7, 8, 16)]
    [0, 1, 1, 2, 2, 3, 4]
    """
    return 0 if built_in or count < 2 else int(math.log2(count))


@dataclass(frozen=True, slots=True)
class Shot:
    """Everything the hit roll of one shot depends on (§6.3), given by the caller.

    ``intervening`` are the terrain keys of the obstructing intervening hexes (§6.2) and ``vehicles_in_line`` the
    vehicles or wrecks in intervening hexes (§6.3 e); ``building`` is the one the target occupies, ``at_building``
    says the building itself is the target (§8.6: give an empty die); ``same_hex`` with ``both_infantry`` is §6.4;
    ``physical`` is a physical attack at range 0 (§12.1), ``vehicle_physical`` one by a vehicle (no +4 against a
    building); ``pooled`` the weapons in a numerous-shooters pool (§11.3); ``bundled`` the weapons fired bundled
    (§11.5), ``bundle_built_in`` when the sheet already includes the ease.
    """

    base_number: int
    weapon: Weapon
    ammo: Ammo
    distance: int
    target_die: TargetDie
    target_infantry: bool = False
    firer_moved: bool = False
    indirect: bool = False
    intervening: tuple[str, ...] = ()
    vehicles_in_line: int = 0
    building: Building | None = None
    same_hex: bool = False
    both_infantry: bool = False
    aimed: bool = False
    rapid: bool = False
    relays: int = 0
    from_vehicle: bool = False
    shaken: bool = False
    physical: bool = False
    vehicle_physical: bool = False
    at_building: bool = False
    pooled: int = 1
    bundled: int = 1
    bundle_built_in: bool = False


def _building_modifier(shot: Shot, band: str) -> tuple[Modifier, ...]:
    """§6.3 note b (INTERP) and §6.4: the +5 for a target in a building, unless the shot breaks the walls."""
    b = shot.building
    if b is None:
        return ()
    plus = fire_table().hit["building"]
    if b.bunker:
        return (mod(plus, "target in a bunker", "6.3"),)
    if shot.same_hex and shot.both_infantry:
        return ()  # §6.4: infantry against infantry in the same hex ignores buildings
    dk, _ = range_dk(shot.ammo.dk, band)
    if dk >= b.armour:
        return ()
    return (mod(plus, f"target in a building (Dk {dk} < armour {b.armour})", "6.3"),)


def _situation_modifiers(shot: Shot) -> list[Modifier]:
    """The firer's own situation and the options of §4.5, §6.3, §9.5, §10.3, §11, §12.1."""
    hit = fire_table().hit
    out: list[Modifier] = []
    flags = (
        (shot.firer_moved, hit["firer_moved"], "firer moved this turn", "6.3"),
        (shot.indirect, hit["indirect"], "indirect fire", "7.2"),
        (shot.from_vehicle, hit["from_vehicle"], "firing from a vehicle", "4.5"),
        (shot.shaken, hit["shaken"], "firer shaken", "9.5"),
        (shot.aimed, hit["aimed"], "aimed shot", "11.1"),
        (
            shot.physical and not (shot.vehicle_physical and shot.at_building),
            hit["physical"],
            "physical attack",
            "12.1",
        ),
    )
    out.extend(mod(value, name, rule) for present, value, name, rule in flags if present)
    if shot.rapid:
        semi = shot.weapon.semi_auto
        value = hit["rapid_semi_auto"] if semi else hit["rapid"]
        out.append(mod(value, "rapid fire" + (", semi-automatic" if semi else ""), "11.2"))
    if shot.relays:
        out.append(mod(hit["relay"] * shot.relays, f"{shot.relays} relay{'s' if shot.relays > 1 else ''}", "10.3"))
    if shot.target_infantry and shot.ammo.he > 0 and not shot.ammo.is_smoke:
        out.append(mod(hit["he_vs_infantry"] * shot.ammo.he, f"HE {shot.ammo.he} against infantry", "11.4"))
    if shot.pooled >= fire_table().pool["min_weapons"]:
        out.append(mod(-shot.pooled, f"{shot.pooled} shooters", "11.3"))
    ease = bundle_ease(shot.bundled, built_in=shot.bundle_built_in)
    if ease:
        out.append(mod(-ease, f"{shot.bundled} bundled weapons", "11.5"))
    return out


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """A rolled hit roll judged against its TN."""

    roll: int
    tn: int
    hit: bool
    jammed: bool

    @property
    def margin(self) -> int:
        """How far the roll beat (or missed) the TN."""
        return self.roll - self.tn


@dataclass(frozen=True, slots=True)
class ToHit:
    """A shot's target number with every modifier, and what a 2d10 roll against it does (§6.3, §6.6, §11.2)."""

    tn: int
    modifiers: tuple[Modifier, ...]
    """Every term of the TN, the base number first."""
    band: str
    jams: frozenset[int]
    """The natural rolls that jam the weapon (2; 2 and 3 under rapid fire); they always miss."""
    max_tn: int
    """The highest TN the shot may be made with (20; 40 for indirect fire with sight, §7.2)."""

    @property
    def possible(self) -> bool:
        """Whether the shot may be made at all (§6.3 P: not with a TN above 20)."""
        return self.tn <= self.max_tn

    def outcome(self, roll: int) -> RollOutcome:
        """Judge a natural 2d10 roll: a hit when roll ≥ TN, except a jam (§6.6) or a natural 2 (§6.3 P)."""
        jammed = roll in self.jams
        miss = jammed or roll == fire_table().roll["always_miss"]
        return RollOutcome(roll, self.tn, not miss and roll >= self.tn, jammed)

    def odds(self) -> dict[str, Fraction]:
        """The exact chances of ``hit``, ``miss`` and ``jam`` on 2d10."""
        out = {"hit": Fraction(0), "miss": Fraction(0), "jam": Fraction(0)}
        for roll, p in TWO_D10.items():
            o = self.outcome(roll)
            out["jam" if o.jammed else "hit" if o.hit else "miss"] += p
        return out

    @property
    def chance(self) -> Fraction:
        """The exact chance to hit."""
        return self.odds()["hit"]

    def explain(self) -> str:
        """The TN as a sum, for a table or the dice log: ``TN 11 = 4 base number +4 medium range ...``."""
        return f"TN {self.tn} = " + " ".join(str(m) for m in self.modifiers)


_TO_HIT: dict[Shot, tuple[object, ToHit]] = {}
"""Hit rolls already found, by shot (a shot holds everything its roll depends on; the fire table is kept with each:
a table read anew is used anew). The Fire Phase lists the same shots at every decision."""


def hit_roll(shot: Shot) -> ToHit:
    """The hit roll of a direct (or indirect with sight) shot (§6.3, §6.4, §7.2, §11, §12.1).

    TN = base number + range + the target's die (without its terrain in the same hex, §6.4) + intervening terrain
    and vehicles (§6.2, §6.3 e) + building (§6.3 b) + the firer's situation and options. Raises
    :class:`IllegalActionError` when the target is out of range.
    """
    table = fire_table()
    return remember(_TO_HIT, shot, lambda: _hit_roll(shot, table), table, limit=50_000)


def _hit_roll(shot: Shot, table: FireTable) -> ToHit:
    band = "short" if shot.physical else range_band(shot.weapon, shot.distance, indirect=shot.indirect)
    mods: list[Modifier] = [mod(shot.base_number, "base number", "6.3")]
    mods.extend(range_modifiers(band))
    if shot.same_hex:
        mods.extend(shot.target_die.without_terrain())
    else:
        mods.extend(shot.target_die.modifiers)
        mods.extend(
            mod(table.terrain(key), f"{key.replace('_', ' ')} in the line of fire", "6.2")
            for key in shot.intervening
            if table.terrain(key)
        )
        if shot.vehicles_in_line:
            mods.append(
                mod(table.hit["vehicle_in_line"] * shot.vehicles_in_line, "vehicles in the line of fire", "6.3")
            )
    mods.extend(_building_modifier(shot, band))
    mods.extend(_situation_modifiers(shot))
    jams = table.jam_rapid if shot.rapid else table.jam
    limit = table.roll["max_tn_indirect_sight"] if shot.indirect else table.roll["max_tn"]
    return ToHit(total(mods), tuple(mods), band, frozenset(jams), limit)


# --- Checks that refuse (§6.6, §6.7, §11) ---------------------------------------------------------------------


def check_rapid(*, infantry: bool, moved: bool) -> None:
    """Rapid fire (§11.2): infantry must not have moved."""
    if infantry and moved:
        raise IllegalActionError("Cannot use rapid fire: the infantry unit moved this turn", "11.2")


def check_aimed_row(row: Row, *, indirect: bool = False) -> None:
    """An aimed shot (§11.1) needs direct fire and a visible row: never the ammunition or the fuel tank."""
    if indirect:
        raise IllegalActionError("Cannot aim: an aimed shot needs direct fire", "11.1")
    if row.kind in ("ammunition", "fuel_tank"):
        raise IllegalActionError(
            f"Cannot aim at row {row.index}: the {row.kind.replace('_', ' ')} is not visible", "11.1"
        )


def check_sustained(weapon: Weapon, *, infantry: bool, moved: bool) -> None:
    """Sustained fire (§11.6): a heavy MG of an infantry unit that did not move."""
    if not weapon.heavy:
        raise IllegalActionError(f"Cannot fire sustained: the {weapon.name} is not a heavy MG", "11.6")
    if not infantry:
        raise IllegalActionError("Cannot fire sustained: only infantry's heavy MGs can", "11.6")
    if moved:
        raise IllegalActionError("Cannot fire sustained: the unit moved this turn", "11.6")


def opportunity_eligible(*, activated: bool, mp_spent: float, fired: bool) -> bool:
    """Opportunity fire (§6.7): activated this turn, spent no MP in its activation, has not fired."""
    return activated and mp_spent == 0 and not fired


def jam_cleared(jammed_turn: int, end_phase_turn: int) -> bool:
    """A weapon jammed in turn N spends turn N+1 in repair and is clear after the End Phase of N+1 (§6.6 P)."""
    return end_phase_turn >= jammed_turn + fire_table().roll["jam_repair_turns"]


def rules_shots(rolls: int, *, hex_burst: bool = False) -> int:
    """Rules shots a mount spends (§15.5): 1 per hit roll (a pool too); a burst weapon on a hex spends 2 (§7.4 P)."""
    table = fire_table().rules_shots
    return table["hex_burst"] if hex_burst else rolls * table["roll"]


# --- Sustained fire (§11.6) ---------------------------------------------------------------------------------------


def sustained_hits(outcome: RollOutcome) -> int:
    """Hits of a sustained-fire roll (§11.6): one, plus one per point by which the roll beat the TN; else none.

    >>> [sustained_hits(RollOutcome(r, 9, r >= 9, False)) for r in (13, 9, 8)]
    [5, 1, 0]
    """
    return 1 + outcome.margin if outcome.hit else 0


def sustained_rules_shots(weapon: Weapon, *, doubled: bool = False) -> tuple[int, int]:
    """(rules shots, rolls per target) of sustained fire (§11.6): 30 and 1; doubled (MG 42 only) 60 and 2."""
    table = fire_table()
    if doubled and weapon.key not in table.doubling_weapons:
        raise IllegalActionError(f"Cannot double sustained fire: the {weapon.name} is not an MG 42", "11.6")
    return (table.sustained_shots_doubled, 2) if doubled else (table.sustained_shots, 1)


def sustained_line(levels: Sequence[int], own_level: int) -> tuple[int, ...]:
    """Which hexes of a sustained-fire line are attacked (§11.6), given their ground levels from the MG outward.

    Hexes on the MG's level are attacked; lower hexes are passed over (P); the line ends before the first higher hex.

    >>> sustained_line([1, 1, 0, 1, 2, 1], own_level=1)
    (0, 1, 3)
    """
    out: list[int] = []
    for i, level in enumerate(levels):
        if level > own_level:
            break
        if level == own_level:
            out.append(i)
    return tuple(out)


# --- The attack procedure (§6.8) ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack:
    """The result of one weapon's (or pool's) attack on one target (§6.8)."""

    to_hit: ToHit
    rolls: tuple[RollOutcome, ...]
    hits: tuple[HitResult, ...]
    jammed: bool
    building_hits: int
    """Misses by 10 or less against a unit in a building: each damages the building (§8.6)."""

    @property
    def rows_hit(self) -> tuple[int, ...]:
        """Every row the attack struck, in order."""
        return tuple(r for h in self.hits for r in h.allocation.rows)


def _rolls_allowed(shot: Shot, burst: bool) -> int:
    count = 2 if burst and shot.weapon.burst else 1  # §6.5: a second hit roll for a burst
    return count * 2 if shot.rapid else count  # §11.2: rapid fire doubles the rolls


def _one_hit(
    shot: Shot, target: Target, column: str, outcome: RollOutcome, roller: Roller, aimed_row: int | None
) -> HitResult:
    ammo, weight = shot.ammo, max(shot.pooled, shot.bundled)
    per_step = ammo.he + 1 if shot.bundled > 1 and ammo.he else 1  # §11.5: X + 1 per 3 points for HE(X)
    extra = pool_extra(outcome.margin, cap=weight, per_step=per_step) if weight > 1 else 0
    dk, _ = effective_dk(ammo.dk, outcome_band(shot), roll=outcome.roll, tn=outcome.tn)
    if target.unit_type == "infantry":
        amount = 1 if weight > 1 else infantry_damage(he=ammo.he, margin=outcome.margin)
        return apply_hit(
            target, column, roller, dk_eff=dk, he=0, infantry_amount=amount, extra=extra, aimed_row=aimed_row
        )
    return apply_hit(target, column, roller, dk_eff=dk, he=ammo.he, is_ap=ammo.is_ap, extra=extra, aimed_row=aimed_row)


def outcome_band(shot: Shot) -> str:
    """The band whose Dk change a hit takes (§8.2): physical attacks are at range 0, short (READING)."""
    return "short" if shot.physical else range_band(shot.weapon, shot.distance, indirect=shot.indirect)


def resolve_attack(
    shot: Shot,
    target: Target,
    column: str,
    roller: Roller,
    *,
    burst: bool = False,
    aimed_row: int | None = None,
    on_miss: Callable[[RollOutcome, Target], Target] | None = None,
) -> Attack:
    """One weapon's (or one pool's) attack, §6.8 steps 3–7, with the dice from ``roller``.

    The caller has made the checks of steps 1–2 (weapon, range, arc, sighting). Each hit roll is made against the
    same TN; a jam ends the attack; each hit is located, checked for penetration and applied before the next roll
    (the target's rows hit grow). ``column`` is the facing hit (§2.2; ``top`` from above). ``on_miss`` is called
    with each miss that did not jam and the target as it stands, before the next roll, and returns the target as
    it stands afterwards (indirect fire checks random hits there, §7.2, which may strike the target too).
    """
    to_hit = hit_roll(shot)
    if not to_hit.possible:
        raise IllegalActionError(f"Cannot fire: {to_hit.explain()}, above {to_hit.max_tn}", "6.3")
    outcomes: list[RollOutcome] = []
    hits: list[HitResult] = []
    building_hits = 0
    current = target
    for _ in range(_rolls_allowed(shot, burst)):
        outcome = to_hit.outcome(sum(roller(10, 2, "hit roll")))
        outcomes.append(outcome)
        if outcome.jammed:
            break
        if not outcome.hit:
            building_hits += shot.building is not None and near_miss(to_hit.tn, outcome.roll)
            if on_miss is not None:
                current = on_miss(outcome, current)
            continue
        result = _one_hit(shot, current, column, outcome, roller, aimed_row)
        hits.append(result)
        aimed_row = None  # §11.1 P: only the first damage point goes to the chosen row
        current = _with_hits(current, result.allocation)
    return Attack(to_hit, tuple(outcomes), tuple(hits), bool(outcomes) and outcomes[-1].jammed, building_hits)


def _with_hits(target: Target, allocation: Allocation) -> Target:
    return replace(target, hit=target.hit | frozenset(allocation.rows))


def sustained_attack(shot: Shot, target: Target, column: str, roller: Roller, *, doubled: bool = False) -> Attack:
    """Sustained fire against one unit in (or moving into) the line (§11.6): a normal hit roll, no burst (the range
    of this hex), doubled MG 42 fire rolls twice; each roll gives one hit plus one per point above the TN, and each
    hit is resolved as a normal hit (P: infantry 1 damage each, vehicles the full formula with its armour check)."""
    _, rolls = sustained_rules_shots(shot.weapon, doubled=doubled)
    to_hit = hit_roll(replace(shot, rapid=False, pooled=1, bundled=1))
    if not to_hit.possible:
        raise IllegalActionError(f"Cannot fire: {to_hit.explain()}, above {to_hit.max_tn}", "6.3")
    outcomes: list[RollOutcome] = []
    hits: list[HitResult] = []
    current = target
    for _ in range(rolls):
        outcome = to_hit.outcome(sum(roller(10, 2, "sustained fire")))
        outcomes.append(outcome)
        if outcome.jammed:
            break
        for _ in range(sustained_hits(outcome)):
            one = RollOutcome(outcome.roll, outcome.tn, True, False)
            result = _one_hit(replace(shot, pooled=1, bundled=1), current, column, one, roller, None)
            hits.append(result)
            current = _with_hits(current, result.allocation)
    return Attack(to_hit, tuple(outcomes), tuple(hits), bool(outcomes) and outcomes[-1].jammed, 0)


# --- Exact odds of one shot ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """The exact odds of one hit roll and of what a hit does (for the table: "hit chance, then penetration and
    location")."""

    to_hit: ToHit
    hit: Fraction
    jam: Fraction
    penetrate: Fraction
    """The chance that the roll hits and the hit penetrates (equals ``hit`` against unarmoured targets)."""
    damage: dict[int, Fraction]
    """Damage points of the hit (before allocation) → chance, over all rolls (0 includes misses)."""
    location: dict[str, Fraction]
    """Where the first damage point lands, given a hit."""

    def entries(self) -> tuple[OddsEntry, ...]:
        """The distribution as :class:`engine.odds.OddsEntry` results (``jam``, ``miss``, ``no penetration``,
        ``N damage`` with the damage as value), summing to 1, for :class:`engine.odds.Odds`."""
        out = [
            OddsEntry("jam", self.jam),
            OddsEntry("miss", 1 - self.hit - self.jam),
            OddsEntry("no penetration", self.hit - self.penetrate),
        ]
        out.extend(OddsEntry(f"{n} damage", p, float(n)) for n, p in self.damage.items() if n)
        return tuple(e for e in out if e.probability)


def shot_odds(shot: Shot, target: Target, column: str) -> ShotOdds:
    """The exact distribution of one hit roll of ``shot`` at ``target`` (enumerating 2d10 and the location roll)."""
    to_hit = hit_roll(shot)
    odds = to_hit.odds()
    damage: dict[int, Fraction] = {}
    penetrate = Fraction(0)
    ammo, weight = shot.ammo, max(shot.pooled, shot.bundled)
    per_step = ammo.he + 1 if shot.bundled > 1 and ammo.he else 1
    for roll, p in TWO_D10.items():
        outcome = to_hit.outcome(roll) if to_hit.possible else RollOutcome(roll, to_hit.tn, False, False)
        if not outcome.hit:
            damage[0] = damage.get(0, Fraction(0)) + p
            continue
        extra = pool_extra(outcome.margin, cap=weight, per_step=per_step) if weight > 1 else 0
        for amount, q in _hit_amounts(shot, target, column, outcome, extra).items():
            damage[amount] = damage.get(amount, Fraction(0)) + p * q
            if amount:
                penetrate += p * q
    hit = odds["hit"] if to_hit.possible else Fraction(0)
    return ShotOdds(to_hit, hit, odds["jam"], penetrate, dict(sorted(damage.items())), location_odds(target, column))


def _hit_amounts(shot: Shot, target: Target, column: str, outcome: RollOutcome, extra: int) -> dict[int, Fraction]:
    dk, _ = effective_dk(shot.ammo.dk, outcome_band(shot), roll=outcome.roll, tn=outcome.tn)
    if target.bunker and dk < target.bunker:  # §8.4: the bunker's armour must be penetrated
        return {0: Fraction(1)}
    if target.unit_type == "infantry":
        weight = max(shot.pooled, shot.bundled)
        base = 1 if weight > 1 else infantry_damage(he=shot.ammo.he, margin=outcome.margin)
        return {base + extra: Fraction(1)}
    out: dict[int, Fraction] = {}
    for loc_roll, q in TWO_D10.items():
        armour = armour_used(target, column, locate(target, column, loc_roll))
        dmg = vehicle_damage(dk, armour, he=shot.ammo.he, is_ap=shot.ammo.is_ap)
        amount = dmg.amount + extra if dmg.penetrates else 0
        out[amount] = out.get(amount, Fraction(0)) + q
    return out
