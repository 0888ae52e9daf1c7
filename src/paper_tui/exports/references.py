"""The exports that carry papers to where a reader writes: CSL-JSON (pandoc's citeproc,
Zotero), RIS (reference managers, systematic-review tools) and Org (Emacs).

CSL-JSON items are keyed as the BibTeX export keys them, so ``[@key]`` cites the same paper
from either file. RIS carries the reader's triage: tags, ``status: …`` and ``starred`` as
``KW`` lines, the note as ``N1``. Org gives each paper a heading (``TODO`` to read,
``DONE`` read, tags as Org tags) with its fields as properties, its links and the note;
no link from data stays live but to the web, a file or a DOI (``[[elisp:…]]`` does not).
Text from data is inert (:mod:`paper_tui.trust.inert`): CSL-JSON keeps it, control characters as
JSON escapes; RIS and Org drop escape sequences and control characters, a field on one
line stays on it, and a multi-line one (a note, an abstract) is split at its newlines only
after that (a lone CR could otherwise start an RIS line of its own).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from paper_tui import citations, display
from paper_tui.citations.csl_item import doi_of, is_preprint, title_of
from paper_tui.exports.org_links import org_inert, org_link
from paper_tui.model import Paper
from paper_tui.trust.inert import escape_in_strings, inert_line, inert_paper, inert_text
from paper_tui.venue import text as venue_text
from paper_tui.vocabulary import Marks


class ExportedMarks(Marks, Protocol):
    """What an export carries of the reader's work on a paper besides its marks."""

    @property
    def lists(self) -> Sequence[str]:
        """The names of the reading lists holding it."""

    def as_json(self) -> dict[str, Any]:
        """Marks, lists and other versions as the JSON and YAML exports write them."""


class Annotated(Protocol):
    """Where an export reads the reader's work on each paper (the library)."""

    def detail(self, paper_id: str) -> ExportedMarks: ...

    def citation_keys(self, papers: Sequence[Paper]) -> Mapping[str, str]:
        """Paper id -> the key it is cited under (remembered once given out)."""
        ...


_ORG_TAG = re.compile(r"[^\w@#%]+")
_TODO = {"to-read": "TODO", "read": "DONE"}


def _names(paper: Paper) -> Iterator[citations.Name]:
    for author in paper.authors:
        yield citations.split_name(display.plain(author))


# -- CSL-JSON ------------------------------------------------------------------------------
def csl_json(papers: Sequence[Paper], keys: Mapping[str, str]) -> str:
    """The CSL-JSON items of ``papers`` (:func:`paper_tui.citations.csl_item`), keyed as
    ``keys`` says (the BibTeX export's keys: ``[@key]`` cites the same paper from either)."""
    items = [citations.csl_item(p, keys[p.id]) for p in citations.unique_papers(papers)]
    return escape_in_strings(json.dumps(items, ensure_ascii=False, indent=2)) + "\n"


# -- RIS -----------------------------------------------------------------------------------
def _ris_line(tag: str, value: str) -> list[str]:
    """``TAG  - value`` on one line (a line of its own could read as a tag: ``KW  - x``)."""
    value = " ".join(value.split())
    return [f"{tag}  - {value}"] if value else []


def ris_record(paper: Paper, marks: ExportedMarks) -> list[str]:
    paper = inert_paper(paper)
    kind = "UNPB" if is_preprint(paper) else "CPAPER" if paper.venue else "GEN"
    out = [f"TY  - {kind}", *_ris_line("ID", inert_line(paper.id)),
           *_ris_line("TI", title_of(paper))]
    for name in _names(paper):
        parts = [name.last if not name.von else f"{name.von} {name.last}", name.first, name.jr]
        out += _ris_line("AU", ", ".join(p for p in parts if p))
    if paper.year:
        out.append(f"PY  - {paper.year}")
    for tag, value in (("T2", paper.venue), ("AB", paper.display_abstract or paper.abstract),
                       ("UR", paper.url), ("UR", paper.code), ("UR", paper.project),
                       ("L1", paper.pdf), ("DO", doi_of(paper.url))):
        out += _ris_line(tag, value)
    for address in _addresses(paper):
        out += _ris_line("AD", address)
    keywords = [*paper.keywords, *(inert_line(tag) for tag in marks.tags)]
    if marks.status != "new":
        keywords.append(f"status: {marks.status}")
    if marks.starred:
        keywords.append("starred")
    for keyword in keywords:
        out += _ris_line("KW", keyword)
    note = inert_text(marks.note).strip()
    for line in note.split("\n") if note else ():  # a note's lines: N1 after N1
        out.append(f"N1  - {line}".rstrip())
    return [*out, "ER  - "]


