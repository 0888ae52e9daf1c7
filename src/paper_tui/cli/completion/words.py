"""What each argument of the command line completes to, for the three shell scripts.

An argument's value is completed from its choices, else from its metavar: ``FILE`` and
``PATH`` are files, ``DIR`` directories, ``LIST`` the library's reading lists, ``TAG`` its
tags, ``STYLE`` the citation styles (these three asked of ``paper-tui __complete`` when the
user presses Tab, so they are never stale). Any other value (an id, a query, a number)
completes to nothing.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from enum import Enum

from paper_tui.cli.parser_walk import Argument, Command, read_parser


class Kind(Enum):
    NOTHING = ""
    WORDS = "words"
    FILES = "files"
    DIRS = "dirs"
    LISTS = "lists"
    TAGS = "tags"
    STYLES = "styles"
    SOURCES = "sources"


_BY_METAVAR = {"FILE": Kind.FILES, "PATH": Kind.FILES, "DIR": Kind.DIRS, "LIST": Kind.LISTS,
               "TAG": Kind.TAGS, "STYLE": Kind.STYLES}
_BY_DEST = {"source_names": Kind.SOURCES}
"""Values named by what they are where their metavar is a plain ``NAME``: the library's
sources (``sources remove NAME...``)."""
GLOBAL_VALUE_OPTIONS = ("--library", "--config")
"""Global options the scripts pass on to ``paper-tui __complete`` (which library)."""


@dataclass(frozen=True)
class Completes:
    kind: Kind
    words: tuple[str, ...] = ()
    metavar: str = ""
    help: str = ""


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    help: str
    value: Completes | None
    """What its value completes to; None for an option that takes no value."""


@dataclass(frozen=True)
class Spec:
    """One command as the scripts see it."""

    path: tuple[str, ...]
    help: str
    options: tuple[Option, ...]
    slots: tuple[Completes, ...]
    """The positionals in order; with ``repeats``, the last one goes on for every further
    word (``tag ID TAG...``: slot 0 an id, slots 1, 2, … tags; ``status ID... STATUS``:
    slot 0 an id, then statuses, the last word being the status)."""
    repeats: bool
    subcommands: tuple[Spec, ...]

    @property
    def name(self) -> str:
        """The command path as one string: ``""``, ``"search"``, ``"lists add"``."""
        return " ".join(self.path)

    def walk(self) -> list[Spec]:
        found = [self]
        for sub in self.subcommands:
            found += sub.walk()
        return found


def completes(argument: Argument) -> Completes:
    kind = Kind.WORDS if argument.choices else _BY_DEST.get(argument.dest) or \
        _BY_METAVAR.get(argument.metavar, Kind.NOTHING)
    return Completes(kind, argument.choices, argument.metavar, argument.help or "")


def spec(parser: argparse.ArgumentParser) -> Spec:
    """The commands, options and positionals of ``parser`` that a user is shown: hidden
    commands and options (no help line, or ``argparse.SUPPRESS``) are left out."""
    return _spec(read_parser(parser))


def _spec(command: Command) -> Spec:
    options = tuple(Option(a.flags, a.help or "", completes(a) if a.takes_value else None)
                    for a in command.options if not a.hidden)
    return Spec(
        path=command.path,
        help=command.help or "",
        options=options,
        slots=tuple(completes(a) for a in command.positionals),
        repeats=any(a.repeats for a in command.positionals),
        subcommands=tuple(_spec(sub) for sub in command.subcommands if not sub.hidden),
    )
