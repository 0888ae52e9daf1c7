"""The paper-tui app: config, themes, keymap and screens.

The work happens on the screens (``screens/main.py``: search, results, abstract, status)
and in the controllers they run the keys with (``controllers/``). The app holds what
every screen shares: the library, the config and its problems, the theme, the live
keymap, the confirmations said (:meth:`PaperApp.say`) and the annotation store's news.

How to wire a screen in (editors, pickers, …): give its key a ``Binding(key, "action",
"Label", id="my-action")`` on the screen it belongs to (the id makes it remappable,
listed in help and the palette), and push the screen from that action. Screens use the
app only through :class:`~paper_tui.tui.host.AppHost`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.console import RenderableType
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.filter import LineFilter
from textual.message import Message
from textual.screen import Screen

from paper_tui.config import Config, Settings
from paper_tui.errors import StoreError
from paper_tui.library import Library
from paper_tui.trust.inert import inert_line
from paper_tui.tui import collector, textual_internals
from paper_tui.tui import keymap as keymap_mod
from paper_tui.tui import themes as themes_mod
from paper_tui.tui.inert_lines import InertLines
from paper_tui.tui.screens.main import APP_KEYS, MainScreen
from paper_tui.tui.screens.results_screen import LATER_SCREENS_KEYS, ResultsScreen

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

DEFAULT_THEME = "paper-dark"
SAID_KEPT = 50


class SaveState(Message):
    """From the annotation store's thread: a save failed or recovered, or files changed."""

    def __init__(self, error: str | None, changed: bool = False) -> None:
        self.error = error
        self.changed = changed
        super().__init__()


