"""Provides headless AI-against-AI games (``planspiel simulate``): a process pool, a progress bar, statistics.

Every game's seed and both agents' seeds follow from the run's seed and the game's index alone, so a run
gives the same results whatever the number of workers. An agent sees only its side's view. A game that
raises is reported with its index and seed, never as a traceback.

>>> r = simulate("blitzkrieg1940", "hannut", games=1, a="random", b="random", workers=1, seed=3)
>>> r.games, r.a_wins + r.b_wins + r.draws + len(r.errors)
(1, 1)
"""

from __future__ import annotations

import hashlib
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, TextIO

__all__ = [
    "GameResult",
    "ProgressBar",
    "SimulationResult",
    "game_seed",
    "play_campaign",
    "play_game",
    "simulate",
    "simulate_campaign",
    "wilson",
]

MAX_DECISIONS = 50_000
"""A game that needs more decisions than this is stopped and reported as an error (a loop)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished (or failed) game."""

    index: int
    seed: int
    winner: str | None
    """The winning side, ``"draw"``, or None when the game failed."""
    turns: int
    decisions: int
    times: dict[str, list[float]]
    """Side → seconds of each of its agent's decisions."""
    error: str | None = None
    seconds: float = 0.0
    """Wall-clock time of the whole game (set-up, decisions and rules)."""
    losses: tuple[tuple[int, int], ...] = ()
    """Steps lost since the set-up by the first and the second side, at the end of each turn played."""


