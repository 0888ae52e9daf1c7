"""``import``, ``list``, ``search``, ``show``: getting papers in and finding them."""

from __future__ import annotations

import argparse
import re
import sys
import textwrap

from paper_tui.cli.arguments import limit, path
from paper_tui.cli.columns import COLUMNS, ColumnNames, chosen, rows
from paper_tui.cli.output import print_json, record
from paper_tui.cli.terminal import progress_printer, warn
from paper_tui.errors import QueryError
from paper_tui.library import SORTS
from paper_tui.library.context import Context
from paper_tui.library.records import PaperReviews
from paper_tui.model import DERIVED_TITLE, NO_ABSTRACT
from paper_tui.trust.inert import inert_line, inert_text
from paper_tui.venue import reviews as reviews_mod
from paper_tui.venue import text as venue_text
from paper_tui.venue.reviews import change_text
from paper_tui.vocabulary import count, member_marks


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="import paper lists (files or directories)")
    p.add_argument("paths", nargs="+", metavar="PATH", type=path,
                   help="a paper list file (.json, .jsonl, .bib, .csv, .ris, .xml, .txt, …; "
                        ".gz too) or a directory of them")
    p.add_argument("--force", action="store_true", help="re-read files even when unchanged")
    p.add_argument("--venue", metavar="NAME", default="",
                   help="the venue of papers whose file does not name one (CSV, RIS, CSL-JSON)")
    p.add_argument("--year", metavar="N", type=_year, default=None,
                   help="the year of papers whose file does not give one")
    p.set_defaults(handler=cmd_import)

    p = sub.add_parser("list", help="list every paper in the library")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of the papers, with your annotations")
    _columns_option(p)
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("search", help="search the library")
    p.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help="words, \"a phrase\", OR, NOT, field:value (title:, author:, year:, "
                        "tag:, status:, …); none: every paper")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of the hits, with score, where they matched "
                        "(matched_in), highlights, a snippet of the PDF's text and your "
                        "annotations")
    p.add_argument("--limit", type=limit, default=20, metavar="N",
                   help="print at most N papers (default: 20)")
    p.add_argument("--sort", choices=SORTS, default="relevance",
                   help="relevance (default: papers with all the words first), newest year, "
                         "title, rating (the reviewers' mean), citations, consensus (the mean "
                         "less the reviewers' spread; unknown values last), team (most members "
                         "kept, then starred) or for-you (what you kept and skipped)")
    p.add_argument("--all-versions", action="store_true",
                   help="list every version of a paper from two sources (arXiv and the "
                        "proceedings), not only the fullest")
    p.add_argument("--similar", metavar="ID",
                   help="papers like this one (an id or a unique prefix) instead of a query")
    _columns_option(p)
    p.set_defaults(handler=cmd_search)

    p = sub.add_parser("show", help="show one paper")
    p.add_argument("id", metavar="ID", help="a paper id or a unique prefix of one")
    p.add_argument("--json", action="store_true",
                   help="print a JSON object: the paper, your annotations and the team's, "
                        "its reviews, meta-review and rating history")
    p.add_argument("--reviews", action="store_true",
                   help="print what the reviewers wrote (kept by `fetch --reviews`): the "
                        "meta-review and decision, the reviews with their scores, then the "
                        "comments")
    p.set_defaults(handler=cmd_show)


def _columns_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--columns", metavar="COLUMNS", choices=ColumnNames(), default=None,
                   help="the columns of each line, comma-separated, in order: "
                        f"{', '.join(COLUMNS)} (default: id, title, [venue year], the value "
                        "sorted by and the decision)")


