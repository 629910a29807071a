"""Provides Art of Tactic movement legality (digest 4.1–4.11, 10): steps, paths, March, assault routes, stacking.

A path is checked step by step (:func:`step_rule`); :func:`check_path` applies 4.11 to a whole written path and
:func:`destinations` finds, for each hex a unit could reach, one canonical path (cheapest, then fewest steps,
then the smallest hexes), cached per board: those are the paths ``legal_actions`` lists, while any other legal
path may be typed.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from engine.actions import Action
from engine.board import Board
from engine.errors import IllegalActionError
from engine.hexgrid import Hex, distance
from engine.state import GameState

from .data import Tables, UnitCard
from .gamedata import data
from .model import Rules, card, refuse, smoke

__all__ = [
    "NO_OBSTACLES",
    "Obstacles",
    "PathCost",
    "Step",
    "along_road",
    "check_path",
    "destinations",
    "move_allowance",
    "obstacles",
    "order_path_cost",
    "path_cost",
    "road_hexes",
    "side_key",
    "step_rule",
]


@dataclass(frozen=True, slots=True)
class Obstacles:
    """What the units and the fighting change on the map: barbed wire and dragon's teeth on hexsides (9.18.3,
    9.18.4, as sorted hex pairs), destroyed bridges (9.18.2) and smoke hexes (3.9)."""

    wire: frozenset[tuple[Hex, Hex]] = frozenset()
    teeth: frozenset[tuple[Hex, Hex]] = frozenset()
    closed: frozenset[Hex] = frozenset()
    smoke: frozenset[Hex] = frozenset()
    paths: frozenset[Hex] = frozenset()
    """Woods hexes with a path token (9.10): entered and left by every ground unit as if along a road."""
    pontoons: frozenset[Hex] = frozenset()
    """River hexes with a pontoon bridge (9.18.7): open ground for movement."""


NO_OBSTACLES = Obstacles()


def side_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """A hexside as the sorted pair of its hexes."""
    return (a, b) if a <= b else (b, a)


def obstacles(st: GameState) -> Obstacles:
    """Wire, dragon's teeth, destroyed bridges, smoke, cleared paths and pontoons as they stand (9.18, 9.10, 3.9)."""
    s = data(st).structures
    return Obstacles(
        wire=frozenset(s.wire),
        teeth=frozenset(s.teeth),
        closed=frozenset(h for h, b in s.bridges.items() if b.destroyed),
        smoke=smoke(st),
        paths=frozenset(s.paths),
        pontoons=frozenset(s.pontoons),
    )


@dataclass(frozen=True, slots=True)
class Step:
    """What one step from ``u`` into ``v`` means for a mover."""

    allowed: bool
    cost: int = 1
    capped: bool = False
    """The whole move must be this one step (slopes, fords, woods for infantry: 4.11 item 5)."""
    road: bool = False
    """The step follows the printed road (or runs through villages and towns)."""
    reason: str = ""
    rule: str = ""


def road_hexes(board: Board) -> frozenset[Hex]:
    """Hexes on a printed road (cached per board)."""
    key = ("aot", "road_hexes")
    got = board.cache.get(key)
    if got is None:
        got = frozenset(h for a, b, e in board.graph.edges(data=True) if "roads" in e for h in (a, b))
        board.cache[key] = got
    return got


def along_road(tables: Tables, board: Board, u: Hex, v: Hex) -> bool:
    """4.3, 10.10 PROPOSED: along the printed road, or between village/town hexes and the roads they touch."""
    if board.has_road(u, v):
        return True
    tu, tv = tables.terrain[board.terrain(u)], tables.terrain[board.terrain(v)]
    roads = road_hexes(board)
    return (tu.road_like and (tv.road_like or v in roads)) or (tv.road_like and u in roads)


