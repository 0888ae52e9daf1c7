"""Bad input is exit 1 and one line naming file and line or record, never "internal error"
(exit 70): one test per kind of file that crashed an import before, through the real
``paper-tui import`` (in-process, as the command line calls it)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import forked_cli
from paper_tui.cli import main
from paper_tui.importers import dblp, parallel
from paper_tui.model import Paper

DATA = Path(__file__).parent / "data"
ABSTRACT = "We study how a long enough abstract is imported from a file with a bad record."


def run(capsys: pytest.CaptureFixture[str], library: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--library", str(library), *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def lines_of(err: str) -> list[str]:
    return err.splitlines()


def assert_named(err: str, path: Path, *where: str) -> None:
    """Every line of ``err`` is one of paper-tui's, names ``path``; ``where`` are the
    locations (``:3``, ``(record 2)``) the lines name, in order."""
    lines = lines_of(err)
    assert lines, "expected a message"
    assert "Traceback" not in err and "internal error" not in err
    for line in lines:
        assert line.startswith(f"paper-tui: {path}"), line
    for line, place in zip(lines, where, strict=False):
        assert line.startswith(f"paper-tui: {path}{place}: "), line


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    return tmp_path / "lib"


def imported(capsys: pytest.CaptureFixture[str], lib: Path, path: Path
             ) -> tuple[int, str, str]:
    return run(capsys, lib, "import", str(path))


def titles(capsys: pytest.CaptureFixture[str], lib: Path) -> list[str]:
    status, out, _ = run(capsys, lib, "list", "--json")
    assert status == 0
    return sorted(p["title"] for p in json.loads(out))


# -- XML -------------------------------------------------------------------------------------
FEED = """<?xml version="1.0" encoding="{encoding}"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>arXiv query results</title>
  <entry>
    <id>http://arxiv.org/abs/2401.00001v1</id>
    <title>An entry that is fine</title>
    <summary>{abstract}</summary>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/2401.00002v1</id>
    <title>{title}</title>
    <summary>{abstract}</summary>
  </entry>
