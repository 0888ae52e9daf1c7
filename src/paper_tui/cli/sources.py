"""``sources``: the paper lists the library holds, where each came from; and
``sources remove NAME...``, which takes lists out (the reader's marks on their papers stay,
``orphans`` lists them, and importing or fetching the list again brings them back)."""

from __future__ import annotations

import argparse

from paper_tui.cli.output import print_json
from paper_tui.library.context import Context
from paper_tui.trust.inert import inert_line
from paper_tui.vocabulary import count


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sources", help="the paper lists in the library (none: list them), "
                                       "or remove some")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array: per source its name, kind, origin, papers, "
                        "added and last_fetched")
    p.set_defaults(handler=cmd_sources)
    verbs = p.add_subparsers(dest="verb", metavar="VERB",
                             help="what to do (none: list the sources)")
    q = verbs.add_parser("remove", help="take paper lists out of the library (your marks "
                                        "on their papers stay; `orphans` lists them)")
    q.add_argument("source_names", nargs="+", metavar="NAME",
                   help="a source's name as `paper-tui sources` prints it (e.g. "
                        "neurips-2026, the bundled list)")
    q.set_defaults(handler=cmd_remove)


def cmd_sources(args: argparse.Namespace, ctx: Context) -> int:
    listed = ctx.library.listed_sources()
    if args.json:
        print_json([source.as_json() for source in listed])
        return 0
    if not listed:
        print("no sources: `paper-tui import FILE` or `paper-tui fetch SOURCE` adds one")
        return 0
    for source in listed:
        fetched = f", last fetched {source.last_fetched}" if source.last_fetched else ""
        print(inert_line(f"{source.name}  {count(source.papers, 'paper')}  added "
                         f"{source.added_day}{fetched}  {source.kind}: {source.origin}"))
    return 0


def cmd_remove(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    removed = lib.remove_sources(args.source_names)
    orphans = len(lib.orphans())
    print(inert_line(removed.line()))
    if orphans:
        print(f"{count(orphans, 'paper')} you marked or listed no longer in the library: "
              "your marks stay (`paper-tui orphans` lists them; importing or fetching the "
              "list again brings the papers back)")
    return 0
