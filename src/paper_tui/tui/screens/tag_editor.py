"""The tag editor (``t``): add a tag with fuzzy completion, remove tags, on one or many papers.

The editor stages its changes and applies them through the annotations core only when the
reader confirms (Enter), so Esc always leaves the papers as they were.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.fuzzy import Matcher
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from paper_tui.errors import PaperTuiError
from paper_tui.library import Library
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog
from paper_tui.vocabulary import count

MAX_SUGGESTIONS = 8


@dataclass
class TagChange:
    """What the editor did: tags added to and removed from ``ids``."""

    ids: list[str]
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = []
        if self.added:
            parts.append("tagged " + ", ".join(self.added))
        if self.removed:
            parts.append("untagged " + ", ".join(self.removed))
        said = "; ".join(parts)
        return f"{said[:1].upper()}{said[1:]} ({count(len(self.ids), 'paper')})"


def split_tags(text: str) -> list[str]:
    """``"rl, to  cite"`` -> ``["rl", "to cite"]``: commas separate tags (spaced as stored)."""
    return [tag for part in text.split(",") if (tag := " ".join(part.split()))]


def split_typing(text: str) -> tuple[list[str], str]:
    """The tags typed in full and the one being typed (``""`` after a trailing comma)."""
    words = split_tags(text)
    if words and not text.rstrip().endswith(","):
        return words[:-1], words[-1]
    return words, ""


def fuzzy_tags(query: str, counts: dict[str, int], exclude: set[str],
               limit: int = MAX_SUGGESTIONS) -> list[str]:
    """Existing tags matching ``query`` loosely, best first; most used first when empty."""
    candidates = [t for t in counts if t.casefold() not in exclude]
    if not query:
        return sorted(candidates, key=lambda t: (-counts[t], t.casefold()))[:limit]
    matcher = Matcher(query)
    scored = [(matcher.match(t), t) for t in candidates]
    scored = [(s, t) for s, t in scored if s > 0]
    scored.sort(key=lambda st: (-st[0], -counts[st[1]], st[1].casefold()))
    return [t for _, t in scored[:limit]]


class TagEditor(Dialog[TagChange | None]):
    """Edit the tags of ``ids``. Dismisses with the applied :class:`TagChange`, or None.

    Opaque: a see-through modal repaints (and dims) the whole screen below it on every open,
    which was most of the time from ``t`` to the editor on screen; the title names the paper.
    """

    DEFAULT_CSS = DIALOG_CSS + """
    TagEditor { align: center middle; background: $background; }
    TagEditor OptionList { height: auto; max-height: 10; border: none; padding: 0; }
    TagEditor #tag-current-label { margin-top: 1; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "apply", "Apply"),
        Binding("tab", "complete", "Complete", show=False),
        Binding("down", "suggestion(1)", show=False),
        Binding("up", "suggestion(-1)", show=False),
        Binding("ctrl+t", "focus_current", "Current tags", show=False),
        Binding("d,delete", "remove", "Remove tag", show=False),
    ]

    def __init__(self, lib: Library, ids: Sequence[str] = (), *, title: str | None = None
                 ) -> None:
        super().__init__()
        self.lib = lib
        self.all_tags: dict[str, int] = {}
        # Built here, not found on mount: the editor is built unseen after the first paint,
        # and the app may be closing by then (its widgets gone before it mounts).
        self._title_label = Label("", classes="dialog-title", id="tag-title")
        self._tag_box = Input(placeholder="tag (commas for several)", id="tag-input")
        self._suggestions = OptionList(id="tag-suggestions")
        self._current_label = Label("", id="tag-current-label")
        self._current_tags = OptionList(id="tag-current")
        self._error_line = Static("", classes="dialog-error", id="tag-error")
        self.prepare(ids, title=title)

    def prepare(self, ids: Sequence[str], *, title: str | None = None) -> None:
        """Point the editor at ``ids`` with nothing staged. The app keeps one editor and
        calls this before each push: a reused screen opens without compose, mount or CSS."""
        self.ids = list(dict.fromkeys(ids))
        self.title_text = title
        self.on_papers: Counter[str] = Counter()
        self.to_remove: set[str] = set()
        self._chosen = False  # the reader moved through the suggestions with up/down
        if self.is_mounted:
            self._load()

    # -- building ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield self._title_label
            yield self._tag_box
            yield self._suggestions
            yield self._current_label
            yield self._current_tags
            yield self._error_line
            yield Label("Enter adds · Tab completes · ↑↓ suggestions · ctrl+t tags here "
                        "(d removes) · Esc cancels", classes="dialog-hint")

    def _title(self) -> str:
        if self.title_text:
            return self.title_text
        if len(self.ids) == 1:
            try:
                return f"Tags of {self.lib.paper(self.ids[0]).label}"
            except PaperTuiError:
                return f"Tags of {self.ids[0]}"
        return f"Tags of {len(self.ids):,} marked papers"

    def on_mount(self) -> None:
        self._load()

    def _load(self) -> None:
        """Fill the widgets for ``ids`` and focus the tag box."""
        for pid in self.ids:
            self.on_papers.update(self.lib.annotation(pid).tags)
        self.all_tags = self.lib.tag_counts()
        self._title_label.update(self._title())
        self._error_line.update("")
        box = self._tag_box
        with box.prevent(Input.Changed):
            box.value = ""
        self._show_current()
        self._show_suggestions("")
        self.set_focus(box, scroll_visible=False)

    def _show_current(self) -> None:
        current = self._current_tags
        highlighted = current.highlighted
        options = []
        for tag in sorted(self.on_papers, key=str.casefold):
            label = Text(tag, style="strike dim" if tag in self.to_remove else "")
            if len(self.ids) > 1:
                label.append(f"  {self.on_papers[tag]}/{len(self.ids)}", style="dim")
            if tag in self.to_remove:
                label.append("  (removed)", style="italic")
            options.append(Option(label, id=tag))
        current.set_options(options)
        current.display = bool(options)
        if options and highlighted is not None:
            current.highlighted = min(highlighted, len(options) - 1)
        self._current_label.update(
            "Tags here (ctrl+t, then d removes):" if options else "No tags yet.")

    def _show_suggestions(self, typed: str) -> None:
        _, last = split_typing(typed)
        exclude = {t.casefold() for t in self.on_papers} - {t.casefold() for t in self.to_remove}
        found = fuzzy_tags(last, self.all_tags, exclude)
        suggestions = self._suggestions
        matcher = Matcher(last) if last else None
        suggestions.set_options(
            Option(Text.assemble(_hl(matcher, t), (f"  {self.all_tags[t]}", "dim")), id=t)
            for t in found)
        suggestions.display = bool(found)
        suggestions.highlighted = 0 if found else None
        self._chosen = False

    # -- events --------------------------------------------------------------------------
    @on(Input.Changed, "#tag-input")
    def _typed(self, event: Input.Changed) -> None:
        self._show_suggestions(event.value)
        self._error_line.update("")

    @on(Input.Submitted, "#tag-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        picked = self._picked() if self._chosen else None
        self._apply(_with_pick(event.value, picked) if picked else split_tags(event.value))

    @on(OptionList.OptionSelected, "#tag-suggestions")
    def _clicked_suggestion(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._apply(_with_pick(self._tag_box.value, str(event.option.id)))

    @on(OptionList.OptionSelected, "#tag-current")
    def _selected_current(self, event: OptionList.OptionSelected) -> None:
        """Enter in the list of the paper's tags applies, as ctrl+s does (``d`` marks)."""
        event.stop()
        self.action_apply()

    def _picked(self) -> str | None:
        option = self._suggestions.highlighted_option
        return str(option.id) if option is not None else None

    # -- actions -------------------------------------------------------------------------
    def action_suggestion(self, step: int) -> None:
        """Up/down in the tag box move through the suggestions (a focused list has its own)."""
        suggestions = self._suggestions
        if suggestions.option_count:
            (suggestions.action_cursor_down if step > 0 else suggestions.action_cursor_up)()
            self._chosen = True

    def action_complete(self) -> None:
        picked = self._picked()
        box = self._tag_box
        if picked is None or self.focused is not box:
            self.focus_next()
            return
        box.value = ", ".join(_with_pick(box.value, picked))
        box.cursor_position = len(box.value)

    def action_focus_current(self) -> None:
        current = self._current_tags
        if self.focused is current:
            self._tag_box.focus()
        elif current.option_count:
            current.focus()
            if current.highlighted is None:
                current.highlighted = 0

    def action_remove(self) -> None:
        """Stage (or unstage) the highlighted current tag for removal."""
        current = self._current_tags
        if self.focused is not current:
            return
        option = current.highlighted_option
        if option is None:
            return
        tag = str(option.id)
        self.to_remove.symmetric_difference_update({tag})
        self._show_current()

    def action_apply(self) -> None:
        self._apply(split_tags(self._tag_box.value))

    def action_cancel(self) -> None:
        self.finish(None)

    def _apply(self, tags: list[str]) -> None:
        change = TagChange(self.ids)
        try:
            if self.to_remove:
                self.lib.remove_tags(self.ids, sorted(self.to_remove))
                change.removed = sorted(self.to_remove, key=str.casefold)
            if tags:
                self.lib.add_tags(self.ids, tags)
                change.added = self._as_saved(tags)
        except PaperTuiError as exc:
            self._error_line.update(str(exc))
            return
        self.finish(change if change.added or change.removed else None)

    def _as_saved(self, tags: list[str]) -> list[str]:
        """``tags`` as the papers now carry them (an existing spelling wins), each once."""
        spelling: dict[str, str] = {}
        for pid in self.ids:
            for tag in self.lib.annotation(pid).tags:
                spelling.setdefault(tag.casefold(), tag)
        return list(dict.fromkeys(spelling.get(t.casefold(), t) for t in tags))


def _with_pick(text: str, picked: str) -> list[str]:
    """The typed tags with ``picked`` in place of the one being typed (or added after)."""
    done, _ = split_typing(text)
    return [*done, picked]


def _hl(matcher: Matcher | None, tag: str) -> Text:
    """The tag with the letters the fuzzy match used in bold."""
    if matcher is None:
        return Text(tag)
    text = Text(tag)
    _, offsets = matcher.fuzzy_search.match(matcher.query, tag)
    for offset in offsets:
        text.stylize("bold underline", offset, offset + 1)
    return text
