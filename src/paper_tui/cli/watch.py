"""``watch``: saved fetches with a query — list them, ``add``, ``remove``. ``paper-tui fetch
--watches`` runs them (its lines are :func:`run_line`)."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import TYPE_CHECKING

from paper_tui.cli.output import print_json
from paper_tui.cli.terminal import warn
from paper_tui.library.context import Context
from paper_tui.store.watches import Watch
from paper_tui.trust.inert import inert_line

if TYPE_CHECKING:
    from paper_tui.library.watching import WatchesReport


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch", help="watches: saved fetches that say what is new (none: list them)",
        description="A watch is a SOURCE as `paper-tui fetch` takes it and an optional "
                    "query. `paper-tui fetch --watches` fetches every watch's source and "
                    "prints per watch how many papers are new to the library and how many "
                    "of those match its query; search them with watch:NAME and "
                    "added:today.")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of the watches with what each found last time")
    p.set_defaults(handler=cmd_watch)
    verbs = p.add_subparsers(dest="verb", metavar="VERB",
                             help="what to do (none: list the watches)")
    q = verbs.add_parser("add", help="save a watch")
    q.add_argument("name", metavar="NAME",
                   help="the watch's name: letters, digits, '.', '_', '-' (e.g. cs.LG)")
    q.add_argument("source", metavar="SOURCE",
                   help="what to fetch, as `paper-tui fetch` takes it (e.g. arxiv:cs.LG, "
                        "openreview:ICLR.cc/2026/Conference, paperlists:iclr2026)")
    q.add_argument("--query", "-q", default="", metavar="Q",
                   help="count the new papers matching this query (e.g. diffusion)")
    q.add_argument("--reviews", action="store_true",
                   help="OpenReview: fetch the reviews too, as `fetch --reviews` (each run "
                        "records the ratings that moved)")
    q = verbs.add_parser("remove", help="drop a watch (the papers it brought stay)")
    q.add_argument("name", metavar="NAME", help="the watch's name (any case)")


def cmd_watch(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    if args.verb == "add":
        watch = lib.add_watch(args.name, args.source, args.query, args.reviews)
        print(inert_line(f"watching {watch.source} as {watch.name}"
                         + (" with its reviews" if watch.reviews else "")
                         + (f' (new papers matching "{watch.query}")' if watch.query else "")
                         + ": paper-tui fetch --watches runs it"))
        return 0
    if args.verb == "remove":
        watch = lib.remove_watch(args.name)
        print(inert_line(f"removed the watch {watch.name} ({watch.source}); its papers "
                         "stay in the library"))
        return 0
    watches = lib.watches()
    problem = lib.watches_problem()
    if problem:
        print(f"paper-tui: {inert_line(problem)}", file=sys.stderr)
    if args.json:
        print_json([_json(watch) for watch in watches])
        return 0
    if not watches and not problem:
        print("no watches yet: paper-tui watch add NAME SOURCE [--query Q]",
              file=sys.stderr)
    for watch in watches:
        query = f'  "{watch.query}"' if watch.query else ""
        reviews = "  --reviews" if watch.reviews else ""
        print(inert_line(f"{watch.name}  {watch.source}{reviews}{query}  {last_run(watch)}"))
    return 0


def print_watch_runs(report: WatchesReport, *, as_json: bool) -> int:
    """What ``paper-tui fetch --watches`` prints: one line per watch on stdout (a failed
    one, or one whose query cannot be read, on stderr); exit status 1 when any failed.
    For cron: nothing else is printed."""
    if not report.outcomes:
        warn("no watches yet: paper-tui watch add NAME SOURCE [--query Q]")
    if as_json:
        print_json([{"name": o.watch.name, "source": o.watch.source,
                     "query": o.watch.query, "new": o.new, "matched": o.matched,
                     "warning": o.problem or None, "fetch": o.fetch.as_json()}
                    for o in report.outcomes])
    for outcome in report.outcomes:
        if outcome.failed or outcome.problem:  # a query that cannot be read: a warning
            warn(outcome.line())
        elif not as_json:
            print(inert_line(outcome.line()))
    if report.not_kept:
        warn(report.not_kept)
    return 1 if report.failed else 0


def last_run(watch: Watch) -> str:
    """When the watch last ran and what it found: ``last run 2026-12-01 06:00: 143 new,
    12 match``; ``not run yet``."""
    if watch.last_run is None or watch.outcome == "never":
        return "not run yet"
    when = dt.datetime.fromtimestamp(watch.last_run).strftime("%Y-%m-%d %H:%M")
    if watch.outcome == "failed":
        return f"last run {when}: failed ({watch.error})"
    said = f"last run {when}: {found(watch.new, watch.matched, watch.query)}"
    return f"{said}; {watch.error}" if watch.error else said


def found(new: int, matched: int | None, query: str) -> str:
    """``143 new, 12 match "diffusion"``; ``143 new`` for a watch without a query."""
    text = f"{new:,} new"
    return text if matched is None else f'{text}, {matched:,} match "{query}"'


def _json(watch: Watch) -> dict[str, object]:
    return {"name": watch.name, "source": watch.source, "query": watch.query,
            "reviews": watch.reviews,
            "source_id": watch.source_id or None,
            "last_run": (dt.datetime.fromtimestamp(watch.last_run, dt.UTC)
                         .strftime("%Y-%m-%dT%H:%M:%SZ") if watch.last_run else None),
            "outcome": watch.outcome, "new": watch.new, "matched": watch.matched,
            "error": watch.error or None}
