"""Provides the Blitzkrieg 1940 set-up decisions (2.9 "Setup", 12.1, 12.2): placing units and markers in their zones.

The scenario's ``[[special.setup_sequence]]`` lists the set-up steps in order: which side places which formations
(and independent groups) and which markers. Each step is a ``deploy`` frame; inside it the owner decides, in this
order (12.1, 12.2 [P]):

1. ``loss UNIT``: the 2. Kürassiere's set-up step losses, one at a time (12.1; two on a counter eliminate it);
2. ``ownchit FORMATION`` or ``dissolve FORMATION``: Stonne's 4 BCC keeps its chit or is dissolved (12.2, 10.3),
   then ``assign UNIT FORMATION`` for each of its units;
3. ``assign UNIT FORMATION``: an independent AT gun joins a battalion (12.1, 12.2 [I]);
4. ``mount COMPANY`` or ``nomount``: Hannut's optional I/33 company on the I/33 APC (12.1 [I]);
5. ``place UNIT HEX`` for every unit, the HQ of each formation first (legal: inside the zone, on terrain the unit
   could enter, at most 3 units (7.3), no enemy, within the doctrine distance of its HQ (3.4), outside Stonne's
   exclusion ring, an AT gun with a unit of its battalion where the zone says so); a mounted company goes with
   its APC;
6. ``fort HEX`` / ``mine HEX``: the markers (10.1, 10.2 [P]: fortifications only with own infantry).

``default`` (offered before the first decision of a step) takes the scenario file's set-up for the whole step;
``restart`` (offered when the next placement has no legal hex left) takes the step back to its start.

After the side with Hannut's kept chits has set up, it picks the chits it keeps (2.8, 12.1 step 2); when the
last step is done the formations' step counts are recounted and turn 1 begins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from engine.actions import Action
from engine.contract import ACT, CHOOSE, Role
from engine.errors import IllegalActionError
from engine.hexgrid import distance
from engine.notation import Notation
from engine.rules import Transition
from engine.state import GameState, Unit
from engine.typed import from_plain

from . import notation as N
from . import verbs
from .arrival import chit_formations
from .handler import FrameHandler
from .model import (
    DefaultSetup,
    Deploy,
    DeployFrame,
    DeployItem,
    DeployStep,
    SideFrame,
    Zone,
    data,
    formation,
    push,
    status,
)
from .movement import command_distance, hq_of, stacking_ok, units_by_hex
from .sequence import begin_game

if TYPE_CHECKING:
    from engine.hexgrid import Hex

    from .model import Rules

__all__ = [
    "DEPLOY",
    "HANDLER",
    "VERBS",
    "DeployHandler",
    "default_setup",
    "deploy_actions",
    "open_deployment",
    "prepare_deployment",
    "waiting",
]

DEPLOY: Final = "deploy"
"""The frame kind of a set-up step."""

VERBS = verbs.SETUP

_MARKER_VERB = {"fortification": "fort", "minefield": "mine"}
_RULE = "12.1 / 12.2"


# --- Reading the scenario ---------------------------------------------------------------------------------------


def _labels(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


_T = TypeVar("_T")


def _need(value: _T | None) -> _T:
    """A field of a set-up item that the item's kind always has."""
    assert value is not None
    return value


def _deploy(st: GameState) -> Deploy:
    """The set-up plan (only while the players set up)."""
    d = data(st).deploy
    assert d is not None, "the set-up is over"
    return d


def _zone_for(st: GameState, key: str, value: str, side: str) -> tuple[set[str], list[Zone]]:
    """The hexes and zones where ``value`` (a formation or group for ``key`` "formations", a marker kind for
    "markers") of ``side`` sets up."""
    found = [z for z in _deploy(st).zones if value in getattr(z, key) and z.side in (None, side)]
    return {h for z in found for h in z.hexes}, found


