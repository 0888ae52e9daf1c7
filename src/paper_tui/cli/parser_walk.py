"""What the command line accepts, read off its argparse parser: commands, options,
positionals and their help, as plain records.

argparse has no public way to list a parser's arguments; this module is the one place that
reads its internals (``_actions``, a sub-parsers action's ``_choices_actions``), so the
shell completion scripts and the test that every argument has help text see the same
parser the user runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Argument:
    """One option (``flags`` set) or positional (``flags`` empty) of a command."""

    dest: str
    flags: tuple[str, ...]
    help: str | None
    """None when the parser gives none; ``argparse.SUPPRESS`` when it is hidden on purpose."""
    metavar: str
    takes_value: bool
    choices: tuple[str, ...]
    repeats: bool
    """A positional that takes one or more words (``nargs`` ``+`` or ``*``)."""

    @property
    def hidden(self) -> bool:
        return self.help == argparse.SUPPRESS


@dataclass(frozen=True)
class Command:
    """A command (``path`` like ``("lists", "add")``; ``()`` is ``paper-tui`` itself)."""

    path: tuple[str, ...]
    help: str | None
    """The line ``paper-tui -h`` shows for it; None for a command not listed there."""
    options: tuple[Argument, ...]
    positionals: tuple[Argument, ...]
    subcommands: tuple[Command, ...]
    subcommands_help: str | None = None
    """The help of the sub-command argument itself (``COMMAND``, ``VERB``)."""

    @property
    def hidden(self) -> bool:
        return self.help is None and bool(self.path)

    def walk(self) -> Iterator[Command]:
        """This command and every command under it, hidden ones too, parents first."""
        yield self
        for sub in self.subcommands:
            yield from sub.walk()


def read_parser(parser: argparse.ArgumentParser, path: tuple[str, ...] = (),
                help: str | None = None) -> Command:
    """The command ``parser`` parses, with its sub-commands."""
    options: list[Argument] = []
    positionals: list[Argument] = []
    subcommands: list[Command] = []
    subcommands_help = None
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subcommands_help = action.help
            listed = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                subcommands.append(read_parser(sub, (*path, name), listed.get(name)))
        elif action.option_strings:
            options.append(_argument(action))
        else:
            positionals.append(_argument(action))
    return Command(path, help, tuple(options), tuple(positionals), tuple(subcommands),
                   subcommands_help)


def _argument(action: argparse.Action) -> Argument:
    takes_value = action.nargs != 0
    if isinstance(action.metavar, str):
        metavar = action.metavar
    else:  # argparse's own default
        metavar = action.dest.upper() if action.option_strings else action.dest
    return Argument(
        dest=action.dest,
        flags=tuple(action.option_strings),
        help=action.help,
        metavar=metavar,
        takes_value=takes_value,
        choices=tuple(str(choice) for choice in action.choices or ()),
        repeats=action.nargs in ("+", "*", argparse.REMAINDER),
    )
