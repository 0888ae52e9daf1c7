"""The command line's parser: argparse's, with arguments that must be text told apart from
file names.

On Linux an argument is bytes. A file name may hold any bytes, and is used as given (type
:func:`path`). Every other argument — a query, a tag, a note, a list name, a venue — is
text: it is written to YAML, searched and shown, so bytes that are not UTF-8 are refused
with one line naming the argument (``argument TAG is not valid UTF-8: 'bad\\xff'``), exit
status 1, rather than guessed at or stored as something that can never be written back.
"""

from __future__ import annotations

import argparse
import difflib
from typing import Any, NoReturn

from paper_tui.errors import PaperTuiError
from paper_tui.query import ranges
from paper_tui.trust.surrogates import escape_surrogates, has_surrogates

_NOT_UTF8 = "is not valid UTF-8"


class ArgumentNotUtf8Error(PaperTuiError):
    """A text argument whose bytes are not UTF-8."""


def path(value: str) -> str:
    """The type of an argument that names a file or directory: any bytes the system allows,
    kept as Python decoded them (``os.fsencode`` gives the bytes back)."""
    return value


def limit(value: str) -> int:
    """The type of ``--limit N``: a whole number, 0 or more (``-1`` is refused, not read as
    "print nothing")."""
    return _whole_number(value, 0, "0 or more")


def list_position(value: str) -> int:
    """The type of a position in a list: 1 is first (0 and below are refused, not moved to
    the top)."""
    return _whole_number(value, 1, "1 (the first) or more")


def _whole_number(value: str, least: int, wanted: str) -> int:
    try:
        return ranges.whole(value, least, ranges.MAX_COUNT)
    except ranges.OutOfRange as exc:
        if str(exc).startswith("is less"):
            raise argparse.ArgumentTypeError(
                f"{ranges.shown(value)!r} is not a whole number {wanted}") from None
        raise argparse.ArgumentTypeError(f"{ranges.shown(value)!r} {exc}") from None
    except ranges.NotANumber:
        raise argparse.ArgumentTypeError(
            f"{ranges.shown(value)!r} is not a whole number {wanted}") from None


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose arguments without a type are text, checked to be UTF-8
    (its sub-command parsers are of this class too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("type", None, self._text)
        self._not_utf8: str | None = None

    def add_subparsers(self, **kwargs: Any) -> Any:
        """Sub-commands, whose words are checked by their own parsers: the command's
        action gets every word after the command too, file names included."""
        action = super().add_subparsers(**kwargs)
        action.type = path
        return action

    def _text(self, value: str) -> str:
        if has_surrogates(value):
            self._not_utf8 = value
            raise argparse.ArgumentTypeError(_NOT_UTF8)
        return value

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A word that is no sub-command: argparse's error naming only the commands help
        shows (never the hidden ``merge-driver`` and ``__complete``), with the nearest
        one when the word looks like a misspelling (``serch``: did you mean 'search'?)."""
        if isinstance(action, argparse._SubParsersAction) and action.choices is not None \
                and value not in action.choices:
            shown = [choice.dest for choice in action._choices_actions] or \
                [str(choice) for choice in action.choices]
            near = difflib.get_close_matches(str(value), shown, n=1)
            guess = f": did you mean {near[0]!r}?" if near else ""
            raise argparse.ArgumentError(action, (
                f"invalid choice: {value!r}{guess} (choose from "
                f"{', '.join(map(repr, shown))})"))
        super()._check_value(action, value)

    def error(self, message: str) -> NoReturn:
        """argparse's report of a bad argument: usage and message, exit 2; for text that is
        not UTF-8 the one line of a user's error instead (argparse names the argument in
        ``message``: ``argument TAG: is not valid UTF-8``)."""
        if self._not_utf8 is not None and message.endswith(_NOT_UTF8):
            name = message.removesuffix(_NOT_UTF8).rstrip(": ")
            raise ArgumentNotUtf8Error(
                f"{name} {_NOT_UTF8}: '{escape_surrogates(self._not_utf8)}'")
        super().error(escape_surrogates(message))
