"""Reading gzip files with a size cap and a ratio cap: a gzip bomb fails fast as one
SourceError, in an import and in the library's own sources alike."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.errors import SourceError
from paper_tui.library import Library
from paper_tui.trust import bounded_gzip
from paper_tui.trust.bounded_gzip import gunzip, gunzip_bytes, open_gzip

DATA = Path(__file__).parent / "data"
ZEROS = 16 << 20


def bomb(path: Path, gigabytes: int = 10, fill: bytes = b"\0") -> Path:
    """``gigabytes`` GB of zeros (or another byte) in about a thousandth of that: one
    16 MiB member (16 KB packed), repeated (a gzip file may hold many members)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = packer.compress(fill * ZEROS) + packer.flush()
    path.write_bytes(member * (gigabytes * (1 << 30) // ZEROS))
    return path


def test_a_bomb_stops_at_the_ratio_cap(tmp_path: Path) -> None:
    path = bomb(tmp_path / "zeros.jsonl.gz")
    assert path.stat().st_size < 12 << 20  # 10 GB of zeros in about 10 MB
    with pytest.raises(SourceError, match=r"zeros\.jsonl\.gz: unpacks to more than 100 times "
                                          r"its size: not a paper list"):
        gunzip(path)
    with open_gzip(path) as stream, pytest.raises(SourceError, match="100 times"):
        for _ in stream:
            pass


def test_the_size_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.txt.gz"
    path.write_bytes(gzip.compress(bytes(range(256)) * 40_000))  # 10 MB, packs ~200 times
    assert len(gunzip(path)) == 10_240_000  # under the ratio cap's 16 MiB floor
    with pytest.raises(SourceError, match=r"big\.txt\.gz: unpacks to more than 8 MiB: too "
                                          r"big for a paper list"):
        gunzip(path, max_unpacked=8 << 20)
    assert bounded_gzip.MAX_UNPACKED == 1 << 30 and bounded_gzip.MAX_RATIO == 100


def test_real_files_read_whole(tmp_path: Path) -> None:
    data = (DATA / "papers-ml-sample.jsonl").read_bytes()
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(gzip.compress(data[:5000]) + gzip.compress(data[5000:]))  # two members
    assert gunzip(path) == data
    with open_gzip(path) as stream:
        assert b"".join(stream) == data
    assert gunzip(DATA / "papers-ml-1000.jsonl.gz") == \
        gzip.decompress((DATA / "papers-ml-1000.jsonl.gz").read_bytes())


@pytest.mark.parametrize("damage", ["truncated", "flipped", "not gzip", "trailing garbage",
                                    "empty", "directory"])
def test_damage_is_a_source_error(tmp_path: Path, damage: str) -> None:
    packed = gzip.compress((DATA / "papers-ml-sample.jsonl").read_bytes())
    path = tmp_path / "papers.jsonl.gz"
    if damage == "truncated":
        path.write_bytes(packed[:-100])
    elif damage == "flipped":
        path.write_bytes(packed[:30] + b"\xff" * 30 + packed[60:])
    elif damage == "not gzip":
        path.write_bytes(b"just text\n" * 10)
    elif damage == "trailing garbage":
        path.write_bytes(packed + b"garbage")
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.mkdir()
    if damage == "empty":
        assert gunzip(path) == b""
        return
    with pytest.raises(SourceError, match=r"papers\.jsonl\.gz: (damaged gzip data|cannot "
                                          r"read)") as caught:
        gunzip(path)
    assert "\n" not in str(caught.value)


def test_lines_before_the_damage_are_read(tmp_path: Path) -> None:
    lines = (DATA / "papers-ml-sample.jsonl").read_bytes().splitlines(keepends=True)
    broken = bytearray(gzip.compress(b"".join(lines[20:])))
    broken[40:80] = b"\xff" * 40
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(gzip.compress(b"".join(lines[:20])) + bytes(broken))
    read = []
    with open_gzip(path) as stream, pytest.raises(SourceError, match="damaged gzip data"):
        for line in stream:
            read.append(line)
    assert read == lines[:20]


def test_an_imported_bomb_fails_fast_and_the_rest_imports(tmp_path: Path) -> None:
    """What the team sync relies on to quarantine a poisoned source."""
    folder = tmp_path / "lists"
    folder.mkdir()
    bomb(folder / "bomb.jsonl.gz", fill=b"\n")  # (zeros would be "binary file")
    (folder / "fine.jsonl").write_bytes((DATA / "papers-ml-sample.jsonl").read_bytes())
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        report = lib.import_paths([folder])
    assert len(report.errors) == 1
    assert str(report.errors[0]).startswith(f"{folder / 'bomb.jsonl.gz'}:")  # at line 16M
    assert str(report.errors[0]).endswith(": unpacks to more than 100 times its size: not a "
                                          "paper list (a gzip bomb?)")
    assert report.added == 41


def test_gzip_in_memory_keeps_the_caps_and_names_where_it_came_from() -> None:
    """A fetched body (paper_tui.fetch.http): members joined, the caps kept, damage one
    SourceError naming the URL."""
    url = "https://example.org/list.json"
    assert gunzip_bytes(gzip.compress(b"ab") + gzip.compress(b"cd"), url) == b"abcd"
    with pytest.raises(SourceError, match=r"example\.org/list\.json: unpacks to more than"):
        gunzip_bytes(gzip.compress(bytes(5000)), url, max_unpacked=1000)
    with pytest.raises(SourceError, match=r"example\.org/list\.json: damaged gzip data"):
        gunzip_bytes(gzip.compress(b"x" * 1000)[:-12], url)
