"""Provides Blitzkrieg 1940 combat resolution: attack factors, results, odds and the state changes fire causes.

This is the procedure of digest 8.2 for every kind of attack (direct, opportunity and return fire, close combat,
indirect fire, mines), the results of 8.3, neutralisation, panic and rally (8.4), formation demoralisation (8.5),
indirect fire and group fire (8.6), mines (10.1), fortifications (10.2) and APC combined fire (12.1 [P]).

Every number comes from :func:`~engine.rulesets.blitzkrieg1940.data.load_tables` (``data/*.toml``); the only
number held here is the seed's minefield removal roll (10.1), which no data file carries yet, and the AI
valuation of results (:data:`RESULT_VALUES`), which is not a rule.

The functions are pure (attack factors, results, odds) or make small changes to ``tr.state`` through a
:class:`~engine.rules.Transition`, rolling only through ``tr.roll``. Decisions belong to the caller: who fires at
whom, whether the owner takes a step loss instead of an N (8.3), who may react. The primitives for those
choices are :func:`step_loss`, :func:`neutralise`, :func:`take_step_instead` and :func:`apply_result`.

Mounted APC pairs (12.1 [P]) are marked in the unit status (:class:`.model.Status`): the APC's ``carrying``
names the company on board, the company's ``carried_by`` the APC. A mounted pair is one target with the APC's
armour; red N does not affect it; an N neutralises both.

>>> from engine.rulesets.blitzkrieg1940.model import Status
>>> t = load_tables()
>>> inf = Unit("fra-fin", "FIN", "french", None, 2, status=Status())
>>> resolve(t, 5, 9, inf), resolve(t, 5, 9, Unit("ger-pz3", "PZ3", "german", None, 2, status=Status()))
('red_n', '-')
>>> fire_odds(t, 12, inf)["step"]
Fraction(5, 12)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final

from engine import hexgrid
from engine.board import Board
from engine.events import Modifier
from engine.hexgrid import Hex
from engine.odds import OddsEntry
from engine.rules import Transition
from engine.state import GameState, Unit

from .data import RESULTS, TWO_D6, Tables, UnitType, load_tables
from .data import Modifier as ModifierLine
from .model import Formation, PairLossFrame, data, status

__all__ = [
    "CARRIED_BY",
    "CARRYING",
    "FIRE_KINDS",
    "PANIC_PASSED",
    "RESULT_NAMES",
    "RESULT_VALUES",
    "Factor",
    "Shot",
    "apply_result",
    "attack_factor",
    "dispersed",
    "fire_odds",
    "formation_factor",
    "group_fire",
    "in_column",
    "indirect_attack",
    "indirect_value",
    "is_mounted",
    "mine_attack",
    "mount_partner",
    "neutralise",
    "odds_entries",
    "panic_chance",
    "rally_roll",
    "resolve",
    "roll_fire",
    "step_loss",
    "take_step_instead",
    "transmission_needed",
    "transmission_target",
    "transmit",
    "update_fortification",
]

FIRE_KINDS: tuple[str, ...] = ("direct", "close", "indirect", "mines")
"""Kinds of attack (8.2): direct fire (also opportunity and return fire), close combat, indirect fire (artillery
and Stukas), mines."""

_TABLE_FIRE: Mapping[str, str] = MappingProxyType(
    {"direct": "direct", "close": "close_combat", "indirect": "indirect", "mines": "mines"}
)
"""Fire kind → the fire-type column of the modifier table (modifiers.toml)."""

RESULT_NAMES: Mapping[str, str] = MappingProxyType({"-": "no effect", "red_n": "red N", "n": "N", "step": "step loss"})
"""Display names of the results of 8.3, used as :class:`~engine.odds.OddsEntry` results."""

RESULT_VALUES: Mapping[str, float] = MappingProxyType({"-": 0.0, "red_n": 0.3, "n": 0.4, "step": 1.0})
"""AI valuation, not a rule: what a result is worth to the firer, in expected enemy steps (a step loss is one
step; a neutralisation is worth a fraction of one because the owner may rally, panic or trade it)."""

CARRYING = "carrying"
"""``Unit.status`` key on a mounted APC: the id of the company on board (12.1 [P])."""
CARRIED_BY = "carried_by"
"""``Unit.status`` key on a mounted company: the id of its APC (12.1 [P])."""

# Rule sections cited for each modifier line (by its key in modifiers.toml).
_RULE: Mapping[str, str] = MappingProxyType(
    {
        "range_adjacent": "8.2.4",
        "range_per_hex": "8.2.4",
        "close_combat": "8.2.4",
        "firer_moved": "6.1",
        "firer_exhausted": "5.4",
        "firer_out_of_command": "6.2",
        "firer_in_column": "7.2.1",
        "firer_dispersed": "7.2.2",
        "firer_neutralised": "8.4",
        "target_in_column": "7.2.1",
        "target_dispersed": "7.2.2",
        "target_in_village": "8.2.3",
        "target_in_woods": "8.2.3",
        "target_in_orchard": "8.2.3",
        "target_in_open": "8.2.3",
        "target_fortified": "10.2",
        "target_armoured": "8.2.3",
        "at_unit_vs_soft": "8.2.1",
        "mines": "10.1",
    }
)


# --- Unit states ---------------------------------------------------------------------------------------------


def _type(tables: Tables, unit: Unit) -> UnitType:
    return tables.units[unit.type]


def _is_hq(t: UnitType) -> bool:
    return t.kind == "hq"


def _present(tables: Tables, unit: Unit) -> bool:
    """True if the unit stands on the map. An HQ has no steps (1.3), so its step count is not looked at: the
    engine's ``Unit.is_on_map`` needs ``steps > 0``, which an HQ set up with its type's 0 steps would fail."""
    return unit.hex is not None and (unit.steps > 0 or _is_hq(_type(tables, unit)))


def _units_in(tables: Tables, st: GameState, h: Hex) -> list[Unit]:
    """Units standing in hex ``h`` (HQs included whatever their step count), in id order."""
    return [u for _, u in sorted(st.units.items()) if u.hex == h and _present(tables, u)]


def dispersed(tables: Tables, board: Board, unit: Unit) -> bool:
    """True if the unit is dispersed (7.2.2 [P] derived state): a tank, StuG or armoured car standing in a
    village, orchard or woods hex."""
    if unit.hex is None or not _type(tables, unit).disperses:
        return False
    # Blitzkrieg 7.2.2: dispersed as long as it stands in such a hex.
    return tables.terrain.classes[board.terrain(unit.hex)].disperses_armour


def in_column(unit: Unit) -> bool:
    """True if the unit is in column (7.2.1; ``status(Unit).column``)."""
    return bool(status(unit).column)


def is_mounted(unit: Unit) -> bool:
    """True if the unit is half of a mounted APC pair (12.1 [P])."""
    return bool(status(unit).carrying or status(unit).carried_by)


def mount_partner(st: GameState, unit: Unit) -> Unit | None:
    """The other half of a mounted APC pair, or None."""
    other = status(unit).carrying or status(unit).carried_by
    return st.units.get(str(other)) if other else None


def _target_body(st: GameState, target: Unit) -> Unit:
    """The unit whose armour and flags a shot at ``target`` meets: the APC for a mounted company (12.1 [P])."""
    carrier = status(target).carried_by
    return st.units[str(carrier)] if carrier else target


def _formation_of(st: GameState, unit: Unit) -> tuple[str, Formation] | None:
    """The unit's formation id and record: its own, or the adopted one for attached independents (10.3); for an
    HQ, the formation it commands."""
    forms = data(st).formations
    if unit.formation is not None and unit.formation in forms:
        return unit.formation, forms[unit.formation]
    for fid, rec in sorted(forms.items()):
        if rec.hq == unit.id:
            return fid, rec
    return None


def _ff(tables: Tables, rec: Formation) -> tuple[int, str]:
    """The FF in force and how it was found: base FF, plus the exhaustion modifier (5.4, 13.4)."""
    ff = rec.ff
    if rec.exhausted:
        mod = tables.exhausted_ff_modifier
        return ff + mod, f"FF {ff} {mod:+d} exhausted = {ff + mod}"
    return ff, f"FF {ff}"


def formation_factor(tables: Tables, st: GameState, unit: Unit) -> int:
    """The FF the unit tests with now: its (adopted) formation's FF, exhaustion included (13.4, 10.3).

    Raises:
        ValueError: the unit has no formation record, so its FF is unknown.
    """
    found = _formation_of(st, unit)
    if found is None:
        raise ValueError(f"{unit.id} belongs to no formation of the state: no FF (rule 13.4)")
    return _ff(tables, found[1])[0]


# --- Attack factor (8.2) ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Factor:
    """The attack factor of one attack on one target (8.2 steps 1–3), with every step explained."""

    fire: str
    """``direct``, ``close``, ``indirect`` or ``mines``."""
    base: int
    """The attack value used (8.2 step 1), or the fixed Mines column."""
    base_reason: str
    """Where the attack value came from (``"S35 full value 8"``, ``"PZ3 reduced value Y 5 (F4, rule 6.1)"``)."""
    armour_step: Modifier | None
    """Armour subtracted (``-3 armour 3``) or the AT halving (F18); None for mines (armour ignored)."""
    modifiers: tuple[Modifier, ...]
    """The modifier lines of 13.2 that apply, each citing its F-number and rule."""
    final: int
    """The final attack factor (8.2 step 3)."""
    column: int | None
    """The CRT column to read (factors above the highest use the highest); None when the attack cannot be made
    or has no effect on this target."""
    refusal: str | None = None
    """Why the attack cannot be made, with the rule (None when it can)."""

    @property
    def can_fire(self) -> bool:
        """True if the attack is resolved on a column."""
        return self.column is not None

    def explain(self) -> str:
        """One line: ``"S35 full value 8 -3 armour 3 (rule 8.2.1) -1 range 2 hexes (F2, rule 8.2.4) = 4 →
        column 4"``."""
        parts = [self.base_reason]
        steps = ([self.armour_step] if self.armour_step is not None else []) + list(self.modifiers)
        parts += [f"{m.value:+d} {m.reason}" for m in steps]
        text = " ".join(parts)
        if steps:
            text += f" = {self.final}"
        if self.column is None:
            return f"{text}: {self.refusal}"
        clamp = " (the highest column, rule 8.2.5)" if self.column != self.final else ""
        return f"{text} → column {self.column}{clamp}"

    def __str__(self) -> str:
        return self.explain()


