"""Citations in a CSL style: the bibliography entries (plain text and HTML) and the in-text
form (``(Zhang & Zhou, 2018)``, ``[1]``) of CSL-JSON items.

The processor is citeproc-py with the fixes of :mod:`.citeproc_fixes` (why this one, and
how it compares with citeproc-js and pandoc: ``bench/README.md``). A style is parsed once
per process and kept (the app's preview renders in a few milliseconds after the first
load); rendering holds a lock, since citeproc-py keeps the output format on the style.
"""

from __future__ import annotations

import html
import re
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import citeproc
from citeproc import Citation, CitationStylesBibliography, formatter
from citeproc.source.json import CiteProcJSON
from lxml import etree

from paper_tui.citations import citeproc_fixes
from paper_tui.citations.csl_item import RENDERED_ONLY
from paper_tui.citations.styles import Style
from paper_tui.errors import StyleError

_NS = "{http://purl.org/net/xbiblio/csl}"
_TAG = re.compile(r"<[^>]*>")
_SEAM = re.compile(r"([.,;:!? ])((?:</?[a-z]+(?: [^>]*)?>)+)\1")
"""A mark doubled across a tag (``et al.</i>.``): citeproc-py drops a doubled mark where
two strings meet, but does not see past the markup the HTML output puts between them."""


@dataclass(frozen=True)
class Rendered:
    """Citations rendered: one text per paper (in the style's order for a bibliography),
    the same as plain text and as HTML (``<i>`` for italics, ``<b>`` …)."""

    entries: tuple[str, ...]
    html_entries: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join(self.entries)

    @property
    def html(self) -> str:
        """A document fragment a word processor pastes with its formatting."""
        body = "".join(f'<div class="csl-entry">{entry}</div>' for entry in self.html_entries)
        return f'<div class="csl-bib-body">{body}</div>'


class _Loaded:
    """A parsed style: what :class:`CitationStylesBibliography` asks of a style."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.lock = threading.Lock()
        self.elements = list(root.iter())  # keeps each proxy, and what it caches, alive

    def has_bibliography(self) -> bool:
        return self.root.bibliography is not None

    def render_citation(self, citation: Any, cites: Any, callback: Any = None) -> Any:
        return self.root.citation.render(citation, cites, callback)

    def sort_bibliography(self, citation_items: Any) -> Any:
        return self.root.bibliography.sort(citation_items)

    def render_bibliography(self, citation_items: Any) -> Any:
        return self.root.bibliography.render(citation_items)


@lru_cache(maxsize=1)
def _schema() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(citeproc.SCHEMA_PATH))


def _check_schema(root: Any, csl: Path) -> None:
    """A style file of the reader's own against the CSL schema (the collection's styles
    are checked by the CSL project): StyleError naming the first fault's line."""
    schema = _schema()
    if not schema.validate(root):
        fault = schema.error_log[0]
        raise StyleError(f"{csl}:{fault.line}: not valid CSL: {fault.message}")


@lru_cache(maxsize=16)
def _load(csl: Path, locale: str, validate: bool) -> _Loaded:
    try:
        root = citeproc_fixes.parse(csl.read_bytes(), csl)
    except OSError as exc:
        raise StyleError(f"{csl}: cannot read ({exc.strerror or exc})") from None
    except etree.XMLSyntaxError as exc:
        raise StyleError(f"{csl}:{exc.lineno or 1}: not a CSL style: not XML ({exc.msg})"
                         ) from None
    if root.tag != f"{_NS}style":
        raise StyleError(f"{csl}: not a CSL style: its root is <{etree.QName(root).localname}>,"
                         " not <style> in the CSL namespace")
    if root.find(f"{_NS}citation/{_NS}layout") is None:
        dependent = root.find(f"{_NS}info/{_NS}link[@rel='independent-parent']")
        what = ("a dependent style: give its parent " + dependent.get("href", "").rsplit(
            "/", 1)[-1]) if dependent is not None else "it has no <citation> with a <layout>"
        raise StyleError(f"{csl}: not a CSL style that renders citations: {what}")
    if validate:
        _check_schema(root, csl)
    try:
        loaded = _Loaded(root)
        root.set_locale_list(locale or root.get("default-locale", "en-US"))
    except (OSError, etree.XMLSyntaxError) as exc:
        raise StyleError(f"{csl}: cannot load the locale it asks for ({exc})") from None
    return loaded


def load(style: Style) -> None:
    """Parse ``style`` now (the app does it off the keypress); StyleError if it is not CSL."""
    if style.csl is not None:
        _load(style.csl, style.locale, not style.shipped)


def _items(items: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The items under ids of our own (citeproc-py folds ids to lower case, and keys may
    differ only in case), without the fields no style prints."""
    out, ids = [], []
    for n, item in enumerate(items):
        ids.append(f"item{n}")
        out.append({k: v for k, v in item.items() if k not in RENDERED_ONLY} | {"id": ids[-1]})
    return out, ids


def _render(style: Style, items: Sequence[Mapping[str, Any]], in_text: bool) -> list[str]:
    """The entries as HTML (plain text is the same without the tags: one pass)."""
    if style.csl is None:
        raise StyleError(f"{style.id} is not a CSL style")
    loaded = _load(style.csl, style.locale, not style.shipped)
    data, ids = _items(items)
    with loaded.lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bibliography = CitationStylesBibliography(loaded, CiteProcJSON(data), formatter.html)
        citation = Citation([citeproc_fixes.CitationItem(i) for i in ids])
        bibliography.register(citation)
        if in_text:
            return [str(bibliography.cite(citation, lambda item: None))]
        if not loaded.has_bibliography():  # a note style without one: the notes instead
            notes = []
            for i in ids:
                note = Citation([citeproc_fixes.CitationItem(i)])
                bibliography.register(note)  # a citation renders only once registered
                notes.append(str(bibliography.cite(note, lambda item: None)))
            return notes
        bibliography.sort()
        return [str(entry) for entry in bibliography.bibliography()]


def render(style: Style, items: Sequence[Mapping[str, Any]], *,
           in_text: bool = False) -> Rendered:
    """``items`` in ``style``: the bibliography entries, or with ``in_text`` the one
    in-text citation of them all. StyleError (one line) when the style is not CSL or the
    processor cannot render it."""
    try:
        marked = [_SEAM.sub(r"\1\2", entry).strip() for entry in _render(style, items, in_text)]
    except StyleError:
        raise
    except Exception as exc:  # citeproc-py's own failures on a style it does not support
        raise StyleError(f"the CSL processor cannot render style {style.id!r} "
                         f"({type(exc).__name__}: {exc})") from None
    return Rendered(tuple(html.unescape(_TAG.sub("", entry)) for entry in marked),
                    tuple(marked))
