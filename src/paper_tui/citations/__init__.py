"""Citations of papers, for the CLI (``paper-tui cite``), the app (``c`` / ``C``), the
exports and the linked ``.bib`` files.

Every style is text for people (and LaTeX): a citation never holds an escape sequence or a
control character (:mod:`paper_tui.trust.inert`), wherever it goes (a terminal, a file, the
clipboard); a plain or Markdown reference and a key are one line.

Four styles are built in: ``bibtex`` (one layout and key scheme for every paper, with the
fields of the source's own entry when it describes the paper), ``plain``, ``markdown`` and
``key``; every style of the CSL styles collection (``apa``, ``ieee``, …) or a ``.csl``
file renders through a CSL processor, loaded only when such a style is used. The modules:

- :mod:`.names`, :mod:`.latex`, :mod:`.source_entry`: names, BibTeX text, the source's
  entry; :mod:`.keys`: citation keys (stable once given out); :mod:`.bibtex` and
  :mod:`.readable`: the built-in styles;
- :mod:`.csl_item`: a paper as the CSL-JSON item every CSL style and the CSL-JSON export
  use; :mod:`.styles`: which style a name means; :mod:`.csl`: rendering one, through
  :mod:`.citeproc_fixes` (and :mod:`.title_case`);
- :mod:`.bib_file`: a reading list's linked ``.bib`` file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paper_tui.citations.bibtex import bibtex
from paper_tui.citations.csl_item import csl_item
from paper_tui.citations.keys import citation_key, citation_keys, unique_papers
from paper_tui.citations.latex import bibtex_name, bibtex_title, latex_escape
from paper_tui.citations.names import Name, author_names, split_name
from paper_tui.citations.readable import markdown, plain
from paper_tui.citations.source_entry import source_entry
from paper_tui.errors import StyleError
from paper_tui.model import Paper
from paper_tui.trust.inert import inert_paper, inert_text
from paper_tui.vocabulary import CITATION_STYLES as STYLES
from paper_tui.vocabulary import count

__all__ = ["DEFAULT_STYLE", "LABELS", "STYLES", "Cited", "Name", "author_names", "bibtex",
           "bibtex_name", "bibtex_title", "check_style", "citation_key", "citation_keys",
           "cite", "csl_item", "describe", "describe_briefly", "latex_escape", "markdown",
           "plain", "render", "source_entry", "split_name", "unique_papers"]

DEFAULT_STYLE = STYLES[0]
LABELS = {"bibtex": "BibTeX", "plain": "reference", "markdown": "Markdown reference",
          "key": "citation key"}


@dataclass(frozen=True)
class Cited:
    """Citations of papers in one style: the text, the same as HTML when the style has
    formatting (CSL styles; "" for the built-in ones), and the key each paper is cited
    under (paper id -> key, in the order given)."""

    text: str
    html: str
    keys: Mapping[str, str]


def check_style(style: str) -> str:
    """``style`` when it names a style (built in, CSL id or ``.csl`` file); else
    StyleError, one line with the closest ids."""
    if style not in STYLES:
        from paper_tui.citations.styles import resolve

        resolve(style)
    return style


def render(papers: Sequence[Paper], style: str, *, given: Mapping[str, str] | None = None,
           in_text: bool = False, utf8: bool = False) -> Cited:
    """The citations of ``papers`` in ``style``: one entry per paper (a paper listed twice
    is cited once), keys unique and those in ``given`` kept (see :func:`citation_keys`).

    Built-in styles: BibTeX and plain entries are separated by a blank line; Markdown
    gives one list item per paper when there are several; keys are joined by commas,
    ready for ``\\cite{}``. ``in_text``: the in-text citation (``(Zhang & Zhou, 2018)``,
    ``[1]``; ``\\cite{…}`` for ``bibtex`` and ``key``). ``utf8``: BibTeX with UTF-8 letters
    (for biblatex), not LaTeX escapes."""
    batch = unique_papers(papers)
    keys = citation_keys(batch, given)
    if style in STYLES:
        # each paper is made inert before it is cited; this holds whatever the LaTeX
        # renderer made of it
        return Cited(inert_text(_built_in(batch, keys, style, in_text, utf8)), "", keys)
    from paper_tui.citations import csl
    from paper_tui.citations.styles import resolve

    resolved = resolve(style)
    items = [csl_item(inert_paper(p), keys[p.id]) for p in batch]
    rendered = csl.render(resolved, items, in_text=in_text)
    return Cited(inert_text(rendered.text), inert_text(rendered.html), keys)


def _built_in(batch: list[Paper], keys: Mapping[str, str], style: str, in_text: bool,
              utf8: bool) -> str:
    if in_text:
        if style in ("bibtex", "key"):
            return "\\cite{" + ",".join(keys[p.id] for p in batch) + "}"
        raise StyleError(f"style {style!r} has no in-text form; use bibtex, key or a CSL "
                         "style (apa, ieee, …)")
    if style == "key":
        return ",".join(keys[p.id] for p in batch)
    if style == "bibtex":
        return "\n\n".join(bibtex(p, keys[p.id], utf8=utf8) for p in batch)
    if style == "plain":
        return "\n\n".join(plain(p) for p in batch)
    items = [markdown(p) for p in batch]
    return items[0] if len(items) == 1 else "\n".join(f"- {item}" for item in items)


def cite(papers: Sequence[Paper], style: str, *, given: Mapping[str, str] | None = None,
         utf8: bool = False) -> str:
    """The citations of ``papers`` in ``style`` as text (see :func:`render`)."""
    return render(papers, style, given=given, utf8=utf8).text


def describe(keys: Sequence[str], style: str) -> str:
    """What a copy holds, for a one-line notification: ``BibTeX for vaswani2017attention``,
    ``apa citations for 3 papers (a, b, c)``."""
    label = LABELS.get(style, f"{style} citation")
    if len(keys) == 1:
        return f"{label} for {keys[0]}"
    shown = ", ".join(keys[:3]) + (", …" if len(keys) > 3 else "")
    plural = "citation keys" if style == "key" else label if style in LABELS else label + "s"
    return f"{plural} for {len(keys):,} papers ({shown})"


def describe_briefly(style: str, papers: int) -> str:
    """What a copy holds in the app's confirmation (its keys unnamed): ``bibtex
    citation``, ``apa citations of 3 papers``."""
    return f"{style} citation" + ("" if papers == 1 else f"s of {count(papers, 'paper')}")