def step_rule(
    tables: Tables, board: Board, move_type: str, u: Hex, v: Hex, kind: str, obstacles: Obstacles = NO_OBSTACLES
) -> Step:
    """The rules for one step (4.8, 4.11 items 2–6) of a ``kind`` move (cautious, march, assault).

    What the map and the tables alone decide is worked out once per board (a step is asked about hundreds of
    thousands of times in a game); a step into or out of a path or pontoon hex is worked out each time.
    """
    if v not in board.cells:
        return Step(False, reason=f"{v} is off the map", rule="1.3")
    if v in obstacles.closed:
        return Step(False, reason=f"the bridge at {board.label(v)} is destroyed", rule="9.18.2")
    if v in obstacles.smoke:
        return Step(False, reason=f"smoke lies in {board.label(v)}: nobody may move into it", rule="3.9")
    if obstacles.wire or obstacles.teeth:
        side = side_key(u, v)
        if side in obstacles.wire and move_type in ("INF", "ART", "VEH"):
            return Step(False, reason=f"barbed wire blocks the hexside into {board.label(v)}", rule="9.18.3")
        if side in obstacles.teeth and move_type != "INF":
            return Step(False, reason=f"dragon's teeth block the hexside into {board.label(v)}", rule="9.18.4")
    paths, pontoons = obstacles.paths, obstacles.pontoons
    if (paths or pontoons) and (u in paths or v in paths or u in pontoons or v in pontoons):
        return _terrain_step(tables, board, move_type, u, v, kind, obstacles)
    slot = board.cache.get(_STEPS)
    if slot is None or slot[0] is not tables:
        slot = board.cache[_STEPS] = (tables, {})
    known: dict[tuple[str, Hex, Hex, str], Step] = slot[1]
    key = (move_type, u, v, kind)
    got = known.get(key)
    if got is None:
        got = known[key] = _terrain_step(tables, board, move_type, u, v, kind, NO_OBSTACLES)
    return got


_STEPS = ("aot", "steps")
"""Board cache key of the steps the map and the tables alone decide: (tables, {(move type, u, v, kind): Step})."""


def _terrain_step(
    tables: Tables, board: Board, move_type: str, u: Hex, v: Hex, kind: str, obstacles: Obstacles
) -> Step:
    """The terrain part of :func:`step_rule` (4.3, 4.11, 10), with path tokens and pontoons (9.10, 9.18.7)."""
    road = along_road(tables, board, u, v)
    tu, tv = tables.terrain[board.terrain(u)], tables.terrain[board.terrain(v)]
    if v in obstacles.pontoons:
        tv = tables.terrain["plain"]
    if u in obstacles.pontoons:
        tu = tables.terrain["plain"]
    lane = v in obstacles.paths or u in obstacles.paths  # entry permission only: no March bonus (9.10)
    where = board.label(v)
    capped = False
    if not road and not (v in obstacles.paths and tv.enter == "infantry"):
        if tv.enter == "infantry" and move_type != "INF":
            return Step(False, reason=f"only infantry may enter the {tv.name} at {where} off the road", rule="10.5")
        if tv.enter == "special":
            return Step(False, reason=f"only special units may enter the {tv.name} at {where}", rule="10.6, 10.7")
        if tv.enter == "road":
            return Step(False, reason=f"the {tv.name} at {where} can be entered only along the road", rule="9.18.1")
        if tv.enter == "no_wheels" and move_type in ("VEH", "ARM"):
            return Step(
                False, reason=f"trucks and armoured vehicles cannot enter the {tv.name} at {where}", rule="10.4"
            )
    if tv.enter == "ford" or tu.enter == "ford":
        if kind == "march":
            return Step(False, reason=f"a ford is crossed with any movement order but March ({where})", rule="10.12")
        capped = True  # 10.12: a whole round into the ford, a whole round out of it
    dh = board.level(v) - board.level(u)
    steep, abrupt, gentle = tables.hills.get("steep", 3), tables.hills.get("abrupt", 2), tables.hills.get("gentle", 1)
    if abs(dh) >= steep:
        return Step(False, reason=f"the slope into {where} is steep ({dh:+d}): only special units", rule="10.11")
    if abs(dh) == abrupt:
        if move_type != "INF":
            return Step(False, reason=f"the slope into {where} is abrupt ({dh:+d}): infantry only", rule="10.11")
        capped = True
    elif dh == gentle:
        capped = True
    if move_type == "INF" and not road and not lane and (tv.infantry_one_hex or tu.infantry_one_hex):
        capped = True  # 10.5: infantry moves at most 1 hex a round in woods
    if kind == "march" and not (road or tv.march):
        return Step(False, reason=f"March may not enter the {tv.name} at {where} off the road", rule="4.3")
    cost = 1
    if not road:
        cost += int(tv.field_penalty.get(move_type, 0))
        if tables.is_tank(move_type):
            cost += tv.tank_penalty
    return Step(True, cost, capped, road)


