"""Provides the ``planspiel`` command line: the game, and headless subcommands (validate, list, saves).

Headless subcommands never import Textual. Errors are reported in a sentence, never as a traceback
(set ``PLANSPIEL_DEBUG=1`` to see one).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import engine
from engine.errors import PlanspielError, ScenarioError

__all__ = ["main"]


def _cmd_validate(args: argparse.Namespace) -> int:
    failed = 0
    from engine.campaign import campaign_path_problems  # noqa: PLC0415

    for target in args.targets:
        problems = campaign_path_problems(target)
        if problems is None:
            problems = engine.validate_path(target)
        if problems:
            failed += 1
            n = len(problems)
            print(f"FAIL {target}: {n} problem{'s' if n != 1 else ''}")
            for p in problems:
                print(f"  {p}")
        else:
            print(f"ok   {target}")
    if len(args.targets) > 1:
        print(f"{len(args.targets) - failed} ok, {failed} failed")
    return 1 if failed else 0


def _cmd_list(args: argparse.Namespace) -> int:
    names = engine.ruleset_names()
    if not names:
        print("No rulesets are installed yet.")
        return 0
    for name in names:
        rs = engine.get_ruleset(name)
        print(f"{name}  {rs.title} (version {rs.version})")
        ids = engine.scenario_ids(name)
        width = max((len(i) for i in ids), default=0)
        for sc_id in ids:
            try:
                sc = engine.load_scenario(name, sc_id)
            except ScenarioError as err:
                print(f"    {sc_id:<{width}}  BROKEN: {err.problems[0]}")
                continue
            sides = " vs ".join(s.name for s in sc.sides)
            print(f"    {sc_id:<{width}}  {sc.title} — {sides}, {sc.turns} turns")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    """Open the title screen (the Textual client is imported only here)."""
    from tui.app import Start, run  # noqa: PLC0415 - Textual only for the game itself

    return run(Start())


# --- the game: new, load (Textual is imported only when the game starts) ----------------------------------


def _players_from(
    rest: Sequence[str], sides: Sequence[str], what: str = "scenario"
) -> tuple[dict[str, str], int | None]:
    """Read ``--SIDE PLAYER`` pairs (and ``--seed N``, ``--setup MODE``, kept under the key ``--setup``) that
    follow ``planspiel new RULESET SCENARIO``.

    Raises:
        ValueError: an option that is not a side of the scenario, a missing value, or an unknown player.
    """
    from engine.ai import parse_player  # noqa: PLC0415

    players: dict[str, str] = {}
    seed: int | None = None
    items = list(rest)
    while items:
        opt = items.pop(0)
        if not opt.startswith("--"):
            raise ValueError(f"unexpected {opt!r}: give players as --SIDE PLAYER (sides: {', '.join(sides)})")
        name, _, value = opt[2:].partition("=")
        if not value:
            if not items:
                raise ValueError(f"{opt} needs a value")
            value = items.pop(0)
        if name == "seed":
            try:
                seed = int(value)
            except ValueError:
                raise ValueError(f"--seed needs a whole number, not {value!r}") from None
            continue
        if name == "setup":
            if value not in ("scenario", "players"):
                raise ValueError(f"--setup must be 'scenario' or 'players', not {value!r}")
            players["--setup"] = value
            continue
        if name not in sides:
            raise ValueError(f"unknown side --{name}: this {what}'s sides are {', '.join(sides)}")
        kind, level = parse_player(value)
        players[name] = "human" if kind == "human" else f"ai:{level}"
    return players, seed


def _cmd_new(args: argparse.Namespace) -> int:
    sc = engine.load_scenario(args.ruleset, args.scenario)
    try:
        players, seed = _players_from(args.players, sc.side_ids())
    except ValueError as err:
        print(f"planspiel new: {err}", file=sys.stderr)
        return 2
    if args.seed is not None:
        seed = args.seed
    setup = players.pop("--setup", args.setup)
    from tui.app import Start, run  # noqa: PLC0415 - Textual only for the game itself

    return run(Start("new", args.ruleset, args.scenario, players, seed, setup=setup))


def _cmd_load(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        print(f"planspiel load: {path}: no such file", file=sys.stderr)
        return 1
    from tui.app import Start, run  # noqa: PLC0415 - Textual only for the game itself

    return run(Start("load", path=path))


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.campaign is not None:
        from engine.ai.simulate import run_campaign_cli  # noqa: PLC0415 - only for this subcommand

        if args.scenario is not None:
            print("planspiel simulate: give a scenario or --campaign ID, not both", file=sys.stderr)
            return 2
        if args.backend != "process":
            print("planspiel simulate: whole campaigns run in this process only (no --backend)", file=sys.stderr)
            return 2
        return run_campaign_cli(args.ruleset, args.campaign, args.games, args.a, args.b, args.seed, args.json)
    if args.scenario is None:
        print("planspiel simulate: name a scenario (or --campaign ID)", file=sys.stderr)
        return 2
    from engine.ai.simulate import run_cli  # noqa: PLC0415 - only for this subcommand

    a = args
    return run_cli(a.ruleset, a.scenario, a.games, a.a, a.b, a.workers, a.seed, a.json, backend=a.backend)


def _cmd_balance(args: argparse.Namespace) -> int:
    from engine.ai.balance import run_cli  # noqa: PLC0415 - only for this subcommand

    return run_cli(
        args.ruleset, args.scenario, args.games, args.ai, args.workers, args.seed, args.json, backend=args.backend
    )


def _add_game_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    nw = sub.add_parser(
        "new",
        help="start a game at once: new RULESET SCENARIO --SIDE human|ai:LEVEL ...",
        description="Start a new game: planspiel new RULESET SCENARIO --SIDE PLAYER ..., one --SIDE per side (its "
        "id, in lower case) with human or ai:LEVEL (levels: easy, normal, hard; sides not given are human); "
        "planspiel list shows the rulesets and their scenarios.",
    )
    nw.add_argument("ruleset")
    nw.add_argument("scenario")
    nw.add_argument("--seed", type=int, default=None, help="the dice seed (default: a random one)")
    nw.add_argument(
        "--setup",
        choices=("scenario", "players"),
        default="scenario",
        help="scenario: the scenario file's set-up (default); players: each side places its own units",
    )
    nw.add_argument("players", nargs=argparse.REMAINDER, metavar="--SIDE PLAYER")
    nw.set_defaults(func=_cmd_new)
    ld = sub.add_parser("load", help="continue a saved game at once")
    ld.add_argument("file", metavar="FILE")
    ld.set_defaults(func=_cmd_load)


# --- saves: list, verify, show (the saves package is imported only when one of them runs) ---------------


def _local_time(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())


def _cmd_saves_list(args: argparse.Namespace) -> int:
    import saves  # noqa: PLC0415 - only for this subcommand

    folder = Path(args.folder) if args.folder else saves.saves_dir()
    if args.folder and not folder.exists():
        print(f"planspiel: {folder}: no such folder", file=sys.stderr)
        return 1
    entries = saves.list_saves(folder)
    autosaves = [] if args.folder else saves.list_saves(saves.autosave_dir())
    if not entries and not autosaves:
        print(f"No saves in {folder}.")
        return 0
    rows: list[tuple[str, ...]] = [("FILE", "RULESET", "SCENARIO", "TURN", "SIDES", "LAST PLAYED")]
    for e in entries + autosaves:
        name = e.path.name if e in entries else f"{e.path.parent.name}/{e.path.name}"
        h = e.header
        if h is None:
            cause = e.error.cause if e.error is not None else "unreadable"
            rows.append((name, "-", "-", "-", "-", f"cannot be read: {cause}"))
            continue
        scenario = h.scenario or "-"
        if h.kind == "campaign":
            scenario = f"{h.campaign}: {h.scenario or 'between battles'}"
        turn = f"{h.turn} (over)" if h.is_over else str(h.turn)
        sides = ", ".join(f"{s.id} ({s.player})" for s in h.sides) or "-"
        rows.append((name, h.ruleset, scenario, turn, sides, _local_time(h.updated)))
    _table(rows)
    n = len(entries)
    line = f"{n} save{'s' if n != 1 else ''} in {folder}"
    if autosaves:
        line += f" and {len(autosaves)} autosave{'s' if len(autosaves) != 1 else ''} in {saves.autosave_dir()}"
    print(line)
    return 0


def _cmd_saves_verify(args: argparse.Namespace) -> int:
    import saves  # noqa: PLC0415 - only for this subcommand

    failed = 0
    for target in args.files:
        report = saves.verify_save(target)
        if report.ok:
            actions = report.header.actions if report.header is not None else 0
            what = "action replays" if actions == 1 else "actions replay"
            print(f"ok   {target}: {actions} {what} to the saved position ({report.seconds:.2f} s)")
            continue
        failed += 1
        print(f"FAIL {target}: {report.problems[0]}")
        for problem in report.problems[1:]:
            print(f"  {problem}")
    if len(args.files) > 1:
        print(f"{len(args.files) - failed} ok, {failed} failed")
    return 1 if failed else 0


_SHOW_NOTATION = 200
"""The longest history entry ``saves show`` prints whole (real notation is under 100 characters)."""


def _cmd_saves_show(args: argparse.Namespace) -> int:
    import saves  # noqa: PLC0415 - only for this subcommand

    h, history = saves.read_history(args.file)
    print(f"File:        {args.file}")
    if h.kind == "campaign":
        print(f"Campaign:    {h.campaign_title} ({h.campaign})")
    if h.scenario:
        print(f"Scenario:    {h.title} ({h.ruleset}/{h.scenario})")
    print(f"Ruleset:     {h.ruleset} version {h.ruleset_version}")
    print(f"Saved by:    Planspiel {h.app}, save format {h.format}")
    if h.scenario:
        state = f"over: {h.winner} — {h.result}" if h.is_over else f"{h.to_act} to act"
        print(f"Turn:        {h.turn}, {state}")
    print(f"Sides:       {', '.join(f'{s.name} ({s.player})' for s in h.sides) or '-'}")
    print(f"Created:     {_local_time(h.created)}")
    print(f"Last played: {_local_time(h.updated)}")
    if h.kind == "campaign":
        _show_roster(args.file)
    print(f"History:     {len(history)} action{'s' if len(history) != 1 else ''}")
    width = len(str(len(history)))
    for i, notation in enumerate(history, start=1):
        shown = notation
        if len(notation) > _SHOW_NOTATION:  # a hostile entry: the engine refuses such notation anyway
            shown = f"{notation[: _SHOW_NOTATION - 40]}... ({len(notation):,} characters)"
        print(f"  {i:>{width}}. {shown}")
    return 0


def _show_roster(file: str) -> None:
    """A campaign save's battles fought and roster, by side (read from the saved position, no replay)."""
    import saves  # noqa: PLC0415

    c = saves.load_campaign(file, verify="snapshot", backup=False)
    done = ", ".join(f"{r.get('battle', '?')} ({r.get('result', '?')})" for r in c.results) or "none yet"
    print(f"Battles:     {done}")
    for side in sorted({u.side for u in c.roster.values()}):
        units = [u for u in c.roster.values() if u.side == side]
        lost = sum(1 for u in units if u.to_entry().lost)
        reduced = sum(1 for u in units if not u.to_entry().lost and u.steps < u.to_entry().full)
        print(f"Roster:      {side}: {len(units)} units, {lost} lost, {reduced} reduced, {c.losses(side)} steps lost")


