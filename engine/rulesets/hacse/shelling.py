"""Provides indirect fire without sight at any hex (7.4) in two steps, so that a listing stays small.

1. ``shell UNIT WEAPON AMMO`` (3.2 Phase 3b): the unit is to fire the weapon indirectly with the round named (7.1:
   ``smoke`` or a round that does damage). Offered for every weapon that may fire indirectly now with enough
   rounds left (15.5; a burst weapon spends 2 at a hex, 7.4 P) when at least one hex meets 7.4's preconditions;
   cheap to list, it records the aim (``Data.shelling``) and nothing else.
2. The side then chooses the hex: ``fire UNIT HEX WEAPON AMMO`` at each hex meeting 7.4 (the hex or 3 of its
   neighbours with a sighting TN of 20 or less from the firer or a unit it communicates with, a map station in
   contact, an enemy unit there that just fired), in range and not the firer's own hex, resolved by
   ``artillery.py`` as fire at a known enemy's hex is; or ``cancel UNIT``, which leaves the Fire Phase as it was.

The hexes read only what the side may know: its own units (who looks, who communicates, the map station), the enemy
units it can see that fired (13.2), the smoke, fires, rubble and buildings of the map. Only hexes in the weapon's
range are looked at; whether a unit could see a hex is kept per position and sighting key (``artillery._could_see``
under ``artillery._sight_key``: the board, smoke, fires, rubble, light). The AI leaves ``shell`` out of its
candidates (``Hacse.ai_actions``).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.actions import Action
from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from . import artillery, attack
from .attack import mount_label
from .cache import kept, remember
from .data import Tables
from .model import data, status
from .movement import Refused
from .notation import Cancel, Fire, Shell

__all__ = ["aim_actions", "apply", "has_shell", "hexes", "refusal", "shell_actions"]


# --- The first step: which weapon and round ---------------------------------------------------------------------


def _rounds(st: GameState, tables: Tables, unit: Unit) -> Iterator[tuple[int, str, str]]:
    """(mount, label, round) of each weapon and round the unit may fire indirectly at a hex now, before the hex."""
    s = status(unit)
    mounts = artillery._indirect_mounts(tables, unit)
    if not mounts or unit.hex is None or not s.may_fire or s.fire_done:
        return
    if attack.phase_refusal(st, tables, unit) is not None:
        return
    sheet = tables.sheets[unit.type]
    for i in mounts:
        if artillery._mount_refusal(tables, unit, i) is not None:
            continue
        for k in sheet.mounts[i].ammo:
            if not isinstance(_ammo(st, tables, unit, i, k), Refused):
                yield i, mount_label(sheet, i), k


def _ammo(st: GameState, tables: Tables, unit: Unit, index: int, ammo: str) -> str | Refused:
    """``artillery._ammo`` at a hex, kept per listing under artillery's own key (the same answer)."""
    return kept(
        st, ("ammo", unit.id, index, ammo, True), lambda: artillery._ammo(tables, unit, index, ammo, True), unit
    )


def _round_refusal(st: GameState, tables: Tables, unit: Unit, label: str, ammo: str) -> Refused | int:
    """Why the unit may not shell with this weapon and round now, else the weapon's mount."""
    why = attack.phase_refusal(st, tables, unit)
    if why is not None:
        return why
    index = artillery._mount(tables, unit, label)
    if index is None:
        return Refused(f"Cannot shell: {unit.id} has no weapon {label}", "2.3")
    why = artillery._mount_refusal(tables, unit, index)
    if why is not None:
        return why
    got = _ammo(st, tables, unit, index, ammo)
    return got if isinstance(got, Refused) else index


_NEAREST: dict[tuple[int, Hex], tuple[object, tuple[Hex, ...]]] = {}
"""The map's hexes by distance from a hex (then by column and row), by board (kept with each) and hex."""


def _by_distance(st: GameState, centre: Hex) -> tuple[Hex, ...]:
    return remember(
        _NEAREST,
        (id(st.board), centre),
        lambda: tuple(sorted(st.board, key=lambda h: (distance(centre, h), h.q, h.r))),
        st.board,
        limit=2_000,
    )


