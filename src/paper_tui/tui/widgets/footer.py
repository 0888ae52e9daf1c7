"""The key footer: Textual's own, rebuilt only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.reactive import Reactive
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, identical on screen, that skips a rebuild
    which would show the same keys.

    Textual's footer removes and mounts all its keys (a widget each, styled through the
    whole stylesheet) whenever the screen's bindings *may* have changed: on each focus
    change, each screen switch, each ``refresh_bindings``. Most of those change nothing it
    shows, yet they were a third of the CPU of starting the app and a good part of every
    key that moves focus."""

    _keys_drawn: tuple[Any, ...] | None = None

    def _keys_to_draw(self) -> tuple[Any, ...]:
        """Everything :meth:`Footer.compose` reads to build the keys."""
        bindings = tuple(
            (binding.key, self.app.get_key_display(binding), binding.description,
             binding.action, binding.show, binding.group, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values())
        return (self.compact, self.show_command_palette, self.combine_groups, bindings)

    def compose(self) -> ComposeResult:
        """Textual's keys, each told the footer's ``compact`` before it mounts: a key starts
        compact and is bound to the footer's (not compact), so each mounted key was styled
        through the whole stylesheet twice more, once per class it gained and lost. The
        command palette's key is not bound to it and stays as Textual makes it."""
        for widget in super().compose():
            compact = getattr(type(widget), "compact", None)
            if isinstance(compact, Reactive) and not widget.has_class("-command-palette"):
                widget.set_reactive(compact, self.compact)
            yield widget

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        keys = self._keys_to_draw()
        if keys == self._keys_drawn:
            return
        self._keys_drawn = keys
        await super().recompose()