</feed>
"""


@pytest.mark.parametrize("title", ["Graphs & trees", "Graphs &nbsp; trees"])
def test_atom_with_an_xml_error_mid_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         lib: Path, title: str) -> None:
    feed = tmp_path / "arxiv.atom"
    feed.write_text(FEED.format(encoding="UTF-8", title=title, abstract=ABSTRACT))
    status, out, err = imported(capsys, lib, feed)
    assert status == 1
    assert_named(err, feed, ":11")
    assert "invalid XML" in lines_of(err)[0]
    assert "1 paper from 1 file(s): 1 new" in out  # the entry before it is kept


@pytest.mark.parametrize("encoding", ["idna", "punycode", "utf-16", "utf-7"])
@pytest.mark.parametrize("fmt", ["atom", "dblp"])
def test_xml_declaring_an_odd_encoding(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       lib: Path, encoding: str, fmt: str) -> None:
    path = tmp_path / ("feed.atom" if fmt == "atom" else "dblp.xml")
    if fmt == "atom":
        path.write_text(FEED.format(encoding=encoding, title="A title", abstract=ABSTRACT))
    else:
        path.write_text(f'<?xml version="1.0" encoding="{encoding}"?>\n<dblp>\n'
                        '<inproceedings key="conf/x/A24"><author>Ann A</author>'
                        '<title>A title.</title><year>2024</year></inproceedings>\n</dblp>\n')
    status, _, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path, ":1")
    assert len(lines_of(err)) == 1
    assert f"encoding {encoding!r}" in err


# -- gzip ------------------------------------------------------------------------------------
def test_corrupt_gzip(capsys: pytest.CaptureFixture[str], tmp_path: Path, lib: Path) -> None:
    lines = (DATA / "papers-ml-sample.jsonl").read_bytes().splitlines(keepends=True)
    whole = gzip.compress(b"".join(lines[:10]), mtime=0)  # a first member that is fine
    broken = bytearray(gzip.compress(b"".join(lines[10:]), mtime=0))
    broken[40:80] = b"\xff" * 40  # then deflate data zlib cannot read (zlib.error)
    path = tmp_path / "papers.jsonl.gz"
    path.write_bytes(whole + bytes(broken))
    status, out, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path, ":11")
    assert "damaged gzip data (Error -3 while decompressing" in err and len(lines_of(err)) == 1
    assert out.startswith("10 papers from 1 file(s): 10 new")  # those before the damage


# -- JSON fields of the wrong type -----------------------------------------------------------
def paperlists(tmp_path: Path, bad: dict) -> Path:
    records = json.loads((DATA / "nips2018-sample.json").read_text())[:3]
    records[1].update(bad)
    path = tmp_path / "nips2018.json"
    path.write_text(json.dumps(records))
    return path


@pytest.mark.parametrize(("bad", "says"), [
    ({"author": 5}, "author is 5 (a number), not names"),
    ({"keywords": True}, "keywords is true (a boolean), not keywords"),
    ({"title": {"text": "x"}}, "title is an object, not text"),
    ({"year": float("nan")}, "year is nan (not a finite number), not a year"),
    ({"year": 1e300}, "year is 1e+300 (a number), not a year"),
])
def test_paperlists_field_of_the_wrong_type(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, lib: Path, bad: dict,
                                            says: str) -> None:
    path = paperlists(tmp_path, bad)
    status, out, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path, " (record 2)")
    assert says in err and len(lines_of(err)) == 1
    assert "2 papers from 1 file(s)" in out  # the others are imported


def test_a_number_where_text_or_a_year_is_meant_is_taken(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path, lib: Path) -> None:
    path = paperlists(tmp_path, {"year": "2017", "title": 42})
    status, out, _ = imported(capsys, lib, path)
    assert status == 0 and "3 papers" in out
    _, listed, _ = run(capsys, lib, "search", "title:42", "--json")
    assert [(p["title"], p["year"]) for p in json.loads(listed)] == [("42", 2017)]


@pytest.mark.parametrize("bad", [b'"authors": true', b'"authors": [["A"]]', b'"keywords": 5',
                                 b'"year": NaN', b'"year": -1e300'])
def test_jsonl_field_of_the_wrong_type(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       lib: Path, bad: bytes) -> None:
    path = tmp_path / "papers.jsonl"
    good = f'{{"title": "Fine", "abstract": "{ABSTRACT}"}}'.encode()
    path.write_bytes(good + b"\n" + good[:-1] + b", " + bad + b"}\n")
    status, out, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path, ":2")
    assert "1 paper from 1 file(s)" in out


def test_openreview_time_stamp_out_of_range(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, lib: Path) -> None:
    notes = [{"id": f"n{i}", "cdate": stamp, "content": {"title": f"Paper {i}",
                                                         "abstract": ABSTRACT}}
             for i, stamp in enumerate((1700000000000, 1e300))]
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"notes": notes}))
    status, out, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path, " (record 2)")
    assert "cdate is not a time" in err and "1 paper from" in out


# -- deep nesting ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_json_nested_100000_deep(capsys: pytest.CaptureFixture[str], tmp_path: Path, lib: Path,
                                 name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b'{"a": ' * 100_000 + b"1" + b"}" * 100_000 + b"\n")
    status, _, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path)
    assert "invalid JSON: nested too deeply" in lines_of(err)[0]


# -- CSV, text encodings, file names ---------------------------------------------------------
def test_csv_with_cr_only_line_ends(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    lib: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_bytes(b'title,abstract\rFirst paper,"' + ABSTRACT.encode() + b'"\r'
                     b'Second paper,"Its abstract has\ra line break, and is long enough."\r')
    status, out, err = imported(capsys, lib, path)
    assert (status, err) == (0, "")
    assert "2 papers from 1 file(s): 2 new" in out
    _, shown, _ = run(capsys, lib, "search", "title:second", "--json")
    assert json.loads(shown)[0]["abstract"] == "Its abstract has\ra line break, and is long " \
                                                 "enough."


def test_unpaired_surrogates_in_jsonl(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      lib: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(f'{{"title": "Fine", "abstract": "{ABSTRACT}"}}\n'
                    f'{{"title": "Half a pair \\ud83d here", "abstract": "{ABSTRACT}"}}\n'
                    f'{{"title": "A pair \\ud83d\\ude00 is fine", "abstract": "{ABSTRACT}"}}\n')
    status, out, err = imported(capsys, lib, path)
    assert status == 1
    assert_named(err, path, ":2")
    assert "unpaired UTF-16 surrogate (\\ud83d)" in err
    assert "2 papers from 1 file(s)" in out
    assert "A pair \U0001f600 is fine" in titles(capsys, lib)


def test_a_250_character_file_name(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   lib: Path) -> None:
    path = tmp_path / ("p" * 245 + ".jsonl")
    path.write_text(f'{{"title": "Long name", "abstract": "{ABSTRACT}"}}\n')
    status, out, err = imported(capsys, lib, path)
    assert (status, err) == (0, "")
    assert "1 paper from 1 file(s): 1 new" in out
    again = imported(capsys, lib, path)  # the same source: nothing new
    assert again[0] == 0 and "0 new, 1 already" in again[1]


# -- a directory goes on past a bad file -----------------------------------------------------
def test_a_directory_import_goes_on_past_bad_files(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, lib: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "a-deep.json").write_bytes(b"[" * 100_000 + b"]" * 100_000)
    (folder / "b-bad.atom").write_text(FEED.format(encoding="punycode", title="T",
                                                   abstract=ABSTRACT))
    shutil.copy(DATA / "sample.csv", folder / "c-sample.csv")
    (folder / "d-types.json").write_text(json.dumps([{"title": "T", "abstract": ABSTRACT,
                                                       "author": 5}]))
    shutil.copy(DATA / "nips2018-sample.json", folder / "nips2018.json")
    status, out, err = imported(capsys, lib, folder)
    assert status == 1
    assert "Traceback" not in err and "internal error" not in err
    named = [line.split(": ", 2)[1] for line in lines_of(err)]
    assert all(str(folder) in name for name in named)
    # nips2018.json's record without an abstract is a paper (issue 24): nothing to name there
    assert {Path(name.split(":")[0].split(" (")[0]).name for name in named} == \
        {"a-deep.json", "b-bad.atom", "c-sample.csv", "d-types.json"}
    assert out.startswith("25 papers from 2 file(s): 25 new")  # the summary, at the end


# -- the worker that reads a file of 4 MB or more --------------------------------------------
def test_a_bad_file_of_4_mb_read_by_the_worker(tmp_path: Path) -> None:
    """A real ``paper-tui import`` of a big file (parsed in the worker process): a record of
    the wrong type is one line, not the worker's traceback."""
    records = json.loads((DATA / "nips2018-sample.json").read_text())
    many = [dict(r, title=f"{r.get('title')} ({i})") for i in range(60) for r in records]
    many[1]["author"] = 5
    path = tmp_path / "nips2018.json"
    path.write_text(json.dumps(many))
    assert path.stat().st_size >= parallel.PARALLEL_BYTES
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "lib"),
                           "import", str(path)], capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines() if "skipped" not in line]
    assert errors == [f"paper-tui: {path} (record 2): author is 5 (a number), not names (a "
                      "text or a list)"]
    assert "1 error(s)" in done.stdout