def prepare_deployment(st: GameState, raw: Mapping[str, Any]) -> None:
    """Record the scenario file's set-up as the default and take every unit and marker of the set-up steps off
    the map (called while the state is built; :func:`open_deployment` asks the first decision)."""
    special = raw.get("special", {})
    steps = [from_plain(DeployStep, dict(s), where="special.setup_sequence") for s in special.get("setup_sequence", [])]
    if not steps:
        return
    default_hex: dict[str, str] = {}
    default_steps: dict[str, int] = {}
    default_formation: dict[str, str] = {}
    for step in steps:
        groups = set(step.formations)
        for u in st.units.values():
            if u.hex is None or not (u.formation in groups or status(u).group in groups):
                continue
            default_hex[u.id] = st.board.label(u.hex)
            default_steps[u.id] = u.steps
            if u.formation is not None:
                default_formation[u.id] = u.formation
    markers: dict[str, list[str]] = {}
    for m in raw.get("markers", []):
        markers.setdefault(str(m["kind"]), []).extend(str(m["hex"]).split())
    mounted = {u.id: str(status(u).carried_by) for u in st.units.values() if status(u).carried_by}
    zones = [
        Zone(
            z.get("side"),
            list(z.get("formations", [])),
            list(z.get("markers", [])),
            str(z.get("rule", "12")),
            bool(z.get("stack_with_assigned", False)),
            _labels(z.get("hexes")),
        )
        for z in raw.get("zones", [])
    ]
    data(st).deploy = Deploy(
        steps,
        zones,
        {str(f["id"]): list(f["assign_to"]) for f in raw.get("formations", []) if f.get("assign_to")},
        DefaultSetup(default_hex, default_steps, default_formation, mounted, markers),
        dict(special.get("marker_counts", {})),
        [],
    )
    for uid in default_hex:
        st.units[uid].hex = None
    data(st).forts = []
    data(st).mines = {}


def open_deployment(rs: Rules, tr: Transition) -> bool:
    """Ask the first set-up decision; False if the scenario has no set-up steps (the default set-up stands)."""
    if data(tr.state).deploy is None:
        return False
    _open_step(rs, tr, 0)
    return True


def _open_step(rs: Rules, tr: Transition, i: int) -> None:
    """Reset the units of step ``i`` to their undecided state and push its frame."""
    st = tr.state
    d = _deploy(st)
    step = d.steps[i]
    side = str(step.side)
    groups = list(step.formations)
    special = data(st).special or {}
    todo: list[DeployItem] = []
    losses = special.get("setup_losses")
    if isinstance(losses, dict) and losses.get("formation") in groups:
        fid = str(losses["formation"])
        for u in _members(st, fid):
            u.steps = rs.tables.units[u.type].steps
        todo.append(DeployItem("loss", formation=fid, left=int(losses.get("steps", 0))))
    bcc = special.get("bcc_4")
    if isinstance(bcc, dict) and bcc.get("may_dissolve") and bcc.get("formation") in groups:
        todo.append(DeployItem("bcc", formation=str(bcc["formation"])))
    for u in _independents(st, groups):
        choices = _assign_choices(st, u)
        if len(choices) > 1:
            todo.append(DeployItem("assign", unit=u.id, to=choices))
    optional = special.get("optional_mounted")
    if isinstance(optional, dict) and optional.get("formation") in groups:
        fid = str(optional["formation"])
        apc = next((u for u in _members(st, fid) if rs.tables.units[u.type].transport_capacity > 0), None)
        if apc is not None:
            for u in _members(st, fid):
                if status(u).carried_by == apc.id:
                    status(u).carried_by = None
                    status(apc).carrying = None
            todo.append(DeployItem("mount", formation=fid, apc=apc.id))
    for fid in groups:
        todo.extend(DeployItem("place", unit=u.id) for u in _placement_order(st, fid))
    for kind in step.markers:
        n = int(d.counts.get(kind, len(d.default.markers.get(kind, []))))
        if n:
            todo.append(DeployItem("marker", kind=str(kind), left=n))
    f = push(st, DeployFrame(DEPLOY, side, i, todo, True))
    _skip_settled(rs, st, f)
    tr.emit(
        "setup", f"Set-up step {i + 1}: {side.title()} sets up {', '.join(_group_names(st, groups))} (rule {_RULE})"
    )


def _group_names(st: GameState, groups: list[str]) -> list[str]:
    return [data(st).formations[g].name if g in data(st).formations else g for g in groups]


def _members(st: GameState, fid: str) -> list[Unit]:
    """Units of formation or independent group ``fid`` that set up (HQ included), in id order."""
    d = _deploy(st).default
    return [
        u
        for u in st.iter_units(on_map=False)
        if u.id in d.hex and (u.formation == fid or status(u).group == fid or d.formation.get(u.id) == fid)
    ]