def _near(st: GameState, tables: Tables, unit: Unit, index: int) -> bool:
    """Whether a hex next to the unit, in range and with no enemy unit the side knows of, is one the unit itself
    could see (7.4 precondition 1): then it may be shelled with any round (the quick answer, kept per listing)."""

    def now() -> bool:
        assert unit.hex is not None
        sight = kept(st, ("sight key",), lambda: artillery._sight_key(st, tables))
        enemies = set(artillery._known(st, unit.side))
        return any(
            n in st.board
            and n not in enemies
            and not isinstance(artillery._band(tables, unit, index, n), Refused)
            and artillery._could_see(st, tables, unit, n, sight)
            for n in unit.hex.neighbours()
        )

    return kept(st, ("near", unit.id, index), now, unit)


def _first_hex(st: GameState, tables: Tables, unit: Unit, index: int, ammo: str) -> Hex | None:
    """The nearest hex the unit may shell with this weapon and round (the answer :func:`artillery.ready` gives
    once the aim is taken), or None."""
    assert unit.hex is not None
    label = mount_label(tables.sheets[unit.type], index)
    memo: artillery.Memo = {("anywhere",): True}
    return next((h for h in _by_distance(st, unit.hex) if _ok(st, tables, unit, h, label, ammo, memo)), None)


def _ok(st: GameState, tables: Tables, unit: Unit, h: Hex, label: str, ammo: str, memo: artillery.Memo) -> bool:
    return not isinstance(artillery.ready(st, tables, unit, h, label, ammo, memo), Refused)


def _may_shell(st: GameState, tables: Tables, unit: Unit, index: int, ammo: str) -> bool:
    """Whether some hex meets 7.4 for this weapon and round: a hex next to the unit, nearly always; else the
    nearest found (kept per listing)."""
    if _near(st, tables, unit, index):
        return True
    return kept(
        st, ("may shell", unit.id, index, ammo), lambda: _first_hex(st, tables, unit, index, ammo) is not None, unit
    )


def shell_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """The unit's ``shell`` actions now (none while an aim is taken)."""
    if data(st).shelling:
        return []
    return [
        Action("shell", (unit.id, label, k))
        for i, label, k in _rounds(st, tables, unit)
        if _may_shell(st, tables, unit, i, k)
    ]