def _explode(papers: list[Paper]) -> None:
    """A bug in the work the worker takes on (run there: a module-level function)."""
    raise ZeroDivisionError(f"{len(papers)} papers, and a division by zero")


def test_a_bug_in_the_worker_is_one_line_and_its_traceback_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "EVERY", 1)  # the worker prepares every chunk
    path = tmp_path / "papers.jsonl"
    shutil.copy(DATA / "papers-ml-sample.jsonl", path)
    stream = parallel.read_in_worker("paper_tui.importers.jsonl", path, "papers",
                                     parallel.Prepare(_explode, lambda papers, result: None))
    with pytest.raises(parallel.WorkerError) as caught:
        list(stream)
    assert str(caught.value) == (f"the import worker for {path} failed: ZeroDivisionError: "
                                 "41 papers, and a division by zero")
    logged = "".join(traceback.format_exception(caught.value))  # what the crash log holds
    assert "in the import worker:" in logged and "in _explode" in logged


# -- limits ----------------------------------------------------------------------------------
def _bytes_read() -> int:
    """Bytes this process has read from files and pipes so far (Linux's ``rchar``)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def test_a_plain_file_over_1_gib_is_refused_unread(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, lib: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as out:  # sparse: nothing is written but its first byte
        out.write(b"[")
        out.truncate((1 << 30) + 1)
    before = _bytes_read()
    status, _, err = imported(capsys, lib, path)
    assert _bytes_read() - before < 64 << 20  # not read through (it was, for a checksum)
    assert status == 1
    assert err == (f"paper-tui: {path}: is more than 1 GiB: too big for a paper list read "
                   "whole (JSON Lines is read as it goes)\n")


def test_fields_at_the_size_limit_import(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         lib: Path) -> None:
    """Texts of 99,000 characters that rescan themselves in a naive parser of Markdown,
    LaTeX or author lists: imported, shown as they are."""
    texts = ["*" * 99_000, "**a " * 24_750, "\\" * 99_000, "__a " * 24_750,
             "a, " * 33_000 + ")", " " * 99_000 + "x"]
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps({"title": f"Paper {i}", "abstract": text,
                                        "authors": text}) + "\n"
                            for i, text in enumerate(texts)))
    status, out, err = imported(capsys, lib, path)
    assert (status, err) == (0, "")
    assert out.startswith("6 papers from 1 file(s): 6 new")
    too_long = tmp_path / "long.jsonl"
    too_long.write_text(json.dumps({"title": "Long", "abstract": "x" * 100_001}) + "\n")
    status, _, err = imported(capsys, lib, too_long)
    assert status == 1
    assert err.startswith(f"paper-tui: {too_long}:1: abstract is 100,001 characters long "
                          "(at most 100,000)\n")


def test_dblp_records_are_found_as_before() -> None:
    """Records are found in linear time, as the lazy pattern found them."""
    data = (DATA / "formats" / "dblp-markup.xml").read_bytes()
    old = re.compile(rb"<(%s)\b.*?</\1\s*>" % "|".join(dblp.PAPERS).encode(), re.DOTALL)
    unclosed = b'<article key="x"><title>Open</title>\n' * 2_000
    for text in (data, unclosed + data, data.replace(b"</article>", b"</article >"),
                 data + unclosed):
        assert list(dblp.records(text)) == [m.span() for m in old.finditer(text)]