def _line(tables: Tables, key: str) -> ModifierLine:
    for line in tables.modifiers.values():
        if line.key == key:
            return line
    raise KeyError(f"modifiers.toml has no line with key {key!r}")


def _reason(line: ModifierLine, detail: str) -> str:
    return f"{detail} ({line.id}, rule {_RULE.get(line.key, '8.2.3')})"


def _line_value(line: ModifierLine, fire: str, *, first_round: bool, firer_defending: bool) -> int | None:
    """The line's modifier for this attack, honouring its close-combat qualifiers (13.2)."""
    value = line.value(_TABLE_FIRE[fire])
    if value is None or fire != "close":
        return value
    if "close_combat_first_round_only" in line.flags and not first_round:
        return None
    if "close_combat_defender_only" in line.flags:
        # A firer line counts only for the defending firer; a target line only for a defending target.
        defending = firer_defending if line.subject == "firer" else not firer_defending
        if not defending:
            return None
    return value


def _attack_value(
    tables: Tables, attacker: Unit, *, reduced: bool, combined_with: Unit | None
) -> tuple[int | None, str]:
    t = _type(tables, attacker)
    back = attacker.steps < t.steps
    value = t.attack(reduced_side=back, moving=reduced)
    side = " (reduced side, rule 1.2)" if back else ""
    kind = "reduced value Y" if reduced else "full value"
    cite = " (F4, rule 6.1)" if reduced else ""
    if value is None:
        return None, f"{attacker.type} has no attack value"
    if combined_with is None:
        return value, f"{attacker.type} {kind} {value}{cite}{side}"
    # Blitzkrieg 12.1 [P]: combined fire = company's value + APC's value (full or reduced alike).
    ct = _type(tables, combined_with)
    extra = ct.attack(reduced_side=combined_with.steps < ct.steps, moving=reduced)
    if extra is None:
        return value, f"{attacker.type} {kind} {value}{cite}{side}"
    return (
        value + extra,
        f"{attacker.type} {value} + {combined_with.type} {extra} combined {kind} {value + extra} (rule 12.1)",
    )


