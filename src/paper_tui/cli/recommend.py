"""``recommend``: the new papers this reader is likeliest to want, best first."""

from __future__ import annotations

import argparse
import sys

from paper_tui.cli.arguments import limit
from paper_tui.cli.output import line, print_json, record
from paper_tui.library.context import Context
from paper_tui.trust.inert import inert_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("recommend", help="new papers ranked by what you kept and skipped")
    p.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help="only papers matching this query (e.g. 'venue:neurips year:2026')")
    p.add_argument("--limit", type=limit, default=20, metavar="N",
                   help="print at most N papers (default: 20)")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of the papers, each with its score (and --explain's "
                        "words; \"bounded\": {\"ranked\", \"of\"} when a big library was "
                        "ranked from a sample)")
    p.add_argument("--explain", action="store_true",
                   help="show the words and authors that pushed each paper up and down")
    p.set_defaults(handler=cmd_recommend)


def cmd_recommend(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    found = lib.recommend(args.query, limit=args.limit)
    if found.hint:
        print(f"paper-tui: {found.hint}", file=sys.stderr)
        if args.json:
            print_json([])
        return 0
    if args.json:
        rows = []
        for item in found.items:
            extra: dict[str, object] = {"score": round(item.score, 4)}
            if found.bounded:  # a big library: ranked from a sample
                extra["bounded"] = {"ranked": found.bounded.ranked, "of": found.bounded.of}
            if args.explain:
                why = found.explain(item.paper.id)
                extra["explain"] = {
                    "up": [{"text": r.text, "kind": r.kind, "weight": round(r.weight, 4)}
                           for r in why.up],
                    "down": [{"text": r.text, "kind": r.kind, "weight": round(r.weight, 4)}
                             for r in why.down]}
            rows.append(record(lib, item.paper, **extra))
        print_json(rows)
    else:
        for item in found.items:
            print(line(item.paper))
            if args.explain:
                print(f"    {item.score:+.2f}  "
                      + inert_line(found.explain(item.paper.id).text()))
    if found.bounded:
        print(f"paper-tui: {found.bounded.text()}: a library over recommend.whole_up_to "
              "papers is ranked from recommend.sample of them", file=sys.stderr)
    print(f"{len(found.items):,} of {found.candidates:,} new papers, learned from "
          f"{found.learned_from.text()}", file=sys.stderr)
    return 0