def _add_saves_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sv = sub.add_parser("saves", help="list, check and show save files")
    cmds = sv.add_subparsers(dest="saves_command", metavar="{list,verify,show}", required=True)
    ls = cmds.add_parser(
        "list", help="a table of the saves in FOLDER (default: the saves folder and its autosaves), from headers"
    )
    ls.add_argument("folder", nargs="?", metavar="FOLDER")
    ls.set_defaults(func=_cmd_saves_list)
    vf = cmds.add_parser("verify", help="replay each save's history and compare it with the saved position")
    vf.add_argument("files", nargs="+", metavar="FILE")
    vf.set_defaults(func=_cmd_saves_verify)
    sh = cmds.add_parser("show", help="a save's header and its history in notation")
    sh.add_argument("file", metavar="FILE")
    sh.set_defaults(func=_cmd_saves_show)


# --- campaigns: list, new ----------------------------------------------------------------------------------


def _cmd_campaign_list(args: argparse.Namespace) -> int:
    from engine.campaign import list_campaigns  # noqa: PLC0415

    found = list_campaigns()
    if not found:
        print("No campaigns are installed.")
        return 0
    for c in found:
        if isinstance(c, ScenarioError):
            print(f"BROKEN: {c.problems[0]}")
            continue
        battles = ", ".join(b.scenario for b in c.battles)
        n = len(c.battles)
        print(f"{c.ruleset}  {c.id}  {c.title} — {n} battle{'s' if n != 1 else ''}: {battles}")
    return 0


