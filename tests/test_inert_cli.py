"""The command line on a hostile library: every plain-text output, every citation style
and every export for reading is inert; ``--json`` and the data exports keep the data, each
control character escaped; a file name in an import line is inert and on one line. And the
CLI's own escape sequences (the progress line) still reach a terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import forked_cli
from hostile_helpers import (
    ACTIVE,
    CLIPBOARD,
    LIST,
    MEMBER,
    NOTE,
    PANE_TITLE,
    PAYLOAD,
    TAG,
    TITLE,
    hostile_library,
    inert_shown,
)
from paper_tui.store.reading_lists import clean_text


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The hostile library (read-only here) and its two papers' ids, hostile first."""
    home = tmp_path_factory.mktemp("hostile")
    ids = hostile_library(home / "library", home)
    return home / "library", ids


def run(library: Path, *args: str, **streams) -> subprocess.CompletedProcess[str]:
    """``paper-tui --library LIBRARY ARGS``, its output captured unless ``streams`` say."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **streams}
    return forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], text=True, timeout=120, **streams)


PLAIN = {
    "list": ["list"],
    "show": ["show", "{first}"],
    "search": ["search", "hostile"],
    "search --similar": ["search", "--similar", "{first}"],
    "lists": ["lists"],
    "lists show": ["lists", "show", LIST],
    "tags": ["tags"],
    "orphans": ["orphans"],
    "recommend --explain": ["recommend", "--explain"],
    "cite": ["cite", "{first}", "{second}"],
    **{f"cite -f {style}": ["cite", "-f", style, "{first}", "{second}"]
       for style in ("plain", "markdown", "key")},
    **{f"export -f {fmt}": ["export", "--list", LIST, "-f", fmt]
       for fmt in ("markdown", "csv", "org", "bibtex", "ris")},
}


@pytest.mark.parametrize("command", PLAIN)
def test_plain_output_is_inert(command: str, hostile: tuple[Path, list[str]]) -> None:
    library, (first, second) = hostile
    done = run(library, *(a.format(first=first, second=second) for a in PLAIN[command]))
    assert done.returncode == 0, done.stderr
    assert inert_shown(done.stdout), done.stdout
    assert inert_shown(done.stderr), done.stderr


def test_show_keeps_each_field_on_its_line_and_the_note_on_its_lines(
        hostile: tuple[Path, list[str]]) -> None:
    library, (first, _second) = hostile
    lines = run(library, "show", first).stdout.split("\n")
    assert lines[0] == "Hostile  paper title"
    assert "Authors: Eve Mallory, Bob Ng" in lines
    assert "Tags:    eviltag" in lines and "Lists:   Readinglist" in lines
    assert any(line.startswith("Team:    mallory: ★ #eviltag note") for line in lines)
    assert lines[-6:] == ["Note:", "  first line", "  second line", "  third", "  line", ""]


def test_a_row_is_one_line_whatever_its_title_holds(hostile: tuple[Path, list[str]]) -> None:
    library, (first, _second) = hostile
    rows = run(library, "list").stdout.splitlines()
    assert len(rows) == 2
    assert rows[0].startswith(first) and "Hostile  paper title" in rows[0]


def test_json_keeps_the_data_with_every_control_character_escaped(
        hostile: tuple[Path, list[str]]) -> None:
    library, (first, _second) = hostile
    for args in (["list", "--json"], ["show", first, "--json"], ["search", "hostile", "--json"],
                 ["export", "--list", LIST, "-f", "json"]):
        done = run(library, *args)
        assert done.returncode == 0
        assert ACTIVE.search(done.stdout) is None, args
        data = json.loads(done.stdout)
        paper = data if isinstance(data, dict) else next(
            p for p in data if p["id"] == first)
        assert paper["title"] == TITLE.replace("\x85", " ")  # the importer's white space
        assert paper["tags"] == [TAG]
        assert paper["note"] == clean_text(NOTE)
    team = json.loads(run(library, "show", first, "--json").stdout)["team"]
    assert list(team) == [MEMBER] and team[MEMBER]["tags"] == [TAG]
    lists = json.loads(run(library, "lists", "--json").stdout)
    assert [rl["name"] for rl in lists] == [LIST]


def test_csl_json_and_yaml_keep_the_data_escaped(hostile: tuple[Path, list[str]]) -> None:
    library, (first, _second) = hostile
    csl = run(library, "export", "--list", LIST, "-f", "csl-json").stdout
    assert ACTIVE.search(csl) is None
    shown = json.loads(run(library, "show", first, "--json").stdout)["display_title"]
    assert json.loads(csl)[0]["title"] == shown
    text = run(library, "export", "--list", LIST, "-f", "yaml").stdout
    assert ACTIVE.search(text) is None
    paper = next(p for p in yaml.safe_load(text) if p["id"] == first)
    assert paper["title"] == TITLE.replace("\x85", " ")
    assert paper["tags"] == [TAG] and paper["note"] == clean_text(NOTE)


def test_an_export_written_to_a_file_is_inert_too(hostile: tuple[Path, list[str]],
                                                  tmp_path: Path) -> None:
    library, _ids = hostile
    for fmt in ("markdown", "csv", "org", "bibtex", "ris"):
        out = tmp_path / f"list.{fmt}"
        assert run(library, "export", "--list", LIST, "-f", fmt, "-o", str(out)).returncode == 0
        assert inert_shown(out.read_text("utf-8")), fmt


def test_a_file_name_in_an_import_line_is_inert_and_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    bad = folder / f"bad{PANE_TITLE}\nname{CLIPBOARD}.jsonl"
    bad.write_text("{not json\n", "utf-8")
    done = run(tmp_path / "library", "import", str(folder))
    assert done.returncode == 1
    assert inert_shown(done.stderr), done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 2  # the line of the bad record, the file's
    assert all(line.startswith(f"paper-tui: {folder}/bad name.jsonl") for line in lines)
    assert done.stdout.count("\n") == 1  # the summary


def test_the_progress_line_keeps_its_own_sequences_on_a_terminal(tmp_path: Path) -> None:
    from hostile_helpers import write_hostile_list

    source = write_hostile_list(tmp_path / f"list{PANE_TITLE}.jsonl")
    done, seen = forked_cli.run_on_terminal([sys.executable, "-m", "paper_tui", "--library",
                                             str(tmp_path / "library"), "import", str(source)],
                                            timeout=120)
    assert done.returncode == 0
    shown = seen.decode("utf-8")
    assert "\r\x1b[K" in shown  # the CLI's own: the line drawn again
    assert inert_shown(shown.replace("\r\x1b[K", "").replace("\r\n", "\n")), shown
    assert PAYLOAD not in done.stdout


# -- standard output and error that cannot be written ---------------------------------------
def test_a_full_disk_on_stdout_is_one_line_and_exit_1(hostile: tuple[Path, list[str]]) -> None:
    library, (first, _second) = hostile
    for args in (["list"], ["list", "--json"], ["show", first], ["--help"]):
        with open("/dev/full", "w") as full:
            done = run(library, *args, stdout=full, stderr=subprocess.PIPE)
        assert done.returncode == 1, args
        assert done.stderr == \
            "paper-tui: cannot write to standard output: No space left on device\n", args


def test_nothing_writable_at_all_is_still_exit_1_and_no_crash_log(
        hostile: tuple[Path, list[str]], isolated_home: Path) -> None:
    library, _ids = hostile
    with open("/dev/full", "w") as full:
        done = run(library, "list", stdout=full, stderr=full)
        missing = run(library, "show", "no-such-id", stdout=full, stderr=full)
    assert done.returncode == 1
    assert missing.returncode == 1
    assert not list(isolated_home.rglob("crash-*.log"))


def test_a_closed_pipe_is_silent_and_exit_0(hostile: tuple[Path, list[str]]) -> None:
    library, (first, _second) = hostile
    for args in (["list"], ["list", "--json"], ["show", first], ["export", "--list", LIST]):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first byte
        try:
            done = run(library, *args, stdout=write, stderr=subprocess.PIPE)
        finally:
            os.close(write)
        assert (done.returncode, done.stderr) == (0, ""), args


def test_head_reading_one_line_is_silent(hostile: tuple[Path, list[str]]) -> None:
    library, _ids = hostile
    command = (f"{sys.executable} -m paper_tui --library {library} list --json | head -c 1"
               " >/dev/null; echo ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert (done.stdout, done.stderr) == ("0\n", "")


def test_dev_null_takes_everything(hostile: tuple[Path, list[str]]) -> None:
    library, _ids = hostile
    with open(os.devnull, "w") as null:
        done = run(library, "list", "--json", stdout=null, stderr=subprocess.PIPE)
    assert (done.returncode, done.stderr) == (0, "")
