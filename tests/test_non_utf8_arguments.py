"""Arguments whose bytes are not UTF-8, as a shell passes them (`$'\\xff'`): a text argument
(query, tag, note, list name, venue…) is refused with one line naming it, exit 1, nothing
written; a file name may hold any bytes (Linux allows them): it is used as it is and shown
escaped. Never a traceback, never a surrogate in a YAML or JSON file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TEST_DATA = Path(__file__).parent / "data"


@pytest.fixture
def paper(bundled_ids: list[str]) -> str:
    return bundled_ids[0]


def run(*args: str | bytes | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``python -m paper_tui ARGS`` with arguments as bytes; exit status, stdout, stderr
    (undecodable output shown as U+FFFD: the test asserts it is not there)."""
    done = subprocess.run([sys.executable, "-m", "paper_tui",
                           *(os.fsencode(a) if not isinstance(a, bytes) else a for a in args)],
                          capture_output=True, timeout=120, env={**os.environ, **(env or {})})
    return (done.returncode, done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"))


def files_of(lib_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in lib_dir.iterdir() if p.is_file()}


@pytest.mark.parametrize(("words", "name", "shown"), [
    (["search", b"\xff"], "QUERY", "\\xff"),
    (["tag", "{id}", "fine", b"bad\xff"], "TAG", "bad\\xff"),
    (["untag", "{id}", b"bad\xff"], "TAG", "bad\\xff"),
    (["note", "{id}", "--set", b"caf\xe9"], "--set", "caf\\xe9"),
    (["note", "{id}", "--append", b"\xc3("], "--append", "\\xc3("),
    (["lists", "create", b"list\xff"], "NAME", "list\\xff"),
    (["lists", "add", b"list\xff", "{id}"], "LIST", "list\\xff"),
    (["lists", "describe", "x", b"about \xfe"], "TEXT", "about \\xfe"),
    (["export", "--query", b"q\xff"], "--query", "q\\xff"),
    (["recommend", b"\xff"], "QUERY", "\\xff"),
    (["show", b"\xff"], "ID", "\\xff"),
    (["import", "--venue", b"V\xff", str(TEST_DATA / "sample.csv")], "--venue", "V\\xff"),
    (["sync", "--as", b"b\xffb", "--remote", "/nowhere"], "--as", "b\\xffb"),
])
def test_a_text_argument_that_is_not_utf8_is_one_line_and_changes_nothing(
        lib_dir: Path, paper: str, words: list, name: str, shown: str) -> None:
    before = files_of(lib_dir)
    args = [w.replace("{id}", paper) if isinstance(w, str) else w for w in words]
    status, out, err = run("--library", lib_dir, *args)
    assert (status, out) == (1, "")
    assert err == f"paper-tui: argument {name} is not valid UTF-8: '{shown}'\n"
    assert files_of(lib_dir) == before


def test_a_surrogate_never_reaches_the_annotations(lib_dir: Path, paper: str) -> None:
    """The tag of the finding: refused; a valid one in the same library still works."""
    status, _, err = run("--library", lib_dir, "tag", paper, b"bad\xff")
    assert status == 1 and len(err.splitlines()) == 1 and "Traceback" not in err
    status, _, err = run("--library", lib_dir, "tag", paper, "caf\u00e9")
    assert status == 0, err
    text = (lib_dir / "annotations.yaml").read_bytes().decode("utf-8")  # strict: it must be
    assert "café" in text and "\\x" not in text


def test_a_file_whose_name_is_not_utf8_imports(lib_dir: Path, tmp_path: Path) -> None:
    name = os.fsdecode(b"nips2018 \xff\xfe.json")
    source = tmp_path / name
    shutil.copy(TEST_DATA / "nips2018-sample.json", source)
    status, out, err = run("--library", lib_dir, "import", source)
    assert status == 0, err
    assert "papers from 1 file(s)" in out and "new" in out and "\ufffd" not in err
    manifest = (lib_dir / "sources" / "manifest.json").read_bytes().decode("utf-8")
    assert str(source) in [info["path"] for info in json.loads(manifest)["sources"].values()]
    again = run("--library", lib_dir, "import", source)  # the path read back is the same file
    assert again[0] == 0 and "already in the library" in again[1]


def test_a_missing_file_whose_name_is_not_utf8_is_named_escaped(lib_dir: Path,
                                                                tmp_path: Path) -> None:
    status, _, err = run("--library", lib_dir, "import", tmp_path / os.fsdecode(b"gone\xff.csv"))
    assert status == 1
    assert f"paper-tui: {tmp_path}/gone\\xff.csv: no such file or directory\n" in err


def test_a_library_and_an_output_whose_names_are_not_utf8(bundled_library: Path,
                                                          tmp_path: Path) -> None:
    lib_dir = tmp_path / os.fsdecode(b"lib\xff")
    shutil.copytree(bundled_library, lib_dir)
    output = tmp_path / os.fsdecode(b"out\xfe.md")
    status, _, err = run("--library", lib_dir, "export", "--query", "", "-o", output)
    assert status == 0, err
    assert output.read_text("utf-8").startswith("# All papers")
    assert err == f"wrote 38 papers to {tmp_path}/out\\xfe.md\n"


def test_argparse_s_own_errors_stay_argparse_s(tmp_path: Path) -> None:
    """Not a command, not a file: argparse's usage and message, its exit status 2."""
    status, _, err = run("--library", tmp_path / "l", b"\xff")
    assert status == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(
        "paper-tui: error: argument COMMAND: invalid choice: '\\udcff'")


def test_a_note_from_the_editor_that_is_not_utf8_is_kept_not_saved(
        lib_dir: Path, paper: str, tmp_path: Path) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text("import sys\nopen(sys.argv[1], 'ab').write(b'fine\\nthen caf\\xe9\\n')\n")
    assert run("--library", lib_dir, "note", paper, "--set", "before")[0] == 0
    kept_in = tmp_path / "tmp"
    kept_in.mkdir()
    status, out, err = run("--library", lib_dir, "note", paper,
                           env={"EDITOR": f"{sys.executable} {editor}", "VISUAL": "",
                                "TMPDIR": str(kept_in)})
    kept = next(kept_in.glob("paper-tui-note-*.md"))
    assert (status, out) == (1, "")
    assert err == ("paper-tui: the note from the editor is not UTF-8 text (line 3, column 9): "
                   f"not saved; what you wrote is in {kept}\n")
    assert kept.read_bytes() == b"before\nfine\nthen caf\xe9\n"
    assert run("--library", lib_dir, "show", paper, "--json")[1].count('"note": "before"') == 1
