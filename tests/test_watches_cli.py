"""``paper-tui watch`` and ``paper-tui fetch --watches`` as real processes against a local
HTTP server replaying a real Paper Copilot file: the lines cron mails, the exit status, a
second run saying ``0 new``, one-line errors, nothing changed by a refused command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import forked_cli
from http_replay import ReplayServer, Reply
from test_watches import PATH, records, write_config

EXE = shutil.which("paper-tui")
pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")


@pytest.fixture
def cli(tmp_path: Path, http_replay: ReplayServer):
    config = write_config(tmp_path / "config.yaml", http_replay.url)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        assert EXE is not None
        return forked_cli.run([EXE, "--library", str(tmp_path / "lib"), "--config",
                               str(config), *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, env=dict(os.environ),
                              stdin=subprocess.DEVNULL)

    return run


def test_cron_runs_say_what_is_new_then_0_new(cli, http_replay: ReplayServer) -> None:
    out = cli("watch", "add", "iclr", "paperlists:iclr2018", "--query", "title:adversarial")
    assert out.returncode == 0, out.stderr
    assert out.stdout == ('watching paperlists:iclr2018 as iclr (new papers matching '
                          '"title:adversarial"): paper-tui fetch --watches runs it\n')
    http_replay.route(PATH, Reply(body=records(28)))

    out = cli("fetch", "--watches")
    assert (out.returncode, out.stdout, out.stderr) == \
        (0, 'iclr: 28 new, 3 match "title:adversarial"\n', "")
    out = cli("fetch", "--watches")
    assert (out.returncode, out.stdout, out.stderr) == \
        (0, 'iclr: 0 new, 0 match "title:adversarial"\n', "")
    out = cli("fetch", "--watches", "--json")
    assert (out.returncode, out.stderr) == (0, "")
    (ran,) = json.loads(out.stdout)
    assert (ran["name"], ran["new"], ran["matched"], ran["fetch"]["spec"]) == \
        ("iclr", 0, 0, "paperlists:iclr2018")

    out = cli("watch")
    assert out.returncode == 0, out.stderr
    (row,) = out.stdout.splitlines()
    assert row.startswith('iclr  paperlists:iclr2018  "title:adversarial"  last run ')
    assert row.endswith(': 0 new, 0 match "title:adversarial"')
    listed = json.loads(cli("watch", "--json").stdout)
    assert [(w["name"], w["new"], w["matched"], w["outcome"] in ("fetched", "unchanged"))
            for w in listed] == [("iclr", 0, 0, True)]

    out = cli("search", "watch:iclr", "--json")
    assert out.returncode == 0, out.stderr
    assert sorted(hit["title"] for hit in json.loads(out.stdout)) == [
        "Characterizing Adversarial Subspaces Using Local Intrinsic Dimensionality",
        "Discrete Wasserstein Generative Adversarial Networks (DWGAN)",
        "Spectral Normalization for Generative Adversarial Networks"]


def test_a_failed_watch_is_one_line_on_stderr_and_exit_1(cli, http_replay: ReplayServer
                                                        ) -> None:
    assert cli("watch", "add", "iclr", "paperlists:iclr2018").returncode == 0
    assert cli("watch", "add", "gone", "paperlists:iclr2099").returncode == 0
    http_replay.route(PATH, Reply(body=records(28)))
    http_replay.route("/iclr/iclr2099.json", Reply(status=404, body=b"404: Not Found"))
    out = cli("fetch", "--watches")
    assert out.returncode == 1
    assert out.stdout == "iclr: 28 new\n"
    (line,) = out.stderr.splitlines()
    assert line.startswith("paper-tui: gone: ") and "404" in line
    assert "failed" in cli("watch").stdout.splitlines()[0]  # gone, listed first


def test_refused_commands_are_one_line_and_change_nothing(tmp_path: Path, cli) -> None:
    assert cli("watch", "add", "cs.LG", "arxiv:cs.LG").returncode == 0
    before = (tmp_path / "lib" / "watches.yaml").read_bytes()
    for args, start in [
            (("watch", "add", "cs.lg", "arxiv:cs.AI"), "paper-tui: there is a watch named "
                                                       "cs.LG already"),
            (("watch", "add", "x", "nowhere:x"), "paper-tui: "),
            (("watch", "add", "x", "arxiv:cs.AI", "-q", "added:yesterdayish"),
             "paper-tui: added:yesterdayish is not a time"),
            (("watch", "remove", "nope"), "paper-tui: there is no watch named 'nope'"),
            (("fetch", "--watches", "arxiv:cs.AI"), "paper-tui: --watches fetches each "
                                                    "watch as it was saved"),
            (("fetch",), "paper-tui: name a SOURCE to fetch")]:
        out = cli(*args)
        assert out.returncode == 1, (args, out.stderr)
        assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith(start), out.stderr
        assert "Traceback" not in out.stderr
    assert (tmp_path / "lib" / "watches.yaml").read_bytes() == before


def test_no_watches_is_said_once(cli) -> None:
    out = cli("fetch", "--watches")
    assert (out.returncode, out.stdout) == (0, "")
    assert out.stderr == "paper-tui: no watches yet: paper-tui watch add NAME SOURCE " \
                         "[--query Q]\n"
    out = cli("watch")
    assert (out.returncode, out.stdout) == (0, "")


def test_a_damaged_watches_file_is_one_line(tmp_path: Path, cli) -> None:
    assert cli("watch", "add", "cs.LG", "arxiv:cs.LG").returncode == 0
    path = tmp_path / "lib" / "watches.yaml"
    damaged = path.read_text() + "  broken: [\n"
    path.write_text(damaged)
    out = cli("watch", "add", "other", "arxiv:cs.AI")
    assert out.returncode == 1
    assert len(out.stderr.splitlines()) == 1 and str(path) in out.stderr
    out = cli("watch")
    assert out.returncode == 0
    assert len(out.stderr.splitlines()) == 1 and "read-only" in out.stderr
    assert path.read_text() == damaged


def test_search_words_and_the_watch_list_never_load_the_network(tmp_path: Path, cli) -> None:
    """``watch:`` and ``added:`` answer from files beside the sources: searching with
    them, listing the watches or the papers loads neither ``fetch/`` nor what runs it
    (only ``fetch`` and ``watch add``, which checks the SOURCE, do)."""
    assert cli("watch", "add", "cs.LG", "arxiv:cs.LG", "-q", "diffusion").returncode == 0
    network = ("paper_tui.fetch", "paper_tui.library.fetching", "paper_tui.library.watching")
    code = ("import sys\n"
            "from paper_tui.cli import main\n"
            f"lib = {str(tmp_path / 'lib')!r}\n"
            "for args in (['search', 'watch:cs.LG added:today'], ['list'], ['watch'],\n"
            "             ['search', 'added:>=2026-11-30 -added:7d']):\n"
            "    assert main(['--library', lib, *args]) == 0, args\n"
            f"print([m for m in {network!r} if m in sys.modules], file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[-1] == "[]"


def test_a_crashing_source_is_its_watch_line_and_the_others_print(
        tmp_path: Path, cli, http_replay: ReplayServer) -> None:
    assert cli("watch", "add", "a-iclr", "paperlists:iclr2018").returncode == 0
    assert cli("watch", "add", "m-crash", "paperlists:iclr2050").returncode == 0
    assert cli("watch", "add", "z-query", "paperlists:iclr2018", "--query",
               "title:x").returncode == 0
    path = tmp_path / "lib" / "watches.yaml"
    path.write_text(path.read_text().replace("query: title:x", "query: 'year:abc'"))
    http_replay.route(PATH, Reply(body=records(28)))
    http_replay.route("/iclr/iclr2050.json", Reply.redirect("http://[::1"))  # was exit 70
    out = cli("fetch", "--watches")
    assert out.returncode == 1, out.stderr
    assert out.stdout == "a-iclr: 28 new\n"
    crash, query = out.stderr.splitlines()
    assert crash.startswith("paper-tui: m-crash: ") and "Traceback" not in out.stderr
    assert query.startswith("paper-tui: z-query: 28 new; its query cannot be read (year:abc")
    listed = cli("watch").stdout.splitlines()
    assert listed[1].startswith("m-crash  paperlists:iclr2050  last run ")
    assert f"failed ({crash.split(': ', 2)[2]})" in listed[1]
    assert "28 new; its query cannot be read (year:abc is not a year" in listed[2]
    saved = {w["name"]: w for w in json.loads(cli("watch", "--json").stdout)}
    assert saved["m-crash"]["outcome"] == "failed" and saved["m-crash"]["error"]
    assert saved["z-query"]["error"].startswith("its query cannot be read")
    assert saved["a-iclr"]["error"] is None and saved["a-iclr"]["new"] == 28
    ran = {o["name"]: o for o in json.loads(cli("fetch", "--watches", "--json").stdout)}
    assert ran["z-query"]["warning"].startswith("its query cannot be read")
    assert ran["a-iclr"]["warning"] is None and ran["m-crash"]["fetch"]["status"] == "failed"
