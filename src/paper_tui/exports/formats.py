"""Export papers (a reading list, or a query's results) with the reader's annotations.

Formats: ``bibtex`` (the citations module's entries), ``markdown`` (a readable reading
list: title with its link, authors, venue and year, triage marks, the note), ``csv``,
``yaml`` and ``json`` (one record per paper: its fields plus status, starred, tags, lists,
note), and ``csl-json``, ``ris`` and ``org`` (:mod:`paper_tui.exports.references`).

Text from data is inert in every format (:mod:`paper_tui.trust.inert`), wherever the export is
written: the formats for reading (Markdown, CSV, Org, BibTeX, RIS) drop escape sequences
and control characters (a one-line field stays one line, a note keeps its lines); the data
formats (JSON, CSL-JSON, YAML) keep the data as it is, each such character written as the
format's escape, so none of them can act on a terminal they are printed to.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

import yaml

from paper_tui import citations
from paper_tui.errors import StoreError
from paper_tui.exports import references as export_refs
from paper_tui.exports.references import Annotated
from paper_tui.model import Paper
from paper_tui.store.yaml_format import Dumper
from paper_tui.trust.inert import escape_in_strings, inert_line, inert_text, needs_escape
from paper_tui.venue import cells as venue_cells
from paper_tui.venue import text as venue_text
from paper_tui.vocabulary import STAR, status_label

DESCRIPTIONS = {
    "bibtex": "BibTeX entries, for LaTeX and reference managers",
    "markdown": "a readable reading list: title, authors, venue/year, link, note",
    "csv": "one row a paper, for spreadsheets",
    "yaml": "papers with their annotations, as YAML",
    "json": "papers with their annotations, as JSON",
    "csl-json": "CSL-JSON citation data, for pandoc (--citeproc) and Zotero",
    "ris": "RIS, for reference managers; tags, status and star as KW, the note as N1",
    "org": "an Org file: a heading a paper, its fields as properties, links, your note",
}
"""Every export format, in the order the CLI and the app's export dialog offer them."""
FORMATS = tuple(DESCRIPTIONS)
# csl-json is .json: what pandoc reads as CSL-JSON (and the dialog swaps one-dot suffixes)
EXTENSIONS = {"bibtex": ".bib", "markdown": ".md", "csv": ".csv", "yaml": ".yaml",
              "json": ".json", "csl-json": ".json", "ris": ".ris", "org": ".org"}
_INTERNAL = {"title_emphasis", "abstract_emphasis"}
CSV_COLUMNS = ("id", "title", "authors", "venue", "year", "url", "pdf", "status", "starred",
               "tags", "lists", "note", *venue_cells.COLUMNS)


def record(lib: Annotated, paper: Paper) -> dict[str, Any]:
    """A paper as a plain mapping: the model's fields plus what the library knows of it."""
    data = {k: v for k, v in paper.to_dict().items() if k not in _INTERNAL}
    data.update(lib.detail(paper.id).as_json())
    return data


def export(lib: Annotated, papers: Sequence[Paper], fmt: str, *, title: str = "",
           description: str = "", utf8: bool = False) -> str:
    """``papers`` as text in ``fmt``; ``title`` and ``description`` head a Markdown list;
    ``utf8``: BibTeX whose letters stay UTF-8, for biblatex with biber (else LaTeX escapes,
    which plain BibTeX and pdflatex need)."""
    if fmt not in FORMATS:
        raise StoreError(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
    if utf8 and fmt != "bibtex":
        raise StoreError(f"--utf8 is for the bibtex format, not {fmt}")
    if fmt == "bibtex":
        given = lib.citation_keys(papers)
        return citations.cite(papers, "bibtex", given=given, utf8=utf8) + "\n" \
            if papers else ""
    if fmt == "markdown":
        return _markdown(lib, papers, title, description)
    if fmt == "csl-json":
        return export_refs.csl_json(papers, lib.citation_keys(papers))
    if fmt == "ris":
        return export_refs.ris(lib, papers)
    if fmt == "org":
        return export_refs.org(lib, papers, title, description)
    records = [record(lib, p) for p in papers]
    if fmt == "json":
        return escape_in_strings(json.dumps(records, ensure_ascii=False, indent=2)) + "\n"
    if fmt == "yaml":
        return escape_in_strings(yaml.dump(records, Dumper=_YamlDumper, allow_unicode=True,
                                           sort_keys=False, default_flow_style=False,
                                           width=100))
    return _csv(records)


class _YamlDumper(Dumper):
    """The store's YAML writer; a string holding a character :func:`escape_in_strings`
    escapes is double-quoted, the one YAML style where the escape means the character."""


def _represent_str(dumper: _YamlDumper, text: str) -> yaml.ScalarNode:
    style = '"' if needs_escape(text) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_YamlDumper.add_representer(str, _represent_str)


def _csv(records: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for data in records:
        row = dict(data, **venue_cells.cells(data),
                   title=data.get("display_title") or data.get("title", ""),
                   authors="; ".join(data.get("authors", ())),
                   tags="; ".join(data.get("tags", ())),
                   lists="; ".join(data.get("lists", ())),
                   starred="yes" if data.get("starred") else "",
                   year=data.get("year") or "")
        # each cell inert before the writer quotes it: a line break left is one it saw
        writer.writerow([inert_text(str(row.get(column, ""))) for column in CSV_COLUMNS])
    return out.getvalue()


def _markdown(lib: Annotated, papers: Sequence[Paper], title: str, description: str) -> str:
    lines = [f"# {inert_line(title or 'Papers')}", ""]
    if description:
        lines += [inert_text(description), ""]
    for number, paper in enumerate(papers, 1):
        lines.append(f"{number}. {citations.markdown(paper)}")
        said = [venue_text.summary(paper),
                *(f"[{label}]({link})" for label, link in (("code", paper.code),
                                                          ("project", paper.project)) if link)]
        if said := [s for s in said if s]:
            lines.append("   " + inert_line(" · ".join(said)))
        marked = lib.detail(paper.id)
        marks = [m for m in (STAR if marked.starred else "",
                             status_label(marked.status) if marked.status != "new" else "",
                             "tags: " + ", ".join(marked.tags) if marked.tags else "") if m]
        if marks:
            lines.append("   " + inert_line(" · ".join(marks)))
        if marked.note:
            lines += ["   > " + line if line else "   >"
                      for line in inert_text(marked.note).split("\n")]
    if not papers:
        lines.append("(no papers)")
    return "\n".join(lines) + "\n"
