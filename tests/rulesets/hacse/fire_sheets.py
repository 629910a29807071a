"""Unit sheets of the roster (§15.7) as the fire, damage and morale calculators see them, and scripted dice.

The row lists are copied from the digest, in sheet order (kinds and roles as the roster data writes them: a gun's
weapon row is of kind ``gun``, the T-34's first row is the "commander / gunner"), so the calculator tests do not
depend on the roster's data files.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rulesets.hacse.damage import Target
from engine.rulesets.hacse.fire import Ammo, Weapon
from engine.rulesets.hacse.firedata import Row


def soldier(index: int, role: str = "rifleman") -> Row:
    return Row(index, "soldier", role)


def ger_inf_sqd() -> Target:
    """§15.7.1: rows 1–9 riflemen and MG crew, row 10 the squad leader (the last soldier)."""
    roles = ["rifleman"] * 5 + ["ammunition bearer", "mg assistant", "mg gunner", "deputy leader", "leader"]
    return Target("infantry", rows=tuple(soldier(i, r) for i, r in enumerate(roles, 1)))


def pz4h() -> Target:
    """§15.7.4 Panzer IV H: front 8, side 3, rear 2, top 1; 14 rows; 4 outside riders possible."""
    rows = (
        soldier(1, "commander"),
        soldier(2, "gunner"),
        soldier(3, "loader"),
        soldier(4, "driver"),
        soldier(5, "radio operator"),
        Row(6, "track_axle"),
        Row(7, "engine"),
        Row(8, "fuel_tank"),
        Row(9, "ammunition"),
        Row(10, "turret"),
        Row(11, "weapon", mount="turret", main=True, operator=2),
        Row(12, "weapon", mount="coax", operator=2),
        Row(13, "weapon", mount="hull", operator=5),
        Row(14, "equipment", role="radio"),
    )
    return Target("vehicle", (8, 3, 2, 1), rows)


def sherman() -> Target:
    """§15.7.5 M4A3: front 9, side 4, rear 4, top 2; 15 rows."""
    rows = (
        soldier(1, "commander"),
        soldier(2, "gunner"),
        soldier(3, "loader"),
        soldier(4, "driver"),
        soldier(5, "assistant driver"),
        Row(6, "track_axle"),
        Row(7, "engine"),
        Row(8, "fuel_tank"),
        Row(9, "ammunition"),
        Row(10, "turret"),
        Row(11, "weapon", mount="turret", main=True, operator=2),
        Row(12, "weapon", mount="coax", operator=2),
        Row(13, "weapon", mount="hull", operator=5),
        Row(14, "weapon", mount="pintle", operator=1),
        Row(15, "equipment", role="radio"),
    )
    return Target("vehicle", (9, 4, 4, 2), rows)


def t34() -> Target:
    """§15.7.6 T-34/76: front 9, side 5, rear 4, top 2; 13 rows; the commander is also the gunner."""
    rows = (
        soldier(1, "commander / gunner"),
        soldier(2, "loader"),
        soldier(3, "driver"),
        soldier(4, "radio operator"),
        Row(5, "track_axle"),
        Row(6, "engine"),
        Row(7, "fuel_tank"),
        Row(8, "ammunition"),
        Row(9, "turret"),
        Row(10, "weapon", mount="turret", main=True, operator=1),
        Row(11, "weapon", mount="coax", operator=1),
        Row(12, "weapon", mount="hull", operator=4),
        Row(13, "equipment", role="radio"),
    )
    return Target("vehicle", (9, 5, 4, 2), rows)


def sdkfz251(embarked: int = 0) -> Target:
    """§15.7.7 Sd.Kfz. 251/1: front 2, side 1, rear 1, top 0; 10 rows, the last a cargo bed."""
    rows = (
        soldier(1, "commander"),
        soldier(2, "driver"),
        Row(3, "track_axle"),
        Row(4, "engine"),
        Row(5, "fuel_tank"),
        Row(6, "ammunition"),
        Row(7, "weapon", mount="hull", operator=1),
        Row(8, "weapon", mount="rear"),
        Row(9, "equipment", role="radio"),
        Row(10, "cargo_bed"),
    )
    return Target("vehicle", (2, 1, 1, 0), rows, embarked=embarked)


def opel_blitz() -> Target:
    """§15.7.8 Opel Blitz: armour 0; driver, co-driver (leader), axle, engine, fuel tank, two cargo beds."""
    rows = (
        soldier(1, "driver"),
        soldier(2, "co-driver"),
        Row(3, "track_axle"),
        Row(4, "engine"),
        Row(5, "fuel_tank"),
        Row(6, "cargo_bed"),
        Row(7, "cargo_bed"),
    )
    return Target("vehicle", (0, 0, 0, 0), rows)


def pak40() -> Target:
    """§15.7.3 PaK 40: gun shield front 1; five crew rows, row 6 the gun (main)."""
    roles = ["ammunition handler", "ammunition handler", "loader", "gunner", "gun commander"]
    rows = (*(soldier(i, r) for i, r in enumerate(roles, 1)), Row(6, "gun", "gun", mount="towed", main=True))
    return Target("gun", (1, 0, 0, 0), rows)


# §15.4 weapon data
K98 = Weapon("K98", "Karabiner 98k", 3, 6, 10)
M1 = Weapon("M1", "M1 Garand", 3, 6, 10, semi_auto=True)
MP40 = Weapon("MP40", "MP 40", 1, 2, 3, burst=True)
MG42H = Weapon("MG42H", "MG 42 (heavy)", 6, 14, 27, burst=True, heavy=True)
MG34V = Weapon("MG34V", "MG 34", 5, 10, 16, burst=True)
KWK40 = Weapon("KWK40", "7.5 cm KwK 40", 7, 14, 27, semi_auto=True, fire_mode="both", poolable=False)
GW34 = Weapon("GW34", "8 cm GrW 34", 10, 20, 32, min_range=1, burst=True, fire_mode="indirect", poolable=False)
CCW = Weapon("CCW", "improvised close-combat weapons", 0, 0, 0)
BALL = Ammo("ball", 1, 0)
SMG_BALL = Ammo("ball", 0, 0)
PZGR39 = Ammo("AP", 10, 1, is_ap=True)
SPRGR34 = Ammo("HE", 2, 3)
MORTAR_HE = Ammo("HE", 1, 3)
MELEE = Ammo("melee", 0, 0)


class Script:
    """Scripted dice for the calculators' procedures: each call takes the next values, checking the die's sides."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)
        self.calls: list[tuple[int, int, str]] = []

    def __call__(self, sides: int, count: int, purpose: str) -> tuple[int, ...]:
        assert len(self.values) >= count, f"scripted dice exhausted at {purpose!r}"
        out, self.values = tuple(self.values[:count]), self.values[count:]
        assert all(1 <= v <= sides for v in out), f"{out} do not fit d{sides} ({purpose})"
        self.calls.append((sides, count, purpose))
        return out

    @property
    def used_up(self) -> bool:
        return not self.values


def two_d10(total: int) -> list[int]:
    """Two d10 values summing to ``total`` (2–20)."""
    first = min(10, total - 1)
    return [first, total - first]