def _placement_order(st: GameState, fid: str) -> list[Unit]:
    """The units of ``fid`` in placing order: its HQ first (3.4 is measured from it), then by id."""
    rec = data(st).formations.get(fid)
    hq = rec.hq if rec is not None else None
    units = [u for u in _members(st, fid) if not (status(u).group and status(u).group != fid)]
    if rec is None or not rec.independent:
        units = [u for u in units if not status(u).group]
    return sorted(units, key=lambda u: (u.id != hq, u.id))


def _independents(st: GameState, groups: list[str]) -> list[Unit]:
    """Independent units of the step's groups that a formation adopts (10.3)."""
    return [u for u in st.iter_units(on_map=False) if status(u).group in groups and u.id in _deploy(st).default.hex]


def _assign_choices(st: GameState, u: Unit) -> list[str]:
    """Formations ``u`` may join (12.1 ``assign_to``, 12.2 ``at_gun_assignment``): those with a chit."""
    group = status(u).group
    special = data(st).special or {}
    for entry in special.get("at_gun_assignment", []):
        if entry.get("group") == group and entry.get("when") == "setup":
            return sorted(entry.get("to", []))
    to = _deploy(st).assign_to.get(group) if group is not None else None
    if to:
        return sorted(str(t) for t in to)
    return chit_formations(st, u.side)


# --- Legal actions ----------------------------------------------------------------------------------------------


def _item(f: DeployFrame) -> DeployItem | None:
    todo: list[DeployItem] = f.todo
    return todo[0] if todo else None


def deploy_actions(rs: Rules, st: GameState, f: DeployFrame) -> list[Action]:
    """The legal set-up actions now, in a fixed order (``default`` first while the step is untouched)."""
    out: list[Action] = [Action("default")] if f.fresh else []
    item = _item(f)
    if item is None:
        return out
    what = item.what
    if what == "loss":
        out += [
            Action("loss", (u.id,))
            for u in _members(st, _need(item.formation))
            if u.steps > 0 and rs.tables.units[u.type].category != "hq"
        ]
    elif what == "bcc":
        out += [Action("ownchit", (_need(item.formation),)), Action("dissolve", (_need(item.formation),))]
    elif what == "assign":
        out += [Action("assign", (_need(item.unit), fid)) for fid in _need(item.to)]
    elif what == "mount":
        apc = st.units[_need(item.apc)]
        out += [
            Action("mount", (u.id,))
            for u in _members(st, _need(item.formation))
            if rs.tables.units[u.type].category == "infantry" and u.id != apc.id
        ]
        out.append(Action("nomount"))
    elif what == "place":
        u = st.units[_need(item.unit)]
        out += [Action("place", (u.id, label)) for label in _place_hexes(rs, st, f, u)]
    elif what == "marker":
        verb = _MARKER_VERB[_need(item.kind)]
        out += [Action(verb, (label,)) for label in _marker_hexes(rs, st, f, _need(item.kind))]
    if not out:
        out.append(Action("restart"))  # the next placement has no legal hex left: start the step again
    return out


def _unit_zone(st: GameState, u: Unit) -> tuple[set[str], list[Zone]]:
    """The set-up zone of ``u``: its independent group's, else its formation's (12.2 [P]: an AT gun without a
    zone of its own sets up in the zone of the battalion it joined)."""
    group = status(u).group
    hexes, zones = _zone_for(st, "formations", str(group if isinstance(group, str) else u.formation), u.side)
    if not zones and isinstance(group, str) and u.formation is not None:
        hexes, zones = _zone_for(st, "formations", u.formation, u.side)
    return hexes, zones


