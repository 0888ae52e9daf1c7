"""The full-text view: the text of the paper's PDF in the abstract pane (``p`` toggles
it with the abstract), a rule with the page number at each page's start, the query's words
highlighted, ``n`` / ``N`` to jump from one match to the next.

The text comes from the library's cache (``Library.pdf_text``, read in a worker by
:class:`~paper_tui.tui.controllers.pdfs.PdfController`); pages are apart by a form feed
there, as ``pdftotext`` writes them. Each line of the PDF (a sentence broken by the
column's width joined again: :func:`reflow`) is made inert and wrapped on its own, so a
match is found on the line it was on and a jump lands on the wrapped line that holds it.
Mounted on first use: a screen that never shows a PDF's text has none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paper_tui.trust.inert import inert_line
from paper_tui.tui.widgets.scrollbar import LineScrolled

PAGE_BREAK = "\f"
MARGIN = 1
TEXT_FIELDS = frozenset({"title", "abstract", "fulltext", "text", "body"})
"""Query fields whose words are the paper's text (others, ``year:`` or ``tag:``, are not
looked for in it)."""
_OPERATORS = frozenset({"and", "or", "not"})
_WORD = re.compile(r"\w+", re.UNICODE)


def query_words(query: str) -> list[str]:
    """The words of ``query`` to find in a paper's text: bare words, phrases' words and
    those of text fields (``title:``, ``fulltext:``), not negated ones nor operators; each
    once, folded, at least two letters."""
    words: dict[str, None] = {}
    negate_next = False
    for piece in re.findall(r'-?"[^"]*"?|\S+', query):
        if piece.upper() == "NOT":
            negate_next = True
            continue
        negated, negate_next = negate_next or piece.startswith("-"), False
        field, colon, value = piece.lstrip("-").partition(":")
        if colon and not field.startswith('"'):
            if field.casefold() not in TEXT_FIELDS:
                continue
            piece = value
        if negated:
            continue
        for word in _WORD.findall(piece):
            folded = word.casefold()
            if len(folded) >= 2 and folded not in _OPERATORS:
                words[folded] = None
    return list(words)


def words_pattern(words: list[str]) -> re.Pattern[str] | None:
    """Where ``words`` start a word (``model`` finds ``models``: the search stems)."""
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})\w*", re.IGNORECASE)


MID_SENTENCE = 35
"""A line this long that ends in a small letter or a comma goes on in the next."""


def reflow(page: str) -> list[str]:
    """A page's lines as the PDF broke them (a column's width), a line that goes on in
    the next joined to it (the next starts with a small letter, or a long line ends in
    the middle of a sentence): a sentence reads on at the pane's width; headings, short
    lines and the lines of a table stay apart."""
    lines: list[str] = []
    for raw in page.split("\n"):
        line = raw.strip()
        last = lines[-1] if lines else ""
        if last and (line[:1].islower() or (
                line[:1].isalpha() and len(last) >= MID_SENTENCE
                and (last[-1].islower() or last[-1] in ",;"))):
            lines[-1] = f"{lines[-1]} {line}"
        else:
            lines.append(line)
    return lines


@dataclass(frozen=True)
class Shown:
    """What the view shows: a paper's text (None: no PDF, ``note`` says how to get it)."""

    paper_id: str
    title: str
    text: str | None
    note: str = ""
    words: tuple[str, ...] = ()


