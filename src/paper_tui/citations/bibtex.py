"""BibTeX entries, all in one layout under the key the paper is cited under.

The source's own entry, when it describes the paper (:mod:`.source_entry`), is read for
its fields (type, proceedings, editors, pages, publisher, DOI …); title, authors, year and
URL come from the record, as in an entry generated without one. Every value is written the
way ``bibtex`` (plain.bst), ``biber`` and ``pdflatex`` read it without a complaint
(:mod:`.latex`): names normalized, LaTeX specials escaped, math balanced, ``month`` a macro,
non-ASCII letters as LaTeX (or UTF-8 with ``utf8``, for biblatex users).
"""

from __future__ import annotations

import re

from paper_tui import display
from paper_tui.citations.keys import citation_key
from paper_tui.citations.latex import bibtex_name, bibtex_title, latex_escape
from paper_tui.citations.names import author_names
from paper_tui.citations.source_entry import SourceEntry, source_entry, split_and
from paper_tui.model import Paper
from paper_tui.trust.inert import inert_paper
from paper_tui.venue.names import proceedings

_KINDS = {"article", "book", "booklet", "inbook", "incollection", "inproceedings", "manual",
          "mastersthesis", "misc", "phdthesis", "proceedings", "techreport", "unpublished"}
# the source's fields taken over, in the order written (title, author, year, url: ours)
_TEXT_FIELDS = ("booktitle", "journal", "editor", "volume", "number", "series", "pages",
                "publisher", "address", "organization", "school", "institution", "edition",
                "chapter")
_KIND_NAMES = {"conference": "inproceedings"}
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _field(name: str, value: str) -> str:
    return f"  {name} = {{{value}}}"


def container(paper: Paper) -> tuple[str, bool]:
    """Where the paper appeared as a citation names it (the venue's proceedings or journal:
    ``Advances in Neural Information Processing Systems``; empty without a venue), and
    whether that is a journal (TMLR, JMLR: ``@article``)."""
    venue_name = proceedings(paper.venue) if paper.venue else ""
    return venue_name, venue_name.startswith(("Transactions", "Journal"))


def month_macro(value: str) -> str:
    """A source's ``month`` as BibTeX's three-letter macro (``{09--15 Jun}``, ``June``,
    ``6`` -> ``jun``); "" when it names no month."""
    value = value.strip().lower()
    if value.isdigit():
        return _MONTHS[int(value) - 1] if 1 <= int(value) <= 12 else ""
    found = re.search(r"\b(" + "|".join(_MONTHS) + r")", value)
    return found.group(1) if found else ""


def _names(names: list[str], utf8: bool) -> str:
    return " and ".join(n for n in (bibtex_name(a, utf8=utf8) for a in names) if n)


def _pages(raw: str) -> str:
    """``4343-4351``, ``4343 – 4351`` -> ``4343--4351``; only digits, letters and ranges."""
    value = re.sub(r"\s*[-\u2010-\u2015]+\s*", "--", raw)
    return re.sub(r"[^A-Za-z0-9,.:+\- ]", "", value).strip()


def _source_fields(entry: SourceEntry, utf8: bool) -> list[str]:
    """The source entry's fields we keep, each re-encoded from what LaTeX it held."""
    fields = []
    for name in _TEXT_FIELDS:
        raw = entry.fields.get(name, "")
        if name == "editor":
            value = _names(split_and(raw), utf8)
        elif name == "pages":
            value = _pages(raw)
        else:
            value = latex_escape(" ".join(display.plain(raw).split()), utf8=utf8)
        if value:
            fields.append(_field(name, value))
    month = month_macro(entry.fields.get("month", ""))
    if month:
        fields.append(f"  month = {month}")
    doi = entry.fields.get("doi", "").strip()
    if re.fullmatch(r"10\.\S+", doi):
        fields.append(_field("doi", _url_value(doi)))
    return fields


def bibtex(paper: Paper, key: str | None = None, *, utf8: bool = False) -> str:
    """One BibTeX entry for ``paper`` under ``key`` (its own key when None)."""
    paper = inert_paper(paper)
    key = key or citation_key(paper)
    entry = source_entry(paper)
    venue_name, journal = container(paper)
    source_kind = _KIND_NAMES.get(entry.kind, entry.kind) if entry is not None else ""
    if entry is not None and source_kind in _KINDS:
        kind = source_kind
    else:
        kind = "article" if journal else "inproceedings" if venue_name else "misc"
    fields = [_field("title", bibtex_title(paper.title, utf8=utf8))]
    authors = _names(author_names(paper.authors), utf8)
    if authors:
        fields.append(_field("author", authors))
    if entry is not None and source_kind in _KINDS:
        fields.extend(_source_fields(entry, utf8))
    # the field plain.bst needs for the type (it warns without), from the venue
    needed = {"inproceedings": "booktitle", "article": "journal"}.get(kind)
    if needed and venue_name and not any(f.startswith(f"  {needed} = ") for f in fields):
        fields.insert(2 if authors else 1, _field(needed, latex_escape(venue_name, utf8=utf8)))
    if paper.year:
        fields.append(_field("year", str(paper.year)))
    if paper.url:
        fields.append(_field("url", _url_value(paper.url)))
    missing = [what for what, gone in (("Authors", not authors),
                                       ("title", paper.title_generated)) if gone]
    if missing:
        where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
        note = f"{' and '.join(missing).capitalize()} not given in the source list" + \
            (f" ({where})" if where else "") + \
            ("; the title is derived from the abstract" if paper.title_generated else "")
        fields.append(_field("note", latex_escape(note)))
    return f"@{kind}{{{key},\n" + ",\n".join(fields) + "\n}"


def _url_value(url: str) -> str:
    """A URL as the ``url`` field holds it: no brace, white space or backslash left bare."""
    return re.sub(r"[{}\s\\]", lambda m: f"%{ord(m.group(0)):02X}", url)
