"""``cite``: print or copy the citations of papers, in a built-in style (BibTeX, plain,
Markdown, key) or any CSL style; ``cite --styles [WORD]`` lists the styles."""

from __future__ import annotations

import argparse
import sys

from paper_tui import clipboard
from paper_tui.library import Library
from paper_tui.library.context import Context

EXIT_NO_CLIPBOARD = 3
"""``cite --copy`` found neither a clipboard nor a terminal: the citation went to stdout."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cite", help="print or copy citations of papers (BibTeX, APA, IEEE, any CSL style)",
        description="Print the citations of papers, or copy them to the clipboard. "
                    "With --copy and no clipboard tool (e.g. over SSH), it is sent to the "
                    "terminal with OSC 52 and printed; with no terminal either, it is printed "
                    f"and the exit status is {EXIT_NO_CLIPBOARD}.")
    p.add_argument("ids", nargs="*", metavar="ID", help="paper ids or unique prefixes of them")
    p.add_argument("--format", "-f", metavar="STYLE", default=None,
                   help="bibtex, plain, markdown, key, a CSL style id (apa, ieee, "
                        "chicago-author-date, nature, …: see --styles) or a .csl file "
                        "(default: citation_style in config.yaml, else bibtex)")
    p.add_argument("--styles", nargs="?", const="", default=None, metavar="WORD",
                   help="list the styles (whose id or title holds WORD) with their titles")
    p.add_argument("--in-text", action="store_true",
                   help="the in-text citation: (Zhang & Zhou, 2018), [1], \\cite{key}")
    p.add_argument("--copy", "-c", action="store_true",
                   help="copy to the clipboard instead of printing; a one-line confirmation "
                        "goes to stderr. A CSL style goes as HTML too where the clipboard "
                        "tool can offer it beside the text (a word processor keeps italics)")
    p.add_argument("--html", action="store_true",
                   help="with --copy: the HTML alone (text/html), for a word processor")
    p.set_defaults(handler=cmd_cite)


def cmd_cite(args: argparse.Namespace, ctx: Context) -> int:
    if args.styles is not None:
        return _list_styles(args.styles)
    if not args.ids:
        print("paper-tui: cite needs paper ids (or --styles to list the styles)",
              file=sys.stderr)
        return 1
    lib = ctx.library
    citation = lib.cite([lib.paper(paper_id) for paper_id in args.ids], args.format,
                        in_text=args.in_text)
    text, what = citation.text, citation.what
    if not args.copy:
        print(text)
        return 0
    if args.html and not citation.html:
        print(f"paper-tui: style {citation.style!r} has no HTML form (plain text only)",
              file=sys.stderr)
        return 1
    result = clipboard.copy_or_send(text, what=what, html=citation.html, html_only=args.html)
    if result.confirmed:
        print(f"paper-tui: {result.message}", file=sys.stderr)
        return 0
    # Sent through the terminal (which may not obey), or not copied at all: printed too.
    also = "; it is printed too" if result.ok else "; printing it instead"
    print(f"paper-tui: {result.message}{also}", file=sys.stderr)
    print(text)
    return 0 if result.ok else EXIT_NO_CLIPBOARD


def _list_styles(words: str) -> int:
    found = Library.citation_styles(words)
    if not found:
        print(f"paper-tui: no citation style's id or title holds {words!r}", file=sys.stderr)
        return 1
    width = min(40, max(len(sid) for sid, _ in found))
    for sid, title in found:
        print(f"{sid:<{width}}  {title}")
    return 0
