"""``paper-tui sources`` and ``sources remove`` as a user runs them, in real processes on
real library directories: what each source is and where it came from; a removed list's
papers gone from list, search and show while the reader's marks stay (``orphans``) and
come back with a re-import; an unknown name one line and nothing removed; a kill -9 in
the middle of a removal; a removal and an import at once; and the bundled list, the demo
of a new library that brings no list of its own, never coming back once removed."""

from __future__ import annotations

import datetime
import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

from whoosh import index as windex

import forked_cli
from fetch_routes import config_file, data
from http_replay import ReplayServer, Reply

TEST_DATA = Path(__file__).parent / "data"
BUNDLED = Path(__file__).parent.parent / "data" / "neurips-2026"


def cli(library: Path, *args: str | Path, config: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    command = ["paper-tui", "--library", str(library),
               *(["--config", str(config)] if config else []), *map(str, args)]
    return forked_cli.run(command, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def ok(library: Path, *args: str | Path, config: Path | None = None) -> str:
    done = cli(library, *args, config=config)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def hits(library: Path, query: str = "") -> list[dict]:
    return json.loads(ok(library, "search", query, "--json", "--limit", "5000"))


def ids(library: Path, query: str = "") -> set[str]:
    """The papers of ``query`` by number (``Paper 4 on robots``: 4) or, for a paper of
    another list, by id."""
    found = set()
    for row in hits(library, query):
        number = re.fullmatch(r"Paper (\d+) on robots", row["title"])
        found.add(f"p{number.group(1)}" if number else row["id"])
    return found


def id_of(library: Path, name: str) -> str:
    """The library's id of paper ``p<n>`` (an id is made from the paper's content)."""
    (found,) = [row["id"] for row in hits(library)
                if row["title"] == f"Paper {name[1:]} on robots"]
    return str(found)


def sources(library: Path) -> dict[str, dict]:
    return {row["name"]: row for row in json.loads(ok(library, "sources", "--json"))}


def jsonl(path: Path, numbers: range, topic: str = "robots") -> Path:
    """A JSON Lines list of papers ``p<n>`` (ids kept as given)."""
    path.write_text("".join(json.dumps({
        "id": f"p{n}", "title": f"Paper {n} on {topic}", "authors": [f"Ann Author{n}"],
        "abstract": f"We study {topic} number {n} in depth.", "venue": "TestConf",
        "year": 2024}) + "\n" for n in numbers), "utf-8")
    return path


def test_sources_say_what_each_list_is_and_where_it_came_from(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    first = jsonl(tmp_path / "first.jsonl", range(1, 4))
    ok(library, "import", first, TEST_DATA / "nips2017-sample.json")
    listed = json.loads(ok(library, "sources", "--json"))
    today = datetime.date.today().isoformat()
    assert [(s["name"], s["kind"], s["origin"], s["papers"], s["added"], s["last_fetched"])
            for s in listed] == [
        ("first-jsonl", "file", str(first.resolve()), 3, today, None),
        ("nips2017-sample-json", "file", str((TEST_DATA / "nips2017-sample.json").resolve()),
         8, today, None)]
    lines = ok(library, "sources").splitlines()
    assert lines[0] == f"first-jsonl  3 papers  added {today}  file: {first.resolve()}"


def test_a_fetched_list_says_its_source_and_when_it_was_last_fetched(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/iclr/iclr2018.json", Reply(body=data("paperlists-iclr2018.json")))
    config = config_file(tmp_path / "config", http_replay.url)
    # the user's own setting: a new library gets the demo list, but not when its first
    # command fetches
    config.write_text(config.read_text().replace("bundled_lists: false", "bundled_lists: true"))
    library = tmp_path / "lib"
    ok(library, "fetch", "paperlists:iclr2018", config=config)
    (fetched,) = json.loads(ok(library, "sources", "--json", config=config))
    assert (fetched["kind"], fetched["origin"], fetched["papers"], fetched["last_fetched"]) \
        == ("fetched", "paperlists:iclr2018", 24, datetime.date.today().isoformat())
    assert len(ids(library)) == 24  # no bundled list

    out = ok(library, "sources", "remove", fetched["name"], config=config)
    assert out.startswith(f"removed {fetched['name']} (24 papers)")
    assert ids(library) == set()
    again = ok(library, "fetch", "paperlists:iclr2018", config=config)
    assert again.strip() == "paperlists:iclr2018: 24 papers, 24 new (1 page)"
    assert len(ids(library)) == 24


def test_removed_papers_leave_and_the_marks_stay_until_they_come_back(
        tmp_path: Path) -> None:
    library = tmp_path / "lib"
    a = jsonl(tmp_path / "a.jsonl", range(1, 4))   # p1 p2 p3
    b = jsonl(tmp_path / "b.jsonl", range(3, 6))   # p3 p4 p5: p3 in both, indexed as b's
    ok(library, "import", a)
    ok(library, "import", b)
    p1, p3, p4, p5 = (id_of(library, name) for name in ("p1", "p3", "p4", "p5"))
    ok(library, "tag", p4, "keep-me")
    ok(library, "status", p5, "to-read")
    ok(library, "star", p3)
    ok(library, "note", p4, "--set", "a note on p4")
    ok(library, "lists", "create", "reading")
    ok(library, "lists", "add", "reading", p4, p1)

    out = ok(library, "sources", "remove", "b-jsonl")
    assert out.splitlines()[0] == \
        "removed b-jsonl (3 papers): 2 left the library, 1 is in another source too"
    assert ids(library) == {"p1", "p2", "p3"}  # p3 stays: a holds it too
    assert ids(library, "robots") == {"p1", "p2", "p3"}
    assert ids(library, "tag:keep-me") == set()
    assert {line.split()[0] for line in ok(library, "list").splitlines()} == \
        {p1, p3, id_of(library, "p2")}
    shown = cli(library, "show", p4)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert json.loads(ok(library, "show", p3, "--json"))["starred"] is True
    assert set(sources(library)) == {"a-jsonl"}
    assert {row["id"] for row in json.loads(ok(library, "orphans", "--json"))} == {p4, p5}

    ok(library, "import", b)
    assert ids(library) == {"p1", "p2", "p3", "p4", "p5"}
    assert ids(library, "tag:keep-me") == {"p4"}
    assert ids(library, "status:to-read") == {"p5"}
    assert ids(library, "note:note") == {"p4"}
    assert json.loads(ok(library, "lists", "show", "reading", "--json"))["ids"] == [p4, p1]
    assert json.loads(ok(library, "orphans", "--json")) == []


def test_an_unknown_name_is_one_line_and_nothing_is_removed(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    ok(library, "import", jsonl(tmp_path / "a.jsonl", range(1, 3)))
    done = cli(library, "sources", "remove", "a-jsonl", "no-such-list")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "paper-tui: no source named 'no-such-list' (`paper-tui sources` lists them: a-jsonl)"]
    assert ids(library) == {"p1", "p2"}
    assert set(sources(library)) == {"a-jsonl"}


def test_the_bundled_list_is_the_demo_of_a_library_that_brings_none(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    assert len(ok(demo, "list").splitlines()) == 38
    assert sources(demo)["neurips-2026"]["kind"] == "bundled"
    assert sources(demo)["neurips-2026"]["papers"] == 38
    out = ok(demo, "sources", "remove", "neurips-2026")
    assert out.splitlines() == ["removed neurips-2026 (38 papers)"]
    assert ok(demo, "list") == ""  # removed for good: not the demo of an empty library
    assert sources(demo) == {}
    assert not list((demo / "sources").glob("*.gz"))

    own = tmp_path / "own"
    ok(own, "import", jsonl(tmp_path / "a.jsonl", range(1, 3)))
    assert ids(own) == {"p1", "p2"}
    failed = tmp_path / "failed"  # a first import that fails brings no demo either
    assert cli(failed, "import", tmp_path / "missing.bib").returncode == 1
    assert ok(failed, "list") == ""


def test_a_library_joining_a_team_gets_no_demo(tmp_path: Path) -> None:
    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    alice = tmp_path / "alice"
    ok(alice, "import", jsonl(tmp_path / "a.jsonl", range(1, 3)))
    ok(alice, "sync", "--remote", remote, "--as", "alice")
    bob = tmp_path / "bob"
    ok(bob, "sync", "--remote", remote, "--as", "bob")
    assert ids(bob) == {"p1", "p2"}  # the team's list, and no bundled one
    assert [s["kind"] for s in sources(bob).values()] == ["team"]


def _manifest_ids(library: Path) -> set[str]:
    return set(json.loads((library / "sources" / "manifest.json").read_text())["sources"])


def test_a_removal_killed_in_the_middle_is_finished_by_the_next_command(
        tmp_path: Path) -> None:
    library = tmp_path / "lib"
    ok(library, "import", jsonl(tmp_path / "a.jsonl", range(1, 4)))
    ok(library, "import", jsonl(tmp_path / "b.jsonl", range(3, 6)))
    p4 = id_of(library, "p4")
    ok(library, "tag", p4, "keep-me")
    # Another writer holds the index: the removal writes the manifest, then waits for it.
    writer = windex.open_dir(str(library / "index")).writer()
    try:
        proc = forked_cli.Process(["paper-tui", "--library", str(library), "sources",
                                   "remove", "b-jsonl"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while "b-jsonl" in _manifest_ids(library) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _manifest_ids(library) == {"a-jsonl"}
        assert proc.poll() is None  # in the middle: the index not done yet
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        writer.cancel()
    assert ids(library) == {"p1", "p2", "p3"}
    assert ids(library, "robots") == {"p1", "p2", "p3"}
    assert set(sources(library)) == {"a-jsonl"}
    assert sorted(p.name for p in (library / "sources").glob("*.gz")) == ["a-jsonl.jsonl.gz"]
    assert p4 in ok(library, "orphans")
    ok(library, "import", tmp_path / "b.jsonl")
    assert ids(library, "tag:keep-me") == {"p4"}


def test_a_removal_and_an_import_at_once_both_happen(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    ok(library, "import", jsonl(tmp_path / "a.jsonl", range(1, 4)))
    failures: list[str] = []

    def run(*args: str | Path) -> None:
        done = cli(library, *args)
        if done.returncode != 0 or "Traceback" in done.stderr:
            failures.append(f"{args}: {done.returncode} {done.stderr}")

    threads = [threading.Thread(target=run, args=("sources", "remove", "a-jsonl")),
               threading.Thread(target=run, args=("import", TEST_DATA / "papers-ml-1000.jsonl.gz"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert set(sources(library)) == {"papers-ml-1000-jsonl"}
    assert len(ids(library)) == 1000


def test_the_shells_complete_the_command_and_its_verb(tmp_path: Path) -> None:
    for shell in ("bash", "zsh", "fish"):
        script = ok(tmp_path / "lib", "completion", shell)
        assert "sources" in script and "remove" in script, shell
    bash = ok(tmp_path / "lib", "completion", "bash")
    assert "'sources') echo 'remove' ;;" in bash
    assert not (tmp_path / "lib").exists()  # printing a script opens no library


def test_tab_after_sources_remove_offers_the_sources(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    ok(library, "list")  # the demo list
    ok(library, "import", jsonl(tmp_path / "a.jsonl", range(1, 3)))
    assert ok(library, "__complete", "sources").splitlines() == ["a-jsonl", "neurips-2026"]
    assert ok(tmp_path / "none", "__complete", "sources") == ""
    assert not (tmp_path / "none").exists()  # a Tab makes no library
    assert ":sources)" in ok(library, "completion", "bash")
    assert "_paper_tui_values sources" in ok(library, "completion", "zsh")
    assert "__paper_tui_values sources" in ok(library, "completion", "fish")


def test_a_list_whose_papers_another_list_holds_too_leaves_none(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    ok(library, "import", jsonl(tmp_path / "a.jsonl", range(1, 3)))
    ok(library, "import", jsonl(tmp_path / "b.jsonl", range(1, 4)))  # indexed as b's
    out = ok(library, "sources", "remove", "a-jsonl")
    assert out.splitlines() == [
        "removed a-jsonl (2 papers): 0 left the library, 2 are in another source too"]
    assert ids(library) == {"p1", "p2", "p3"}
    assert set(sources(library)) == {"b-jsonl"}


def test_a_removal_killed_after_the_index_let_go_is_finished_too(tmp_path: Path) -> None:
    """The state a kill leaves between the index's commit and its note of what it holds
    (the note still names the source, no paper of it is left): the next command ends it."""
    library = tmp_path / "lib"
    ok(library, "import", jsonl(tmp_path / "a.jsonl", range(1, 4)))
    ok(library, "import", jsonl(tmp_path / "b.jsonl", range(3, 6)))
    meta = library / "index" / "paper-tui-index.json"
    before = json.loads(meta.read_text())
    ok(library, "sources", "remove", "b-jsonl")
    after = json.loads(meta.read_text())
    after["sources"]["b-jsonl"] = before["sources"]["b-jsonl"]
    meta.write_text(json.dumps(after))
    assert ids(library) == {"p1", "p2", "p3"}
    assert set(sources(library)) == {"a-jsonl"}
    assert "b-jsonl" not in json.loads(meta.read_text())["sources"]