def _place_problem(
    rs: Rules,
    st: GameState,
    f: DeployFrame,
    u: Unit,
    label: str,
    zone: tuple[set[str], list[Zone]] | None = None,
    enemies: set[Hex] | None = None,
    present: dict[Hex, list[Unit]] | None = None,
) -> str | None:
    """Why ``u`` may not set up in ``label`` (with the rule), or None. ``zone`` (the unit's set-up zone),
    ``enemies`` (the hexes holding units of another side) and ``present`` (``movement.units_by_hex``) are found
    here when not given."""
    side = u.side
    hexes, zones = zone if zone is not None else _unit_zone(st, u)
    if label not in hexes:
        rules = "; ".join(z.rule for z in zones) or "its setup zone"
        return f"{label} is outside the set-up zone of {u.id} (rule {rules})"
    h = st.board.parse(label)
    t = rs.tables.units[u.type]
    if t.category != "hq":
        cls = rs.tables.terrain.classes[st.board.terrain(h)]
        if cls.entry_cost(t.move_class) is None:
            return f"{u.id} ({t.move_class}) may not set up in {cls.name} at {label}: it could not enter it (rule 7.3)"
    if h in enemies if enemies is not None else any(o.side != side for o in st.iter_units() if o.hex == h):
        return f"{label} holds enemy units (rule 7.3)"
    if not stacking_ok(rs.tables, st, h, [u], present):
        return f"{label} already holds {rs.tables.sequence.stacking_limit} units (rule 7.3; HQs do not count)"
    excl = data(st).special.get("french_exclusion")
    if isinstance(excl, dict) and excl.get("side") == side:
        near = [x for x in _labels(excl.get("of")) if distance(st.board.parse(x), h) <= int(excl.get("within", 0))]
        if near:
            return f"{label} is within {excl.get('within')} hexes of {', '.join(near)} (rule 12.2)"
    cd = command_distance(rs.tables, st, u)
    hq = hq_of(st, u)
    if cd is not None and hq is not None and hq.hex is not None and distance(hq.hex, h) > cd:
        d = distance(hq.hex, h)
        return f"{label} is {d} hexes from the HQ {hq.id} at {st.board.label(hq.hex)} (rule 3.4: at most {cd})"
    if any(z.stack_with_assigned for z in zones):
        mates = [o for o in st.iter_units() if o.hex == h and o.formation == u.formation and not status(o).group]
        if not mates:
            return f"{u.id} must set up with a unit of {u.formation}, the formation it joined (rule 12.1)"
    return None


def _place_hexes(rs: Rules, st: GameState, f: DeployFrame, u: Unit) -> list[str]:
    zone = _unit_zone(st, u)
    enemies = {o.hex for o in st.iter_units() if o.side != u.side and o.hex is not None}
    present = units_by_hex(rs.tables, st)
    return [label for label in sorted(zone[0]) if _place_problem(rs, st, f, u, label, zone, enemies, present) is None]


def _marker_problem(rs: Rules, st: GameState, f: DeployFrame, kind: str, label: str) -> str | None:
    side = f.side
    hexes, zones = _zone_for(st, "markers", kind, side)
    if zones and label not in hexes:
        return f"{label} is outside the zone of the {kind} markers (rule {'; '.join(z.rule for z in zones)})"
    try:
        st.board.parse(label)
    except ValueError as err:
        return str(err)
    if kind == "fortification":
        if label in data(st).forts:
            return f"{label} already has a fortification (rule 10.2)"
        h = st.board.parse(label)
        if not any(
            u.hex == h and u.side == side and rs.tables.units[u.type].fortification_benefit for u in st.iter_units()
        ):
            return f"a fortification needs {side} infantry in {label} at set-up (rule 10.2)"
    elif label in data(st).mines:
        return f"{label} already has a minefield (rule 10.1)"
    return None


def _marker_hexes(rs: Rules, st: GameState, f: DeployFrame, kind: str) -> list[str]:
    hexes, zones = _zone_for(st, "markers", kind, f.side)
    candidates = sorted(hexes) if zones else sorted(st.board.label(h) for h in st.board)
    return [label for label in candidates if _marker_problem(rs, st, f, kind, label) is None]