class FullTextView(LineScrolled, ScrollView, can_focus=True):
    """The PDF's text of one paper, wrapped to the pane, with its matches."""

    BINDINGS = [
        Binding("n", "next_match", "Next match", id="next-match",
                tooltip="In the full text: the next match of the query's words"),
        Binding("N", "previous_match", "Previous match", id="previous-match",
                tooltip="In the full text: the previous match of the query's words"),
        Binding("j", "scroll_down", "Scroll down", show=False, id="full-text-down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="full-text-up"),
        Binding("escape", "back", "Back to results", id="full-text-back"),
    ]

    DEFAULT_CSS = """
    FullTextView { overflow-x: hidden; overflow-y: scroll; background: $background; }
    FullTextView:focus { background-tint: $primary 5%; }
    FullTextView > .full-text--match { color: $accent; text-style: bold underline; }
    FullTextView > .full-text--current {
        color: $background; background: $accent; text-style: bold;
    }
    FullTextView > .full-text--page { color: $text-muted; text-style: italic; }
    """
    COMPONENT_CLASSES = {"full-text--match", "full-text--current", "full-text--page"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown: Shown | None = None
        self._lines: list[Strip] = []
        self._wrapped_for: tuple[int, Shown | None] | None = None
        self.matches: list[tuple[int, int]] = []
        """Each match as (wrapped line, page), in reading order."""
        self.current = -1
        """The match the reader jumped to (-1: none yet)."""
        self.pages = 0
        self._page_starts: list[tuple[int, int]] = []
        self._raw_matches: list[tuple[int, int, int, int, int]] = []
        self._texts: list[Text] = []
        self._starts: list[int] = []
        self._header_for: tuple[Any, ...] | None = None
        self._header_strip = Strip.blank(0)

    # -- what is shown -----------------------------------------------------------------
    def show(self, shown: Shown) -> None:
        """Show ``shown`` from its top."""
        self.shown = shown
        self.current = -1
        self._wrapped_for = None
        self._wrap()
        self.scroll_to(y=0, animate=False)
        self.refresh()

    @property
    def plain(self) -> str:
        """The lines as shown (tests read this)."""
        return "\n".join(strip.text.rstrip() for strip in self._lines)

    def page_at(self, line: int) -> int:
        """The page the wrapped ``line`` is on (1 for the header)."""
        page = 1
        for start, number in self._page_starts:
            if start > line:
                break
            page = number
        return page

    # -- layout --------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"full-text--{name}", partial=True)

    def _wrap(self) -> None:
        """Lay the text out at the current width (once per paper, width and theme)."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        key = (width, self.shown)
        if key == self._wrapped_for:
            return
        self._wrapped_for = key
        self._texts, page_starts, self.pages = self._build()
        lines: list[Strip] = []
        starts: list[int] = []
        for n in range(len(self._texts)):
            starts.append(len(lines))
            lines += self._source_line(n, width)
        self._starts = starts
        # the matches and page starts were counted in source lines: now in wrapped ones
        self.matches = [(starts[n] + extra, page) for n, extra, page, _s, _e
                        in self._raw_matches]
        self._page_starts = [(starts[n], page) for n, page in page_starts]
        self._lines = lines
        self._header_for = None
        size = Size(width, len(lines) + 1)
        if size != self.virtual_size:
            self.virtual_size = size

    def _source_line(self, n: int, width: int) -> list[Strip]:
        """The wrapped lines of source line ``n`` (the current match, if on it, marked)."""
        text = self._texts[n]
        if 0 <= self.current < len(self._raw_matches) and self._raw_matches[self.current][0] == n:
            _n, _extra, _page, start, end = self._raw_matches[self.current]
            text = text.copy()
            text.stylize(self._style("current"), start, end)
        base = self.rich_style
        console = self.app.console
        options = console.options.update_width(max(1, width - 2 * MARGIN))
        blank = Style(bgcolor=base.bgcolor)
        margin = Segment(" " * MARGIN, blank)
        return [Strip([margin, *Segment.apply_style(line, base)]).crop_extend(0, width, blank)
                for line in console.render_lines(text, options, pad=False)]

    def _mark_current(self, old: int) -> None:
        """The current match moved from ``old``: draw again only the source lines of the
        two (a jump costs two lines, not the paper)."""
        width = self.scrollable_content_region.width
        for index in {old, self.current}:
            if not 0 <= index < len(self._raw_matches):
                continue
            n = self._raw_matches[index][0]
            strips = self._source_line(n, width)
            at = self._starts[n]
            self._lines[at:at + len(strips)] = strips

    def _build(self) -> tuple[list[Text], list[tuple[int, int]], int]:
        """One Text per source line (the header, page rules, the PDF's lines), where each
        page starts (source line, page) and how many pages; the matches are kept in
        :attr:`_raw_matches` as (source line, wrapped lines into it, page, start, end)."""
        self._raw_matches = []
        shown = self.shown
        if shown is None:
            return [Text("No paper to show.", style="italic")], [], 0
        texts: list[Text] = [Text(inert_line(shown.title), style="bold")]
        if shown.text is None:
            texts += [Text(""), Text(inert_line(shown.note), style="italic")]
            return texts, [], 0
        pages = shown.text.split(PAGE_BREAK)
        if pages and not pages[-1].strip():
            pages.pop()  # a final form feed ends the last page
        pattern = words_pattern(list(shown.words))
        match_style = self._style("match")
        page_style = self._style("page")
        width = max(1, self.scrollable_content_region.width - 2 * MARGIN)
        said = f"{len(pages)} pages" + (f" · {' '.join(shown.words)}: n / N jump between "
                                        "the matches" if shown.words else "")
        texts.append(Text(said, style="dim"))
        page_starts: list[tuple[int, int]] = []
        for number, page in enumerate(pages, 1):
            rule = f" page {number} of {len(pages)} "
            page_starts.append((len(texts), number))
            texts.append(Text(f"──{rule}".ljust(max(len(rule) + 2, width), "─"),
                              style=page_style))
            for raw in reflow(page):
                line = inert_line(raw)
                text = Text(line)
                if pattern is not None:
                    for match in pattern.finditer(line):
                        text.stylize(match_style, match.start(), match.end())
                        into = cell_len(line[:match.start()]) // width
                        self._raw_matches.append((len(texts), into, number, match.start(),
                                                  match.end()))
                texts.append(text)
        return texts, page_starts, len(pages)

    def on_resize(self) -> None:
        self._wrapped_for = None
        self._wrap()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._wrapped_for = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        self._wrap()
        if y == 0:
            return self._header()
        index = self.scroll_offset.y + y - 1
        if index < len(self._lines):
            return self._lines[index]
        return Strip.blank(self.scrollable_content_region.width, self.rich_style)

    def _header(self) -> Strip:
        """The line kept on top: the page the text below starts on, and the paper."""
        shown = self.shown
        width = self.scrollable_content_region.width
        top = self.scroll_offset.y
        page = self.page_at(top) if shown is not None and shown.text is not None else 0
        key = (page, self.pages, shown, width)
        if key != self._header_for:
            self._header_for = key
            label = (f"page {page} of {self.pages} · " if page else "") + \
                ("full text · " if shown is not None else "") + \
                (inert_line(shown.title) if shown is not None else "")
            text = Text(" " * MARGIN + label, style=self._style("page"), no_wrap=True,
                        overflow="ellipsis", end="")
            text.truncate(width, overflow="ellipsis", pad=True)
            base = self.rich_style
            self._header_strip = Strip(
                Segment.apply_style(text.render(self.app.console), base), width)
        return self._header_strip

    # -- the keys ------------------------------------------------------------------------
    def jump(self, step: int) -> str:
        """Move to the next (``step`` 1) or previous (-1) match; what to say of it."""
        if not self.matches:
            words = " ".join(self.shown.words) if self.shown else ""
            return f"no match of {words} in the text" if words else \
                "no query words to look for: search first"
        old = self.current
        self.current = (self.current + step) % len(self.matches) if self.current >= 0 \
            else (0 if step > 0 else len(self.matches) - 1)
        self._mark_current(old)
        line, page = self.matches[self.current]
        self.scroll_to(y=max(0, line - 1), animate=False)
        self.refresh()
        return f"match {self.current + 1} of {len(self.matches)} · page {page}"

    def action_next_match(self) -> None:
        self._say(self.jump(1))

    def action_previous_match(self) -> None:
        self._say(self.jump(-1))

    def _say(self, message: str) -> None:
        say = getattr(self.screen, "say", None)
        if say is not None:
            say(message, timeout=4)

    def action_back(self) -> None:
        self.screen.set_focus(self.screen.query_one("#results"))