@dataclass(slots=True)
class SimulationResult:
    """The statistics of a run (``--a`` plays the scenario's first side)."""

    ruleset: str
    scenario: str
    a: str
    b: str
    sides: tuple[str, str]
    seed: int
    games: int
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    turns: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    """Wall-clock seconds of each finished game."""
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[tuple[int, int, str]] = field(default_factory=list)
    """(index, seed, message) of every game that raised."""
    losses: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    """Each finished game's :attr:`GameResult.losses`."""
    per_game: list[dict[str, Any]] = field(default_factory=list)
    """Each game's index, seed, winner (None: it failed) and turns, in index order: the same for the same seed
    whatever runs the games (``--workers``, ``--backend``)."""

    @property
    def median_turns(self) -> float | None:
        """The median length of the finished games, in turns."""
        return statistics.median(self.turns) if self.turns else None

    def losses_by_turn(self) -> list[tuple[float, float]]:
        """Mean steps lost by each side by the end of each turn, over the finished games (a game that ended
        earlier counts with its last figures)."""
        games = [g for g in self.losses if g]
        if not games:
            return []
        longest = max(len(g) for g in games)
        out = []
        for t in range(longest):
            at = [g[min(t, len(g) - 1)] for g in games]
            out.append((statistics.fmean(a for a, _ in at), statistics.fmean(b for _, b in at)))
        return out

    @property
    def finished(self) -> int:
        return self.a_wins + self.b_wins + self.draws

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict (``planspiel simulate --json``)."""
        all_times = [t for ts in self.times.values() for t in ts]
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "a": self.a,
            "b": self.b,
            "a_side": self.sides[0],
            "b_side": self.sides[1],
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "errors": len(self.errors),
            "a_win_rate": _rate(self.a_wins, self.finished),
            "a_win_ci95": list(wilson(self.a_wins, self.finished)),
            "b_win_rate": _rate(self.b_wins, self.finished),
            "b_win_ci95": list(wilson(self.b_wins, self.finished)),
            "draw_rate": _rate(self.draws, self.finished),
            "mean_turns": round(statistics.fmean(self.turns), 3) if self.turns else None,
            "median_turns": self.median_turns,
            "losses_by_turn": [[round(a, 3), round(b, 3)] for a, b in self.losses_by_turn()],
            "game_s_mean": round(statistics.fmean(self.seconds), 2) if self.seconds else None,
            "game_s_max": round(max(self.seconds), 2) if self.seconds else None,
            "decisions": len(all_times),
            "decision_s_median": _round(statistics.median(all_times)) if all_times else None,
            "decision_s_max": _round(max(all_times)) if all_times else None,
            "per_game": self.per_game,
        }
        for who, side in (("a", self.sides[0]), ("b", self.sides[1])):
            ts = self.times.get(side, [])
            out[f"{who}_decision_s_median"] = _round(statistics.median(ts)) if ts else None
            out[f"{who}_decision_s_max"] = _round(max(ts)) if ts else None
        return out

    def report(self) -> str:
        """The summary in words (per side: wins, draws and losses with 95 % intervals; length; timing)."""
        n = self.finished
        lines = [
            f"{self.ruleset}/{self.scenario}: {n} game{'s' if n != 1 else ''} finished of {self.games} "
            f"(seed {self.seed})"
        ]
        for who, agent, side, wins, losses in (
            ("a", self.a, self.sides[0], self.a_wins, self.b_wins),
            ("b", self.b, self.sides[1], self.b_wins, self.a_wins),
        ):
            lines.append(
                f"  {who} {agent} as {side}: {_line('wins', wins, n)}, {_line('draws', self.draws, n)}, "
                f"{_line('losses', losses, n)}"
            )
        if self.turns:
            lines.append(
                f"  mean length: {statistics.fmean(self.turns):.2f} turns, "
                f"{statistics.fmean(self.seconds):.1f} s per game (max {max(self.seconds):.1f} s)"
            )
        for who, agent, side in (("a", self.a, self.sides[0]), ("b", self.b, self.sides[1])):
            ts = self.times.get(side, [])
            if ts:
                lines.append(
                    f"  decisions of {who} {agent}: {len(ts)}, median {statistics.median(ts) * 1000:.1f} ms, "
                    f"max {max(ts) * 1000:.0f} ms"
                )
        for index, seed, message in self.errors:
            lines.append(f"  game {index} (game seed {seed}) failed: {message}")
        return "\n".join(lines)


def _round(x: float) -> float:
    return round(x, 4)


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def _line(label: str, k: int, n: int) -> str:
    if not n:
        return f"{k} {label}"
    lo, hi = wilson(k, n)
    return f"{k} {label} {k / n:.1%} (95 % CI {lo:.1%}–{hi:.1%})"


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95 % confidence interval of a proportion ``k / n`` (``(0, 1)`` when ``n`` is 0).

    >>> wilson(95, 100)
    (0.8882, 0.9785)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def game_seed(seed: int, index: int, role: str = "game") -> int:
    """The seed of game ``index`` of a run (or of one of its agents, ``role`` = ``"a"`` / ``"b"``)."""
    digest = hashlib.sha256(f"{seed}:{index}:{role}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def play_game(ruleset: str, scenario: str, a: str, b: str, seed: int, index: int) -> GameResult:
    """Play game ``index`` of a run to its end; ``a`` plays the scenario's first side.

    Never raises for a failure inside the game: the result carries the error instead.
    """
    import engine  # noqa: PLC0415 - workers import the engine themselves

    from .players import make_agent  # noqa: PLC0415

    gseed = game_seed(seed, index)
    start = time.perf_counter()
    times: dict[str, list[float]] = {}
    game = None
    try:
        sc = engine.load_scenario(ruleset, scenario)
        sides = sc.side_ids()
        agents = {
            sides[0]: make_agent(a, game_seed(seed, index, "a")),
            sides[1]: make_agent(b, game_seed(seed, index, "b")),
        }
        times = {s: [] for s in sides}
        game = engine.new_game(sc, seed=gseed)
        decisions = 0
        engine.take_scenario_setup(game)  # the scenario's set-up, as in a new TUI game (Blitzkrieg 12)
        losses = _Losses(game.state, sides)
        while game.to_act is not None:
            if engine.take_scenario_setup(game):  # Hannut: the 1. Kürassiere after the German's kept chits
                continue
            losses.note(game.state)
            side = game.to_act
            agent = agents[side]
            view = game.view(side)
            budget = float(getattr(agent, "budget_s", 1.0))
            t0 = time.perf_counter()
            action = agent.choose(view, budget)
            times[side].append(time.perf_counter() - t0)
            game.apply(action, side=side)
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
        outcome = game.outcome
        assert outcome is not None
        seconds = time.perf_counter() - start
        turns = game.state.turn
        lost = losses.done(game.state)
        return GameResult(index, gseed, outcome.winner, turns, decisions, times, seconds=seconds, losses=lost)
    except Exception as err:  # a failed game is reported, never raised (the run goes on)
        n = len(game.history) if game is not None else 0
        where = f" at turn {game.state.turn}, after {n} action{'' if n == 1 else 's'}" if game is not None else ""
        return GameResult(index, gseed, None, 0, 0, times, f"{type(err).__name__}: {err}{where}")


class _Losses:
    """Steps lost by the two sides since the set-up, noted at each change of turn (any ruleset: units' steps)."""

    def __init__(self, st: Any, sides: Sequence[str]) -> None:
        self.sides = (sides[0], sides[1])
        self.start = self._steps(st)
        self.turn = st.turn
        self.per_turn: list[tuple[int, int]] = []

    def _steps(self, st: Any) -> tuple[int, int]:
        units = st.units.values()
        a, b = self.sides
        return sum(u.steps for u in units if u.side == a), sum(u.steps for u in units if u.side == b)

    def _lost(self, st: Any) -> tuple[int, int]:
        now = self._steps(st)
        return max(0, self.start[0] - now[0]), max(0, self.start[1] - now[1])

    def note(self, st: Any) -> None:
        """Before a decision: a turn that has ended since the last one is recorded with the losses so far."""
        while self.turn < st.turn:
            self.per_turn.append(self._lost(st))
            self.turn += 1

    def done(self, st: Any) -> tuple[tuple[int, int], ...]:
        """The record of a finished game (its last turn included)."""
        self.note(st)
        return (*self.per_turn, self._lost(st))


def _play(args: tuple[str, str, str, str, int, int]) -> GameResult:
    return play_game(*args)


def simulate(
    ruleset: str,
    scenario: str,
    games: int,
    a: str,
    b: str,
    workers: int = 1,
    seed: int = 0,
    on_game: Callable[[int, int], None] | None = None,
    backend: str = "process",
) -> SimulationResult:
    """Play ``games`` games of ``a`` (first side) against ``b`` in ``workers`` processes, or as Ray tasks.

    Args:
        on_game: called after each finished game with (games done, games in all), e.g. for a progress bar.
        backend: ``process`` (a process pool of ``workers``) or ``ray`` (Ray tasks: a local Ray with
            ``workers`` CPUs, or the cluster that ``RAY_ADDRESS`` names); the same seed gives the same games.

    Raises:
        ValueError: an unknown agent, or games / workers below 1.
        ScenarioError, UnknownRulesetError: the scenario cannot be loaded.
    """
    import engine  # noqa: PLC0415

    from .players import make_agent  # noqa: PLC0415

    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    if backend not in BACKENDS:
        raise ValueError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    for name in (a, b):
        make_agent(name)  # an unknown agent fails here, before any game starts
    sc = engine.load_scenario(ruleset, scenario)
    sides = sc.side_ids()
    if len(sides) != 2:
        raise ValueError(f"{ruleset}/{scenario} has {len(sides)} sides; simulate plays two-sided scenarios")
    result = SimulationResult(ruleset, scenario, a, b, (sides[0], sides[1]), seed, games)
    result.times = {s: [] for s in sides}
    jobs = [(ruleset, scenario, a, b, seed, i) for i in range(games)]
    done: list[GameResult] = []
    for r in _run_ray(jobs, workers) if backend == "ray" else _run(jobs, workers):
        done.append(r)
        if on_game is not None:
            on_game(len(done), games)
    for r in sorted(done, key=lambda r: r.index):
        result.per_game.append({"index": r.index, "seed": r.seed, "winner": r.winner, "turns": r.turns})
        if r.error is not None or r.winner is None:
            result.errors.append((r.index, r.seed, r.error or "no result"))
            continue
        if r.winner == sides[0]:
            result.a_wins += 1
        elif r.winner == sides[1]:
            result.b_wins += 1
        else:
            result.draws += 1
        result.turns.append(r.turns)
        result.seconds.append(r.seconds)
        result.losses.append(r.losses)
        for s, ts in r.times.items():
            result.times.setdefault(s, []).extend(ts)
    return result


def _run(jobs: list[tuple[str, str, str, str, int, int]], workers: int) -> Iterator[GameResult]:
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            yield _play(job)
        return
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), initializer=_ignore_interrupts)
    try:
        futures = [pool.submit(_play, job) for job in jobs]
        for fut in as_completed(futures):
            yield fut.result()
    except BaseException:
        # Ctrl-C (or any failure here): stop the workers at once instead of letting them finish their games.
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            proc.terminate()
        raise
    pool.shutdown()


