"""Every argument and option of every command has help text, and ``paper-tui COMMAND -h``
shows it (the sub-verbs of ``lists`` included)."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest

from paper_tui.cli import build_parser
from paper_tui.cli.parser_walk import Command, read_parser

HIDDEN_COMMANDS = {("merge-driver",), ("__complete",)}
"""Commands called by programs, not people (git's merge driver, the completion scripts):
not listed by ``paper-tui -h``, though their arguments still have help."""
HIDDEN_OPTIONS = {(("sync",), "--steps")}
"""Options only the app passes."""

COMMANDS = list(read_parser(build_parser()).walk())


def _name(command: Command) -> str:
    return " ".join(("paper-tui", *command.path))


def test_every_argument_and_option_has_help() -> None:
    missing = []
    for command in COMMANDS:
        for argument in (*command.options, *command.positionals):
            name = f"{_name(command)} {argument.flags[0] if argument.flags else argument.metavar}"
            if argument.hidden:
                if (command.path, argument.flags[0]) not in HIDDEN_OPTIONS:
                    missing.append(f"{name} (hidden)")
            elif not (argument.help and argument.help.strip()):
                missing.append(name)
    assert missing == []


def test_every_command_with_sub_commands_says_what_they_are() -> None:
    assert [c.path for c in COMMANDS if c.subcommands] == [(), ("lists",), ("watch",),
                                                          ("sources",), ("pdf",), ("team",)]
    assert all(c.subcommands_help for c in COMMANDS if c.subcommands)


def test_every_command_has_a_help_line_unless_programs_call_it() -> None:
    assert {c.path for c in COMMANDS if c.hidden} == HIDDEN_COMMANDS
    assert all(c.help for c in COMMANDS if c.path and not c.hidden)
    assert {c.path for c in COMMANDS if c.path} >= {("search",), ("lists", "add"), ("cite",),
                                                    ("completion",)}


def _help_output(path: tuple[str, ...]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exited:
        build_parser().parse_args([*path, "-h"])
    assert exited.value.code == 0
    return " ".join(out.getvalue().split())  # argparse wraps lines


@pytest.mark.parametrize("command", COMMANDS, ids=_name)
def test_help_shows_every_visible_argument_with_its_text(command: Command) -> None:
    shown = _help_output(command.path)
    for argument in (*command.options, *command.positionals):
        if argument.hidden:
            assert all(flag not in shown for flag in argument.flags)
            continue
        assert (argument.flags[0] if argument.flags else argument.metavar) in shown
        assert " ".join((argument.help or "").split()) in shown
    for sub in command.subcommands:
        if not sub.hidden:
            assert f"{sub.path[-1]} {' '.join((sub.help or '').split())}" in shown


def test_a_real_process_prints_a_verbs_help() -> None:
    done = subprocess.run([sys.executable, "-m", "paper_tui", "lists", "add", "-h"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert "usage: paper-tui lists add [-h] LIST ID [ID ...]" in done.stdout
    assert "a reading list's name (any case)" in done.stdout