def _check_deploy(rs: Rules, st: GameState, f: DeployFrame, action: Action, typed: Notation) -> None:
    """Refuse a set-up action that is not legal now, saying why and citing the rule."""
    item = _item(f)
    if item is not None and item.what == "place" and isinstance(typed, N.Place):
        # One placement: the hex named is tested alone (deploy_actions tests every hex of the zone).
        u = st.units.get(typed.unit)
        if u is not None and u.id == _need(item.unit):
            label = st.board.label(typed.hex)
            if action == Action("place", (u.id, label)) and _place_problem(rs, st, f, u, label) is None:
                return
    if action in deploy_actions(rs, st, f):
        return
    why = waiting(st, f)
    if item is not None and isinstance(typed, N.Place) and item.what == "place":
        u = st.units.get(typed.unit)
        if u is not None and u.id == _need(item.unit):
            problem = _place_problem(rs, st, f, u, st.board.label(typed.hex))
            if problem:
                raise IllegalActionError(f"Cannot {action}: {problem}", rule=_RULE)
    if item is not None and item.what == "marker" and action.verb == _MARKER_VERB[_need(item.kind)]:
        assert isinstance(typed, N.Fort | N.Mine)
        problem = _marker_problem(rs, st, f, _need(item.kind), st.board.label(typed.hex))
        if problem:
            raise IllegalActionError(f"Cannot {action}: {problem}", rule=_RULE)
    if isinstance(typed, N.Default):
        raise IllegalActionError(
            f"Cannot default: this set-up step has begun; undo its decisions or restart it first ({why})", rule=_RULE
        )
    raise IllegalActionError(f"Cannot {action}: {why}", rule=_RULE)


def waiting(st: GameState, f: DeployFrame) -> str:
    """A sentence saying which set-up decision the engine waits for."""
    side = str(f.side).title()
    item = _item(f)
    if item is None:
        return f"{side} finishes the set-up"
    what = item.what
    if what == "loss":
        name = formation(st, _need(item.formation)).name
        return f"{side} gives {name} a set-up step loss ({item.left} left, rule 12.1)"
    if what == "bcc":
        name = formation(st, _need(item.formation)).name
        return f"{side} decides whether {name} keeps its chit or is dissolved (rule 12.2)"
    if what == "assign":
        return f"{side} assigns {_need(item.unit)} to a formation (rule 10.3)"
    if what == "mount":
        return f"{side} decides whether a company starts on the APC {_need(item.apc)} (rule 12.1)"
    if what == "place":
        return f"{side} sets up {_need(item.unit)} (rules 12, 7.3)"
    return f"{side} places a {_need(item.kind)} marker ({item.left} left, rule {_RULE})"


# --- Applying ---------------------------------------------------------------------------------------------------


def _apply_deploy(rs: Rules, tr: Transition, f: DeployFrame, typed: Notation) -> None:
    """Apply a legal set-up action; close the step when nothing is left to decide."""
    st = tr.state
    if isinstance(typed, N.Default):
        _apply_default(rs, tr, f.step, f.side)
        f.todo = []
    elif isinstance(typed, N.Restart):
        data(st).frames.remove(f)
        _undo_step(rs, tr, f)
        _open_step(rs, tr, int(f.step))
        tr.emit("setup", f"{str(f.side).title()} starts set-up step {int(f.step) + 1} again")
        return
    else:
        f.fresh = False
        _DEPLOY_VERBS[type(typed)](tr, f, f.todo[0], typed)
    _settle(rs, tr, f)


