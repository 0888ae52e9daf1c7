"""A lab of 5 splits a 10,000-paper conference by area: the split, ``team status``, the
team's query words and the app's triage key with a share active.

Member 0 (alice) is a real library of a 10,000-paper random sample of the corpus (seeded),
in a team through a real bare repository; members 1-4 push their people files with plain
git, as their own sync would (bench/sync.py's ``Clone``): each triages 40% of their share
and 300 papers of the others' (so there are picks and disputed papers). Measured:

- ``Library.split_team`` of the 10,000 among 5 by area, in-process (a fresh copy of the
  library each run; target <= 2 s; wall and CPU time, the machine being shared), and
  ``paper-tui team split --no-sync`` wall time (start-up included);
- ``Library.team_coverage`` (``team status``) in-process, and ``paper-tui team status``
  wall time (target <= 1 s);
- ``kept:2`` and ``assigned:me diffusion`` in-process (``Library.search``, limit 50;
  p50/p95 over 50 runs after one warm-up; target p95 <= 25 ms);
- the app's triage key (bench/tui.py's ``key_latency``: ``x`` from the terminal driver to
  the frame showing the next paper) on that library with alice's share active, and on a
  copy of it outside any team (no share), rounds interleaved; target: p95 with a share
  within 1.2x of without.

Area: issue 24's venue fields had not landed when this was written, so a paper's area is
its first keyword, else its venue (``library/facade.py``'s ``_candidate``).

    python bench/team_lab.py [--work DIR]   # results in bench/results/team_lab.json
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.team import repo
from results_file import run_header, save
from sync import CORPUS, Clone, changes
from tui import key_latency, p95

PAPERS = 10_000
MEMBERS = ["alice", "bob", "carol", "dave", "erin"]
RUNS = 3
QUERY_RUNS = 50


def summary(times: list[float]) -> dict[str, float]:
    return {"p50_ms": round(statistics.median(times) * 1000, 2),
            "p95_ms": round(p95(times) * 1000, 2), "max_ms": round(max(times) * 1000, 2)}


def cli(library: Path, *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def sample(path: Path, rng: random.Random) -> None:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        lines = [line for line in fh if (json.loads(line).get("year") or 0) <= 2025]
    path.write_text("".join(rng.sample(lines, PAPERS)), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, help="where the libraries go (default: temp)")
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(26)
    work = args.work or Path(tempfile.mkdtemp(prefix="paper-tui-team-lab-"))
    work.mkdir(parents=True, exist_ok=True)
    result: dict = {**run_header("team_lab.py", sys.argv[1:]), "papers": PAPERS,
                    "members": len(MEMBERS), "by": "area (first keyword, else venue)"}
    remote = work / "team.git"
    alice = work / "alice"
    if not alice.exists():
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
        sample(work / "conference.jsonl", rng)
        took, _ = cli(alice, "import", str(work / "conference.jsonl"))
        print(f"imported {PAPERS:,} papers in {took:.1f} s")
        cli(alice, "sync", "--remote", str(remote), "--as", "alice")
        shutil.copytree(alice, work / "before-split")
    query = "year:..2025"  # the conference, not the bundled NeurIPS 2026 list
    with Library.open(alice, config=config_mod.defaults()) as lib:
        assert lib.results(query).total == PAPERS, lib.results(query).total

    # -- the split ----------------------------------------------------------------------
    split_times, split_cpu = [], []
    for run in range(RUNS):
        copy = work / f"split-{run}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(work / "before-split", copy)
        with Library.open(copy, config=config_mod.defaults()) as lib:
            start, cpu = time.perf_counter(), time.process_time()
            outcome = lib.split_team(query, among=MEMBERS, by="area", share=False)
            split_times.append(time.perf_counter() - start)
            split_cpu.append(time.process_time() - cpu)
        assert sum(outcome.assigned.values()) == PAPERS, outcome.summary()
        shutil.rmtree(copy)
    copy = work / "split-cli"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(work / "before-split", copy)
    split_cli, said = cli(copy, "team", "split", query, "--among", ",".join(MEMBERS),
                          "--no-sync")
    shutil.rmtree(copy)
    result["split"] = {"in_process_s": [round(t, 3) for t in split_times],
                       "in_process_median_s": round(statistics.median(split_times), 3),
                       "in_process_cpu_median_s": round(statistics.median(split_cpu), 3),
                       "cli_wall_s": round(split_cli, 3), "said": said.splitlines()[0]}
    print(f"split: {statistics.median(split_times):.2f} s in-process, {split_cli:.2f} s CLI; "
          f"{said.splitlines()[0]}")

    # -- the team's triage --------------------------------------------------------------
    if not (work / "triaged").exists():
        cli(alice, "team", "split", query, "--among", ",".join(MEMBERS))
        with Library.open(alice, config=config_mod.defaults()) as lib:
            shares = {m: sorted(lib.results(f"assigned:{m}").ids()) for m in MEMBERS}
            mine = shares["alice"]
            lib.set_status(mine[: len(mine) * 4 // 10], "to-read")
        everything = sorted(pid for ids in shares.values() for pid in ids)
        for name in MEMBERS[1:]:
            clone = Clone(remote, work / f"clone-{name}", name)
            share = shares[name]
            others = rng.sample(everything, 300)
            clone.records = {}
            ids = share[: len(share) * 4 // 10] + others
            path = clone.where / repo.person_file(name)
            subprocess.run(["git", "pull", "-q", "--no-rebase"], cwd=clone.where, check=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(repo.write(repo.PEOPLE_SCHEMA, changes(ids, rng, {}), {}))
            env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": "b@x.invalid",
                   "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": "b@x.invalid"}
            for git_args in (["add", "-A"], ["commit", "-qm", f"{name}: triage"],
                             ["push", "-q", "origin", "HEAD:main"]):
                subprocess.run(["git", *git_args], cwd=clone.where, check=True,
                               env={**os.environ, **env})
        cli(alice, "sync")
        (work / "triaged").write_text("yes")

    # -- team status, the query words ---------------------------------------------------
    with Library.open(alice, config=config_mod.defaults()) as lib:
        coverage_times, coverage_cpu = [], []
        for _ in range(RUNS + 1):
            start, cpu = time.perf_counter(), time.process_time()
            coverage = lib.team_coverage("")
            coverage_times.append(time.perf_counter() - start)
            coverage_cpu.append(time.process_time() - cpu)
        words = {}
        for q in ("kept:2", "assigned:me diffusion", "disputed", "untouched learning"):
            lib.search(q, limit=50)
            times = []
            for _ in range(QUERY_RUNS):
                start = time.perf_counter()
                page = lib.search(q, limit=50)
                times.append(time.perf_counter() - start)
            words[q] = {**summary(times), "hits": page.total}
    status_cli, _ = cli(alice, "team", "status")
    result["status"] = {
        "in_process_first_s": round(coverage_times[0], 3),
        "in_process_first_cpu_s": round(coverage_cpu[0], 3),
        "in_process_again_median_s": round(statistics.median(coverage_times[1:]), 3),
        "cli_wall_s": round(status_cli, 3),
        "picks": coverage.picks, "disputed": coverage.disputed,
        "untouched": coverage.untouched,
        "members": {m.name: [m.assigned, m.triaged] for m in coverage.members}}
    result["query_words"] = words
    print(f"team status: {coverage_times[0]:.2f} s in-process (first), {status_cli:.2f} s "
          f"CLI; words: " + ", ".join(f"{q} p95 {w['p95_ms']} ms" for q, w in words.items()))

    # -- the app's triage key, with a share and without ---------------------------------
    solo = work / "no-team"
    if not solo.exists():
        shutil.copytree(alice, solo, ignore=shutil.ignore_patterns("team", "team.json"))
    with_share: list[float] = []
    without: list[float] = []
    for _ in range(args.rounds):
        times, _, _ = asyncio.run(key_latency(solo, "x", args.presses, 0.1))
        without += times
        times, _, _ = asyncio.run(key_latency(alice, "x", args.presses, 0.1))
        with_share += times
    result["app_triage_key"] = {"with_share": summary(with_share),
                                "without": summary(without),
                                "ratio_p95": round(p95(with_share) / p95(without), 3),
                                "presses": len(with_share)}
    print(f"app key p95: {p95(with_share) * 1000:.1f} ms with a share, "
          f"{p95(without) * 1000:.1f} ms without")
    print(f"wrote {save('team_lab', 'lab_of_5_10000_papers', result)}")


if __name__ == "__main__":
    main()