def _cmd_campaign_new(args: argparse.Namespace) -> int:
    import time  # noqa: PLC0415

    import saves  # noqa: PLC0415 - only for this subcommand
    from engine import campaign as cp  # noqa: PLC0415

    camp = cp.load_campaign(args.ruleset, args.campaign)
    roster = cp.initial_roster(camp)
    scenario = cp.battle_scenario(camp, camp.first.id, roster)
    rest, out = list(args.players), args.out
    for i, opt in enumerate(rest):  # --out FILE among the players (they take the rest of the line)
        if opt == "--out" and i + 1 < len(rest):
            out = rest[i + 1]
            del rest[i : i + 2]
            break
    try:
        sides = [s for s, _ in cp.campaign_sides(camp)]  # a later battle's sides too
        players, seed = _players_from(rest, sides, "campaign")
    except ValueError as err:
        print(f"planspiel campaign new: {err}", file=sys.stderr)
        return 2
    players.pop("--setup", None)
    players = {s: players.get(s, "human") for s in sides}
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    default = saves.saves_dir() / f"{camp.id}-{time.strftime('%Y%m%d-%H%M%S')}.planspiel"
    path = Path(out) if out else default
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"planspiel campaign new: cannot create the folder {path.parent}: {err.strerror}", file=sys.stderr)
        return 1
    from tui.campaign import CampaignPlay  # noqa: PLC0415 - the same start as the game's New game

    CampaignPlay.new(camp.ruleset, camp.id, players, seed, path)
    who = ", ".join(f"{s} {p}" for s, p in players.items())
    print(f"Campaign {camp.title} ({camp.ruleset}/{camp.id}) started: battle 1 of {len(camp.battles)}, "
          f"{scenario.title} ({who}).")  # fmt: skip
    print(f"Saved to {path}")
    if any(p == "human" for p in players.values()):
        if sys.stdin.isatty() and sys.stdout.isatty():
            from tui.app import Start, run  # noqa: PLC0415 - Textual only for the game itself

            return run(Start("load", path=path))  # into battle 1 in the game
        print("Play it with planspiel: the title screen's Continue (or planspiel load FILE) opens battle 1.")
    return 0


