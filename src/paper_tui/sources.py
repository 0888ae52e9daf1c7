"""The library's own copy of every imported file: ``sources/<id>.jsonl.gz`` + a manifest.

Papers stay when the original file moves or is deleted, and the index can always be
rebuilt from here. Re-importing a file replaces its source atomically.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from paper_tui import atomic
from paper_tui.errors import SourceError
from paper_tui.model import Paper
from paper_tui.surrogates import json_escape_surrogates

MANIFEST = "manifest.json"
VERSION = 2
"""What the stored papers hold: 1, before the venue's signals (decision, reviews, area,
citations, links, affiliations: :mod:`paper_tui.venue_signals`); 2, with them, and every
record of a list a paper (with or without an abstract). An older library's sources are
re-read from their original files on first open (:mod:`paper_tui.library.upgrade`)."""


@dataclass(frozen=True)
class SourceInfo:
    id: str
    path: str
    checksum: str
    format: str
    count: int
    imported_at: float


def encode(paper: Paper) -> bytes:
    """One stored line: :meth:`Paper.to_record` as JSON (fields at their defaults left out;
    tuples are JSON arrays as lists are)."""
    return json.dumps(paper.to_record(), ensure_ascii=False).encode() + b"\n"


def checksum(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class SourceStore:
    """Normalised copies of imported files, one gzipped JSON Lines file per source."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._manifest: dict[str, SourceInfo] | None = None
        self._version = VERSION

    @property
    def manifest(self) -> dict[str, SourceInfo]:
        if self._manifest is None:
            self._manifest = self._load_manifest()
        return self._manifest

    @property
    def version(self) -> int:
        """What the stored papers hold (:data:`VERSION`; a new library is current)."""
        _ = self.manifest
        return self._version

    def mark_current(self) -> None:
        """Record that every stored source is of this :data:`VERSION`."""
        self._version = VERSION
        self._save_manifest()

    def _load_manifest(self) -> dict[str, SourceInfo]:
        path = self.root / MANIFEST
        self._version = VERSION
        if not path.exists():
            return {}
        try:
            raw = json.loads(path.read_text("utf-8"))
            sources = {sid: SourceInfo(**info) for sid, info in raw["sources"].items()}
            version = raw.get("version", 1)
            self._version = version if isinstance(version, int) else 1
            return sources
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SourceError(path, f"library manifest is unreadable ({exc}); "
                              "re-import your files to rebuild it") from None

    def _save_manifest(self) -> None:
        sources = {sid: asdict(info) for sid, info in sorted(self.manifest.items())}
        data = {"version": self._version, "sources": sources}
        # The path of a file whose name is not UTF-8 is kept, escaped, to the byte.
        text = json_escape_surrogates(json.dumps(data, indent=1, ensure_ascii=False))
        atomic.write_text(self.root / MANIFEST, text)

    def reload(self) -> None:
        """Forget the manifest read so far; the next use reads it from disk again."""
        self._manifest = None

    def file(self, source_id: str) -> Path:
        return self.root / f"{source_id}.jsonl.gz"

    def get(self, source_id: str) -> SourceInfo | None:
        return self.manifest.get(source_id)

    def is_current(self, source_id: str, digest: str) -> bool:
        info = self.manifest.get(source_id)
        return info is not None and info.checksum == digest and self.file(source_id).exists()

    def write(self, source_id: str, original: Path, digest: str, fmt: str,
              papers: Iterable[Paper], encoded: Callable[[Paper], bytes] = encode) -> int:
        """Store a source's papers (replacing any earlier copy); return how many.

        ``encoded(paper)`` is its line (:func:`encode`), when that was done ahead."""
        return self.write_lines(source_id, original, digest, fmt, map(encoded, papers))

    def write_lines(self, source_id: str, original: Path, digest: str, fmt: str,
                    lines: Iterable[bytes]) -> int:
        """Store a source's papers as their encoded lines (:func:`encode`); how many."""
        buffer = io.BytesIO()
        count = 0
        # mtime=0 keeps the file byte-identical for identical input; level 3 is as small
        # as 5 on these files, at half the time.
        with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=3, mtime=0) as gz:
            for line in lines:
                gz.write(line)
                count += 1
        atomic.write_bytes(self.file(source_id), buffer.getvalue())
        self.manifest[source_id] = SourceInfo(source_id, str(original.resolve()), digest, fmt,
                                              count, time.time())
        self._save_manifest()
        return count

    def remove(self, source_id: str) -> None:
        self.manifest.pop(source_id, None)
        self._save_manifest()
        self.file(source_id).unlink(missing_ok=True)

    def papers(self, source_id: str) -> Iterator[Paper]:
        path = self.file(source_id)
        try:
            with gzip.open(path, "rb") as fh:
                for number, line in enumerate(fh, 1):
                    if line.strip():
                        try:
                            yield Paper.from_dict(json.loads(line))
                        except (ValueError, TypeError) as exc:
                            raise SourceError(path, f"damaged record: {exc}", line=number) from None
        except (OSError, EOFError) as exc:
            raise SourceError(path, f"cannot read stored source: {exc}") from None

    def all_papers(self) -> Iterator[Paper]:
        for sid in sorted(self.manifest):
            yield from self.papers(sid)

    def total(self) -> int:
        return sum(info.count for info in self.manifest.values())
