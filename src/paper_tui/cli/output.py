"""Printing papers: one line each for people, JSON objects for scripts; writing a
command's ``-o FILE``.

A row for people is one line whatever its fields hold (:func:`paper_tui.trust.inert.inert_line`);
JSON keeps the data as it is, every control character written as an escape.

An ``-o FILE`` is a regular file or nothing yet: a device, FIFO, socket or directory is
refused before the command reads or computes anything (a FIFO would hold the command until
a reader came, ``/dev/full`` fail after the work), and again at the write. Without ``-o``
the text goes to the standard output.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paper_tui.errors import StoreError
from paper_tui.model import Paper
from paper_tui.trust import atomic
from paper_tui.trust.inert import escape_in_strings, inert_line, shown_name
from paper_tui.trust.surrogates import json_escape_surrogates

if TYPE_CHECKING:  # git's merge driver prints through here too: no index for it
    from paper_tui.library import Library

_INTERNAL = {"title_emphasis", "abstract_emphasis"}


def record(lib: Library, paper: Paper, **extra: Any) -> dict[str, Any]:
    """A paper as a JSON object: the model's fields plus what the library knows of it."""
    data = {k: v for k, v in paper.to_dict().items() if k not in _INTERNAL}
    data.update(lib.detail(paper.id).as_json())
    data.update(extra)
    return data


def print_json(data: Any) -> None:
    """``data`` as JSON: verbatim, with no raw control character (one write, not one a
    token: the standard output is a Python-level stream while a command runs)."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    sys.stdout.write(json_escape_surrogates(escape_in_strings(text)) + "\n")


def line(paper: Paper, extra: Sequence[str] = ()) -> str:
    """``id  title  [venue year]``, the title as the source gave it, then the ``extra``
    cells (the value sorted by, the decision); a name derived from the abstract follows as
    ``name: NAME``, never glued into the title."""
    where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
    out = "  ".join([f"{paper.id}  {paper.display_title or paper.title}  [{where}]", *extra])
    return inert_line(f"{out}  name: {paper.badge}" if paper.badge else out)


def check_output(path: Path | None) -> None:
    """Refuse an ``-o`` that names anything but a regular file (one line,
    :class:`StoreError`); call it before the work."""
    if path is not None:
        try:
            atomic.refuse_special(path)
        except OSError as exc:
            raise _cannot_write(path, exc) from None


def write_output(path: Path, text: str) -> str:
    """Write an ``-o`` file (a regular file, replaced atomically); its name as a message
    shows it (:func:`paper_tui.trust.inert.shown_name`). :class:`StoreError`: one line."""
    try:
        atomic.write_text(path, text, regular_only=True)
    except OSError as exc:
        raise _cannot_write(path, exc) from None
    return shown_name(path)


def _cannot_write(path: Path, exc: OSError) -> StoreError:
    return StoreError(f"{shown_name(path)}: cannot write ({exc.strerror or exc})")