def _apply_loss(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """12.1: one of the formation's set-up step losses."""
    assert isinstance(typed, N.Loss)
    u = tr.state.units[typed.unit]
    u.steps -= 1
    item.left = _need(item.left) - 1
    if u.steps <= 0:
        u.steps = 0
        tr.emit("setup", f"{u.id} takes its second set-up loss and is eliminated (rule 12.1)", unit=u.id)
    else:
        tr.emit("setup", f"{u.id} starts reduced: a set-up step loss (rule 12.1)", unit=u.id)
    if item.left <= 0:
        f.todo.pop(0)


def _apply_ownchit(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """12.2: the independent formation keeps its chit."""
    assert isinstance(typed, N.OwnChit)
    f.todo.pop(0)
    tr.emit("setup", f"{formation(tr.state, typed.formation).name} keeps its own chit (rule 12.2)")


def _apply_dissolve(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """12.2, 10.3: the independent formation is dissolved; each of its units is assigned next."""
    assert isinstance(typed, N.Dissolve)
    st = tr.state
    f.todo.pop(0)
    fid = typed.formation
    _dissolve(st, fid)
    items = [
        DeployItem("assign", unit=u.id, to=chit_formations(st, u.side))
        for u in st.iter_units(on_map=False)
        if status(u).group == fid
    ]
    f.todo[0:0] = items
    tr.emit("setup", f"{formation(st, fid).name} is dissolved: its units join other formations (rules 12.2, 10.3)")


def _apply_assign(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """10.3: an independent unit joins a formation."""
    assert isinstance(typed, N.Assign)
    f.todo.pop(0)
    u = tr.state.units[typed.unit]
    u.formation = typed.formation
    tr.emit("setup", f"{u.id} is assigned to {formation(tr.state, typed.formation).name} (rule 10.3)", unit=u.id)


def _apply_mount(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """12.1: a company starts on its battalion's APC, or none does."""
    st = tr.state
    f.todo.pop(0)
    if isinstance(typed, N.Mount):
        apc = st.units[_need(item.apc)]
        company = st.units[typed.company]
        status(company).carried_by = apc.id
        status(apc).carrying = company.id
        tr.emit("setup", f"{company.id} starts on the APC {apc.id} (rule 12.1)", unit=company.id)
    else:
        tr.emit("setup", f"No company starts on the APC {_need(item.apc)} (rule 12.1)")


def _apply_place(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """12.1, 12.2: the unit is set up."""
    assert isinstance(typed, N.Place)
    st = tr.state
    f.todo.pop(0)
    u = st.units[typed.unit]
    _put(st, u, typed.hex)
    label = st.board.label(typed.hex)
    tr.emit("setup", f"{u.id} sets up in {label}", unit=u.id, hex=label)


def _apply_marker(tr: Transition, f: DeployFrame, item: DeployItem, typed: Notation) -> None:
    """10.1, 10.2: a fortification or minefield marker is placed."""
    assert isinstance(typed, N.Fort | N.Mine)
    st = tr.state
    label = st.board.label(typed.hex)
    if isinstance(typed, N.Fort):
        data(st).forts = sorted([*data(st).forts, label])
    else:
        data(st).mines[label] = f.side
    item.left = _need(item.left) - 1
    if item.left <= 0:
        f.todo.pop(0)
    tr.emit("setup", f"{str(f.side).title()} places a {_need(item.kind)} marker in {label} (rule {_RULE})", hex=label)


_DEPLOY_VERBS: dict[type[Notation], Callable[[Transition, DeployFrame, DeployItem, Notation], None]] = {
    N.Loss: _apply_loss,
    N.OwnChit: _apply_ownchit,
    N.Dissolve: _apply_dissolve,
    N.Assign: _apply_assign,
    N.Mount: _apply_mount,
    N.NoMount: _apply_mount,
    N.Place: _apply_place,
    N.Fort: _apply_marker,
    N.Mine: _apply_marker,
}
"""What each set-up decision does to the step's next item (12.1, 12.2)."""


def _put(st: GameState, u: Unit, h: Hex) -> None:
    u.hex = h
    carried = status(u).carrying
    if isinstance(carried, str) and carried in st.units:
        st.units[carried].hex = h


def _dissolve(st: GameState, fid: str) -> None:
    """12.2, 10.3: the independent formation's units become independent units of the group ``fid``."""
    for u in st.iter_units(on_map=False):
        if u.formation == fid and u.id in _deploy(st).default.hex:
            status(u).independent = True
            status(u).group = fid
    if fid not in data(st).removed_chits:
        data(st).removed_chits = sorted([*data(st).removed_chits, fid])
    _deploy(st).dissolved = sorted({*_deploy(st).dissolved, fid})


def _undo_step(rs: Rules, tr: Transition, f: DeployFrame) -> None:
    """Take back everything of step ``f`` decided so far (for ``restart``)."""
    st = tr.state
    d = _deploy(st)
    step = d.steps[int(f.step)]
    groups = list(step.formations)
    for fid in groups:
        if fid in d.dissolved:
            for u in st.iter_units(on_map=False):
                if status(u).group == fid:
                    status(u).independent = False
                    status(u).group = None
                    u.formation = fid
            d.dissolved.remove(fid)
            if fid in data(st).removed_chits:
                data(st).removed_chits.remove(fid)
    for uid in d.default.hex:
        u = st.units[uid]
        if u.formation in groups or status(u).group in groups or d.default.formation.get(uid) in groups:
            u.hex = None
            u.formation = d.default.formation.get(uid, u.formation)
    for kind in step.markers:
        if kind == "fortification":
            data(st).forts = []
        elif kind == "minefield":
            data(st).mines = {}


def _apply_default(rs: Rules, tr: Transition, i: int, side: str) -> None:
    """The scenario file's set-up of step ``i`` (``default``)."""
    st = tr.state
    d = _deploy(st)
    default = d.default
    step = d.steps[i]
    groups = set(step.formations)
    for uid, label in sorted(default.hex.items()):
        u = st.units[uid]
        if not (d.default.formation.get(uid) in groups or status(u).group in groups):
            continue
        u.steps = int(default.steps[uid])
        u.formation = default.formation.get(uid, u.formation)
        u.hex = st.board.parse(label)
        apc = default.mounted.get(uid)
        if apc is not None:
            status(u).carried_by = apc
            status(st.units[apc]).carrying = uid
    for kind in step.markers:
        labels = default.markers.get(kind, [])
        if kind == "fortification":
            data(st).forts = sorted(labels)
        else:
            data(st).mines = dict.fromkeys(labels, side)
    tr.emit("setup", f"{side.title()} sets up as the scenario file does (rule {_RULE})")


def _skip_settled(rs: Rules, st: GameState, f: DeployFrame) -> None:
    """Drop placements that need no decision: a company on its APC goes with it, an eliminated unit stays off."""
    todo: list[DeployItem] = f.todo
    while todo and todo[0].what == "place":
        u = st.units[_need(todo[0].unit)]
        eliminated = rs.tables.units[u.type].category != "hq" and u.steps <= 0
        if not (status(u).carried_by or eliminated or u.hex is not None):
            return
        todo.pop(0)


def _settle(rs: Rules, tr: Transition, f: DeployFrame) -> None:
    """Close the step when its list is done: the next step, Hannut's kept chits (2.8), or turn 1."""
    st = tr.state
    _skip_settled(rs, st, f)
    if f.todo:
        return
    data(st).frames.remove(f)
    steps = _deploy(st).steps
    i = int(f.step) + 1
    if i < len(steps):
        _open_step(rs, tr, i)
    else:
        _close(rs, tr)
    kept = data(st).special.get("turn1_kept_chits")
    if isinstance(kept, dict) and kept.get("side") == f.side and not data(st).t1_kept:
        push(
            st, SideFrame("t1_keep", str(kept["side"]))
        )  # 12.1 step 2: the German picks his kept chits after setting up
        return
    if i >= len(steps):
        begin_game(rs, tr)


def _close(rs: Rules, tr: Transition) -> None:
    """12.1 step 4 / 12.2 step 3: recount the formations' steps (losses, adopted units) after the set-up."""
    st = tr.state
    tables = rs.tables
    for fid, rec in data(st).formations.items():
        members = [u for u in st.units.values() if u.formation == fid and u.id != rec.hq]
        rec.steps_total = sum(tables.units[u.type].steps for u in members)
        rec.steps_lost = sum(tables.units[u.type].steps - u.steps for u in members)
    data(st).deploy = None
    tr.emit("setup", "Set-up complete (rule 12)")


def default_setup(rs: Rules, tr: Transition) -> None:
    """Take the scenario file's set-up for every step at once (no decisions; for tools and tests)."""
    st = tr.state
    if data(st).deploy is None:
        return
    for i, step in enumerate(_deploy(st).steps):
        _apply_default(rs, tr, i, step.side)
    _close(rs, tr)


class DeployHandler(FrameHandler[DeployFrame]):
    """``deploy`` (the side setting up): one set-up step of 12.1 / 12.2, given on the map."""

    kind = DEPLOY
    rule = _RULE

    def actions(self, rs: Rules, st: GameState, f: DeployFrame) -> list[Action]:
        return deploy_actions(rs, st, f)

    def check(self, rs: Rules, st: GameState, f: DeployFrame, action: Action, typed: Notation) -> None:
        _check_deploy(rs, st, f, action, typed)

    def apply(self, rs: Rules, tr: Transition, f: DeployFrame, typed: Notation) -> None:
        _apply_deploy(rs, tr, f, typed)

    def waiting_for(self, st: GameState, f: DeployFrame) -> str:
        return waiting(st, f)

    def mode(self, rs: Rules, st: GameState, f: DeployFrame, legal: Sequence[Action]) -> str:
        """Placements are given on the map; the other set-up choices from a list."""
        on_map = any((i := rs.action_info(st, a)).has(Role.PLACE) and not i.secondary for a in legal)
        return ACT if on_map else CHOOSE


HANDLER = DeployHandler()
"""The handler of set-up frames."""