def attack_factor(
    tables: Tables,
    st: GameState,
    attacker: Unit | None,
    target: Unit,
    *,
    fire: str,
    attack_value: int | None = None,
    reduced: bool = False,
    distance: int = 1,
    first_round: bool = False,
    combined_with: Unit | None = None,
    firer_defending: bool = False,
) -> Factor:
    """The attack factor of one attack on ``target`` (8.2 steps 1–3, modifier table 13.2).

    Args:
        tables: the ruleset's tables.
        st: the state (formations, fortifications, the board).
        attacker: the firing unit; None for indirect fire and mines.
        target: the unit attacked (for a mounted pair either half: the pair is one target with the APC's armour).
        fire: ``direct`` (also opportunity and return fire), ``close``, ``indirect`` or ``mines``.
        attack_value: the attack value to use instead of the counter's: required for indirect fire (a calibre or
            the Stuka, see :func:`indirect_value`).
        reduced: move-and-fire, so the reduced value Y is used (F4; direct fire only).
        distance: hexes from firer to target (direct fire; 1 = adjacent).
        first_round: close combat only: the first round of fire (F7, F9 apply only then).
        combined_with: the APC whose value is added to the mounted company's (12.1 [P] combined fire).
        firer_defending: close combat only: the firer is a defender (so F6 is −1 instead of forbidden, and the
            target, an attacker, gets no fortification benefit).

    Raises:
        ValueError: an unknown fire kind, a missing attacker or attack value, a target off the map, or a
            distance below 1 for direct fire.
    """
    if fire not in FIRE_KINDS:
        raise ValueError(f"unknown fire kind {fire!r} (expected one of {', '.join(FIRE_KINDS)})")
    if target.hex is None:
        raise ValueError(f"{target.id} is not on the map and cannot be attacked")
    crt = tables.crt
    if fire == "mines":
        # Blitzkrieg 10.1 / F19: fixed Mines column, armour and every modifier ignored.
        line = _line(tables, "mines")
        col = line.column if line.column is not None else crt.mines_column
        return Factor(fire, col, _reason(line, f"Mines column {col}, armour and modifiers ignored"), None, (), col, col)
    base, base_reason, refusal = _base_value(
        tables, attacker, fire=fire, attack_value=attack_value, reduced=reduced, combined_with=combined_with
    )
    # Blitzkrieg 8.2.1: attack factor = attack value − target's armour; an AT unit against an armour-0 target
    # halves its value instead (rounded up, F18). A mounted pair is hit with its APC's armour (12.1 [P]).
    body = _target_body(st, target)
    tt = _type(tables, body)
    if fire != "indirect" and attacker is not None and _type(tables, attacker).at_unit and tt.armour == 0:
        at = _line(tables, "at_unit_vs_soft")
        halved = math.ceil(base / 2)
        armour_step = Modifier(halved - base, _reason(at, f"AT unit vs armour 0: {base} halved, rounded up"))
    else:
        armour_step = Modifier(-tt.armour, f"armour {tt.armour} (rule 8.2.1)")
    # Blitzkrieg 8.2.3 / 13.2: every line that fits is added.
    mods = _Modifiers(tables, fire, first_round=first_round, firer_defending=firer_defending)
    # Blitzkrieg 8.2.4: range (F1/F2) for direct fire; close combat +1 (F3); indirect fire has no range count.
    if fire == "direct":
        if distance < 1:
            raise ValueError(f"direct fire needs a target at distance 1 or more, got {distance} (rule 8.2.4)")
        mods.add("range_per_hex", f"range {distance} hexes", times=distance - 1)
    elif fire == "close":
        mods.add("close_combat", "close combat")
    if attacker is not None and fire in ("direct", "close"):
        refusal = _firer_modifiers(mods, st, attacker, refusal)
    _target_modifiers(mods, st, target, body, tt)
    final = base + armour_step.value + sum(m.value for m in mods.lines)
    if refusal is None and final < crt.min_column:
        # Blitzkrieg 8.2 step 3: below the lowest column the unit cannot fire ([P] indirect: no effect).
        what = "the unit cannot fire" if fire in ("direct", "close") else "no effect on this unit"
        refusal = f"final attack factor {final} is below column {crt.min_column}: {what} (rule 8.2 step 3)"
    column = None if refusal is not None else crt.column(final)
    return Factor(fire, base, base_reason, armour_step, tuple(mods.lines), final, column, refusal)


