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
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from paper_tui import atomic
from paper_tui.errors import SourceError
from paper_tui.model import Paper
from paper_tui.surrogates import json_escape_surrogates

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class SourceInfo:
    id: str
    path: str
    checksum: str
    format: str
    count: int
    imported_at: float


_FIELDS = tuple(f.name for f in fields(Paper))


def encode(paper: Paper) -> bytes:
    """One stored line: ``paper.to_dict()`` as JSON (tuples are JSON arrays as lists are;
    read with attribute reads, as ``dataclasses.asdict`` costs more than the JSON)."""
    record = {name: getattr(paper, name) for name in _FIELDS}
    return json.dumps(record, ensure_ascii=False).encode() + b"\n"


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

    @property
    def manifest(self) -> dict[str, SourceInfo]:
        if self._manifest is None:
            self._manifest = self._load_manifest()
        return self._manifest

    def _load_manifest(self) -> dict[str, SourceInfo]:
        path = self.root / MANIFEST
        if not path.exists():
            return {}
        try:
            raw = json.loads(path.read_text("utf-8"))
            return {sid: SourceInfo(**info) for sid, info in raw["sources"].items()}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SourceError(path, f"library manifest is unreadable ({exc}); "
                              "re-import your files to rebuild it") from None

    def _save_manifest(self) -> None:
        sources = {sid: asdict(info) for sid, info in sorted(self.manifest.items())}
        data = {"version": 1, "sources": sources}
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
        buffer = io.BytesIO()
        count = 0
        # mtime=0 keeps the file byte-identical for identical input; level 3 is as small
        # as 5 on these files, at half the time.
        with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=3, mtime=0) as gz:
            for paper in papers:
                gz.write(encoded(paper))
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
