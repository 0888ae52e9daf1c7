"""``cite``: print or copy the citations of papers (BibTeX, plain, Markdown, key)."""

from __future__ import annotations

import argparse
import sys

from paper_tui import citations, clipboard
from paper_tui.library.context import Context

EXIT_NO_CLIPBOARD = 3
"""``cite --copy`` found neither a clipboard nor a terminal: the citation went to stdout."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cite", help="print or copy citations of papers",
        description="Print the citations of papers, or copy them to the clipboard. "
                    "With --copy and no clipboard tool (e.g. over SSH), it is sent to the "
                    "terminal with OSC 52 and printed; with no terminal either, it is printed "
                    f"and the exit status is {EXIT_NO_CLIPBOARD}.")
    p.add_argument("ids", nargs="+", metavar="ID", help="paper ids or unique prefixes of them")
    p.add_argument("--format", "-f", choices=citations.STYLES, default=None,
                   help="citation style (default: citation_style in config.yaml, else bibtex)")
    p.add_argument("--copy", "-c", action="store_true",
                   help="copy to the clipboard instead of printing; a one-line confirmation "
                        "goes to stderr")
    p.set_defaults(handler=cmd_cite)


def cmd_cite(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    citation = lib.cite([lib.paper(paper_id) for paper_id in args.ids], args.format)
    text, what = citation.text, citation.what
    if not args.copy:
        print(text)
        return 0
    result = clipboard.copy(text, what=what)
    if result.ok:
        print(f"paper-tui: {result.message}", file=sys.stderr)
        return 0
    # No clipboard here (e.g. over SSH): ask the reader's terminal, and show the text too.
    terminal = clipboard.copy_via_terminal(text, what=what)
    if terminal.ok:
        print(f"paper-tui: {terminal.message}; no clipboard tool here, so it is printed too",
              file=sys.stderr)
        print(text)
        return 0
    print(f"paper-tui: {result.message}; printing it instead", file=sys.stderr)
    print(text)
    return EXIT_NO_CLIPBOARD