def _base_value(
    tables: Tables,
    attacker: Unit | None,
    *,
    fire: str,
    attack_value: int | None,
    reduced: bool,
    combined_with: Unit | None,
) -> tuple[int, str, str | None]:
    """8.2 step 1: the attack value used, what it is, and why the attack cannot be made (6.1, 8.1) if it cannot."""
    if fire == "indirect":
        if attack_value is None:
            raise ValueError("indirect fire needs the calibre's or the Stuka's attack value (rule 13.6)")
        return attack_value, f"attack value {attack_value}", None
    if attacker is None:
        raise ValueError(f"{fire} fire needs a firing unit")
    if reduced and fire != "direct":
        raise ValueError("the reduced value Y is used only for move-and-fire, a direct fire (F4, rule 6.1)")
    refusal: str | None = None
    if attack_value is not None:
        base, base_reason = attack_value, f"attack value {attack_value}"
    else:
        value, base_reason = _attack_value(tables, attacker, reduced=reduced, combined_with=combined_with)
        base = value if value is not None else 0
        if value is None:
            # Blitzkrieg 6.1: an HQ never fires or attacks.
            refusal = f"{attacker.id} ({attacker.type}) has no attack value and cannot fire (rule 6.1)"
    if fire == "direct" and not _type(tables, attacker).may_fire_directly and refusal is None:
        refusal = f"{attacker.id} ({attacker.type}) may not fire directly (rule 8.1)"
    return base, base_reason, refusal


class _Modifiers:
    """The modifier lines of 13.2 collected for one attack (a line whose value is 0 or absent is left out)."""

    def __init__(self, tables: Tables, fire: str, *, first_round: bool, firer_defending: bool) -> None:
        self.tables, self.fire = tables, fire
        self.first_round, self.firer_defending = first_round, firer_defending
        self.lines: list[Modifier] = []

    def add(self, key: str, detail: str, times: int = 1) -> None:
        line = _line(self.tables, key)
        value = _line_value(line, self.fire, first_round=self.first_round, firer_defending=self.firer_defending)
        if value is not None and value * times != 0:
            self.lines.append(Modifier(value * times, _reason(line, detail)))


def _firer_modifiers(mods: _Modifiers, st: GameState, attacker: Unit, refusal: str | None) -> str | None:
    """F5–F9: the firer's state (direct fire and close combat); returns the refusal (6.2: out of command, no
    close combat)."""
    tables = mods.tables
    found = _formation_of(st, attacker)
    if found is not None and found[1].exhausted:
        mods.add("firer_exhausted", "firer's formation exhausted")  # Blitzkrieg 5.4 (F5)
    if status(attacker).ooc:
        # Blitzkrieg 6.2 (F6): −1; in close combat it may not attack, and defends with −1.
        ooc = _line(tables, "firer_out_of_command")
        if mods.fire == "close" and not mods.firer_defending and "close_combat_attack_forbidden" in ooc.flags:
            refusal = refusal or f"{attacker.id} is out of command and may not start a close combat (rule 6.2)"
        else:
            mods.add("firer_out_of_command", "firer out of command")
    if in_column(attacker):
        mods.add("firer_in_column", "firer in column")  # Blitzkrieg 7.2.1 (F7; close combat: first round only)
    if dispersed(tables, st.board, attacker):
        mods.add("firer_dispersed", "firer dispersed")  # Blitzkrieg 7.2.2 (F8)
    if status(attacker).neutralised:
        mods.add("firer_neutralised", "firer neutralised")  # Blitzkrieg 8.4 (F9; close combat: 9.1.5 first round)
    return refusal


def _target_modifiers(mods: _Modifiers, st: GameState, target: Unit, body: Unit, tt: UnitType) -> None:
    """F10–F17: the target's state, terrain and fortification."""
    tables = mods.tables
    assert target.hex is not None
    if in_column(target):
        mods.add("target_in_column", "target in column")  # Blitzkrieg 7.2.1 (F10, direct fire only)
    if dispersed(tables, st.board, body):
        mods.add("target_dispersed", "target dispersed")  # Blitzkrieg 7.2.2 (F11)
    terrain = st.board.terrain(target.hex)
    if tt.armour == 0 and not tt.armoured:
        # Blitzkrieg 8.2.3 F12–F15: terrain protects armour-0 targets only (F17: armoured targets get none).
        lines = [ln for ln in tables.modifiers.values() if ln.terrain == terrain]
        if lines:
            mods.add(lines[0].key, f"target in {terrain}")
        elif tables.terrain.classes[terrain].fire_modifier:
            value = tables.terrain.classes[terrain].fire_modifier
            mods.lines.append(Modifier(value, f"target in {terrain} (rule 8.2.3)"))
    if tt.fortification_benefit and hexgrid.hex_label(target.hex) in data(st).forts:
        mods.add("target_fortified", "infantry in a fortified hex")  # Blitzkrieg 10.2 (F16)


def indirect_value(tables: Tables, name: str) -> int:
    """The attack value of an indirect attack (13.6): ``"stuka"`` or a calibre (``light``, ``medium``, ``heavy``).

    Raises:
        KeyError: an unknown calibre.
    """
    if name == "stuka":
        return tables.artillery.stuka_attack
    try:
        return tables.artillery.calibres[name].attack
    except KeyError:
        known = ", ".join(["stuka", *sorted(tables.artillery.calibres)])
        raise KeyError(f"unknown indirect attack {name!r} (expected one of {known})") from None


# --- Results and odds (8.3) ------------------------------------------------------------------------------------


def resolve(tables: Tables, column: int, roll: int, target: Unit) -> str:
    """The effective result of ``roll`` on ``column`` for ``target`` (8.3): ``"-"``, ``"red_n"``, ``"n"`` or
    ``"step"``.

    A red N affects only infantry-category units (not a mounted APC pair, 12.1 [P]); against anything else it
    is ``"-"``. A "1" against an HQ is applied as N (3.2 [P]), so it is ``"n"`` here.
    """
    result = tables.crt.result(column, roll)
    t = _type(tables, target)
    if result == "red_n" and (not t.red_n_affects or is_mounted(target)):
        return "-"  # Blitzkrieg 8.3: red N affects only infantry
    if result == "step" and _is_hq(t):
        return "n"  # Blitzkrieg 3.2 [P]: an HQ is never destroyed
    return result