def check_path(
    tables: Tables,
    board: Board,
    move_type: str,
    start: Hex,
    path: Iterable[Hex],
    kind: str,
    allowance: int,
    road_bonus: int = 0,
    obstacles: Obstacles = NO_OBSTACLES,
    unit: str = "",
) -> list[Step]:
    """Check a written path (4.11); return its steps. ``unit`` (its id) is named in a refusal when given.

    Raises:
        IllegalActionError: why the path is not allowed, citing the rule.
    """
    hexes = list(path)
    the_path = f"{unit}'s path" if unit else "the path"
    who = f"{unit} " if unit else ""
    if not hexes:
        order = f"{unit}'s movement order" if unit else "a movement order"
        raise refuse(f"{order} needs a path of at least one hex", "4.1")
    steps: list[Step] = []
    prev = start
    for h in hexes:
        if distance(prev, h) != 1:
            raise refuse(f"{board.label(h)} is not next to {board.label(prev)}: write every hex of {the_path}", "4.1")
        s = step_rule(tables, board, move_type, prev, h, kind, obstacles)
        if not s.allowed:
            raise refuse(f"{who}cannot move into {board.label(h)}: {s.reason}", s.rule)
        steps.append(s)
        prev = h
    if len(set(hexes)) != len(hexes) or start in hexes:
        raise refuse(f"{the_path if unit else 'a path'} may not enter the same hex twice", "4.1")
    if len(steps) == 1:
        return steps  # 4.11 item 4: one hex is always allowed where entry is permitted
    capped = next((i for i, s in enumerate(steps) if s.capped), None)
    if capped is not None:
        h = hexes[capped]
        raise refuse(
            f"the step into {board.label(h)} (slope, ford or woods) allows {who}only a 1-hex move this round", "4.11"
        )
    limit = allowance + (road_bonus if kind == "march" and all(s.road for s in steps) else 0)
    cost = sum(s.cost for s in steps)
    if cost > limit:
        extra = " (the road bonus applies only if every step follows the road)" if kind == "march" else ""
        raise refuse(f"{the_path} costs {cost} hexes of movement, more than the {limit} allowed{extra}", "4.11")
    return steps


def _sorted_neighbours(board: Board, h: Hex) -> tuple[Hex, ...]:
    """The neighbours of ``h`` on the map, sorted (cached per board)."""
    known: dict[Hex, tuple[Hex, ...]] | None = board.cache.get(_NEIGHBOURS)
    if known is None:
        known = board.cache[_NEIGHBOURS] = {}
    got = known.get(h)
    if got is None:
        got = known[h] = tuple(sorted(board.graph.neighbors(h)))
    return got


_NEIGHBOURS = ("aot", "sorted_neighbours")


def _dijkstra(
    tables: Tables,
    board: Board,
    move_type: str,
    start: Hex,
    kind: str,
    limit: int,
    road_only: bool,
    obstacles: Obstacles,
) -> dict[Hex, tuple[Hex, ...]]:
    best: dict[Hex, tuple[int, int, tuple[Hex, ...]]] = {}
    heap: list[tuple[int, int, tuple[Hex, ...]]] = [(0, 0, ())]
    while heap:
        cost, n, path = heapq.heappop(heap)
        here = path[-1] if path else start
        if here in best:
            continue
        best[here] = (cost, n, path)
        for v in _sorted_neighbours(board, here):
            if v in best or v == start or v in path:
                continue
            s = step_rule(tables, board, move_type, here, v, kind, obstacles)
            if not s.allowed or s.capped or (road_only and not s.road):
                continue
            if cost + s.cost <= limit:
                heapq.heappush(heap, (cost + s.cost, n + 1, (*path, v)))
    return {h: p for h, (_, _, p) in best.items() if p}


def destinations(
    tables: Tables,
    board: Board,
    move_type: str,
    start: Hex,
    kind: str,
    allowance: int,
    road_bonus: int = 0,
    obstacles: Obstacles = NO_OBSTACLES,
) -> dict[Hex, tuple[Hex, ...]]:
    """One canonical legal path to every hex the unit may reach (terrain and obstacles; cached per board)."""
    key = ("aot", "dest", move_type, start, kind, allowance, road_bonus, obstacles)
    got = board.cache.get(key)
    if got is not None:
        return got  # type: ignore[no-any-return]
    out: dict[Hex, tuple[Hex, ...]] = {}
    if kind == "march" and road_bonus:
        out.update(_dijkstra(tables, board, move_type, start, kind, allowance + road_bonus, True, obstacles))
    for h, p in _dijkstra(tables, board, move_type, start, kind, allowance, False, obstacles).items():
        out.setdefault(h, p)
    for v in _sorted_neighbours(board, start):  # one step is always allowed where entry is (4.11 item 4)
        if v not in out and step_rule(tables, board, move_type, start, v, kind, obstacles).allowed:
            out[v] = (v,)
    board.cache[key] = out
    return out