def has_shell(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether the unit may fire at some hex now (7.4): a shot of 3b (``attack.SHOT_SOURCES``)."""
    return any(_may_shell(st, tables, unit, i, k) for i, _, k in _rounds(st, tables, unit))


attack.SHOT_SOURCES.append(has_shell)


# --- The second step: which hex ---------------------------------------------------------------------------------


_RANGE: dict[tuple[object, ...], tuple[object, list[Hex]]] = {}
"""The hexes in a weapon's indirect range, by board (kept with each), firer's hex, sheet and mount."""


def _in_range(st: GameState, tables: Tables, firer: Unit, index: int) -> list[Hex]:
    """The map's hexes within the weapon's indirect range of the firer (7.1), by column and row (kept per board,
    firer's hex and weapon: the bands read only the distance)."""
    assert firer.hex is not None
    return remember(
        _RANGE,
        (id(st.board), firer.hex, firer.type, index),
        lambda: [
            h
            for h in sorted(st.board, key=lambda h: (h.q, h.r))
            if not isinstance(artillery._band(tables, firer, index, h), Refused)
        ],
        st.board,
        limit=2_000,
    )


def _candidates(st: GameState, tables: Tables, firer: Unit, index: int) -> list[Hex]:
    """The hexes in range meeting one of 7.4's preconditions for the firer, by column and row: every hex with a
    map station in contact; else the hexes of enemy units seen to fire and those the firer or a unit it communicates
    with could see. Only hexes in range are looked at: a hex out of range is refused whatever it meets."""
    reach = _in_range(st, tables, firer, index)
    if artillery._station(st, tables, firer) is not None:
        return reach
    fired = set(artillery._fired_from(st, firer.side))
    sight = artillery._sight_key(st, tables)
    watchers = [u for u, _ in artillery._watchers(st, tables, firer)]
    return [h for h in reach if h in fired or any(artillery._could_see(st, tables, u, h, sight) for u in watchers)]


def aim_actions(st: GameState, tables: Tables) -> list[Action]:
    """The second step: ``fire UNIT HEX WEAPON AMMO`` at each hex the aim may take, then ``cancel UNIT``."""
    uid, label, ammo = data(st).shelling
    unit = st.units[uid]
    index = artillery._mount(tables, unit, label)
    assert index is not None
    memo: artillery.Memo = {}
    out = [
        Action("fire", (uid, st.board.label(h), label, ammo))
        for h in _candidates(st, tables, unit, index)
        if _ok(st, tables, unit, h, label, ammo, memo)
    ]
    return [*out, Action("cancel", (uid,))]


def hexes(st: GameState, tables: Tables) -> set[Hex]:
    """The hexes the aim taken may be fired at (none without one): for the map."""
    if not data(st).shelling or data(st).shelling[0] not in st.units:
        return set()
    return {st.board.parse(str(a.args[1])) for a in aim_actions(st, tables) if a.verb == "fire"}


# --- Refusals and effects -----------------------------------------------------------------------------------------


def refusal(st: GameState, tables: Tables, typed: Shell | Cancel | Fire | object) -> Refused | None:
    """Why ``typed`` may not be played now: ``shell`` and ``cancel`` (7.4); while an aim is taken, only the fire
    at a hex it allows or ``cancel``."""
    aim = data(st).shelling
    if st.phase != "attack":
        return Refused("Cannot shell: indirect fire is made in the Attack Phase (3b)", "3.2")
    if isinstance(typed, Shell):
        if aim:
            return Refused(f"Cannot shell: {aim[0]} is shelling; choose its hex or cancel", "7.4")
        return _shell_refusal(st, tables, typed)
    if isinstance(typed, Cancel):
        if not aim or aim[0] != typed.unit:
            return Refused(f"Cannot cancel: {typed.unit} is not shelling", "7.4")
        return None
    if not isinstance(typed, Fire) or typed.unit != aim[0] or not isinstance(typed.target, Hex):
        return Refused(f"Cannot do that now: {aim[0]} is shelling; choose its hex or cancel", "7.4")
    if typed.weapon.lower() != aim[1].lower() or typed.ammo != aim[2] or typed.option is not None:
        return Refused(f"Cannot fire so: {aim[0]} shells with its {aim[1]} ({aim[2]}); choose the hex", "7.4")
    from . import options  # noqa: PLC0415  (options imports artillery, as this module does: no cycle)

    return options.refusal(st, tables, options.order(typed))


def _shell_refusal(st: GameState, tables: Tables, typed: Shell) -> Refused | None:
    unit = st.units.get(typed.unit)
    if unit is None or unit.side != st.to_act:
        return Refused(f"Cannot shell: {typed.unit} is not a unit of {st.to_act}", "3.2")
    got = _round_refusal(st, tables, unit, typed.weapon, typed.ammo)
    if isinstance(got, Refused):
        return got
    if not _may_shell(st, tables, unit, got, typed.ammo):
        return Refused(
            f"Cannot shell: no hex in range of the {typed.weapon} meets a precondition of fire without sight "
            "(a hex or 3 neighbours in sight, a map station, an enemy that fired from it)",
            "7.4",
        )
    return None


def apply(tr: Transition, tables: Tables, typed: Shell | Cancel) -> None:
    """``shell``: the aim is taken (told to the side only: a hidden firer stays hidden); ``cancel``: dropped."""
    st = tr.state
    d = data(st)
    unit = st.units[typed.unit]
    if isinstance(typed, Shell):
        index = artillery._mount(tables, unit, typed.weapon)
        assert index is not None
        label = mount_label(tables.sheets[unit.type], index)
        d.shelling = [unit.id, label, typed.ammo]
        tr.emit(
            "shell",
            f"{unit.id} is to fire its {label} ({typed.ammo}) at a hex: choose it (rule 7.4)",
            (unit.side,),
            unit=unit.id,
        )
        return
    d.shelling = []
    tr.emit("shell", f"{unit.id} does not shell after all (rule 7.4)", (unit.side,), unit=unit.id)