def fire_odds(tables: Tables, column: int | None, target: Unit) -> dict[str, Fraction]:
    """Effective result → exact probability of one attack on ``column`` against ``target`` (every result listed;
    a None column, an attack that cannot be made, gives no effect for certain)."""
    out = dict.fromkeys(RESULTS, Fraction(0))
    if column is None:
        out["-"] = Fraction(1)
        return out
    for roll, p in TWO_D6.items():
        out[resolve(tables, column, roll, target)] += p
    return out


PANIC_PASSED: Final = "N, no loss"
"""The odds entry of an N on a unit already neutralised whose panic test is passed (8.4): nothing changes."""


def odds_entries(
    tables: Tables, column: int | None, target: Unit, panic: Fraction | None = None
) -> tuple[OddsEntry, ...]:
    """:class:`~engine.odds.OddsEntry` values of :func:`fire_odds` (possible results only), valued with
    :data:`RESULT_VALUES`.

    ``panic`` (see :func:`panic_chance`): the target is already neutralised, so an N (red or black, where it
    affects the target) means the panic test of 8.4: a step loss with that probability (counted in the step
    loss entry), else no change (:data:`PANIC_PASSED`, worth nothing).
    """
    odds = fire_odds(tables, column, target)
    if panic is not None:
        n = odds.pop("n") + odds.pop("red_n")
        odds["step"] += n * panic
        entries = {r: (RESULT_NAMES[r], p, RESULT_VALUES[r]) for r, p in odds.items()}
        entries["panic"] = (PANIC_PASSED, n * (1 - panic), 0.0)
        return tuple(OddsEntry(name, p, value) for name, p, value in entries.values() if p)
    return tuple(OddsEntry(RESULT_NAMES[r], p, RESULT_VALUES[r]) for r, p in odds.items() if p)


def panic_chance(tables: Tables, st: GameState, target: Unit) -> tuple[Fraction, str] | None:
    """The chance that an N costs ``target`` a step through the panic test (8.4), and the test in words; None
    when an N would simply neutralise it (not neutralised yet), or has no effect (an HQ, 3.2 [P]), or the unit
    has no formation (no FF)."""
    if not status(target).neutralised or _is_hq(_type(tables, target)):
        return None
    found = _formation_of(st, target)
    if found is None:
        return None
    ff, ff_text = _ff(tables, found[1])
    test = tables.ff_tests["panic"]
    return test.chance(ff), f"already neutralised: an N means a panic test, a step lost above {ff_text} (rule 8.4)"


# --- State changes ---------------------------------------------------------------------------------------------


def update_fortification(tr: Transition, tables: Tables, label: str, side: str) -> bool:
    """Remove the fortification marker of hex ``label`` when no infantry of ``side`` is left in it (10.2).

    Call it when infantry leaves or is eliminated (:func:`step_loss` does for eliminations). Returns True if
    the marker was removed.
    """
    st = tr.state
    forts: list[str] = data(st).forts or []
    if label not in forts:
        return False
    h = st.board.parse(label)
    if any(u.side == side and _type(tables, u).fortification_benefit for u in _units_in(tables, st, h)):
        return False
    forts.remove(label)
    tr.emit(
        "fortification", f"No {side} infantry is left in {label}: its fortifications are removed (rule 10.2)", hex=label
    )
    return True


def _demoralisation_check(tr: Transition, tables: Tables, fid: str, rec: Formation) -> None:
    """Blitzkrieg 8.5: test when losses reach half the steps (rounded up), and after every further loss."""
    total, lost = rec.steps_total, rec.steps_lost
    if total <= 0 or rec.demoralised or rec.removed or lost < math.ceil(total / 2):
        return
    test = tables.ff_tests["demoralisation"]
    ff, ff_text = _ff(tables, rec)
    name = rec.name or fid
    purpose = f"{name} demoralisation test, {lost} of {total} steps lost (rule 8.5): demoralised above {ff_text}"
    roll = sum(tr.roll(6, 2, purpose, target=test.target(ff), compare=test.compare))
    if test.happens(ff, roll):
        rec.demoralised = True
        tr.emit("demoralised", f"{name} is demoralised: Demoralised marker on its HQ (rule 8.5)", formation=fid)
    else:
        tr.emit("morale", f"{name} holds (rule 8.5); it tests again after every further loss", formation=fid)


PAIR_LOSS: Final = "pair_loss"
"""The frame kind of the owner's choice of which half of a mounted APC pair takes a step loss (12.1 [P], 2.9)."""


