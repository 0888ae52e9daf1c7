"""``sync``: share triage with a team through a git remote; ``merge-driver``: git's hook."""

from __future__ import annotations

import argparse
import sys

from paper_tui.cli.arguments import path
from paper_tui.cli.streams import write_control
from paper_tui.inert import inert_line
from paper_tui.library.context import Context
from paper_tui.team.steps import LISTED, step_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sync", help="share your triage, reading lists and paper lists with your team",
        description="Commit this library's triage to the team repo (<library>/team), fetch, "
                    "merge field by field, push, and print what came in and went out. The "
                    "first time, give --remote and --as.")
    p.add_argument("--remote", metavar="URL",
                   help="the team's git remote: a bare repo path, ssh or https (remembered)")
    p.add_argument("--as", dest="name", metavar="NAME",
                   help="who you are in the team (remembered; names people/NAME.yaml)")
    # For the app, which runs the sync as a process of its own: each step a line on stderr,
    # and whether papers or lists came in.
    p.add_argument("--steps", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(handler=cmd_sync)

    # Called by git (configured in the team repo), not by people: no help line.
    p = sub.add_parser("merge-driver")
    for name, what in (("base", "the common ancestor's version of the file"),
                       ("ours", "our version, which the merge replaces"),
                       ("theirs", "their version"),
                       ("path", "the file's path in the team repo")):
        p.add_argument(name, type=path, help=what)
    p.set_defaults(handler=cmd_merge_driver)


def cmd_sync(args: argparse.Namespace, ctx: Context) -> int:
    show = None
    if args.steps:
        def show(message: str) -> None:
            print(step_line(message), file=sys.stderr, flush=True)
    elif sys.stderr.isatty():
        def show(message: str) -> None:
            write_control(sys.stderr, "\r\x1b[K")  # the line drawn again: the CLI's own
            sys.stderr.write(f"sync: {inert_line(message)}")
            sys.stderr.flush()

    report = ctx.library.sync_team(remote=args.remote, name=args.name, progress=show)
    if show is not None:
        write_control(sys.stderr, "\r\x1b[K")
    for note in report.notes:
        print(f"paper-tui: {note}", file=sys.stderr)
    print(report.summary())
    if args.steps and (report.sources_in or report.lists_from):
        print(step_line(LISTED), file=sys.stderr, flush=True)
    return 0


def cmd_merge_driver(args: argparse.Namespace, ctx: Context) -> int:
    from paper_tui.team.merge import run_driver

    return run_driver(args.base, args.ours, args.theirs, args.path)
