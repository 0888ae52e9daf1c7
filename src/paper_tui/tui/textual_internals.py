"""Every use of Textual's (and Rich's) private parts, behind one door.

The speed work reaches past Textual's public API in a few places. Each is wrapped here,
with the public behaviour it falls back to when a Textual release moves the private part:
the app then draws through Textual's own pipeline, builds a screen when first pushed, or
lists bindings from the classes' ``BINDINGS``, slower in places but the same on screen.
Written for Textual 8.2 (the pin in pyproject.toml: the tests ran on 8.2.8).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.app import App
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.style import Style
from textual.widget import Widget
from textual.widgets import OptionList

_get_box: Callable[..., tuple[tuple[Segment, ...], ...]] | None
try:
    from textual import _border

    _get_box = _border.get_box
except ImportError:  # no direct border segments: DirectLines leaves bordered widgets to Textual
    _get_box = None


def border_segment(edge: str, inner: Style, outer: Style, colour: Style, side: int
                   ) -> Segment | None:
    """The middle row's ``side`` (0 left, 2 right) segment of a box edge of type ``edge``,
    as Textual's pipeline draws it; None when Textual's box drawing is out of reach."""
    if _get_box is None:
        return None
    return _get_box(edge, inner, outer, colour)[1][side]


def dirty_lines(widget: Widget) -> set[int] | None:
    """The rows Textual has marked for repainting in ``widget``'s styles cache (the set
    itself: the caller takes the rows it repaints out of it); None when out of reach."""
    cache = getattr(widget, "_styles_cache", None)
    dirty = getattr(cache, "_dirty_lines", None)
    return dirty if isinstance(dirty, set) else None


def clear_styles_cache(widget: Widget) -> None:
    """Forget the lines Textual's styles pipeline keeps for ``widget``."""
    cache = getattr(widget, "_styles_cache", None)
    if cache is not None:
        cache.clear()


def has_hover_links(style: RichStyle) -> bool:
    """Whether a hover style carries a link or click meta (Rich's ``_link_id``); the
    public reading when that is gone."""
    link_id = getattr(style, "_link_id", None)
    if link_id is not None:
        return bool(link_id)
    return bool(style.link or style.meta)


def own_bindings(node: DOMNode) -> list[Binding]:
    """The bindings ``node`` holds (its classes' ``BINDINGS`` merged, the keymap applied
    to its copy); from the classes' ``BINDINGS`` when Textual's map is out of reach."""
    bindings = getattr(node, "_bindings", None)
    if not isinstance(bindings, BindingsMap):
        merged: dict[str, list[Binding]] = {}
        for cls in reversed(type(node).__mro__):
            for key, bs in BindingsMap(cls.__dict__.get("BINDINGS", [])).key_to_bindings.items():
                merged[key] = bs
        bindings = BindingsMap.from_keys(merged)
    return [b for _key, bs in bindings.key_to_bindings.items() for b in bs]


def normalize_keymap(app: App[Any], keymap: Mapping[str, str]) -> dict[str, str]:
    """The keymap with Textual's long key names ("question_mark" for "?"), as
    ``App.set_keymap`` stores it; unchanged when Textual's normaliser is out of reach."""
    normalize = getattr(app, "_normalize_keymap", None)
    return dict(normalize(keymap)) if normalize is not None else dict(keymap)


def keymap_in_force(app: App[Any]) -> Mapping[str, str]:
    """The keymap ``App.set_keymap`` set (binding id -> keys, long key names); empty when
    Textual's copy is out of reach (hints then name the default keys)."""
    keymap = getattr(app, "_keymap", None)
    return keymap if isinstance(keymap, dict) else {}


def build_screen(app: App[Any], screen: Screen[Any]) -> None:
    """Compose and mount an installed screen now, unseen (what ``push_screen`` does first
    for a screen not running); when out of reach, the first push builds it."""
    get_screen = getattr(app, "_get_screen", None)
    if get_screen is not None:
        get_screen(screen)


def vertical_scrollbar(view: Widget, make: Callable[[], ScrollBar]) -> ScrollBar:
    """``view``'s vertical scrollbar: one from ``make``, created on first use and started
    as Textual starts its own; Textual's own scrollbar when that is out of reach."""
    start = getattr(view.app, "_start_widget", None)
    if start is None or not hasattr(view, "_vertical_scrollbar"):
        textuals_own: property = inspect.getattr_static(Widget, "vertical_scrollbar")
        return cast(ScrollBar, textuals_own.__get__(view))
    bar = view._vertical_scrollbar
    if bar is None:
        view._vertical_scrollbar = bar = make()
        bar.display = False
        start(view, bar)
    return bar


_paging_guarded = False
"""Whether :func:`guard_option_list_paging` has patched ``OptionList`` (once a process)."""


def guard_option_list_paging() -> None:
    """Make PageUp / PageDown safe on an ``OptionList`` that has options but no lines yet.

    Textual 8.2's ``OptionList._move_page`` looks the highlighted option's line up in a
    table filled only once the list has a size, so between options arriving and the next
    layout (the command palette's list right after ``ctrl+p``) the key raised
    ``KeyError: 0`` and ended the app. Until then a page key moves nothing, which is what
    a page of height 0 moves anyway. Patched once, on the class (the palette builds its own
    list); out of reach when a Textual release renames the method, and then not needed."""
    global _paging_guarded
    move_page = getattr(OptionList, "_move_page", None)
    if move_page is None or _paging_guarded:
        return

    def guarded_move_page(self: OptionList, direction: Literal[-1, 1]) -> None:
        lines = getattr(self, "_index_to_line", None)
        if isinstance(lines, dict) and self.highlighted is not None \
                and self.highlighted not in lines:
            return  # no lines yet: nothing to page through
        move_page(self, direction)

    # Textual's class patched on purpose: a page key before the first layout raised KeyError
    OptionList._move_page = guarded_move_page  # type: ignore[method-assign]
    _paging_guarded = True


def report_crashes(app: App[Any], crashed: Callable[[BaseException], None]) -> None:
    """Hand the app's unhandled exception to ``crashed`` instead of letting Textual print
    its traceback on the user's terminal as the app exits (the front prints one line and
    writes a crash log). Out of reach, Textual prints its traceback as it always has."""
    handle = getattr(app, "_handle_exception", None)
    print_errors = getattr(app, "_print_error_renderables", None)
    if handle is None or print_errors is None or not hasattr(app, "_exit_renderables"):
        return
    seen: list[BaseException] = []

    def handle_and_keep(error: Exception) -> None:
        if not seen:
            seen.append(error)
            crashed(error)
        handle(error)

    def print_none_of_ours() -> None:
        if seen:
            app._exit_renderables.clear()
        print_errors()

    # replaced on this instance on purpose: the crash goes to ``crashed`` first
    app._handle_exception = handle_and_keep  # type: ignore[method-assign]
    # replaced on this instance on purpose: no traceback of ours on the user's terminal
    app._print_error_renderables = print_none_of_ours  # type: ignore[method-assign]
