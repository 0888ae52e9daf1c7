"""The import's progress line on a terminal: how far through the file it is (the bytes of
the file read, of a gzipped file the packed bytes, over its size), the papers per second of
the last seconds and the time left. The arithmetic on given times (no sleeping), the
positions the reader and the worker report to the library's callback, and a real import
drawn on a pseudo-terminal."""

from __future__ import annotations

import gzip
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from paper_tui import config as config_mod
from paper_tui.cli.terminal import ImportLine, Pace, duration
from paper_tui.importers import registry
from paper_tui.library import Library

SAMPLE = Path(__file__).parent / "data" / "papers-ml-1000.jsonl.gz"


def real_looking(n: int) -> list[bytes]:
    """``n`` distinct papers made from the 1,000 real ones of the corpus's sample: the k-th
    copy of a paper has its title suffixed, its abstract's sentences rotated by k and its
    year moved (so each copy is a paper of its own, as real as its original)."""
    originals = [json.loads(line) for line in gzip.decompress(SAMPLE.read_bytes()).split(b"\n")
                 if line.strip()]
    lines = []
    for i in range(n):
        copy, record = divmod(i, len(originals))
        paper = dict(originals[record])
        paper.pop("id", None)
        if copy:
            sentences = paper.get("abstract", "").split(". ")
            turn = copy % max(len(sentences), 1)
            paper["abstract"] = ". ".join(sentences[turn:] + sentences[:turn])
            paper["title"] = f"{paper['title']} (part {copy + 1})"
            if isinstance(paper.get("year"), int):
                paper["year"] += copy
        lines.append(json.dumps(paper).encode() + b"\n")
    return lines


def write(path: Path, lines: list[bytes]) -> Path:
    data = b"".join(lines)
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
    return path


# -- the arithmetic ----------------------------------------------------------------------
def test_the_rate_is_the_last_ten_seconds_not_the_mean_since_the_start() -> None:
    pace = Pace()
    for second in range(31):  # 1,000 papers/s for 15 s, then 200 papers/s
        done = 1000 * min(second, 15) + 200 * max(second - 15, 0)
        pace.add(float(second), done, 10 * done)
    assert pace.papers_per_second() == pytest.approx(200)
    assert len(pace.samples) == 11  # t = 20 … 30: older counts are let go


def test_the_time_left_is_the_bytes_left_at_the_recent_byte_rate() -> None:
    pace = Pace()
    pace.add(100.0, 0, 0)
    pace.add(101.0, 500, 40_000)
    assert pace.papers_per_second() == 500
    assert pace.seconds_left(1_000_000) is None  # the first 2 seconds say nothing of it
    pace.add(102.0, 1000, 80_000)
    assert pace.seconds_left(1_000_000) == pytest.approx((1_000_000 - 80_000) / 40_000)
    # slower of late: the time left follows the last ten seconds' rate
    pace.add(112.0, 2000, 180_000)  # 10,000 bytes/s since t = 102
    assert pace.seconds_left(1_000_000) == pytest.approx(82)
    pace.add(122.0, 2500, 180_000)  # nothing of the file read for ten seconds
    assert pace.seconds_left(1_000_000) is None
    assert pace.papers_per_second() == pytest.approx(50)


def test_one_count_alone_has_no_rate() -> None:
    pace = Pace()
    pace.add(5.0, 500, 1000)
    assert pace.papers_per_second() is None and pace.seconds_left(2000) is None


def test_durations_read_as_said() -> None:
    assert [duration(s) for s in (0.4, 45, 59.6, 255, 3599, 3600, 7530)] == \
        ["0 s", "45 s", "1 min 0 s", "4 min 15 s", "59 min 59 s", "1 h 00 min", "2 h 05 min"]


def test_the_line_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    times: Iterator[float] = iter([0.0, 10.0, 10.0])
    line = ImportLine(clock=lambda: next(times))
    line.through_file("importing papers.jsonl.gz", 388_900, 386_863, 1_000_000)
    line.through_file("importing papers.jsonl.gz", 412_000, 410_000, 1_000_000)
    drawn = capsys.readouterr().err.split("\r\x1b[K")
    assert drawn[1] == "importing papers.jsonl.gz [######..........] 38% 388,900 papers"
    assert drawn[2] == ("importing papers.jsonl.gz [######..........] 41% 412,000 papers  "
                        "2,310 papers/s  4 min 15 s left")
    line("indexing", 600, 1000)  # a stage of its own, with its own rate
    assert capsys.readouterr().err == "\r\x1b[Kindexing: 600/1,000 papers"
    line.finish()
    assert capsys.readouterr().err == "\n"


# -- the positions the library hears -------------------------------------------------------
class Heard:
    """A progress callback with a ``through_file`` method: what it heard, in order."""

    def __init__(self) -> None:
        self.counts: list[tuple[str, int, int | None]] = []
        self.read: list[tuple[int, int, int]] = []

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        self.counts.append((stage, done, total))

    def through_file(self, stage: str, done: int, read: int, size: int) -> None:
        assert stage == "importing papers.jsonl.gz" or stage == "importing papers.jsonl"
        self.read.append((done, read, size))


@pytest.mark.parametrize("name", ["papers.jsonl.gz", "papers.jsonl"])
@pytest.mark.parametrize("in_worker", [False, True])
def test_the_import_says_how_far_through_the_file_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, in_worker: bool) -> None:
    if in_worker:
        monkeypatch.setattr(registry, "PARALLEL_BYTES", 0)
    source = write(tmp_path / name, real_looking(1600))
    size = source.stat().st_size
    heard = Heard()
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        report = lib.import_paths([source], progress=heard)
    assert report.added == 1600 and not report.errors
    assert heard.counts == []  # every count came with the file's position
    assert [done for done, _, _ in heard.read] == [500, 1000, 1500, 1600]
    reads = [read for _, read, _ in heard.read]
    assert reads == sorted(reads) and 0 < reads[0] < size and reads[-1] == size
    assert {s for _, _, s in heard.read} == {size}


def test_a_callback_without_through_file_hears_the_count_alone(tmp_path: Path) -> None:
    source = write(tmp_path / "papers.jsonl.gz", real_looking(600))
    counts: list[tuple[str, int, int | None]] = []
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        lib.import_paths([source], progress=lambda *count: counts.append(count))
    assert counts == [("importing papers.jsonl.gz", 500, None),
                      ("importing papers.jsonl.gz", 600, None)]


# -- on a terminal -------------------------------------------------------------------------
def test_a_real_import_on_a_terminal_draws_the_fraction_and_the_rate(tmp_path: Path) -> None:
    source = write(tmp_path / "papers.jsonl.gz", real_looking(4000))
    done, seen = forked_cli.run_on_terminal([sys.executable, "-m", "paper_tui", "--library",
                                             str(tmp_path / "library"), "import", str(source)],
                                            timeout=300)
    assert done.returncode == 0
    assert done.stdout == "4,000 papers from 1 file(s): 4,000 new, 0 already in the library\n"
    lines = seen.decode().split("\r\x1b[K")[1:]
    assert all(line.startswith("importing papers.jsonl.gz [") for line in lines), lines
    percents = [int(re.search(r"\] (\d+)% ", line)[1]) for line in lines]  # type: ignore[index]
    assert percents == sorted(percents) and percents[0] < 50 and percents[-1] == 100
    assert len(set(percents)) >= 4, lines
    assert re.search(r" 4,000 papers  [\d,]+ papers/s", lines[-1]), lines
    assert lines[-1].endswith("\r\n")  # what follows starts on a line of its own