BACKENDS = ("process", "ray")
"""What may run the games of ``simulate`` and ``balance``."""


def _run_ray(jobs: list[tuple[str, str, str, str, int, int]], workers: int) -> Iterator[GameResult]:
    """The games as Ray tasks, yielded as they finish: a local Ray with ``workers`` CPUs, or the cluster
    ``RAY_ADDRESS`` names (each node needs this package installed, with the same version)."""
    import logging  # noqa: PLC0415
    import os  # noqa: PLC0415

    try:
        import ray  # noqa: PLC0415 - an optional extra
    except ImportError:
        raise ValueError("--backend ray needs Ray: pip install 'planspiel[ray]'") from None
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        options: dict[str, Any] = {"logging_level": logging.WARNING, "include_dashboard": False}
        if not address:
            options["num_cpus"] = workers
        # The engine's own environment (an extra ruleset named in PLANSPIEL_RULESETS) goes with the tasks.
        extra = {k: v for k, v in os.environ.items() if k.startswith("PLANSPIEL_")}
        ray.init(address=address or None, runtime_env={"env_vars": extra} if extra else None, **options)
    task = ray.remote(num_cpus=1)(_play)
    pending = [task.remote(job) for job in jobs]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback from each worker)."""
    import signal  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProgressBar:
    """A one-line progress bar on a stream: redrawn in place on a terminal, a line per 10 % otherwise."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.start = time.perf_counter()
        self._last_decile = -1

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        if self.tty:
            filled = int(self.width * done / total)
            bar = "#" * filled + "-" * (self.width - filled)
            end = "\n" if done == total else ""
            self.stream.write(f"\r[{bar}] {done}/{total} games, {elapsed:.0f} s{end}")
        else:
            decile = done * 10 // total
            if decile == self._last_decile:
                return
            self._last_decile = decile
            self.stream.write(f"{done}/{total} games, {elapsed:.0f} s\n")
        self.stream.flush()


