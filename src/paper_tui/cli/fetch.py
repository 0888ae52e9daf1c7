"""``fetch``: lists from OpenReview, Paper Copilot, arXiv, DBLP or a URL into the library.

One line per SOURCE on stdout (``openreview:ICLR.cc/2025/Conference: 3,704 papers, 3,704
new (4 pages)``; a venue whose pages lacked the replies ``--reviews`` asked for: ``(1 page,
12 forum requests for replies)``; ``… unchanged``); a source that failed is one line on
stderr and the exit status is 1 at the end (the others were fetched). On a terminal a
progress line shows the pages, the papers and any wait a source asks for; piped, nothing
but the lines.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import re
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from paper_tui.cli.output import print_json
from paper_tui.cli.terminal import ProgressBar, warn
from paper_tui.errors import PaperTuiError
from paper_tui.library.context import Context
from paper_tui.query import ranges
from paper_tui.trust.inert import inert_line
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.library import SourceFetch

FORMS = ("openreview:VENUE_ID (e.g. openreview:ICLR.cc/2025/Conference), "
         "paperlists:NAMEYEAR (paperlists:iclr2025), arxiv:CATEGORY (arxiv:cs.LG) or "
         "arxiv:ID[,ID…], dblp:KEY (dblp:conf/nips/neurips2024) or an http(s):// URL of "
         "a paper list")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fetch", help="fetch paper lists from OpenReview, Paper Copilot, "
                                     "arXiv, DBLP or a URL and import them")
    p.add_argument("sources", nargs="*", metavar="SOURCE", help=FORMS)
    p.add_argument("--watches", action="store_true",
                   help="fetch every watch's SOURCE (`paper-tui watch`) and print per "
                        "watch: NAME: N new, M match \"QUERY\" (for cron or a timer: exit "
                        "status 1 when one failed)")
    p.add_argument("--since", metavar="DATE", type=_date, default=None,
                   help="arXiv categories: submissions since DATE (YYYY-MM-DD; default: "
                        "the category's last fetch, else 7 days ago)")
    p.add_argument("--all", action="store_true", dest="all_decisions",
                   help="OpenReview: rejected, withdrawn and undecided submissions too")
    p.add_argument("--reviews", action=argparse.BooleanOptionalAction, default=None,
                   help="OpenReview: each paper's reviews, meta-review, decision and public "
                        "comments too, in the same requests (`show ID --reviews`); default: "
                        "the fetch.reviews setting")
    p.add_argument("--venue", metavar="NAME", default="",
                   help="the venue of papers whose list does not name one (kept for the "
                        "source's next fetches)")
    p.add_argument("--year", metavar="N", type=_year, default=None,
                   help="the year of papers whose list does not give one (kept too)")
    p.add_argument("--dry-run", action="store_true",
                   help="fetch and count the papers, import nothing")
    p.add_argument("--json", action="store_true",
                   help="print a JSON summary: per source its status, papers, new ids, "
                        "requests, bytes and error")
    p.set_defaults(handler=cmd_fetch)


def _year(text: str) -> int:
    if not re.fullmatch(r"(1[89]|2\d)\d\d", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a year (e.g. 2024)")
    return int(text)


def _date(text: str) -> datetime.date:
    try:
        return ranges.day(text)
    except ranges.OutOfRange as exc:
        raise argparse.ArgumentTypeError(f"{ranges.shown(text)!r} {exc}") from None
    except ranges.NotANumber:
        raise argparse.ArgumentTypeError(
            f"{ranges.shown(text)!r} is not a date (e.g. 2026-11-30)") from None


def cmd_fetch(args: argparse.Namespace, ctx: Context) -> int:
    if args.watches:
        if args.sources or args.since or args.all_decisions or args.dry_run \
                or args.venue.strip() or args.year or args.reviews is not None:
            raise PaperTuiError("--watches fetches each watch as it was saved: give no "
                                "SOURCE, --since, --all, --venue, --year, --reviews or "
                                "--dry-run with it (a watch added with --reviews, or "
                                "fetch.reviews: true in the config, fetches its reviews)")
        from paper_tui.cli.watch import print_watch_runs

        with _progress(args) as bar:
            watched = ctx.library.fetch_watches(progress=bar)
        return print_watch_runs(watched, as_json=args.json)
    if not args.sources:
        raise PaperTuiError(f"name a SOURCE to fetch ({FORMS}) or use --watches")
    hints = None
    if args.venue.strip() or args.year:
        from paper_tui.importers import Hints

        hints = Hints(args.venue.strip(), args.year)
    with _progress(args) as bar:
        report = ctx.library.fetch(args.sources, since=args.since,
                                   all_decisions=args.all_decisions, dry_run=args.dry_run,
                                   progress=bar, hints=hints, reviews=args.reviews)
    if args.json:
        print_json(report.as_json())
    for source in report.sources:
        if source.status == "failed":
            warn(source.error or f"{source.spec}: failed")
        elif not args.json:
            print(inert_line(summary(source)))
    return 1 if report.failed else 0


@contextlib.contextmanager
def _progress(args: argparse.Namespace) -> Iterator[ProgressBar | None]:
    """A progress bar on a terminal (gone when the fetch ends), none when piped or --json."""
    bar = ProgressBar() if sys.stderr.isatty() and not args.json else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.clear()


def summary(source: SourceFetch) -> str:
    same = f"; the same list as {source.same_as}" if source.same_as else ""
    if source.status == "unchanged":
        return f"{source.spec}: unchanged ({count(source.papers, 'paper')}{same})"
    forums = f", {count(source.forums, 'forum request')} for replies" if source.forums \
        else ""
    pages = f" ({count(source.pages, 'page')}{forums}{same}" + (
        "; dry run: nothing imported)" if source.status == "dry-run" else ")")
    return (f"{source.spec}: {count(source.papers, 'paper')}, {len(source.new_ids):,} new"
            f"{pages}")