class PaperApp(App[None]):
    """The reader's app; its first screen is :class:`MainScreen`."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "paper-tui"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS = [Binding(b.key, b.action.removeprefix("app."), b.description, show=b.show,
                        priority=b.priority, id=b.id, tooltip=b.tooltip) for b in APP_KEYS]
    """Quit and the palette, on every screen (the main screen lists them too)."""

    def __init__(self, library: Library, config: Config, *,
                 theme_dirs: Iterable | None = None, import_paths: Iterable = ()) -> None:
        super().__init__()
        textual_internals.guard_option_list_paging()
        self.import_paths = list(import_paths)
        self.library = library
        self.config = config
        self.problems: list[str] = list(config.problems)
        self._register_themes(theme_dirs)
        self.main = MainScreen(library, config.settings)
        self.said: deque[str] = deque(maxlen=SAID_KEPT)
        """The last confirmations shown (:meth:`say`), newest last."""
        self.keymap: dict[str, str] = {}
        self.leaving = False
        """The reader has quit: keys still queued behind the quit key do nothing."""
        self._inert_lines = InertLines()

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the one that keeps text from data inert on every line
        drawn (``inert_lines.py``): one object, so filtered lines stay cached."""
        return [*super().get_line_filters(), self._inert_lines]

    def get_default_screen(self) -> Screen:
        return self.main

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.library.on_save_outcome(self._saved)
        self.library.on_changed_elsewhere(self._changed_elsewhere)

    def on_main_screen_ready(self, _message: MainScreen.Ready) -> None:
        """The main screen's panes are up: apply the config's keymap to their keys (and the
        screen's), say the config's problems, start the import asked for."""
        known = keymap_mod.binding_ids(self._binding_nodes(self.main)) | {
            b.id for b in LATER_SCREENS_KEYS if b.id}
        keymap, problems = keymap_mod.config_keymap(self.settings.keymap, known)
        self.problems += problems
        self.keymap = textual_internals.normalize_keymap(self, keymap)
        self.set_keymap(self.keymap)
        for problem in self.problems:
            self.notify(problem, title="config", severity="warning", timeout=10)
        if self.import_paths:
            self.main.start_import(self.import_paths)

    # -- themes ----------------------------------------------------------------------------
    def _register_themes(self, theme_dirs: Iterable | None) -> None:
        found, problems = themes_mod.load_themes(theme_dirs if theme_dirs is not None
                                                 else themes_mod.theme_dirs())
        self.problems += problems
        for theme in found:
            self.register_theme(theme)
        wanted = themes_mod.saved_theme() or self.settings.theme
        if wanted not in self.available_themes:
            self.problems.append(f"config theme: no theme named {wanted!r}; "
                                 f"using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self._chosen_theme = wanted
        self.theme = wanted

    def _theme_changed(self, theme: Any) -> None:
        if theme.name != self._chosen_theme:
            self._chosen_theme = theme.name
            self.say(f"theme: {theme.name} (remembered)")
            self.run_worker(partial(themes_mod.save_theme, theme.name), thread=True,
                            group="state")

    # -- what the screens use (AppHost) ----------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.config.settings

    @property
    def results_screen(self) -> ResultsScreen:
        """The results the reader sees: the active screen's (an opened reading list has its
        own), else the main screen's."""
        screen = self.screen
        return screen if isinstance(screen, ResultsScreen) else self.main

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None:
        """Confirm an action in the status line: one line repainted, no layout (a toast
        would mount a widget and lay the screen out again on every key). Warnings and
        errors, and anything said while the main screen is hidden, are also a toast.
        Made one inert line first: it often names data (a title, a tag, a file)."""
        message = inert_line(message)
        self.said.append(message)
        main_visible = self.main.is_current
        if main_visible:
            self.main.status_line.say(message, severity=severity, timeout=timeout)
        if severity != "information" or not main_visible:
            self.notify(message, severity=cast("SeverityLevel", severity), timeout=timeout)

    def status_changed(self) -> None:
        self.main.search.update_status()

    def show_help(self, screen: Screen | None = None) -> None:
        """Every key of ``screen`` (the main screen's when None) as the keymap has it."""
        from paper_tui.tui.screens.help import HelpScreen

        hint = ("Remap any key in your config.yaml by its id, e.g.  keymap: {star: \"*\"}  "
                "(`paper-tui config` shows where the file is).")
        self.push_screen(HelpScreen(self.live_keys(screen), hint))

    # -- keys ------------------------------------------------------------------------------
    def live_keys(self, screen: Screen | None = None) -> list[keymap_mod.KeyAction]:
        """The keys of ``screen`` (the main screen's when None), its own first."""
        return keymap_mod.live_bindings(self._binding_nodes(screen or self.main),
                                        self.keymap)

    def _binding_nodes(self, screen: Screen) -> list:
        return [screen, self, *screen.query("*")]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's commands and every live key's; a results key runs on the results
        screen the palette was opened over."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("Fetch watches", "Fetch every watch's source and say what is "
                            "new (paper-tui fetch --watches)", self.main.action_fetch_watches)
        yield from self._pdf_commands(screen)
        for key in self.live_keys():
            if key.id in ("command-palette", "quit"):
                continue
            owner = (screen if key.owner is self.main and isinstance(screen, ResultsScreen)
                     else key.owner)
            yield SystemCommand(key.help, f"{key.description} ({key.key_display})",
                                partial(self.run_action, key.action, owner))

    def _pdf_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """"Download PDFs of these results" over a results screen, "… of this list" over
        the reading lists (the highlighted one) and an opened list."""
        from paper_tui.tui.screens.lists_screen import ListsScreen, ReadingListScreen

        if isinstance(screen, ResultsScreen):
            yield SystemCommand("Download PDFs of these results", "Download the PDF of "
                                "every paper shown into the library (paper-tui pdf get)",
                                screen.action_download_pdfs)
        name = screen.list_name() if isinstance(screen, ListsScreen) else \
            screen.name_shown if isinstance(screen, ReadingListScreen) else None
        if name:
            yield SystemCommand("Download PDFs of this list", f"Download the PDF of every "
                                f"paper of {name} (paper-tui pdf get --list)",
                                partial(self.main.pdfs.download, None, f"PDFs of {name}",
                                        list_name=name))

    def action_command_palette(self) -> None:
        """Textual's palette, as Textual opens it, in its closing-once form."""
        from paper_tui.tui.palette import Palette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(Palette(id="--command-palette"))

    async def action_quit(self) -> None:
        from paper_tui.tui.screens.note_editor import quit_guarded

        quit_guarded(self)

    def exit(self, result: None = None, return_code: int = 0,
             message: RenderableType | None = None) -> None:
        """Quit: from now on keys and pastes are dropped. Textual still hands over the
        ones that came before it got to the quit, and one opening a dialog or a panel
        while the screens are being taken down would fail there."""
        self.leaving = True
        super().exit(result, return_code, message)

    async def on_event(self, event: events.Event) -> None:
        if self.leaving and isinstance(event, events.Key | events.Paste):
            return
        await super().on_event(event)

    # -- the annotation store's news -------------------------------------------------------
    def _saved(self, error: str | None) -> None:
        """The store's saver thread: a save failed (the message) or works again (None)."""
        self.post_message(SaveState(error))

    def _changed_elsewhere(self, _ids: set[str]) -> None:
        """The saver thread: another process or a hand edit changed annotations."""
        self.post_message(SaveState(None, changed=True))

    def on_save_state(self, message: SaveState) -> None:
        if message.changed:
            self.results_screen.refresh_current()
        elif message.error:
            self.say(f"saving annotations failed: {message.error}", severity="error",
                     timeout=10)
        else:
            self.say("annotations are saved again")

    def on_unmount(self) -> None:
        """Every acknowledged change is on disk before the app is gone (and the collector
        is as it was)."""
        collector.restore()
        try:
            self.library.flush()
        except StoreError as exc:
            self.log.error(f"saving annotations failed: {exc}")