def _year(text: str) -> int:
    if not re.fullmatch(r"(1[89]|2\d)\d\d", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a year (e.g. 2024)")
    return int(text)


def cmd_import(args: argparse.Namespace, ctx: Context) -> int:
    from paper_tui.importers import Hints

    lib = ctx.library
    line = progress_printer()
    report = lib.import_paths(args.paths, progress=line, force=args.force,
                              hints=Hints(args.venue.strip(), args.year))
    if line is not None:
        line.finish()
    for notice in report.notices:
        warn(str(notice))
    for skipped in report.skipped:
        warn(f"skipped {skipped}")
    for error in report.errors:
        warn(str(error))
    print(f"{count(report.papers, 'paper')} from {len(report.sources)} file(s): "
          f"{report.added:,} new, {report.unchanged:,} already in the library"
          + (f", {report.updated:,} updated" if report.updated else "")
          + (f", {len(report.skipped):,} record(s) skipped" if report.skipped else "")
          + (f", {len(report.errors):,} error(s)" if report.errors else ""))
    return 1 if report.failed else 0


def cmd_list(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    columns = chosen(args.columns)
    papers = lib.papers()
    if args.json:
        print_json([record(lib, p) for p in papers])
    else:
        for row in rows(lib, papers, columns):
            print(row)
    return 0


def cmd_search(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    columns = chosen(args.columns)
    if args.similar and args.query:
        raise QueryError("give a query or --similar ID, not both")
    if args.similar:
        results = lib.similar(args.similar)
        hits = [results.hit(i) for i in range(min(args.limit, len(results)))]
        total, suggestion, error = results.total, None, results.error
    else:
        page = lib.search(args.query, sort=args.sort, limit=args.limit,
                          all_versions=args.all_versions or None)
        hits, total, suggestion, error = page.hits, page.total, page.suggestion, page.error
    if error:
        raise QueryError(error)
    if args.json:
        # score, plus where the query matched: the fields (matched_in: title, abstract,
        # body …), marked fragments («word»), the character spans in display_title /
        # display_abstract, and the text of the PDF around a match in it (snippet)
        print_json([record(lib, hit.paper, score=hit.score, matched_in=list(hit.matched_in),
                           highlights=hit.fragments(),
                           highlight_spans={k: [list(s) for s in v]
                                            for k, v in hit.highlights.items()},
                           snippet=hit.snippet())
                    for hit in hits])
        return 0
    for row in rows(lib, (hit.paper for hit in hits), columns,
                    sort="" if args.similar else args.sort):
        print(row)
    print(f"{total:,} hits" + (f"; did you mean: {inert_line(suggestion)}" if suggestion
                               else ""), file=sys.stderr)
    return 0


def cmd_show(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    paper = lib.paper(args.id)
    detail = lib.detail(paper.id, team=True, fresh=True)
    for problem in lib.team_problems():
        warn(problem)
    reviewed = lib.reviews(paper.id)
    held = lib.pdf_held(paper.id)
    if args.json:  # (pdf is the source's link; pdf_path the file the library holds)
        print_json(record(lib, paper, team={m.name: m.as_json() for m in detail.team},
                          pdf_path=str(held[0]) if held else None,
                          pdf_pages=held[1].pages if held else None,
                          **reviewed.as_json()))
        return 0
    # one line each, whatever a field holds; the abstract and the note keep their lines
    print(inert_line(paper.display_title))
    if paper.title_generated:
        print(DERIVED_TITLE)
    if paper.name:
        print(inert_line(f"Name:    {paper.name}"))
    if paper.authors:
        print(inert_line(f"Authors: {', '.join(paper.authors)}"))
    if affiliations := venue_text.affiliations_text(paper):
        print(inert_line(f"{'':8} {affiliations}"))  # under the authors
    print(inert_line(f"Venue:   {paper.venue} {paper.year or ''}".rstrip()))
    if said := venue_text.summary(paper, change_text(reviewed.history)):
        print(inert_line(f"{'':8} {said}"))  # what the venue said of it, how it moved
    print(inert_line(f"Id:      {paper.id}"))
    for label, value in (("URL", paper.url), ("PDF", paper.pdf), ("Code", paper.code),
                         ("Project", paper.project)):
        if value:
            print(inert_line(f"{label + ':':<8} {value}"))
    if held:
        print(inert_line(f"{'File:':<8} {held[0]} ({count(held[1].pages, 'page')})"))
    if paper.truncated:
        print("(the abstract is cut at the start in the source list)")
    print(f"Status:  {detail.status}" + ("  ★ starred" if detail.starred else ""))
    for label, values in (("Tags", detail.tags), ("Lists", detail.lists)):
        if values:
            print(inert_line(f"{label + ':':<8} {', '.join(values)}"))
    for member in detail.team:
        print(inert_line(f"{'Team:':<8} {member.name}: {member_marks(member)}"))
    print()
    # inert before it is laid out: a line break left in it would undo the wrapping
    print(textwrap.fill(inert_line(paper.display_abstract), width=88) if paper.abstract
          else NO_ABSTRACT)
    if detail.note:
        print("\nNote:")
        print(textwrap.indent(inert_text(detail.note), "  "))
    if args.reviews:
        _print_reviews(paper.id, reviewed)
    return 0


def _print_reviews(paper_id: str, reviewed: PaperReviews) -> None:
    """The meta-review and decision, the reviews with their scores, then the comments
    (indented by their place in the thread); every text inert."""
    print()
    if reviewed.reviews is None:
        print(f"No reviews kept for {paper_id}: fetch its OpenReview venue with --reviews "
              "(paper-tui fetch openreview:VENUE_ID --reviews)")
        return
    if not reviewed.reviews:
        print("No reviews: the venue published none for this paper")
        return
    depth = reviews_mod.thread_depth(reviewed.reviews)
    for review in reviews_mod.in_order(reviewed.reviews):
        indent = "  " * (depth.get(review.id, 0) if review.kind == "comment" else 0)
        print(inert_line(indent + review.heading()))
        if scores := review.scores_line():
            print(inert_line(f"{indent}  {scores}"))
        for name, text in review.fields:
            print(inert_line(f"{indent}  {name.replace('_', ' ').capitalize()}:"))
            print(textwrap.indent(inert_text(text), indent + "    "))
        print()