def _add_campaign_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cp = sub.add_parser("campaign", help="campaigns: chained battles with a carried-over force")
    cmds = cp.add_subparsers(dest="campaign_command", metavar="{list,new}", required=True)
    ls = cmds.add_parser("list", help="one line per campaign: ruleset, id, title, battles")
    ls.set_defaults(func=_cmd_campaign_list)
    nw = cmds.add_parser(
        "new",
        help="start a campaign: new RULESET CAMPAIGN --SIDE human|ai:LEVEL ... (writes its save)",
        description="Start a campaign and write its save with battle 1 set up: planspiel campaign new RULESET "
        "CAMPAIGN --SIDE PLAYER ... (sides not given are human; --seed N for the dice).",
    )
    nw.add_argument("ruleset")
    nw.add_argument("campaign")
    nw.add_argument("--out", default=None, metavar="FILE", help="where to save (default: the saves folder)")
    nw.add_argument("players", nargs=argparse.REMAINDER, metavar="--SIDE PLAYER")
    nw.set_defaults(func=_cmd_campaign_new)


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .serve.limits import ServeLimits  # noqa: PLC0415 - only for this subcommand
        from .serve.server import Hub, run_server  # noqa: PLC0415
    except ImportError as err:
        print(f"planspiel serve: needs asyncssh ({err}): pip install asyncssh", file=sys.stderr)
        return 2
    import logging  # noqa: PLC0415

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    limits = ServeLimits(
        connections_per_minute=args.connections_per_minute,
        max_unauthenticated=args.max_unauthenticated,
        sessions_per_account=args.sessions_per_account,
        login_timeout=args.login_timeout,
        idle_timeout=args.idle_timeout,
        memory_mb=args.memory_mb,
        cpu_seconds=args.cpu_seconds,
        open_files=args.open_files,
    )
    for name in ("connections_per_minute", "max_unauthenticated", "sessions_per_account", "memory_mb", "open_files"):
        if getattr(limits, name) < 1:
            print(f"planspiel serve: --{name.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if os.geteuid() == 0:
        print("planspiel serve: warning: running as root; run the server as an unprivileged user", file=sys.stderr)
    root = Path(args.root).expanduser() if args.root else _server_root()
    return run_server(args.host, args.port, Hub(root, limits, guests=args.guests))


def _server_root() -> Path:
    """The server's folder: ``$PLANSPIEL_HOME/server``, else ``<user data folder>/planspiel/server``."""
    home = os.environ.get("PLANSPIEL_HOME")
    if home:
        return Path(home).expanduser() / "server"
    import platformdirs  # noqa: PLC0415

    return Path(platformdirs.user_data_dir("planspiel", appauthor=False)) / "server"


def _add_serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sv = sub.add_parser(
        "serve",
        help="an SSH server: players connect with ssh -p PORT NAME@HOST and play (key login, one game per session)",
        description="Run the built-in SSH server. The first login with a public key registers the name; later "
        "logins under it need that key. Each session plays the game with the account's own saves.",
    )
    sv.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    sv.add_argument("--port", type=int, default=2222, help="port (default 2222; 0 takes a free one)")
    sv.add_argument("--root", default=None, help="folder of the host key, accounts and their games")
    sv.add_argument("--connections-per-minute", type=int, default=20, help="new connections per address (20)")
    sv.add_argument("--max-unauthenticated", type=int, default=32, help="connections not logged in yet (32)")
    sv.add_argument("--sessions-per-account", type=int, default=3, help="sessions one account may open (3)")
    sv.add_argument("--login-timeout", type=float, default=60.0, help="seconds to log in (60)")
    sv.add_argument("--idle-timeout", type=float, default=3600.0, help="seconds without a key (3600)")
    sv.add_argument("--memory-mb", type=int, default=2048, help="address space of each game process (2048)")
    sv.add_argument("--cpu-seconds", type=int, default=4 * 3600, help="CPU time of each game process (14400)")
    sv.add_argument("--open-files", type=int, default=256, help="open files of each game process (256)")
    sv.add_argument("--guests", action="store_true", help="ssh guest@HOST logs in without a key, to watch only")
    sv.set_defaults(func=_cmd_serve)


_BACKEND_HELP = (
    "process: a process pool of --workers (default); ray: Ray tasks (pip install 'planspiel[ray]'), a local Ray "
    "with --workers CPUs or the cluster RAY_ADDRESS names; the same seed gives the same games"
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and shell completion)."""
    parser = argparse.ArgumentParser(prog="planspiel", description="A terminal wargame table.")
    parser.add_argument("--version", action="version", version=f"planspiel {engine.__version__}")
    sub = parser.add_subparsers(dest="command")
    v = sub.add_parser("validate", help="check scenario and map files (PATH or RULESET/ID)")
    v.add_argument("targets", nargs="+", metavar="PATH|RULESET/ID")
    v.set_defaults(func=_cmd_validate)
    ls = sub.add_parser("list", help="list the installed rulesets and their scenarios")
    ls.set_defaults(func=_cmd_list)
    _add_saves_parser(sub)
    _add_campaign_parser(sub)
    _add_serve_parser(sub)
    _add_game_parsers(sub)
    sim = sub.add_parser("simulate", help="headless AI-against-AI games with win rates and decision times")
    sim.add_argument("ruleset")
    sim.add_argument("scenario", nargs="?")
    sim.add_argument("--campaign", default=None, metavar="ID", help="play whole campaigns instead of a scenario")
    sim.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    sim.add_argument("--a", default="ai:normal", help="agent of the first side: ai:LEVEL, random, greedy")
    sim.add_argument("--b", default="random", help="agent of the second side")
    sim.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    sim.add_argument("--seed", type=int, default=0, help="run seed: the same seed gives the same results")
    sim.add_argument("--json", action="store_true", help="end with one JSON line of the results")
    sim.add_argument("--backend", choices=("process", "ray"), default="process", help=_BACKEND_HELP)
    sim.set_defaults(func=_cmd_simulate)
    bal = sub.add_parser(
        "balance",
        help="one AI level against itself: win rates per side with 95 % intervals, draws, length, losses per turn",
    )
    bal.add_argument("ruleset")
    bal.add_argument("scenario")
    bal.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    bal.add_argument("--ai", default="ai:normal", help="the agent of both sides: ai:LEVEL, random, greedy")
    bal.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    bal.add_argument("--seed", type=int, default=0, help="run seed: the same seed gives the same results")
    bal.add_argument("--json", action="store_true", help="end with one JSON line of the results")
    bal.add_argument("--backend", choices=("process", "ray"), default="process", help=_BACKEND_HELP)
    bal.set_defaults(func=_cmd_balance)
    parser.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader stopped reading (`planspiel saves show FILE | head`): what it wanted was written; the rest
        # goes nowhere, and the flush at exit must not complain either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (PlanspielError, OSError) as err:
        print(f"planspiel: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # never a traceback to the player
        if os.environ.get("PLANSPIEL_DEBUG"):
            raise
        print(
            f"planspiel: internal error: {type(err).__name__}: {err} (set PLANSPIEL_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 70


if __name__ == "__main__":
    sys.exit(main())
