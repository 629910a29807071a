"""Provides the HACSE indirect-fire calculators (§7): with sight, without sight, and random hits.

- With sight (§7.2): the hit roll targets the unit at +2 (``fire.hit_roll`` with ``indirect=True``, TN up to 40);
  a miss whose roll is at least half the TN still checks random hits in the hex (:func:`with_sight_outcome`).
- Without sight (§7.4): only the hex is targeted, TN = base number + 10 + relays + the firer's own modifiers
  (:func:`without_sight_tn`); a missed hex scatters one hex beyond (even d10) or short (odd) (:func:`scatter`);
  the preconditions are in :func:`check_without_sight`.
- Random hits (§7.3): 2d10 ≥ 25 − HE − groups (burst weapons on a hex: 2 × HE) (:func:`random_hit_tn`); an even roll
  is a hit from above with full damage, an odd roll a side hit with variable damage and Dk = ⌊damage / 2⌋
  (:func:`random_hit`); damage left when the victim is destroyed carries over as a side hit (:func:`side_hit`).
- Procedures with the dice from a :class:`~.firedata.Roller`: :func:`resolve_indirect` (with sight: the attack and
  the random hits of its near misses, in the order of the rolls), :func:`hex_fire` (without sight: where the shell
  lands) and :func:`random_hits_in_hex` (the random-hit check, the victim and the carry-over chain).

>>> random_hit_tn(he=3, groups=2), random_hit_tn(he=3, groups=2, hex_burst=True)
(20, 17)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.errors import IllegalActionError
from engine.events import Modifier

from .damage import Allocation, Target, allocate, apply_hit, fixed_hit, range_dk
from .fire import Ammo, Attack, RollOutcome, Shot, ToHit, hit_roll, resolve_attack
from .firedata import TWO_D10, Roller, VariableDamage, chance_at_least, damage_table, fire_table, mod, total

__all__ = [
    "HexHits",
    "IndirectAttack",
    "RandomHit",
    "carry_over",
    "check_without_sight",
    "count_groups",
    "hex_fire",
    "indirect_odds",
    "random_hit",
    "random_hit_kind",
    "random_hit_tn",
    "random_hits_in_hex",
    "resolve_indirect",
    "scatter",
    "side_hit",
    "smoke_turns",
    "variable_damage",
    "victim",
    "with_sight_outcome",
    "with_sight_roll",
    "without_sight_landing",
    "without_sight_tn",
]

HIT, RANDOM, NOTHING, JAM = "hit", "random-hit check", "no effect", "jam"


def with_sight_roll(shot: Shot) -> ToHit:
    """The hit roll of indirect fire with sight (§7.2): the shot's usual TN with +2 for indirect fire, doubled ranges
    for direct-capable guns (§7.1), possible up to TN 40."""
    return hit_roll(replace(shot, indirect=True))


def with_sight_outcome(to_hit: ToHit, roll: int) -> str:
    """What a natural ``roll`` of indirect fire with sight does (§7.2).

    ``hit`` (roll ≥ TN, and TN ≤ 20: a TN of 21–40 cannot hit the unit itself, §6.3 P); ``random-hit check`` (a miss
    with 2 × roll ≥ TN, INTERP); ``no effect``; ``jam`` (a natural 2: no effect at all, §7.2 P).

    >>> t = ToHit(13, (), "short", frozenset({2}), 40)
    >>> with_sight_outcome(t, 7), with_sight_outcome(t, 6), with_sight_outcome(t, 13)
    ('random-hit check', 'no effect', 'hit')
    """
    outcome = to_hit.outcome(roll)
    if outcome.jammed:
        return JAM
    if outcome.hit and to_hit.tn <= fire_table().roll["max_tn"]:
        return HIT
    return RANDOM if fire_table().indirect["half_tn"] * roll >= to_hit.tn else NOTHING


def without_sight_tn(
    base_number: int, *, relays: int = 0, firer: Sequence[Modifier] = ()
) -> tuple[int, tuple[Modifier, ...]]:
    """The TN of indirect fire at a hex without sight (§7.4): base number + 10 + 1 per relay + the firer's own
    modifiers (moved +2, shaken +5, ... P); target-unit modifiers do not apply.

    >>> without_sight_tn(4)[0], without_sight_tn(4, relays=1)[0]
    (14, 15)
    """
    hit = fire_table().hit
    mods = [
        mod(base_number, "base number", "6.3"),
        mod(hit["indirect_without_sight"], "indirect fire without sight (long +8, indirect +2)", "7.4"),
    ]
    if relays:
        mods.append(mod(hit["relay"] * relays, f"{relays} relay{'s' if relays > 1 else ''}", "10.3"))
    mods.extend(firer)
    return total(mods), tuple(mods)


def without_sight_landing(tn: int, roll: int, scatter_die: int | None = None) -> str:
    """Where a shell fired without sight lands (§7.4): ``target`` (roll ≥ TN), else by the scatter die ``beyond`` or
    ``short``; ``jam`` on a natural 2 (P: no effect, as §7.2). The scatter die is needed only on a miss."""
    if roll in fire_table().jam:
        return JAM
    if roll >= tn:
        return "target"
    if scatter_die is None:
        raise ValueError("a missed hex needs the scatter die")
    return scatter(scatter_die)


def scatter(die: int) -> str:
    """Where a shell that missed its hex lands (§7.4, P: 1d10): even ``beyond`` (one hex too far), odd ``short``."""
    sides = fire_table().indirect["scatter_die"]
    if not 1 <= die <= sides:
        raise ValueError(f"the scatter die is a d{sides}, not {die}")
    return "beyond" if die % 2 == 0 else "short"


def check_without_sight(
    *, hex_tn: int, neighbour_tns: Sequence[int] = (), map_station: bool = False, fired_from_hex: bool = False
) -> None:
    """Refuse indirect fire without sight at a hex that meets none of the preconditions of §7.4.

    1. the hex, or at least 3 of its neighbours, could be sighted (sighting TN 20 or less, P: from the firer or a unit
    it communicates with); 2. the firer communicates with a map station; 3. enemy units in the hex have just fired.
    """
    limit = fire_table().roll["max_tn"]
    seen = hex_tn <= limit or sum(1 for tn in neighbour_tns if tn <= limit) >= 3
    if not (seen or map_station or fired_from_hex):
        raise IllegalActionError(
            "Cannot fire indirectly at this hex: neither it nor 3 of its neighbours can be seen, no map station is "
            "in contact and nobody fired from it",
            "7.4",
        )


def count_groups(*, units: int, embarked: int = 0, wrecks: int = 0) -> int:
    """The groups that count for random hits (§7.3): units in the hex, not those loaded in vehicles, not wrecks (P)."""
    return units - embarked - wrecks


def random_hit_tn(*, he: int, groups: int, hex_burst: bool = False) -> int:
    """The random-hit TN (§7.3): 25 − HE − groups; a burst weapon firing at a hex uses double HE (§7.4)."""
    table = damage_table().random_hit
    factor = table["burst_he_factor"] if hex_burst else 1
    return table["base"] - factor * he - groups


def random_hit_kind(roll: int) -> str:
    """The kind of random hit by the parity of the random-hit roll (§7.3): even ``above`` (full), odd ``side``."""
    return "above" if roll % 2 == 0 else "side"


def variable_damage(he: int) -> VariableDamage:
    """The variable damage of an odd random hit (§7.3): 1 for HE 1–2, 1d3, 1d6, 1d10, 2d10, ... (data/damage.toml)."""
    return damage_table().variable_damage(he)


def smoke_turns(ammo: Ammo) -> int:
    """Turns of smoke a smoke shell puts in the hex where it lands (§7.1: its HE value; no damage)."""
    return ammo.he if ammo.is_smoke else 0


def victim(count: int, roller: Roller) -> int:
    """The index of the unit a random hit strikes among ``count`` non-embarked units in the hex, of either side
    (§7.3 INTERP)."""
    if count < 1:
        raise ValueError("a random hit needs a unit in the hex")
    return 0 if count == 1 else roller(count, 1, "which unit the random hit strikes")[0] - 1


@dataclass(frozen=True, slots=True)
class RandomHit:
    """A random hit resolved against one unit (§7.3)."""

    kind: str
    """``above`` (even roll, full damage) or ``side`` (odd roll, variable damage)."""
    damage: int
    """The damage dealt before allocation (0: nothing got through the armour)."""
    dk: int
    allocation: Allocation
    column: str

    @property
    def carried(self) -> int:
        """Damage points left when the unit had no row left; they carry over to another unit (:func:`carry_over`)."""
        return self.allocation.lost


def random_hit(target: Target, roll: int, roller: Roller, *, ammo: Ammo, dk_range: int) -> RandomHit:
    """Resolve a successful random-hit roll ``roll`` against ``target`` (§7.3).

    Even: from above, full damage: infantry HE + 1 (P); guns and vehicles the vehicle formula with the range-modified
    ``dk_range`` against top armour (P). Odd: from the side, variable damage rolled with ``roller``; Dk = ⌊damage/2⌋;
    against armour it applies only if that Dk ≥ side armour (half on a track/axle), against infantry always.
    """
    table = damage_table().random_hit
    if random_hit_kind(roll) == "above":
        if target.unit_type == "infantry":
            amount = ammo.he + table["full_infantry_extra"]
            return RandomHit("above", amount, dk_range, allocate(target, "top", amount, roller), "top")
        hit = apply_hit(target, "top", roller, dk_eff=dk_range, he=ammo.he, is_ap=ammo.is_ap)
        return RandomHit("above", hit.damage.amount, dk_range, hit.allocation, "top")
    spec = variable_damage(ammo.he)
    amount = sum(roller(spec.sides, spec.dice, "variable damage")) if spec.dice else spec.fixed
    return side_hit(target, amount, roller)


def side_hit(target: Target, amount: int, roller: Roller, *, carried: bool = False) -> RandomHit:
    """``amount`` damage from the side with Dk = ⌊amount / 2⌋ (§7.3): an odd random hit, or damage carried over.

    Infantry takes it all; armour stops it unless the Dk reaches the side armour of the first point's location
    (half on a track/axle).
    """
    table = damage_table().random_hit
    dk = amount // (table["carry_dk_divisor"] if carried else table["side_dk_divisor"])
    hit = fixed_hit(target, "side", amount, roller, dk=dk)
    return RandomHit("side", hit.damage.amount, dk, hit.allocation, "side")


@dataclass(frozen=True, slots=True)
class HexHits:
    """The random-hit check of one shell in one hex (§7.3) and the units it struck, in order."""

    roll: int
    tn: int
    hits: tuple[tuple[int, RandomHit], ...] = ()
    """(index of the unit among those given, what it took); later entries are carried-over damage."""


def random_hits_in_hex(
    units: Sequence[Target],
    roller: Roller,
    *,
    ammo: Ammo,
    dk_range: int,
    groups: int,
    hex_burst: bool = False,
) -> HexHits:
    """Check random hits of one shell in a hex and resolve them (§7.3, §7.4).

    ``units`` are the non-embarked units in the hex, of either side (INTERP), that can still be hit; ``groups`` the
    count for the TN (:func:`count_groups`). On success one random unit takes the hit; damage left when it has no
    row left carries over to another random unit as a side hit (P), until nothing is left or nobody remains.
    """
    if ammo.is_smoke:
        raise ValueError("a smoke shell does no damage: see smoke_turns (rule 7.1)")
    tn = random_hit_tn(he=ammo.he, groups=groups, hex_burst=hex_burst)
    roll = sum(roller(10, 2, "random-hit roll"))
    if roll < tn or not units:
        return HexHits(roll, tn)
    candidates = list(range(len(units)))
    index = candidates[victim(len(candidates), roller)]
    result = random_hit(units[index], roll, roller, ammo=ammo, dk_range=dk_range)
    hits = [(index, result)]
    while result.carried:
        candidates.remove(index)
        if not candidates:
            break
        index = candidates[victim(len(candidates), roller)]
        result = side_hit(units[index], result.carried, roller, carried=True)
        hits.append((index, result))
    return HexHits(roll, tn, tuple(hits))


@dataclass(frozen=True, slots=True)
class IndirectAttack:
    """Indirect fire with sight at one unit (§7.2): the attack on it and the random hits of its near misses."""

    attack: Attack
    hex_hits: tuple[HexHits, ...]


def resolve_indirect(
    shot: Shot,
    units: Sequence[Target],
    target_index: int,
    roller: Roller,
    *,
    groups: int,
    burst: bool = False,
) -> IndirectAttack:
    """Indirect fire with sight (§7.2): the hit roll at the unit (+2, from above, TN up to 40); each miss that reaches
    half the TN checks random hits in the hex at once (§7.3). ``units`` are the hex's units as in
    :func:`random_hits_in_hex`, ``units[target_index]`` the target; the rows a random hit strikes count for the
    rolls that follow."""
    shot = replace(shot, indirect=True)
    to_hit = hit_roll(shot)
    dk_range, _ = range_dk(shot.ammo.dk, to_hit.band)
    hex_hits: list[HexHits] = []
    now = list(units)

    def check_random_hits(outcome: RollOutcome, target: Target) -> Target:
        now[target_index] = target
        if with_sight_outcome(to_hit, outcome.roll) == RANDOM:
            found = random_hits_in_hex(now, roller, ammo=shot.ammo, dk_range=dk_range, groups=groups)
            hex_hits.append(found)
            for index, hit in found.hits:
                now[index] = replace(now[index], hit=now[index].hit | frozenset(hit.allocation.rows))
        return now[target_index]

    attack = resolve_attack(shot, units[target_index], "top", roller, burst=burst, on_miss=check_random_hits)
    return IndirectAttack(attack, tuple(hex_hits))


def hex_fire(tn: int, roller: Roller) -> tuple[int, str]:
    """Fire at a hex without sight (§7.4): (the roll, where the shell lands: ``target``, ``beyond``, ``short``, or
    ``jam`` for no effect); the scatter d10 is rolled only on a miss."""
    roll = sum(roller(10, 2, "hit roll on the hex"))
    if roll in fire_table().jam or roll >= tn:
        return roll, without_sight_landing(tn, roll)
    return roll, without_sight_landing(tn, roll, roller(fire_table().indirect["scatter_die"], 1, "scatter")[0])


def carry_over(points: int) -> tuple[int, int, str]:
    """Damage carried over to another random unit (§7.3 P): (points, Dk = ⌊points / 2⌋, ``side``)."""
    return points, points // damage_table().random_hit["carry_dk_divisor"], "side"


def indirect_odds(to_hit: ToHit, *, he: int, groups: int) -> dict[str, Fraction]:
    """The exact chances of indirect fire with sight (§7.2, §7.3): the unit is ``hit``, a ``random hit`` strikes the
    hex, ``no effect``, ``jam``."""
    random_tn = random_hit_tn(he=he, groups=groups)
    out = {HIT: Fraction(0), "random hit": Fraction(0), NOTHING: Fraction(0), JAM: Fraction(0)}
    for roll, p in TWO_D10.items():
        result = with_sight_outcome(to_hit, roll)
        if result == RANDOM:
            chance = chance_at_least(random_tn)
            out["random hit"] += p * chance
            out[NOTHING] += p * (1 - chance)
        else:
            out[result] += p
    return out
