"""Watches through the library: saved in ``watches.yaml``, run by ``fetch_watches`` against
a local HTTP server replaying a real Paper Copilot file (``tests/data/venue/iclr2018.json``,
28 records cut from paperlists' ``iclr2018.json``: see ``tests/data/SOURCES.md``), what each
run found kept with the watch, ``watch:NAME`` and ``added:`` after a run, a damaged file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from http_replay import ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.errors import PaperTuiError, QueryError
from paper_tui.library import Library

ICLR = Path(__file__).parent / "data" / "venue" / "iclr2018.json"
PATH = "/iclr/iclr2018.json"
"""Where Paper Copilot keeps ``paperlists:iclr2018`` (under ``fetch.paperlists_url``)."""
QUERY = "title:adversarial"
"""Matches records 17 and 19 of the file (in its first 20) and 24 (in the last 8)."""


def records(count: int) -> bytes:
    return json.dumps(json.loads(ICLR.read_text("utf-8"))[:count]).encode()


def write_config(path: Path, url: str) -> Path:
    """A config whose ``fetch:`` points every source at the local server, delays ~0."""
    path.write_text("fetch:\n"
                    f"  openreview_url: {url}\n  paperlists_url: {url}\n"
                    f"  arxiv_url: {url}\n  dblp_url: {url}\n"
                    "  arxiv_delay_s: 0\n  timeout_s: 5\n  retries: 0\n"
                    "  retry_delay_s: 0\n  max_wait_s: 0\n", encoding="utf-8")
    return path


@pytest.fixture
def lib(tmp_path: Path, http_replay: ReplayServer) -> Iterator[Library]:
    config = config_mod.load(write_config(tmp_path / "config.yaml", http_replay.url))
    library = Library.open(tmp_path / "lib", config=config, bundled=False)
    yield library
    library.close()


def test_a_watch_says_what_is_new_and_what_matches_run_after_run(
        lib: Library, http_replay: ReplayServer) -> None:
    watch = lib.add_watch("iclr", " paperlists:iclr2018 ", QUERY)
    assert (watch.name, watch.source, watch.query) == ("iclr", "paperlists:iclr2018", QUERY)
    assert lib.watches()[0].outcome == "never"

    http_replay.route(PATH, Reply(body=records(20)))
    first = lib.fetch_watches()
    assert [o.line() for o in first.outcomes] == ['iclr: 20 new, 2 match "title:adversarial"']
    assert not first.failed and first.new == 20

    http_replay.route(PATH, Reply(body=records(28)))
    second = lib.fetch_watches()
    assert [o.line() for o in second.outcomes] == ['iclr: 8 new, 1 match "title:adversarial"']

    third = lib.fetch_watches()  # what cron sees the next morning: nothing new
    assert [o.line() for o in third.outcomes] == ['iclr: 0 new, 0 match "title:adversarial"']

    (saved,) = lib.watches()
    assert (saved.outcome in ("fetched", "unchanged"), saved.new, saved.matched) == \
        (True, 0, 0)
    assert saved.source_id == first.outcomes[0].fetch.source_id
    assert saved.last_run is not None


def test_watch_word_finds_the_sources_papers_matching_its_query(
        lib: Library, http_replay: ReplayServer) -> None:
    lib.add_watch("iclr", "paperlists:iclr2018", QUERY)
    lib.add_watch("everything", "paperlists:iclr2018")
    assert len(lib.results("watch:iclr")) == 0  # never run, never fetched: no papers yet
    http_replay.route(PATH, Reply(body=records(28)))
    report = lib.fetch_watches()
    # two watches of one source: one fetch, one request
    assert len(http_replay.requests) == 1
    assert [o.line() for o in report.outcomes] == [
        "everything: 28 new", 'iclr: 28 new, 3 match "title:adversarial"']
    adversarial = {p.id for p in lib.papers() if "adversarial" in p.title.lower()}
    assert len(adversarial) == 3
    assert set(lib.results("watch:iclr").ids()) == adversarial
    assert set(lib.results("watch:ICLR").ids()) == adversarial  # names ignore case
    assert len(lib.results("watch:everything")) == 28
    assert set(lib.results("watch:everything title:adversarial").ids()) == adversarial
    assert len(lib.results("watch:everything -title:adversarial")) == 25
    assert len(lib.results("added:today")) == 28
    assert set(lib.results("watch:iclr added:today").ids()) == adversarial


def test_a_watch_on_a_list_fetched_before_finds_its_papers_before_its_first_run(
        lib: Library, http_replay: ReplayServer) -> None:
    http_replay.route(PATH, Reply(body=records(28)))
    assert not lib.fetch(["paperlists:iclr2018"]).failed
    lib.add_watch("iclr", "paperlists:iclr2018", QUERY)
    assert lib.watches()[0].outcome == "never"
    assert len(lib.results("watch:iclr")) == 3


def test_one_failing_watch_does_not_stop_the_others(lib: Library,
                                                    http_replay: ReplayServer) -> None:
    lib.add_watch("iclr", "paperlists:iclr2018")
    lib.add_watch("gone", "paperlists:iclr2099")
    http_replay.route(PATH, Reply(body=records(28)))
    http_replay.route("/iclr/iclr2099.json", Reply(status=404, body=b"404: Not Found"))
    report = lib.fetch_watches()
    assert report.failed
    gone, iclr = report.outcomes
    assert iclr.line() == "iclr: 28 new" and not iclr.failed
    assert gone.failed and gone.line().startswith("gone: ")
    assert "404" in gone.line() and "\n" not in gone.line()
    saved = {w.name: w for w in lib.watches()}
    assert saved["gone"].outcome == "failed" and "404" in saved["gone"].error
    assert saved["iclr"].outcome == "fetched" and saved["iclr"].new == 28


def test_add_checks_name_source_and_query_and_remove_keeps_the_papers(
        lib: Library, http_replay: ReplayServer) -> None:
    with pytest.raises(PaperTuiError, match="watch name 'a b'"):
        lib.add_watch("a b", "arxiv:cs.LG")
    with pytest.raises(PaperTuiError, match="nowhere:x"):
        lib.add_watch("x", "nowhere:x")
    with pytest.raises(QueryError, match="year:abc is not a year"):
        lib.add_watch("x", "arxiv:cs.LG", "year:abc")
    with pytest.raises(QueryError, match="cannot name a watch"):
        lib.add_watch("x", "arxiv:cs.LG", "watch:y")
    lib.add_watch("cs.LG", "arxiv:cs.LG", "diffusion")
    with pytest.raises(PaperTuiError, match=r"there is a watch named cs\.LG already"):
        lib.add_watch("CS.lg", "arxiv:cs.AI")
    assert [w.name for w in lib.watches()] == ["cs.LG"]

    lib.add_watch("iclr", "paperlists:iclr2018")
    http_replay.route(PATH, Reply(body=records(28)))
    lib.fetch_watches()
    removed = lib.remove_watch("ICLR")
    assert removed.name == "iclr"
    assert lib.count() == 28
    with pytest.raises(PaperTuiError, match="no watch named 'iclr'"):
        lib.remove_watch("iclr")
    with pytest.raises(QueryError, match="there is no such watch"):
        lib.index.plan("watch:iclr")


def test_a_damaged_watches_file_is_one_line_and_never_written_over(
        tmp_path: Path, lib: Library) -> None:
    lib.add_watch("cs.LG", "arxiv:cs.LG")
    path = tmp_path / "lib" / "watches.yaml"
    damaged = path.read_text() + "  broken: [\n"
    path.write_text(damaged)
    problem = lib.watches_problem()
    assert problem is not None and problem.startswith(f"{path}:")
    assert "\n" not in problem
    assert [w.name for w in lib.watches()] == ["cs.LG"]  # the backup, shown
    with pytest.raises(PaperTuiError, match="read-only until the file is fixed"):
        lib.add_watch("other", "arxiv:cs.AI")
    assert path.read_text() == damaged


def test_a_run_with_a_damaged_file_imports_and_says_it_could_not_keep_what_it_found(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    config = config_mod.load(write_config(tmp_path / "config.yaml", http_replay.url))
    with Library.open(tmp_path / "lib", config=config, bundled=False) as lib:
        lib.add_watch("iclr", "paperlists:iclr2018")
        lib.add_watch("later", "paperlists:iclr2018")  # a backup now
    path = tmp_path / "lib" / "watches.yaml"
    damaged = path.read_text().replace("\nwatches:", "\nwatches: [", 1)
    path.write_text(damaged)
    http_replay.route(PATH, Reply(body=records(28)))
    with Library.open(tmp_path / "lib", config=config, bundled=False) as lib:
        report = lib.fetch_watches()
        assert [o.line() for o in report.outcomes] == ["iclr: 28 new"]  # the backup's
        assert report.failed and report.not_kept is not None
        assert report.not_kept.startswith("what the watches found is not kept: ")
        assert str(path) in report.not_kept and "\n" not in report.not_kept
        assert lib.count() == 28
    assert path.read_text() == damaged


# -- hostile sources: one watch's failure is its own ----------------------------------------
HOSTILE = {
    # each crashed the HTTP client (exit 70) and with it every other watch of the run
    "/iclr/iclr2050.json": Reply.redirect("http://[::1"),
    "/iclr/iclr2051.json": Reply.retry_after("9" * 400, status=503),
    # a server that hangs up, and one that answers what no parser reads
    "/iclr/iclr2052.json": Reply(body=records(28), cut_at=100),
    "/iclr/iclr2053.json": Reply(body=b"\x00\xff" * 1000),
}


def test_hostile_sources_fail_alone_and_every_other_watch_reports(
        lib: Library, http_replay: ReplayServer) -> None:
    lib.add_watch("a-first", "paperlists:iclr2018", QUERY)
    for n, path in enumerate(HOSTILE):
        lib.add_watch(f"m-hostile{n}", f"paperlists:{path.rsplit('/', 1)[1][:-5]}")
    lib.add_watch("z-last", "paperlists:iclr2018")  # the same source: one fetch
    http_replay.route(PATH, Reply(body=records(28)))
    for path, reply in HOSTILE.items():
        http_replay.route(path, reply)
    report = lib.fetch_watches()
    lines = [o.line() for o in report.outcomes]
    assert lines[0] == 'a-first: 28 new, 3 match "title:adversarial"'
    assert lines[-1] == "z-last: 28 new"
    for n, outcome in enumerate(report.outcomes[1:-1]):
        assert outcome.failed and outcome.line().startswith(f"m-hostile{n}: "), lines
        assert "\n" not in outcome.line()
    assert report.failed and lib.count() == 28
    saved = {w.name: w for w in lib.watches()}
    assert (saved["a-first"].outcome, saved["a-first"].new, saved["a-first"].matched) == \
        ("fetched", 28, 3)
    for n in range(len(HOSTILE)):
        hostile = saved[f"m-hostile{n}"]
        assert hostile.outcome == "failed" and hostile.error, hostile
        assert hostile.error == report.outcomes[n + 1].line().split(": ", 1)[1]


def test_papers_a_run_that_did_not_report_imported_are_said_by_the_next(
        tmp_path: Path, lib: Library, http_replay: ReplayServer) -> None:
    """A run killed or failed after its import leaves papers in the library the watch
    never said; they are new to its next run that does not fail."""
    lib.add_watch("iclr", "paperlists:iclr2018", QUERY)
    path = tmp_path / "lib" / "watches.yaml"  # added yesterday (arrivals are by the second)
    path.write_text(re.sub(r"reported: \S+", "reported: '2026-01-01T00:00:00Z'",
                           path.read_text()))
    http_replay.route(PATH, Reply(body=records(20)))
    assert not lib.fetch(["paperlists:iclr2018"]).failed  # what the killed run imported
    http_replay.route(PATH, Reply(status=500, body=b"down"))
    (failed,) = lib.fetch_watches().outcomes
    assert failed.failed
    http_replay.route(PATH, Reply(body=records(20)))
    (said,) = lib.fetch_watches().outcomes
    assert said.line() == 'iclr: 20 new, 2 match "title:adversarial"'
    http_replay.route(PATH, Reply(body=records(28)))
    (then,) = lib.fetch_watches().outcomes  # said once: never again
    assert then.line() == 'iclr: 8 new, 1 match "title:adversarial"'


@pytest.mark.parametrize("query", ["year:abc", "title:(", "cites:>" + "9" * 300])
def test_a_hand_edited_query_that_cannot_be_read_is_a_warning_not_0_match(
        tmp_path: Path, lib: Library, http_replay: ReplayServer, query: str) -> None:
    lib.add_watch("iclr", "paperlists:iclr2018", "title:x")
    path = tmp_path / "lib" / "watches.yaml"
    path.write_text(path.read_text().replace("query: title:x", f"query: {json.dumps(query)}"))
    assert lib.watches()[0].query == query
    http_replay.route(PATH, Reply(body=records(28)))
    for run in range(2):  # the second with nothing new: still said
        (outcome,) = lib.fetch_watches().outcomes
        line = outcome.line()
        assert line.startswith(f"iclr: {28 if run == 0 else 0} new; its query cannot be "), \
            line
        assert "match" not in line.split(";")[0] and "\n" not in line
        assert not outcome.failed and outcome.matched is None
        (saved,) = lib.watches()
        assert saved.error == line.split("; ", 1)[1]
