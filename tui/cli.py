"""Provides the ``planspiel`` command line: the game, and headless subcommands (validate, rulesets).

Headless subcommands never import Textual. Errors are reported in a sentence, never as a traceback
(set ``PLANSPIEL_DEBUG=1`` to see one).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import engine
from engine.errors import PlanspielError, ScenarioError

__all__ = ["main"]


def _cmd_validate(args: argparse.Namespace) -> int:
    failed = 0
    for target in args.targets:
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
        for sc_id in engine.scenario_ids(name):
            try:
                sc = engine.load_scenario(name, sc_id)
            except ScenarioError as err:
                print(f"    {sc_id:<12} BROKEN: {err.problems[0]}")
                continue
            sides = " vs ".join(s.name for s in sc.sides)
            print(f"    {sc_id:<12} {sc.title} — {sides}, {sc.turns} turns")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    # The Textual client is built in a later issue; until then the game lists what it can play.
    print(
        f"Planspiel {engine.__version__}: the game table is not built yet; these rulesets and scenarios are installed:"
    )
    print()
    return _cmd_list(args)


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
