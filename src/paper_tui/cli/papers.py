"""``import``, ``list``, ``search``, ``show``: getting papers in and finding them."""

from __future__ import annotations

import argparse
import sys
import textwrap

from paper_tui.cli.context import Context, progress_printer
from paper_tui.cli.output import line, print_json, record


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="import paper lists (files or directories)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--force", action="store_true", help="re-read files even when unchanged")
    p.set_defaults(handler=cmd_import)

    p = sub.add_parser("list", help="list every paper in the library")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("search", help="search the library")
    p.add_argument("query", nargs="?", default="")
    p.add_argument("--json", action="store_true")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--sort", choices=("relevance", "year", "title"), default="relevance")
    p.set_defaults(handler=cmd_search)

    p = sub.add_parser("show", help="show one paper")
    p.add_argument("id", metavar="ID", help="a paper id or a unique prefix of one")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_show)


def cmd_import(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    report = lib.import_paths(args.paths, progress=progress_printer(), force=args.force)
    for skipped in report.skipped:
        print(f"paper-tui: skipped {skipped}", file=sys.stderr)
    for error in report.errors:
        print(f"paper-tui: {error}", file=sys.stderr)
    print(f"{report.papers:,} papers from {len(report.sources)} file(s): "
          f"{report.added:,} new, {report.unchanged:,} already in the library"
          + (f", {len(report.skipped):,} record(s) skipped" if report.skipped else "")
          + (f", {len(report.errors):,} error(s)" if report.errors else ""))
    return 1 if report.failed else 0


def cmd_list(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    papers = lib.papers()
    if args.json:
        print_json([record(lib, p) for p in papers])
    else:
        for paper in papers:
            print(line(paper))
    return 0


def cmd_search(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    page = lib.search(args.query, sort=args.sort, limit=args.limit)
    if args.json:
        print_json([record(lib, h.paper, score=h.score) for h in page.hits])
        return 0
    for hit in page.hits:
        print(line(hit.paper))
    about = "" if page.exact else "about "
    print(f"{about}{page.total:,} hits" + (f"; did you mean: {page.suggestion}"
                                          if page.suggestion else ""), file=sys.stderr)
    return 0


def cmd_show(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    paper = lib.paper(args.id)
    if args.json:
        print_json(record(lib, paper))
        return 0
    print(paper.display_title)
    if paper.name:
        print(f"Name:    {paper.name}")
    if paper.authors:
        print(f"Authors: {', '.join(paper.authors)}")
    print(f"Venue:   {paper.venue} {paper.year or ''}".rstrip())
    print(f"Id:      {paper.id}")
    for label, value in (("URL", paper.url), ("PDF", paper.pdf)):
        if value:
            print(f"{label + ':':<8} {value}")
    if paper.truncated:
        print("(the abstract is cut at the start in the source list)")
    extras = lib.paper_extras(paper.id)
    print(f"Status:  {extras['status']}" + ("  ★ starred" if extras["starred"] else ""))
    for label, values in (("Tags", extras["tags"]), ("Lists", extras["lists"])):
        if values:
            print(f"{label + ':':<8} {', '.join(values)}")
    print()
    print(textwrap.fill(paper.display_abstract, width=88))
    if extras["note"]:
        print("\nNote:")
        print(textwrap.indent(extras["note"], "  "))
    return 0