def agent_level(text: str) -> str:
    """Read an agent name for ``--a`` / ``--b``: ``ai:normal``, ``normal``, ``random``, ``greedy``...

    Raises:
        ValueError: an unknown agent.
    """
    from .planner import seconds_level  # noqa: PLC0415
    from .players import AI_LEVELS  # noqa: PLC0415

    name = text.strip().lower()
    level = name[3:] if name.startswith("ai:") else name
    known = (*AI_LEVELS, "random", "greedy")
    if level not in known and seconds_level(level) is None:
        raise ValueError(f"unknown agent {text!r}: expected one of {', '.join(known)} (or ai:LEVEL, ai:N seconds)")
    return level


def run_cli(
    ruleset: str,
    scenario: str,
    games: int,
    a: str,
    b: str,
    workers: int,
    seed: int,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
    backend: str = "process",
) -> int:
    """``planspiel simulate``: play, show a progress bar on ``err``, print the summary (and the JSON line).

    Returns 0, or 1 when a game failed (each failure is reported with its index and seed), 2 for bad options.
    """
    import json  # noqa: PLC0415

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        la, lb = agent_level(a), agent_level(b)
        if workers > 2:
            err.write(f"planspiel simulate: note: {workers} workers on a {_cpus()}-core machine\n")
        result = simulate(ruleset, scenario, games, la, lb, workers, seed, on_game=ProgressBar(err), backend=backend)
    except ValueError as e:
        err.write(f"planspiel simulate: {e}\n")
        return 2
    out.write(result.report() + "\n")
    if as_json:
        out.write(json.dumps(result.to_json(), sort_keys=True) + "\n")
    return 1 if result.errors else 0


def _cpus() -> int:
    import os  # noqa: PLC0415

    return os.cpu_count() or 1


# --- Whole campaigns (planspiel simulate RULESET --campaign ID) -------------------------------------------


def play_campaign(ruleset: str, campaign_id: str, a: str, b: str, seed: int, index: int) -> dict[str, Any]:
    """Play campaign ``index`` of a run from its first battle to its end; ``a`` plays the campaign's side (the
    one whose results are scored), ``b`` the other; each side's AI spends its replacement points by
    :func:`engine.campaign.auto_replacements`.

    Returns a JSON-ready dict: ``battles`` (each battle's result and what carried over), ``points``, ``error``
    (None, or the failure with the battle it happened in). Never raises for a failure inside a battle.
    """
    import engine  # noqa: PLC0415
    from engine import campaign as cp  # noqa: PLC0415

    from .players import make_agent  # noqa: PLC0415

    out: dict[str, Any] = {"index": index, "seed": game_seed(seed, index), "battles": [], "points": 0, "error": None}
    camp = cp.load_campaign(ruleset, campaign_id)
    roster = cp.initial_roster(camp)
    battle_id: str | None = camp.first.id
    number = 0
    while battle_id is not None:
        number += 1
        record: dict[str, Any] = {"battle": battle_id, "scenario": camp.battle(battle_id).scenario}
        try:
            bseed = game_seed(seed, index, f"battle{number}")
            replaced: list[dict[str, str]] = []
            if number > 1:
                for side in camp.carry:
                    picks = cp.auto_replacements(roster, camp, battle_id, side)
                    roster, notes = cp.apply_replacements(roster, camp, battle_id, side, picks)
                    replaced.extend(n.to_dict() for n in notes)
            sc = cp.battle_scenario(camp, battle_id, roster)
            sides = sc.side_ids()
            other = next(s for s in sides if s != camp.side)
            agents = {
                camp.side: make_agent(a, game_seed(bseed, 0, "a")),
                other: make_agent(b, game_seed(bseed, 0, "b")),
            }
            game = engine.new_game(sc, seed=bseed)
            engine.take_scenario_setup(game)
            decisions = 0
            while game.to_act is not None:
                if engine.take_scenario_setup(game):
                    continue
                side = game.to_act
                agent = agents[side]
                action = agent.choose(game.view(side), float(getattr(agent, "budget_s", 1.0)))
                game.apply(action, side=side)
                decisions += 1
                if decisions > MAX_DECISIONS:
                    raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
            outcome = game.outcome
            assert outcome is not None
            carried = cp.carry_over(game.state, outcome.winner, roster, camp, battle_id)
        except Exception as err:  # reported with the battle, never raised
            out["error"] = f"battle {number} ({battle_id}): {type(err).__name__}: {err}"
            out["battles"].append(record)
            return out
        record.update(
            winner=outcome.winner,
            reason=outcome.reason,
            result=carried.result,
            points=carried.points,
            turns=game.state.turn,
            replacements=replaced,
            carried=[n.to_dict() for n in carried.notes],
            next=carried.next or cp.END,
            roster={
                e.id: {"side": e.side, "steps": e.steps, "full": e.full, "lost": e.lost, "was": list(e.was)}
                for e in carried.roster.values()
            },
        )
        out["battles"].append(record)
        out["points"] += carried.points
        roster = carried.roster
        battle_id = carried.next
    return out