def step_loss(tr: Transition, tables: Tables, unit: Unit, cause: str, *, owner_choice: bool = True) -> None:
    """One step loss (8.3 "1"): flip the unit, or eliminate it at 0 steps (``hex`` = None); then the formation's
    demoralisation check (8.5).

    An HQ never loses steps: the loss is applied as N (3.2 [P]). A step loss does not remove a Neutralised marker
    (8.3 [P]). The loss counts for the unit's formation, the adopted one for an attached independent (10.3).
    For a mounted pair the owner chooses which half loses the step (12.1 [P], 2.9): with ``owner_choice`` the
    loss waits for that decision (a ``pair_loss`` frame); close combat passes False and the unit it names loses.

    Raises:
        ValueError: the unit is not on the map.
    """
    if not _present(tables, unit) or unit.hex is None:
        raise ValueError(f"{unit.id} is not on the map and cannot lose a step")
    st = tr.state
    partner = mount_partner(st, unit)
    if owner_choice and partner is not None and partner.hex is not None:
        # Blitzkrieg 12.1 [P]: "each step loss is assigned by the owner to the APC or the company".
        pair = sorted([unit.id, partner.id])
        data(st).frames.append(PairLossFrame(PAIR_LOSS, unit.side, pair, cause))
        st.to_act = unit.side
        tr.emit(
            "pair_loss",
            f"The mounted pair {pair[0]} / {pair[1]} loses a step ({cause}): its owner chooses which half (rule 12.1)",
            unit=unit.id,
        )
        return
    if _is_hq(_type(tables, unit)):
        # Blitzkrieg 3.2 [P]: a "1" on an HQ is applied as N.
        tr.emit(
            "hq_hit", f"{unit.id} is an HQ and cannot lose steps: the loss is applied as N (rule 3.2)", unit=unit.id
        )
        neutralise(tr, tables, unit, cause)
        return
    unit.steps -= 1
    if unit.steps > 0:
        tr.emit("loss", f"{unit.id} loses a step ({cause}) and is flipped to its reduced side (rule 8.3)", unit=unit.id)
    else:
        # Blitzkrieg 8.3: a unit that already had a loss is removed.
        label = hexgrid.hex_label(unit.hex)
        unit.hex = None
        status(unit).clear("neutralised", "opp_used", "ooc", "moving", "column")  # an eliminated unit carries none
        tr.emit("eliminated", f"{unit.id} loses its last step ({cause}) and is eliminated (rule 8.3)", unit=unit.id)
        partner = mount_partner(st, unit)
        if partner is not None:
            # Blitzkrieg 12.1 [P]: if the APC is eliminated the company is placed in the hex dismounted.
            status(partner).carrying = None
            status(partner).carried_by = None
            status(unit).carrying = None
            status(unit).carried_by = None
        if _type(tables, unit).fortification_benefit:
            update_fortification(tr, tables, label, unit.side)
    found = _formation_of(st, unit)
    if found is not None:
        fid, rec = found
        rec.steps_lost += 1
        _demoralisation_check(tr, tables, fid, rec)


def neutralise(tr: Transition, tables: Tables, unit: Unit, cause: str) -> None:
    """Apply an N (8.3): place the Neutralised marker (on both halves of a mounted pair, 12.1 [P]).

    A unit already neutralised takes the panic test instead (8.4): 2d6 above its FF (exhaustion included) → it
    loses a step and the marker is removed; otherwise nothing. An HQ never takes a panic test: a further N on a
    neutralised HQ has no effect (3.2 [P]). The "step loss instead of N" choice is the caller's (see
    :func:`take_step_instead`).

    Raises:
        ValueError: the unit is not on the map, or a panic test is due and the unit has no formation (no FF).
    """
    if not _present(tables, unit):
        raise ValueError(f"{unit.id} is not on the map and cannot be neutralised")
    if not status(unit).neutralised:
        status(unit).neutralised = True
        tr.emit("neutralised", f"{unit.id} is neutralised ({cause}) (rule 8.3)", unit=unit.id)
        partner = mount_partner(tr.state, unit)
        if partner is not None and not status(partner).neutralised:
            status(partner).neutralised = True
            tr.emit("neutralised", f"{partner.id} is neutralised with its mounted partner (rule 12.1)", unit=partner.id)
        return
    if _is_hq(_type(tables, unit)):
        tr.emit("no_effect", f"{unit.id} is an HQ already neutralised: the N has no further effect (rule 3.2)")
        return
    # Blitzkrieg 8.4: panic test.
    found = _formation_of(tr.state, unit)
    if found is None:
        raise ValueError(f"{unit.id} belongs to no formation of the state: no FF (rule 13.4)")
    test = tables.ff_tests["panic"]
    ff, ff_text = _ff(tables, found[1])
    purpose = f"{unit.id} panic test, neutralised again ({cause}) (rule 8.4): a step is lost above {ff_text}"
    roll = sum(tr.roll(6, 2, purpose, target=test.target(ff), compare=test.compare))
    if test.happens(ff, roll):
        status(unit).neutralised = False
        partner = mount_partner(tr.state, unit)
        if partner is not None:
            status(partner).neutralised = False  # Blitzkrieg 12.1 [P]: the pair shares one marker
        tr.emit("panic", f"{unit.id} panics: its Neutralised marker is removed and it loses a step (rule 8.4)")
        step_loss(tr, tables, unit, "panic test")  # a mounted pair's owner picks the half (12.1)
    else:
        tr.emit("panic", f"{unit.id} stays neutralised without loss (rule 8.4)", unit=unit.id)


def take_step_instead(tr: Transition, tables: Tables, unit: Unit, cause: str) -> None:
    """The owner's choice of 8.3: a unit that has just been neutralised takes one step loss instead; its fresh
    Neutralised marker (and its mounted partner's) is removed and :func:`step_loss` applied.

    Offer it only to units that were not neutralised before the result (8.3 [P]) and never to HQs.

    Raises:
        ValueError: an HQ, or a unit that is not neutralised.
    """
    if _is_hq(_type(tables, unit)):
        raise ValueError(f"{unit.id} is an HQ and cannot take a step loss instead of N (rule 8.3)")
    if not status(unit).neutralised:
        raise ValueError(f"{unit.id} is not neutralised: there is no N to exchange (rule 8.3)")
    status(unit).neutralised = False
    partner = mount_partner(tr.state, unit)
    if partner is not None:
        status(partner).neutralised = False
    tr.emit("exchange", f"{unit.id}'s owner takes a step loss instead of the N (rule 8.3)", unit=unit.id)
    step_loss(tr, tables, unit, cause)


def apply_result(tr: Transition, tables: Tables, unit: Unit, result: str, cause: str) -> None:
    """Apply an effective result of :func:`resolve`: ``step`` → :func:`step_loss`; ``n`` or ``red_n`` →
    :func:`neutralise` (panic test if already neutralised); ``-`` → nothing."""
    if result == "step":
        step_loss(tr, tables, unit, cause)
    elif result in ("n", "red_n"):
        neutralise(tr, tables, unit, cause)
    elif result != "-":
        raise ValueError(f"unknown result {result!r} (expected one of {', '.join(RESULTS)})")


