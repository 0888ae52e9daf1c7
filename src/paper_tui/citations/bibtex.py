"""BibTeX entries: the source's own when it describes the paper (re-keyed to the key the
paper is cited under), else one generated from the record."""

from __future__ import annotations

from paper_tui.citations.keys import citation_key
from paper_tui.citations.latex import bibtex_name, bibtex_title, latex_escape
from paper_tui.citations.names import author_names
from paper_tui.citations.source_entry import source_entry
from paper_tui.inert import inert_paper
from paper_tui.model import Paper
from paper_tui.venues import proceedings


def _field(name: str, value: str) -> str:
    return f"  {name} = {{{value}}}"


def container(paper: Paper) -> tuple[str, bool]:
    """Where the paper appeared as a citation names it (the venue's proceedings or journal:
    ``Advances in Neural Information Processing Systems``; empty without a venue), and
    whether that is a journal (TMLR, JMLR: ``@article``)."""
    venue_name = proceedings(paper.venue) if paper.venue else ""
    return venue_name, venue_name.startswith(("Transactions", "Journal"))


def _generated_bibtex(paper: Paper, key: str) -> str:
    venue_name, journal = container(paper)
    kind = "article" if journal else "inproceedings" if venue_name else "misc"
    fields = [_field("title", bibtex_title(paper.title))]
    if paper.authors:
        fields.append(_field("author", " and ".join(bibtex_name(a)
                                                    for a in author_names(paper.authors))))
    if venue_name:
        fields.append(_field("journal" if journal else "booktitle", latex_escape(venue_name)))
    if paper.year:
        fields.append(_field("year", str(paper.year)))
    if paper.url:
        fields.append(_field("url", _url_value(paper.url)))
    missing = [what for what, gone in (("Authors", not paper.authors),
                                       ("title", paper.title_generated)) if gone]
    if missing:
        where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
        note = f"{' and '.join(missing).capitalize()} not given in the source list" + \
            (f" ({where})" if where else "") + \
            ("; the title is derived from the abstract" if paper.title_generated else "")
        fields.append(_field("note", latex_escape(note)))
    return f"@{kind}{{{key},\n" + ",\n".join(fields) + "\n}"


def bibtex(paper: Paper, key: str | None = None) -> str:
    """One BibTeX entry: the source's own when it fits (re-keyed if ``key`` differs)."""
    paper = inert_paper(paper)
    entry = source_entry(paper)
    if entry is not None:
        if key is None or key == entry.key:
            return entry.text
        start, end = entry.key_span
        return entry.text[:start] + key + entry.text[end:]
    return _generated_bibtex(paper, key or citation_key(paper))



def _url_value(url: str) -> str:
    return url.replace("{", "%7B").replace("}", "%7D").replace(" ", "%20")
