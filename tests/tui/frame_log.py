"""An app that keeps every frame it hands to the terminal driver, for tests that assert
what a key repaints (partial frames, which rows)."""

from __future__ import annotations

from textual._compositor import ChopsUpdate

from paper_tui.tui.app import PaperApp


class FrameLog(PaperApp):
    """The app, keeping every frame it hands to the terminal driver."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list = []

    def _display(self, screen, renderable) -> None:
        if renderable is not None:
            self.frames.append(renderable)
        super()._display(screen, renderable)


def rows_painted(frame: ChopsUpdate, region) -> set[int]:
    """Screen rows of ``region`` the frame repaints."""
    return {y for y, x1, x2 in frame.spans
            if region.y <= y < region.bottom and x1 < region.right and x2 >= region.x}
