"""``pdf``: the papers' PDFs in the library (``pdfs/``): ``get`` downloads them, ``add``
takes the reader's own, ``path``, ``text`` and ``open`` read one, ``remove``, ``list`` and
``prune`` keep the folder in hand.

``pdf get`` prints one line per PDF fetched on stdout and, on stderr, one line per paper
that failed naming it and why (a login page, a 404, a cut body, too big, encrypted, no
link); the exit status is 1 when one failed (the others are kept). On a terminal a
progress line counts the papers.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from paper_tui.cli.arguments import path
from paper_tui.cli.output import print_json
from paper_tui.cli.terminal import ProgressBar, warn
from paper_tui.errors import PaperTuiError
from paper_tui.library.context import Context
from paper_tui.trust.inert import inert_line, inert_text
from paper_tui.vocabulary import count

MB = 1 << 20
ID_HELP = "a paper id or a unique prefix of one"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pdf", help="the papers' PDFs: get, add, path, text, open, remove, "
                                   "list, prune")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True,
                             help="what to do with PDFs")
    q = verbs.add_parser("get", help="download papers' PDFs into the library (pdfs/), "
                                     "check them and keep their text")
    q.add_argument("ids", nargs="*", metavar="ID", help=ID_HELP)
    q.add_argument("--query", metavar="QUERY", default=None,
                   help="the papers a search for QUERY finds")
    q.add_argument("--list", metavar="LIST", dest="list_name", default=None,
                   help="the papers of a reading list")
    q.add_argument("--force", action="store_true",
                   help="download again the PDFs the library already has")
    q.set_defaults(handler=cmd_get)

    q = verbs.add_parser("add", help="a PDF you already have, as a paper's (copied, or "
                                     "linked with --link)")
    q.add_argument("paper_id", metavar="ID", help=ID_HELP)
    q.add_argument("file", metavar="FILE", type=path, help="the PDF")
    q.add_argument("--link", action="store_true",
                   help="keep a link to FILE instead of a copy (removing it keeps FILE)")
    q.set_defaults(handler=cmd_add)

    q = verbs.add_parser("path", help="print where a paper's PDF is")
    q.add_argument("paper_id", metavar="ID", help=ID_HELP)
    q.set_defaults(handler=cmd_path)

    q = verbs.add_parser("text", help="print the text of a paper's PDF")
    q.add_argument("paper_id", metavar="ID", help=ID_HELP)
    q.set_defaults(handler=cmd_text)

    q = verbs.add_parser("open", help="open a paper's PDF in the viewer (pdf.viewer, else "
                                      "$PDF_VIEWER, else the desktop's opener; none: print "
                                      "its path)")
    q.add_argument("paper_id", metavar="ID", help=ID_HELP)
    q.set_defaults(handler=cmd_open)

    q = verbs.add_parser("remove", help="delete papers' PDFs (and their text)")
    q.add_argument("ids", nargs="+", metavar="ID", help=ID_HELP)
    q.set_defaults(handler=cmd_remove)

    q = verbs.add_parser("list", help="the PDFs in the library: paper, pages, MB, when")
    q.add_argument("--json", action="store_true",
                   help="print a JSON array: per PDF its paper_id, path, pages, bytes, "
                        "fetched, opened, source and linked")
    q.set_defaults(handler=cmd_list)

    q = verbs.add_parser("prune", help="delete the least recently opened PDFs until they "
                                       "fill at most --max-mb (never one in a reading "
                                       "list, unless --all)")
    q.add_argument("--max-mb", metavar="N", type=_megabytes, required=True,
                   help="the most megabytes the PDFs may fill")
    q.add_argument("--all", action="store_true", dest="everything",
                   help="PDFs of papers in reading lists may go too")
    q.set_defaults(handler=cmd_prune)


def _megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1e9:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of megabytes (0 or "
                                         "more)")
    return value


def cmd_get(args: argparse.Namespace, ctx: Context) -> int:
    bar = ProgressBar() if sys.stderr.isatty() else None
    try:
        report = ctx.library.pdf_get(args.ids, query=args.query, list_name=args.list_name,
                                     force=args.force, progress=bar)
    finally:
        if bar is not None:
            bar.clear()
    for outcome in report.fetched:
        assert outcome.held is not None
        print(inert_line(f"{outcome.paper_id}: {count(outcome.held.pages, 'page')}, "
                         f"{_mb(outcome.held.bytes)}"))
    for outcome in report.failed:
        warn(outcome.line())
    parts = [f"{len(report.fetched):,} fetched"]
    if report.kept:
        parts.append(f"{len(report.kept):,} already here")
    if report.failed:
        parts.append(f"{len(report.failed):,} failed")
    print(f"{count(len(report.outcomes), 'PDF')}: {', '.join(parts)}")
    return 1 if report.failed else 0


def cmd_add(args: argparse.Namespace, ctx: Context) -> int:
    held = ctx.library.pdf_add(args.paper_id, Path(args.file), link=args.link)
    how = "linked" if held.linked else "added"
    print(inert_line(f"{held.paper_id}: {how} ({count(held.pages, 'page')}, "
                     f"{_mb(held.bytes)})"))
    return 0


def cmd_path(args: argparse.Namespace, ctx: Context) -> int:
    print(inert_line(str(ctx.library.pdf_path(args.paper_id))))
    return 0


def cmd_text(args: argparse.Namespace, ctx: Context) -> int:
    text = ctx.library.pdf_text(args.paper_id)
    print(inert_text(text.replace("\f", "\n\n")).rstrip("\n"))
    return 0


def cmd_open(args: argparse.Namespace, ctx: Context) -> int:
    from paper_tui.pdfs import viewer

    target, command = ctx.library.pdf_open(args.paper_id)
    if command is None:
        print(inert_line(str(target)))
        return 0
    try:
        viewer.launch(command)
    except OSError as exc:
        print(inert_line(str(target)))
        raise PaperTuiError(f"cannot start the viewer {command[0]!r} "
                            f"({exc.strerror or exc})") from None
    return 0


def cmd_remove(args: argparse.Namespace, ctx: Context) -> int:
    removed = ctx.library.pdf_remove(args.ids)
    for paper_id in removed:
        print(inert_line(f"{paper_id}: removed"))
    return 0


def cmd_list(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    held = lib.pdf_list()
    if args.json:
        print_json([{**h.as_json(), "path": str(lib.pdf_path(h.paper_id))} for h in held])
        return 0
    if not held:
        print("no PDFs: `paper-tui pdf get ID` (or --list NAME) fetches some")
        return 0
    for h in held:
        opened = f", opened {_day(h.opened)}" if h.opened is not None else ""
        paper = lib.lookup(h.paper_id)
        title = f"  {paper.label}" if paper is not None else ""
        print(inert_line(f"{h.paper_id}  {count(h.pages, 'page')}  {_mb(h.bytes)}  "
                         f"fetched {_day(h.fetched)}{opened}{title}"))
    total = sum(h.bytes for h in held if not h.linked)
    print(f"{count(len(held), 'PDF')}, {_mb(total)}")
    return 0


def cmd_prune(args: argparse.Namespace, ctx: Context) -> int:
    pruned = ctx.library.pdf_prune(args.max_mb, everything=args.everything)
    for h in pruned.removed:
        print(inert_line(f"{h.paper_id}: removed ({_mb(h.bytes)})"))
    spared = f"; {count(pruned.spared, 'PDF')} of papers in reading lists kept " \
             "(--all removes those too)" if pruned.spared else ""
    print(f"{count(len(pruned.removed), 'PDF')} removed; {_mb(pruned.size)} left{spared}")
    if pruned.size > args.max_mb * MB:
        warn(f"the PDFs still fill {_mb(pruned.size)}, over --max-mb {args.max_mb:g}")
        return 1
    return 0


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB"


def _day(when: float) -> str:
    return datetime.datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M")
