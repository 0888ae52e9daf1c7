"""The command palette (``ctrl+p``): Textual's, closing once and cleanly, with the
library's sources: list them, remove one (asked first)."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import on
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.messages import Prune

from paper_tui.errors import PaperTuiError
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.holdings.sources import Listed
    from paper_tui.library import Library
    from paper_tui.tui.screens.main import MainScreen


class Palette(CommandPalette):
    """Textual's command palette, which closes itself only while it is in front, and
    stops searching before its parts are taken down; with :class:`SourceCommands`.

    Textual 8.2's palette closes itself again when a selection queued behind the one that
    closed it arrives (Enter on a command as the list fills): the second close took the
    screen below it, the last one ending the app with ScreenStackError.

    Its search worker is cancelled only once the palette itself unmounts, after its
    command list is gone: a search delivering results in between (quitting the app with
    the palette open while it searches) failed on the missing list and ended the app
    with a traceback."""

    def __init__(self, *, id: str | None = None) -> None:
        """Opened by the app over its current screen: the app's and that screen's
        providers (Textual's own choice), and the sources'."""
        app = self.app
        super().__init__([*app.COMMANDS, *app.screen.COMMANDS, SourceCommands], id=id)

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)

    @on(Prune)
    def stop_searching(self) -> None:
        """Cancel the search first: Prune reaches the palette before its children go."""
        self.workers.cancel_node(self)


class SourceCommands(Provider):
    """"Sources" (what ``paper-tui sources`` prints, as a notification) and "Remove
    source NAME" for each (``paper-tui sources remove``, after a yes). The sources are read
    in a thread as the palette opens: the library's lock may be held by an import."""

    _listed: list[Listed] = []

    async def startup(self) -> None:
        main = self._main()
        self._listed = [] if main is None else \
            await asyncio.to_thread(main.library.listed_sources)

    def _main(self) -> MainScreen | None:
        from paper_tui.tui.screens.main import MainScreen

        main = getattr(self.app, "main", None)
        return main if isinstance(main, MainScreen) else None

    def _commands(self) -> list[tuple[str, Any, str]]:
        main = self._main()
        if main is None:
            return []
        found: list[tuple[str, Any, str]] = [(
            "Sources", partial(show_sources, main, self._listed),
            "The paper lists in the library and where each came from (paper-tui sources)")]
        for source in self._listed:
            found.append((f"Remove source {source.name}", partial(ask_remove, main, source),
                          f"{count(source.papers, 'paper')}, {source.kind}: "
                          f"{source.origin} (your marks on them stay)"))
        return found

    async def discover(self) -> Hits:
        for name, command, help_text in self._commands():
            yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, command, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)


def describe(source: Listed) -> str:
    """One source as the "Sources" notification lists it."""
    fetched = f", last fetched {source.last_fetched}" if source.last_fetched else ""
    return (f"{source.name}: {count(source.papers, 'paper')}, added {source.added_day}{fetched} "
            f"({source.kind}: {source.origin})")


def show_sources(main: MainScreen, listed: list[Listed]) -> None:
    text = "\n".join(map(describe, listed)) or \
        "none: `paper-tui import FILE` or `paper-tui fetch SOURCE` adds one"
    main.app.notify(text, title="Sources", timeout=20)


def ask_remove(main: MainScreen, source: Listed) -> None:
    from paper_tui.tui.screens.confirm import Confirm

    def answered(yes: bool | None) -> None:
        if yes:
            main.say(f"removing {source.name}…", timeout=30)
            main.run_worker(partial(_remove, main, main.library, source.name), thread=True,
                            group="sources", exit_on_error=False)

    main.app.push_screen(Confirm(
        f"Remove {source.name} ({count(source.papers, 'paper')}) from the library? Your "
        "marks on its papers stay, and come back with them if you import it again.",
        yes="Remove"), answered)


def _remove(main: MainScreen, library: Library, name: str) -> None:
    """The worker's part: the removal, then the results searched again (on the UI
    thread)."""
    try:
        removed = library.remove_sources([name])
    except PaperTuiError as exc:
        main.app.call_from_thread(main.say, f"not removed: {exc}", severity="error",
                                  timeout=10)
        return
    def done() -> None:
        main.refresh_results()
        main.say(f"{removed.line()}; your marks stay (paper-tui orphans)", timeout=6)

    main.app.call_from_thread(done)
