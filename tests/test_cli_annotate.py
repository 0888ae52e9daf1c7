"""The annotation verbs as a user runs them: real `paper-tui` subprocesses on a real library."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

import forked_cli


@pytest.fixture
def ids(bundled_ids: list[str]) -> list[str]:
    return bundled_ids


def run(lib_dir: Path, *args: str, env: dict | None = None, check: bool = True
        ) -> subprocess.CompletedProcess:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(lib_dir), *args],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})
    if check:
        assert done.returncode == 0, done.stderr
    return done


def on_disk(lib_dir: Path, name: str = "annotations.yaml") -> dict:
    return yaml.safe_load((lib_dir / name).read_text("utf-8"))


def test_triage_verbs_reach_disk_show_and_search(lib_dir: Path, ids: list[str]) -> None:
    a, b = ids[0], ids[1]
    out = run(lib_dir, "tag", a[:16], "ML", "to discuss", "ml").stdout
    assert out.strip() == f"{a}  new  tags: ML, to discuss"
    run(lib_dir, "status", a, b, "to-read")
    run(lib_dir, "star", a, b)
    run(lib_dir, "unstar", b)
    run(lib_dir, "untag", a, "TO DISCUSS")
    run(lib_dir, "note", a, "--set", "  leading spaces\nkey: value # x\n- dash\nünï ✓")
    assert run(lib_dir, "note", a, "--append", "more").stdout.endswith("ünï ✓\nmore\n")
    papers = on_disk(lib_dir)["papers"]
    assert papers[a]["status"] == "to-read" and papers[a]["starred"] is True
    assert papers[a]["tags"] == ["ML"]
    assert papers[a]["note"] == "  leading spaces\nkey: value # x\n- dash\nünï ✓\nmore"
    assert "starred" not in papers[b]
    shown = json.loads(run(lib_dir, "show", a, "--json").stdout)
    assert (shown["status"], shown["starred"], shown["tags"], shown["lists"]) == (
        "to-read", True, ["ML"], [])
    assert shown["note"].startswith("  leading spaces")
    found = json.loads(run(lib_dir, "search", "tag:ml", "--json").stdout)
    assert [(p["id"], p["tags"]) for p in found] == [(a, ["ML"])]
    text = run(lib_dir, "show", a).stdout
    assert "Status:  to-read  ★ starred" in text and "Tags:    ML" in text
    assert run(lib_dir, "tags").stdout == "     1  ML\n"


def test_note_without_a_flag_opens_the_editor(lib_dir: Path, ids: list[str],
                                              tmp_path: Path) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text("import sys\nopen(sys.argv[1], 'a').write('written in the editor\\n')\n")
    run(lib_dir, "note", ids[0], "--set", "first")
    out = run(lib_dir, "note", ids[0], env={"EDITOR": f"{sys.executable} {editor}",
                                             "VISUAL": ""}).stdout
    assert out == "first\nwritten in the editor\n"
    assert on_disk(lib_dir)["papers"][ids[0]]["note"] == "first\nwritten in the editor"


def test_list_verbs(lib_dir: Path, ids: list[str]) -> None:
    run(lib_dir, "lists", "create", "Reading group", "-d", "Thursdays")
    run(lib_dir, "lists", "add", "reading group", ids[0], ids[1], ids[2])
    run(lib_dir, "lists", "move", "Reading group", ids[2], "1")
    run(lib_dir, "lists", "remove", "Reading group", ids[1])
    run(lib_dir, "lists", "rename", "Reading group", "Group")
    run(lib_dir, "lists", "describe", "Group", "Thursdays, 4pm")
    assert on_disk(lib_dir, "reading-lists.yaml")["lists"] == {
        "Group": {"description": "Thursdays, 4pm", "papers": [ids[2], ids[0]],
                  "updated": on_disk(lib_dir, "reading-lists.yaml")["lists"]["Group"]["updated"]}}
    assert run(lib_dir, "lists").stdout == "Group  (2 papers)  Thursdays, 4pm\n"
    shown = run(lib_dir, "lists", "show", "group").stdout.splitlines()
    assert shown[0] == "Group  (2 papers)" and shown[2].startswith(f"  1. {ids[2]}")
    assert json.loads(run(lib_dir, "show", ids[0], "--json").stdout)["lists"] == ["Group"]
    run(lib_dir, "lists", "delete", "Group")
    assert on_disk(lib_dir, "reading-lists.yaml")["lists"] == {}
    failed = run(lib_dir, "lists", "show", "Group", check=False)
    assert failed.returncode == 1 and failed.stderr == "paper-tui: no reading list named 'Group'\n"


def test_a_position_or_limit_out_of_range_is_refused(lib_dir: Path, ids: list[str]) -> None:
    run(lib_dir, "lists", "add", "Picks", ids[0], ids[1], ids[2])
    for args, name, value, wanted in (
            (("lists", "move", "Picks", ids[2], "0"), "POS", "0", "1 (the first) or more"),
            (("lists", "move", "Picks", ids[2], "-1"), "POS", "-1", "1 (the first) or more"),
            (("search", "", "--limit", "-1"), "--limit", "-1", "0 or more"),
            (("recommend", "--limit", "-5"), "--limit", "-5", "0 or more"),
            (("search", "", "--limit", "ten"), "--limit", "ten", "0 or more")):
        refused = run(lib_dir, *args, check=False)
        assert (refused.returncode, refused.stdout) == (2, ""), args
        assert refused.stderr.endswith(
            f"error: argument {name}: '{value}' is not a whole number {wanted}\n"), args
    assert on_disk(lib_dir, "reading-lists.yaml")["lists"]["Picks"]["papers"] == ids[:3]
    assert len(json.loads(run(lib_dir, "search", "", "--json", "--limit", "0").stdout)) == 0
    run(lib_dir, "lists", "move", "Picks", ids[2], "99")  # past the end: last, as documented
    assert on_disk(lib_dir, "reading-lists.yaml")["lists"]["Picks"]["papers"] == ids[:3]


def test_export_a_list_and_a_query(lib_dir: Path, ids: list[str], tmp_path: Path) -> None:
    run(lib_dir, "lists", "add", "Picks", ids[0], ids[1])
    run(lib_dir, "tag", ids[0], "best")
    markdown = run(lib_dir, "export", "--list", "picks", "--format", "markdown").stdout
    assert markdown.startswith("# Picks\n\n1. ") and "tags: best" in markdown
    target = tmp_path / "out" / "picks.bib"
    done = run(lib_dir, "export", "--list", "Picks", "-f", "bibtex", "-o", str(target))
    assert done.stdout == "" and "wrote 2 papers" in done.stderr
    assert target.read_text().count("@") == 2
    data = json.loads(run(lib_dir, "export", "--query", "tag:best", "-f", "json").stdout)
    assert [d["id"] for d in data] == [ids[0]]
    rows = run(lib_dir, "export", "--query", "", "-f", "csv").stdout.splitlines()
    assert rows[0].startswith("id,title,authors") and len(rows) == len(ids) + 1
    for query, error in (("(graph", "a '(' is not closed"), ("year:bad", "year:bad is not")):
        failed = run(lib_dir, "export", "--query", query, "-f", "bibtex", "-o", str(target),
                     check=False)  # a typo in a script: one line, and the old file is kept
        assert (failed.returncode, failed.stdout) == (1, "")
        assert failed.stderr.startswith(f"paper-tui: {error}"), failed.stderr
        assert target.read_text().count("@") == 2


def test_orphans_are_kept_and_listed(lib_dir: Path, ids: list[str]) -> None:
    run(lib_dir, "status", ids[0], "read")
    path = lib_dir / "annotations.yaml"
    path.write_text(path.read_text() + '  "gone-2019-abc":\n    tags:\n    - old\n')  # by hand
    done = run(lib_dir, "orphans")
    assert done.stdout == "gone-2019-abc  new  tags: old\n"
    run(lib_dir, "status", ids[1], "skipped")  # a save keeps the orphan
    assert on_disk(lib_dir)["papers"]["gone-2019-abc"] == {"tags": ["old"]}
    assert run(lib_dir, "tags").stdout == "     1  old\n"


def test_a_paper_a_reimport_dropped_is_no_paper_but_its_marks_are_kept(
        lib_dir: Path, tmp_path: Path) -> None:
    records = json.loads((Path(__file__).parent / "data" / "nips2018-sample.json").read_text())
    source = tmp_path / "nips2018.json"
    source.write_text(json.dumps(records))
    run(lib_dir, "import", str(source))
    found = json.loads(run(lib_dir, "search", "year:2018", "--json", "--limit", "100").stdout)
    gone = next(p["id"] for p in found if p["title"] == records[-1]["title"])
    run(lib_dir, "star", gone)
    source.write_text(json.dumps(records[:-1]))  # the list as its venue publishes it now
    run(lib_dir, "import", str(source))
    for args in (("show", gone), ("show", gone[:-2]), ("cite", gone), ("tag", gone, "x")):
        failed = run(lib_dir, *args, check=False)  # one line, never an internal error
        assert (failed.returncode, failed.stdout) == (1, ""), args
        assert failed.stderr == f"paper-tui: no paper with id {args[1]!r}\n", args
    assert run(lib_dir, "orphans").stdout == f"{gone}  new  ★\n"


def test_papers_another_list_brought_are_already_in_the_library(lib_dir: Path,
                                                                   tmp_path: Path) -> None:
    records = json.loads((Path(__file__).parent / "data" / "nips2018-sample.json").read_text())
    first, full = tmp_path / "early" / "nips2018.json", tmp_path / "final" / "nips2018-all.json"
    for path, some in ((first, records[:10]), (full, records)):
        path.parent.mkdir()
        path.write_text(json.dumps(some))
    assert run(lib_dir, "import", str(first)).stdout.endswith(
        ": 10 new, 0 already in the library\n")
    out = run(lib_dir, "import", str(full)).stdout  # (two of its records are one paper)
    assert out == "23 papers from 1 file(s): 13 new, 10 already in the library\n"


def test_a_corrupt_file_is_reported_in_one_line_and_left_intact(lib_dir: Path,
                                                                ids: list[str]) -> None:
    run(lib_dir, "status", ids[0], "read")
    run(lib_dir, "status", ids[1], "read")
    path = lib_dir / "annotations.yaml"
    broken = path.read_bytes().replace(b"status: read", b"status: {read", 1)
    path.write_bytes(broken)
    failed = run(lib_dir, "tag", ids[2], "x", check=False)
    assert failed.returncode == 1
    message = failed.stderr.strip()
    assert "\n" not in message and message.startswith(f"paper-tui: {path}:")
    assert "read-only until the file is fixed" in message
    assert str(path) + ".bak" in message
    assert path.read_bytes() == broken
    shown = json.loads(run(lib_dir, "show", ids[1], "--json").stdout)  # reading still works
    assert shown["id"] == ids[1]


def test_two_cli_processes_at_once_keep_both_changes(lib_dir: Path, ids: list[str]) -> None:
    procs = [forked_cli.Popen([sys.executable, "-m", "paper_tui", "--library", str(lib_dir),
                               "tag", pid, f"tag-{n}"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for n, pid in enumerate(ids[:4])]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    papers = on_disk(lib_dir)["papers"]
    assert {pid: papers[pid]["tags"] for pid in ids[:4]} == {
        pid: [f"tag-{n}"] for n, pid in enumerate(ids[:4])}


def test_kill_9_during_a_command_keeps_every_command_that_exited_0(lib_dir: Path,
                                                                   ids: list[str]) -> None:
    for n, pid in enumerate(ids[:3]):
        run(lib_dir, "tag", pid, f"done-{n}")  # acknowledged: exit status 0
    rng = random.Random()
    victim = subprocess.Popen([sys.executable, "-m", "paper_tui", "--library", str(lib_dir),
                               "tag", ids[3], "maybe"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.1, 1.5))
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    papers = on_disk(lib_dir)["papers"]  # parses
    assert [papers[pid]["tags"] for pid in ids[:3]] == [["done-0"], ["done-1"], ["done-2"]]
    assert run(lib_dir, "tags").returncode == 0  # and the library still works