def simulate_campaign(
    ruleset: str,
    campaign_id: str,
    games: int,
    a: str,
    b: str,
    seed: int = 0,
    on_game: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` whole campaigns, one after the other; the JSON-ready summary with every campaign's battles.

    Raises:
        ValueError: an unknown agent, or games below 1.
        ScenarioError, UnknownRulesetError: the campaign cannot be loaded.
    """
    from engine import campaign as cp  # noqa: PLC0415

    from .players import make_agent  # noqa: PLC0415

    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    for name in (a, b):
        make_agent(name)
    camp = cp.load_campaign(ruleset, campaign_id)
    runs = []
    for i in range(games):
        runs.append(play_campaign(ruleset, campaign_id, a, b, seed, i))
        if on_game is not None:
            on_game(i + 1, games)
    return {
        "ruleset": ruleset,
        "campaign": camp.id,
        "title": camp.title,
        "a": a,
        "b": b,
        "a_side": camp.side,
        "seed": seed,
        "games": games,
        "errors": sum(1 for r in runs if r["error"]),
        "campaigns": runs,
        "battles": [dict(battle, game=r["index"]) for r in runs for battle in r["battles"]],
    }


def campaign_report(summary: dict[str, Any]) -> str:
    """The summary of :func:`simulate_campaign` in words: one line per battle of each campaign."""
    lines = [
        f"{summary['ruleset']}/{summary['campaign']} ({summary['title']}): {summary['games']} campaign"
        f"{'s' if summary['games'] != 1 else ''}, a {summary['a']} as {summary['a_side']}, b {summary['b']} "
        f"(seed {summary['seed']})"
    ]
    for run in summary["campaigns"]:
        lines.append(f"  campaign {run['index']}: {run['points']} point{'s' if run['points'] != 1 else ''}")
        for bt in run["battles"]:
            if "result" not in bt:
                continue
            lost = sum(1 for n in bt["carried"] if n["what"] == "lost")
            lines.append(
                f"    {bt['battle']}: {bt['result']} ({bt['winner']}: {bt['reason']}), {bt['turns']} turns, "
                f"{len(bt['carried'])} carry-over notes, {lost} unit{'s' if lost != 1 else ''} lost → {bt['next']}"
            )
        if run["error"]:
            lines.append(f"    failed: {run['error']}")
    return "\n".join(lines)


def run_campaign_cli(
    ruleset: str,
    campaign_id: str,
    games: int,
    a: str,
    b: str,
    seed: int,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``planspiel simulate RULESET --campaign ID``: 0, 1 when a campaign failed, 2 for bad options."""
    import json  # noqa: PLC0415

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        la, lb = agent_level(a), agent_level(b)
        summary = simulate_campaign(ruleset, campaign_id, games, la, lb, seed, on_game=ProgressBar(err))
    except ValueError as e:
        err.write(f"planspiel simulate: {e}\n")
        return 2
    out.write(campaign_report(summary) + "\n")
    if as_json:
        out.write(json.dumps(summary, sort_keys=True) + "\n")
    return 1 if summary["errors"] else 0