def rally_roll(tr: Transition, tables: Tables, unit: Unit) -> bool:
    """The rally attempt of a neutralised unit or HQ when activated (8.4): 2d6 ≤ FF − 1 (exhaustion included)
    removes the marker. Returns True on success.

    Raises:
        ValueError: the unit is not neutralised or has no formation (no FF).
    """
    if not status(unit).neutralised:
        raise ValueError(f"{unit.id} is not neutralised and has nothing to rally from (rule 8.4)")
    found = _formation_of(tr.state, unit)
    if found is None:
        raise ValueError(f"{unit.id} belongs to no formation of the state: no FF (rule 13.4)")
    test = tables.ff_tests["rally"]
    ff, ff_text = _ff(tables, found[1])
    target = test.target(ff)
    roll = sum(
        tr.roll(
            6, 2, f"{unit.id} rally (rule 8.4): {target} or less with {ff_text}", target=target, compare=test.compare
        )
    )
    if test.happens(ff, roll):
        status(unit).neutralised = False
        tr.emit("rally", f"{unit.id} rallies: its Neutralised marker is removed (rule 8.4)", unit=unit.id)
        return True
    tr.emit("rally", f"{unit.id} fails to rally and stays neutralised (rule 8.4)", unit=unit.id)
    return False


def roll_fire(tr: Transition, tables: Tables, factor: Factor, target: Unit, purpose: str) -> str:
    """Roll 2d6 for one attack on ``factor``'s column and return the effective result for ``target`` (8.2.5,
    8.3). The result is not applied: the caller offers the 8.3 choice, then calls :func:`apply_result`.

    Raises:
        ValueError: the factor allows no attack (its refusal says why).
    """
    if factor.column is None:
        raise ValueError(f"{purpose}: {factor.refusal}")
    roll = sum(tr.roll(6, 2, f"{purpose} (rule 8.2.5)", column=str(factor.column)))
    result = resolve(tables, factor.column, roll, target)
    _emit_fire(tr, target, factor, roll, result)
    return result


def _emit_fire(tr: Transition, target: Unit, factor: Factor, roll: int, result: str, **extra: Any) -> None:
    tr.emit(
        "fire",
        f"{target.id}: {factor.explain()}; roll {roll} → {RESULT_NAMES[result]} (rule 8.3)",
        unit=target.id,
        fire=factor.fire,
        column=factor.column,
        final=factor.final,
        modifiers=[[m.value, m.reason] for m in factor.modifiers],
        roll=roll,
        result=result,
        **extra,
    )


# --- Mines (10.1) ----------------------------------------------------------------------------------------------


def mine_attack(tr: Transition, tables: Tables, unit: Unit, hex_label: str, *, retreating: bool = False) -> str:
    """The mine attack on a unit entering the enemy minefield in ``hex_label`` (10.1), then the minefield's
    removal roll (2d6 ≥ 10 removes it), except for a unit retreating through it (6.3.3).

    The attack is on the Mines column with armour and modifiers ignored (F19). The result is applied at once (an
    N neutralises; the caller may then offer :func:`take_step_instead`). A unit of the minefield's owner is not
    attacked (10.1 [I]). Returns the effective result.

    Raises:
        ValueError: there is no minefield in the hex.
    """
    st = tr.state
    mines: dict[str, str] = data(st).mines or {}
    if hex_label not in mines:
        raise ValueError(f"there is no minefield in {hex_label} (rule 10.1)")
    if mines[hex_label] == unit.side:
        tr.emit("mines", f"{unit.id} is not attacked by its own side's minefield in {hex_label} (rule 10.1)")
        return "-"
    factor = attack_factor(tables, st, None, unit, fire="mines")
    assert factor.column is not None
    roll = sum(tr.roll(6, 2, f"Mine attack on {unit.id} in {hex_label} (rule 10.1)", column=str(factor.column)))
    result = resolve(tables, factor.column, roll, unit)
    _emit_fire(tr, unit, factor, roll, result, hex=hex_label)
    apply_result(tr, tables, unit, result, f"minefield in {hex_label}")
    if retreating:
        tr.emit("mines", f"No removal roll for a unit retreating through the minefield in {hex_label} (rule 6.3.3)")
        return result
    removal = sum(
        tr.roll(
            6,
            2,
            f"Minefield in {hex_label} exhausted on {tables.crt.mine_removal_min} or more (rule 10.1)",
            target=tables.crt.mine_removal_min,
        )
    )
    if removal >= tables.crt.mine_removal_min:
        del mines[hex_label]
        tr.emit("mines", f"The minefield in {hex_label} is exhausted and removed (rule 10.1)", hex=hex_label)
    return result


# --- Indirect fire (8.6) ---------------------------------------------------------------------------------------


def transmission_needed(board: Board, observer_hex: Hex, target_hex: Hex, tables: Tables | None = None) -> bool:
    """True if the observing HQ must roll to transmit (8.6.1): not when it is adjacent to the target hex.

    Raises:
        ValueError: a hex off the map.
    """
    for h in (observer_hex, target_hex):
        if h not in board:
            raise ValueError(f"hex {h} is off the {board.id} map")
    t = (tables or load_tables()).artillery.transmission
    return not (t.adjacent_automatic and hexgrid.distance(observer_hex, target_hex) <= 1)


def transmission_target(tables: Tables, observer_neutralised: bool) -> int:
    """The highest unmodified 2d6 roll that transmits (8.6.1): 8, or 7 for a neutralised observer (whose roll
    gets +1)."""
    t = tables.artillery.transmission
    return t.target - (t.neutralised_observer if observer_neutralised else 0)


