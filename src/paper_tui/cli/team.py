"""``sync``: share triage with a team through a git remote; ``merge-driver``: git's hook;
``team split|unassign|status|digest``: divide a list among the members, see who covered
what, send the reading group its agenda."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui.cli.arguments import path
from paper_tui.cli.output import check_output, print_json, write_output
from paper_tui.cli.streams import write_control
from paper_tui.library.context import Context
from paper_tui.team.digest import FORMATS as DIGEST_FORMATS
from paper_tui.team.digest import file_format, parse_since
from paper_tui.team.split import BY as SPLIT_BY
from paper_tui.team.steps import LISTED, step_line
from paper_tui.trust.inert import inert_line
from paper_tui.vocabulary import count

if TYPE_CHECKING:  # the merge driver, in this module too, must not load the index
    from paper_tui.library import MemberCoverage, TeamCoverage


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

    p = sub.add_parser(
        "team", help="divide a list among the team, see who covered what, the agenda",
        description="Split a conference among the members, see each member's progress, "
                    "the picks and the disputed papers, and write the reading group's "
                    "agenda. The split lives in the team repo (assignments.yaml) and is "
                    "synced like the rest.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True,
                             help="split, unassign, status or digest")
    v = verbs.add_parser(
        "split", help="assign the untriaged papers of a query among members",
        description="Assign the papers of QUERY that no member has triaged and nobody "
                    "holds yet among the members, balanced (shares differ by at most one "
                    "paper where the shares held already allow), keeping an area's (or "
                    "venue's) papers together where the balance allows. The same input "
                    "gives the same split on every machine. Syncs before (the team's latest "
                    "split) and after (sending this one).")
    v.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help="the papers to split (default: every paper)")
    v.add_argument("--among", metavar="NAMES", type=_names, default=(),
                   help="comma-separated team names (me: you); default: the members holding "
                        "a share now")
    v.add_argument("--by", choices=SPLIT_BY, default=SPLIT_BY[0],
                   help="keep papers of one area (default) or venue together, or deal them "
                        "at random (deterministically)")
    v.add_argument("--reassign", metavar="NAME",
                   help="hand this member's untriaged share (within QUERY) to the others")
    v.add_argument("--no-sync", dest="share", action="store_false",
                   help="commit the split in the team repo only; the next sync sends it")
    v.set_defaults(handler=cmd_split)

    v = verbs.add_parser("unassign", help="take back the assignments of a query's papers",
                         description="Take back the assignments of the papers of QUERY "
                                     "(e.g. assigned:bob), synced like a split.")
    v.add_argument("query", metavar="QUERY", help="the papers to take back")
    v.add_argument("--no-sync", dest="share", action="store_false",
                   help="commit the change in the team repo only; the next sync sends it")
    v.set_defaults(handler=cmd_unassign)

    v = verbs.add_parser(
        "status", help="who covered what: per member, then untouched, picks, disputed",
        description="One row per member: papers assigned, triaged of their share, kept, "
                    "skipped, last change, last sync; then the papers no member triaged, "
                    "the picks (kept:2) and the disputed. Counts within QUERY.")
    v.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help="count within these papers (default: every paper)")
    v.add_argument("--json", action="store_true",
                   help='print {"members": {NAME: {"assigned", "triaged", "kept", '
                        '"skipped", "last_change", "last_sync", …}}, "untouched", "picks", '
                        '"disputed", …}')
    v.set_defaults(handler=cmd_status)

    v = verbs.add_parser(
        "digest", help="the reading group's agenda: the picks and the disputed papers",
        description="The papers at least two members kept (--all: every kept paper), each "
                    "with who kept or starred it, their tags and notes, the link and a "
                    "citation key; the disputed papers in their own section; the biggest "
                    "rating moves of the papers (since --since, else since their first "
                    "fetch), largest first, at most 10. HTML is one self-contained file to "
                    "mail.")
    v.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help="only these papers (default: every paper)")
    v.add_argument("--since", metavar="WHEN",
                   help="only papers kept (and rating moves) since then: 7d, 2w, 12h or a "
                        "date (2026-11-24)")
    v.add_argument("--all", dest="every_kept", action="store_true",
                   help="every kept paper, not only those two members kept")
    v.add_argument("-f", "--format", choices=DIGEST_FORMATS, default=None,
                   help="markdown (default; or as -o's extension names), org, html or json")
    v.add_argument("--json", action="store_true",
                   help='as -f json: {"title", "members", "since", "picks", "disputed", '
                        '"rating_moves": [{"id", "title", "change", "from", "to", '
                        '"since"}]}')
    v.add_argument("-o", "--output", metavar="FILE", type=path,
                   help="write to FILE (atomically) instead of standard output")
    v.set_defaults(handler=cmd_digest)


def _names(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one member: --among alice,bob")
    return names


def _sync_progress(steps: bool = False) -> Callable[[str], None] | None:
    """How a sync shows its steps: as step lines for the app (``steps``), redrawn on one
    line on a terminal, or not at all."""
    if steps:
        def show_step(message: str) -> None:
            print(step_line(message), file=sys.stderr, flush=True)

        return show_step
    if sys.stderr.isatty():
        def show(message: str) -> None:
            write_control(sys.stderr, "\r\x1b[K")  # the line drawn again: the CLI's own
            sys.stderr.write(f"sync: {inert_line(message)}")
            sys.stderr.flush()

        return show
    return None


def cmd_sync(args: argparse.Namespace, ctx: Context) -> int:
    show = _sync_progress(args.steps)
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


def cmd_split(args: argparse.Namespace, ctx: Context) -> int:
    show = _sync_progress()
    outcome = ctx.library.split_team(args.query, among=args.among, by=args.by,
                                     reassign=args.reassign, share=args.share, progress=show)
    if show is not None:
        write_control(sys.stderr, "\r\x1b[K")
    for note in outcome.notes:
        print(f"paper-tui: {note}", file=sys.stderr)
    for name in outcome.not_synced:
        print(f"paper-tui: {name} has not synced yet: they are told of their share at their "
              f"first sync (paper-tui sync --remote URL --as {name})", file=sys.stderr)
    print(outcome.summary())
    if outcome.shares:
        print("shares now: " + ", ".join(f"{name} {n:,}" for name, n in outcome.shares.items()))
    return 0


def cmd_unassign(args: argparse.Namespace, ctx: Context) -> int:
    show = _sync_progress()
    outcome = ctx.library.unassign_team(args.query, share=args.share, progress=show)
    if show is not None:
        write_control(sys.stderr, "\r\x1b[K")
    for note in outcome.notes:
        print(f"paper-tui: {note}", file=sys.stderr)
    print(outcome.summary() if outcome.unassigned else
          "nothing to take back: no paper of the query is assigned")
    return 0


def cmd_status(args: argparse.Namespace, ctx: Context) -> int:
    coverage = ctx.library.team_coverage(args.query)
    for problem in coverage.problems:
        print(f"paper-tui: {problem}", file=sys.stderr)
    if args.json:
        print_json(coverage.as_json())
        return 0
    for line in status_lines(coverage):
        print(line)
    return 0


def status_lines(coverage: TeamCoverage) -> list[str]:
    """``team status`` for people: a row per member, then what is left."""
    head = ("member", "share", "triaged of it", "kept", "skipped", "last change",
            "last sync")
    rows = [head] + [_row(m) for m in coverage.members]
    width = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [f"{count(coverage.papers, 'paper')}"
             + (f" of {coverage.query}" if coverage.query.strip() else "")]
    for row in rows:
        cells = [row[0].ljust(width[0])] + [c.rjust(w) for c, w in zip(row[1:5], width[1:5],
                                                                     strict=True)]
        cells += [c.ljust(w) for c, w in zip(row[5:], width[5:], strict=True)]
        lines.append(inert_line("  ".join(cells).rstrip()))
    lines.append(f"untouched {coverage.untouched:,} · picks (kept:2) {coverage.picks:,} · "
                 f"disputed {coverage.disputed:,} · unassigned {coverage.unassigned:,}")
    gone = [m for m in coverage.members if m.state == "left" and m.assigned]
    for member in gone:
        lines.append(f"{member.name} left the team holding {count(member.assigned, 'paper')}:"
                     f" paper-tui team split --reassign {member.name}")
    return lines


def _row(member: MemberCoverage) -> tuple[str, ...]:
    name = member.name + (" (you)" if member.you else "") + (
        f" ({member.state})" if member.state != "member" else "")
    share = f"{member.triaged:,} / {member.assigned:,}"
    if member.assigned:
        share += f" {100 * member.triaged // member.assigned:3d}%"
    return (name, f"{member.assigned:,}", share, f"{member.kept:,}", f"{member.skipped:,}",
            _when(member.last_change), _when(member.last_sync))


def _when(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at else "-"


def cmd_digest(args: argparse.Namespace, ctx: Context) -> int:
    check_output(None if args.output is None else Path(args.output))
    since = parse_since(args.since) if args.since else None
    if args.json and args.format not in (None, "json"):
        from paper_tui.errors import PaperTuiError

        raise PaperTuiError(f"--json and -f {args.format}: give one")
    fmt = file_format("json" if args.json else args.format, args.output)
    text = ctx.library.team_digest(args.query, since=since, fmt=fmt,
                                   every_kept=args.every_kept)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    output = write_output(Path(args.output), text)
    print(f"wrote the digest ({fmt}) to {output}", file=sys.stderr)
    return 0