@dataclass(frozen=True, slots=True)
class PathCost:
    """What a written (or partly written) path costs against the order's allowance (4.11 items 3, 4 and 6)."""

    hexes: int
    """Hexes entered that count against the allowance (an assault's step into the target's hex does not, 4.11
    item 7)."""
    cost: int
    """Movement spent on them: 1 a hex plus its terrain penalty (4.11 item 3), up to the first hex that may not
    be entered."""
    allowance: int
    """The printed movement range (the assault distance for an assault)."""
    bonus: int = 0
    """The March road bonus, while every step so far follows the road (4.3)."""
    problem: str = ""
    """The engine's rule-cited sentence if the path breaks 4.1 or 4.11 as written (empty if it does not)."""

    @property
    def limit(self) -> int:
        """The allowance with the road bonus that applies."""
        return self.allowance + self.bonus

    @property
    def left(self) -> int:
        """Movement left after the path (negative: over the allowance)."""
        return self.limit - self.cost


def path_cost(
    tables: Tables,
    board: Board,
    move_type: str,
    start: Hex,
    path: Iterable[Hex],
    kind: str,
    allowance: int,
    road_bonus: int = 0,
    obstacles: Obstacles = NO_OBSTACLES,
) -> PathCost:
    """The cost of a path against the allowance (4.11 item 3) and, if it breaks 4.1 or 4.11, the refusal
    :func:`check_path` gives; never raises. A path that breaks these rules breaks them however it goes on."""
    hexes = list(path)
    cost, road, prev = 0, True, start
    for h in hexes:
        if distance(prev, h) != 1:
            break
        s = step_rule(tables, board, move_type, prev, h, kind, obstacles)
        if not s.allowed:
            break
        cost += s.cost
        road = road and s.road
        prev = h
    bonus = road_bonus if kind == "march" and road and hexes else 0
    problem = ""
    if hexes:
        try:
            check_path(tables, board, move_type, start, hexes, kind, allowance, road_bonus, obstacles)
        except IllegalActionError as err:
            problem = str(err)
    return PathCost(len(hexes), cost, allowance, bonus, problem)


_PATH_ORDERS = {
    "move": ("cautious", 1),
    "march": ("march", 1),
    "firemove": ("fire_on_move", 3),
    "assault": ("assault", 2),
}
"""Verb → (the order on the card, where its path starts in the notation)."""


def move_allowance(rs: Rules, c: UnitCard, kind: str) -> tuple[str, int, int]:
    """A movement order's step mode, printed range and March road bonus (4.3, 4.11) for card ``c``; ``kind`` is
    the order on the card (cautious, march, fire_on_move). Fire on the move steps as a cautious move (4.5)."""
    bonus = int(rs.tables.rules["march"]["road_bonus"].get(c.move_as, 0)) if kind == "march" else 0
    return ("cautious" if kind == "fire_on_move" else kind), c.order(kind, "range"), bonus


def order_path_cost(rs: Rules, st: GameState, action: Action) -> PathCost | None:
    """What the path of a movement order (``move``, ``march``, ``firemove``, ``assault``) costs the unit against
    its card's allowance, read from ``st`` alone (a side's view: 15.1); with no hex written yet, the allowance
    alone. None if the action has no path to cost (another verb, an unknown unit or hex, a unit off the map)."""
    got = _PATH_ORDERS.get(action.verb)
    if got is None or not action.args:
        return None
    kind, first = got
    u = st.units.get(action.args[0])
    if u is None or u.hex is None or len(action.args) < first:
        return None
    try:
        path = [st.board.parse(h) for h in action.args[first:]]
    except ValueError:
        return None
    c = card(rs.tables, u)
    if kind == "assault":  # 4.11 item 7: the hexes before the target's, within the assault distance
        target = st.units.get(action.args[1])
        if path and target is not None and target.hex is not None and path[-1] == target.hex:
            path = path[:-1]
        if not path:
            return PathCost(0, 0, c.order("assault", "distance"))
        return path_cost(
            rs.tables, st.board, c.move_as, u.hex, path, "assault", c.order("assault", "distance"), 0, obstacles(st)
        )
    mode, allowance, bonus = move_allowance(rs, c, kind)
    return path_cost(rs.tables, st.board, c.move_as, u.hex, path, mode, allowance, bonus, obstacles(st))
