"""The library's ``pdfs/`` folder: each paper's PDF, its text, and what is known of them.

- ``<paper id>.pdf``: the PDF (a symbolic link to the reader's own file after ``pdf add
  --link``). An id that is not a plain file name (a ``/``, a leading dot, other
  characters) gets a name of its own: :func:`stem`.
- ``<paper id>.txt``: its text (:func:`~paper_tui.pdfs.reader.text`), derived: deleted,
  it is extracted again when asked for.
- ``index.json``: per paper its pages, bytes, where it came from, when it was fetched and
  last opened; written atomically under ``.lock``. Damaged or missing, it is made again
  from the PDFs there (the times then start over).
- ``.<stem>.<process id>.<random>.part``: a download or copy under way. A PDF is put in
  place by a rename once whole and checked, so a process killed half-way leaves only
  this, which never counts as a PDF; :meth:`Shelf.sweep` removes those of processes gone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import filelock

from paper_tui.trust import atomic

FOLDER = "pdfs"
INDEX = "index.json"
PART = ".part"
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,150}")
_LOCK_TIMEOUT = 60


def stem(paper_id: str) -> str:
    """The file name (without ``.pdf``) of a paper's PDF: its id when that is a plain
    name, else the id's plain letters and a hash of it (never a path, never hidden)."""
    if _PLAIN.fullmatch(paper_id) and not paper_id.endswith((".part", ".tmp")) \
            and paper_id != "index":
        return paper_id
    plain = re.sub(r"[^A-Za-z0-9._-]+", "_", paper_id).strip("._-")[:60]
    digest = hashlib.sha256(paper_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{plain or 'paper'}-{digest}"


@dataclass(frozen=True)
class Held:
    """A PDF the library holds."""

    paper_id: str
    pages: int
    bytes: int
    fetched: float
    """When it was fetched or added (seconds since the epoch)."""
    source: str = ""
    """The URL it was fetched from, or the file it was added from."""
    opened: float | None = None
    """When ``pdf open`` (or the app) last opened it; None: never."""
    linked: bool = False
    """A link to the reader's own file (``pdf add --link``): removing it keeps the file."""

    @property
    def last_used(self) -> float:
        """What ``prune`` orders by: when last opened, else when fetched."""
        return self.opened if self.opened is not None else self.fetched

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


class Shelf:
    """The ``pdfs/`` folder of the library at ``root``."""

    def __init__(self, root: Path) -> None:
        self.folder = root / FOLDER

    def pdf_path(self, paper_id: str) -> Path:
        return self.folder / f"{stem(paper_id)}.pdf"

    def text_path(self, paper_id: str) -> Path:
        return self.folder / f"{stem(paper_id)}.txt"

    def has(self, paper_id: str) -> bool:
        """Whether the paper's PDF is here (a link whose file is gone is not)."""
        return self.pdf_path(paper_id).is_file()

    # -- what is held ------------------------------------------------------------------
    def held(self) -> dict[str, Held]:
        """Every PDF here, by paper id: the index's, less those whose file is gone."""
        entries = self._read()
        return {pid: held for pid, held in entries.items() if self.has(pid)}

    def get(self, paper_id: str) -> Held | None:
        return self.held().get(paper_id)

    @contextlib.contextmanager
    def _changing(self) -> Iterator[dict[str, Held]]:
        """The index, to change in place, written back when the block ends (one process
        at a time)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with filelock.FileLock(str(self.folder / ".lock"), timeout=_LOCK_TIMEOUT):
            entries = {pid: held for pid, held in self._read().items() if self.has(pid)}
            yield entries
            atomic.write_text(self.folder / INDEX, json.dumps(
                {"version": 1, "papers": {pid: _record(held) for pid, held
                                          in sorted(entries.items())}}, indent=1))

    def _read(self) -> dict[str, Held]:
        try:
            data = json.loads(atomic.read_regular(self.folder / INDEX)[0])
            papers = data["papers"]
            return {pid: Held(paper_id=pid, **record) for pid, record in papers.items()
                    if isinstance(record, dict)}
        except (OSError, ValueError, TypeError, KeyError, RecursionError, AttributeError):
            return {}  # none yet or damaged: what is there is found again (:meth:`adopt`)

    def orphans(self) -> list[str]:
        """Paper ids of PDFs here that the index does not name (a process killed between
        the rename and the index's write; a damaged index): plain names only."""
        if not self.folder.is_dir():
            return []
        named = {stem(pid) for pid in self._read()}
        return sorted(path.stem for path in self.folder.glob("*.pdf")
                      if path.stem not in named and stem(path.stem) == path.stem
                      and path.is_file())

    def adopt(self, pages_of: Callable[[Path], int]) -> list[str]:
        """Put :meth:`orphans` in the index (``pages_of`` counts their pages; a file that
        is no PDF is left alone, not counted); the ids put in."""
        found = self.orphans()
        if not found:
            return []
        adopted = []
        with self._changing() as entries:
            for pid in found:
                path = self.pdf_path(pid)
                try:
                    pages = pages_of(path)
                except Exception:  # no PDF after all (or unreadable): not counted as one
                    continue
                status = path.stat()
                entries[pid] = Held(pid, pages, status.st_size, status.st_mtime, "",
                                    linked=path.is_symlink())
                adopted.append(pid)
        return adopted

    # -- putting in and taking out -----------------------------------------------------
    def new_part(self, paper_id: str) -> Path:
        """A new, empty temporary file for the paper's PDF under way (see the module)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for _ in range(100):
            part = self.folder / (f".{stem(paper_id)}.{os.getpid()}."
                                  f"{secrets.token_hex(4)}{PART}")
            try:
                os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            except FileExistsError:
                continue
            return part
        raise FileExistsError(f"{self.folder}: no unused temporary file name")

    def sweep(self) -> int:
        """Remove the temporary files of processes no longer running; how many."""
        if not self.folder.is_dir():
            return 0
        swept = 0
        for part in self.folder.glob(f".*{PART}"):
            try:
                pid = int(part.name.rsplit(".", 3)[-3])
            except (ValueError, IndexError):
                pid = 0
            if pid == os.getpid() or (pid > 0 and _running(pid)):
                continue
            with contextlib.suppress(FileNotFoundError):
                part.unlink()
                swept += 1
        return swept

    def put(self, paper_id: str, part: Path, pages: int, text: str, source: str) -> Held:
        """The checked PDF at ``part`` (a :meth:`new_part`) becomes the paper's, with its
        text; what is held."""
        atomic.write_text(self.text_path(paper_id), text)
        with self._changing() as entries:
            os.replace(part, self.pdf_path(paper_id))
            atomic.fsync_dir(self.folder)
            held = Held(paper_id, pages, self.pdf_path(paper_id).stat().st_size,
                        time.time(), source)
            entries[paper_id] = held
        return held

    def link(self, paper_id: str, file: Path, pages: int, text: str) -> Held:
        """The paper's PDF is the reader's ``file`` (a symbolic link to it)."""
        target = file.resolve()
        atomic.write_text(self.text_path(paper_id), text)
        part = self.new_part(paper_id)
        part.unlink()
        os.symlink(target, part)
        with self._changing() as entries:
            os.replace(part, self.pdf_path(paper_id))
            held = Held(paper_id, pages, target.stat().st_size, time.time(), str(target),
                        linked=True)
            entries[paper_id] = held
        return held

    def opened(self, paper_id: str) -> None:
        """The paper's PDF was opened now (``prune`` keeps the recently read)."""
        with self._changing() as entries:
            if paper_id in entries:
                entries[paper_id] = replace(entries[paper_id], opened=time.time())

    def remove(self, paper_id: str) -> bool:
        """Take the paper's PDF and text out (a linked file stays where it is); whether
        there was one."""
        with self._changing() as entries:
            path = self.pdf_path(paper_id)
            there = path.is_symlink() or path.exists()
            path.unlink(missing_ok=True)
            self.text_path(paper_id).unlink(missing_ok=True)
            entries.pop(paper_id, None)
        return there

    # -- text ----------------------------------------------------------------------------
    def text(self, paper_id: str) -> str | None:
        """The cached text of the paper's PDF; None when it is not cached."""
        try:
            return atomic.read_regular(self.text_path(paper_id))[0].decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def keep_text(self, paper_id: str, text: str) -> None:
        atomic.write_text(self.text_path(paper_id), text)


def _record(held: Held) -> dict[str, Any]:
    record = held.as_json()
    del record["paper_id"]
    return record


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True