def transmit(tr: Transition, tables: Tables, observer: Unit, target_hex: Hex) -> bool:
    """The observer's transmission of one salvo to ``target_hex`` (8.6.1): automatic when adjacent, else 2d6
    (+1 if the observer is neutralised) ≤ 8. On failure the salvo is lost, with no re-roll. Line of sight and
    visibility are the caller's checks (8.6.1 [P]).

    Raises:
        ValueError: the observer is not on the map.
    """
    if observer.hex is None:
        raise ValueError(f"{observer.id} is not on the map and cannot observe")
    where = hexgrid.hex_label(target_hex)
    if not transmission_needed(tr.state.board, observer.hex, target_hex, tables):
        tr.emit("transmission", f"{observer.id} is adjacent to {where}: transmission is automatic (rule 8.6.1)")
        return True
    t = tables.artillery.transmission
    mods = (
        [Modifier(t.neutralised_observer, "observer neutralised (rule 8.6.1)")] if status(observer).neutralised else []
    )
    values = tr.roll(
        6,
        2,
        f"{observer.id} transmits fire on {where} (rule 8.6.1)",
        target=t.target,
        modifiers=mods,
        compare="at_most",
    )
    net = sum(values) + sum(m.value for m in mods)
    if net <= t.target:
        tr.emit("transmission", f"{observer.id} transmits the coordinates of {where} (rule 8.6.1)")
        return True
    tr.emit("transmission", f"Transmission fails: the salvo on {where} is lost, no re-roll (rule 8.6.1)")
    return False


def indirect_attack(
    tr: Transition, tables: Tables, st: GameState, target_hex: Hex, attack_value: int, purpose: str
) -> dict[str, str]:
    """One Stuka attack or artillery salvo on every unit in ``target_hex`` (8.6.1): one 2d6 roll, read in each
    unit's own column (indirect modifiers F11–F17), each result applied. Returns unit id → effective result.

    A mounted pair is one target, recorded under the APC's id (an N neutralises both; a step loss is applied
    to the APC, the owner's choice of 12.1 [P] being left to a later decision frame). N results are applied with
    :func:`neutralise`. Hook for the 8.3 choice: afterwards the caller may offer :func:`take_step_instead` to
    the owner of each unit whose result is ``n`` or ``red_n`` and which was not neutralised before (the
    ``fire`` event of such a unit carries ``may_exchange=True``).

    Args:
        tr: the transition.
        tables: the ruleset's tables.
        st: the state being changed (``tr.state``).
        target_hex: the hex under the marker.
        attack_value: the calibre's or the Stuka's value (:func:`indirect_value`).
        purpose: the roll's purpose sentence (``"Stuka attack 1 of 2 on 0504"``).
    """
    targets = [u for u in _units_in(tables, st, target_hex) if not status(u).carried_by]
    where = hexgrid.hex_label(target_hex)
    if not targets:
        tr.emit("fire", f"{purpose}: {where} holds no unit; the attack has no effect (rule 8.6.1)", hex=where)
        return {}
    factors = {u.id: attack_factor(tables, st, None, u, fire="indirect", attack_value=attack_value) for u in targets}
    columns = ", ".join(f"{uid} {f.column if f.column is not None else 'none'}" for uid, f in factors.items())
    # Blitzkrieg 8.6.1: one roll for all units in the hex, each read in its own column.
    cite = "" if "(rule 8.6.1)" in purpose else " (rule 8.6.1)"  # cited once (issue 18 item 9)
    roll = sum(tr.roll(6, 2, f"{purpose}{cite}", column=columns))
    results: dict[str, str] = {}
    for u in targets:
        f = factors[u.id]
        results[u.id] = "-" if f.column is None else resolve(tables, f.column, roll, u)
    for u in targets:
        result = results[u.id]
        fresh = result in ("n", "red_n") and not status(u).neutralised and not _is_hq(_type(tables, u))
        _emit_fire(tr, u, factors[u.id], roll, result, hex=where, may_exchange=fresh)
        if _present(tables, u):
            apply_result(tr, tables, u, result, purpose)
    return results


@dataclass(frozen=True, slots=True)
class Shot:
    """One declared shot of a group fire (8.6.2): a Stuka attack or an artillery salvo."""

    attack_value: int
    """The calibre's or the Stuka's attack value (13.6)."""
    purpose: str
    """The roll's purpose sentence (``"Stuka attack 2 of 2 on 0504"``)."""
    observer: str | None = None
    """Unit id of the observing HQ of an artillery salvo (8.6.1); None for a Stuka (no observer needed)."""


def group_fire(
    tr: Transition, tables: Tables, st: GameState, target_hex: Hex, side: str, shots: Sequence[Shot]
) -> list[dict[str, str] | None]:
    """Group fire (8.6.2): shots declared together on one hex, resolved one after another; once no unit of an
    enemy of ``side`` (the firing side) is left in the hex, the remaining shots are lost. A salvo with an observer
    first needs its transmission (:func:`transmit`); a failed one is lost.

    Returns one entry per declared shot: the results of :func:`indirect_attack`, or None for a lost shot.
    """
    where = hexgrid.hex_label(target_hex)
    tr.emit("group_fire", f"{side.title()} declares {len(shots)} shots on {where} (rule 8.6.2)", hex=where)
    out: list[dict[str, str] | None] = []
    for i, shot in enumerate(shots):
        if not any(u.side != side for u in _units_in(tables, st, target_hex)):
            lost = len(shots) - i
            tr.emit(
                "group_fire", f"No enemy unit is left in {where}: the remaining {lost} shot(s) are lost (rule 8.6.2)"
            )
            out += [None] * lost
            break
        if shot.observer is not None and not transmit(tr, tables, st.units[shot.observer], target_hex):
            out.append(None)
            continue
        out.append(indirect_attack(tr, tables, st, target_hex, shot.attack_value, shot.purpose))
    return out