def _addresses(paper: Paper) -> list[str]:
    """RIS ``AD`` lines: one an author (``A + B`` for several) when every author has an
    affiliation, which the RIS importer reads back per author; else each one once."""
    if paper.affiliations and len(paper.affiliations) == len(paper.authors) \
            and all(paper.affiliations):
        return [" + ".join(names) for names in paper.affiliations]
    return list(dict.fromkeys(name for names in paper.affiliations for name in names))


def ris(lib: Annotated, papers: Sequence[Paper]) -> str:
    records = ["\n".join(ris_record(p, lib.detail(p.id)))
               for p in citations.unique_papers(papers)]
    return "\n\n".join(records) + "\n" if records else ""


# -- Org -----------------------------------------------------------------------------------
def _org_text(text: str) -> list[str]:
    """Body lines (of inert text): one starting with ``*`` would be a heading, so it gets a
    space first; no link but to the web, a file or a DOI (:mod:`paper_tui.exports.org_links`)."""
    return [" " + line if line.startswith("*") else line
            for line in org_inert(text).split("\n")]


def org_entry(paper: Paper, marks: ExportedMarks) -> list[str]:
    paper = inert_paper(paper)
    title = title_of(paper)
    todo = _TODO.get(marks.status, "")
    tags = [t for t in (_ORG_TAG.sub("_", tag).strip("_") for tag in marks.tags) if t]
    heading = " ".join(p for p in ("*", todo, org_inert(title)) if p)
    if tags:
        heading += "  :" + ":".join(tags) + ":"
    props = {"ID": inert_line(paper.id),
             "AUTHORS": ", ".join(display.plain(a) for a in paper.authors),
             "VENUE": paper.venue, "YEAR": str(paper.year or ""), "URL": paper.url,
             "PDF": paper.pdf, "DECISION": venue_text.decision_label(paper),
             "REVIEWS": venue_text.reviews_text(paper),
             "CITATIONS": venue_text.citations_text(paper),
             "AWARD": "yes" if paper.award else "", "AREA": paper.area,
             "AFFILIATIONS": venue_text.affiliations_text(paper), "CODE": paper.code,
             "PROJECT": paper.project, "STATUS": marks.status,
             "STARRED": "yes" if marks.starred else "",
             "LISTS": inert_line(", ".join(marks.lists))}
    out = [heading, ":PROPERTIES:"]
    out += [f":{k}: {org_inert(v)}" for k, v in props.items() if v]
    out.append(":END:")
    links = [link for link in (org_link(url, label) for url, label in (
        (paper.url, "page"), (paper.pdf, "PDF"), (paper.code, "code"),
        (paper.project, "project")) if url) if link]
    if links:
        out.append(" · ".join(links))
    if marks.note:
        out += ["", *_org_text(inert_text(marks.note).strip())]
    if paper.abstract:
        out += ["", "#+begin_quote", *_org_text(paper.display_abstract or paper.abstract),
                "#+end_quote"]
    return out


def org(lib: Annotated, papers: Sequence[Paper], title: str, description: str) -> str:
    lines = [f"#+TITLE: {org_inert(inert_line(title or 'Papers'))}", ""]
    if description:
        lines += [*_org_text(inert_text(description)), ""]
    for paper in citations.unique_papers(papers):
        lines += [*org_entry(paper, lib.detail(paper.id)), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
