"""``team status`` with a team-mate's large ``assignments.yaml`` over many members (issue 34,
item 9): 200,000 assignments (the cap, ``team/repo.py``'s ``MAX_RECORDS``) over 5, 5,000
and 20,000 members, before and after.

Alice is a real library of a 10,000-paper random sample of the corpus (seeded), in a team
through a real bare repository; a team-mate pushes, with plain git, an assignments file of
200,000 papers (the 10,000 of the library, the rest papers of a bigger library of theirs)
dealt round-robin among M members, none of whom has synced yet (each one "not synced
yet": the worst case, every member's history is asked for). Alice syncs it in, then
``paper-tui team status`` is timed (wall, start-up included, the best of ``--runs``) with
the code of each tree given (``--tree NAME=SRC``; by default "before" = /work/main/src and
"after" = this tree's src), each run under a timeout (``--timeout``; a run past it is
reported as "> N s").

    python bench/team_status.py [--work DIR] [--members 5,5000,20000]
    # results in bench/results/team_status.md
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(SRC))

from paper_tui.team import assignments, repo  # noqa: E402
from results_file import run_header  # noqa: E402

CORPUS = Path("/work/shared/corpus/papers-ml.jsonl.gz")
PAPERS = 10_000
ASSIGNMENTS = repo.MAX_RECORDS
GIT_ENV = {"GIT_AUTHOR_NAME": "tm", "GIT_AUTHOR_EMAIL": "tm@x.invalid",
           "GIT_COMMITTER_NAME": "tm", "GIT_COMMITTER_EMAIL": "tm@x.invalid"}


def cli(src: Path, library: Path, *args: str, timeout: float = 600
        ) -> tuple[float, float, str]:
    """Run ``paper-tui`` with the code of ``src``: (wall seconds, CPU seconds of it and
    of every process it ran, stdout)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], capture_output=True, text=True, check=True, env=env,
                          timeout=timeout)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


def sample(path: Path, rng: random.Random) -> None:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        lines = [line for line in fh if (json.loads(line).get("year") or 0) <= 2025]
    path.write_text("".join(rng.sample(lines, PAPERS)), "utf-8")


def library_ids(library: Path) -> list[str]:
    _, _, out = cli(SRC, library, "list", "--json")
    return sorted(paper["id"] for paper in json.loads(out))


def assignments_text(ids: list[str], members: int) -> str:
    """200,000 papers (``ids`` first, then made-up ones) dealt round-robin."""
    every = ids + [f"tm{n:08x}" for n in range(ASSIGNMENTS - len(ids))]
    stamp = "2026-12-01T10:00:00Z"
    records = {pid: {"member": f"m{n % members:05d}", "updated": stamp}
               for n, pid in enumerate(every)}
    return assignments.render(records, {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, help="where the libraries go (default: temp)")
    parser.add_argument("--members", default="5,5000,20000")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=SRC",
                        help="code to time (default: before=/work/main/src after=this tree)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=150)
    args = parser.parse_args()
    trees = dict(t.split("=", 1) for t in args.tree) or {
        "before": "/work/main/src", "after": str(SRC)}
    rng = random.Random(34)
    work = args.work or Path(tempfile.mkdtemp(prefix="paper-tui-team-status-"))
    work.mkdir(parents=True, exist_ok=True)
    remote, alice = work / "team.git", work / "alice"
    if not alice.exists():
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
        sample(work / "conference.jsonl", rng)
        cli(SRC, alice, "import", str(work / "conference.jsonl"))
        cli(SRC, alice, "sync", "--remote", str(remote), "--as", "alice")
        git(work, "clone", "-q", str(remote), str(work / "teammate"))
    ids = library_ids(alice)
    rows = []
    for members in (int(m) for m in args.members.split(",")):
        text = assignments_text(ids, members)
        (work / "teammate" / repo.ASSIGNMENTS).write_text(text, "utf-8")
        git(work / "teammate", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
        git(work / "teammate", "add", "-A")
        git(work / "teammate", "commit", "-qm", f"tm: {members} members")
        git(work / "teammate", "push", "-q", "origin", "HEAD:main")
        cli(SRC, alice, "sync")
        row = {"members": members, "bytes": len(text.encode())}
        for name, src in trees.items():
            times: list[tuple[float, float]] = []
            for _ in range(args.runs):
                try:
                    wall, cpu, out = cli(Path(src), alice, "team", "status", "--json",
                                         timeout=args.timeout)
                except subprocess.TimeoutExpired:
                    break
                times.append((wall, cpu))
                status = json.loads(out)
                assert len(status["members"]) == members + 1, len(status["members"])
            row[name] = (f"{min(w for w, _ in times):.2f} s wall, "
                         f"{min(c for _, c in times):.2f} s CPU") if times else \
                f"> {args.timeout:.0f} s wall (stopped)"
            print(f"{members:,} members, {name}: {row[name]}", flush=True)
        rows.append(row)
    header = run_header("team_status.py", sys.argv[1:])
    names = list(trees)
    lines = ["# `team status` with 200,000 assignments over many members", "",
             f"Command: `{header['command'].strip()}`  ", f"Date: {header['date']}  ",
             f"Machine: {header['machine']} (shared with other work; load average at the end "
             f"{', '.join(f'{x:.1f}' for x in header['load_average_at_end'])})  ",
             f"Library: {PAPERS:,} papers of the corpus; assignments.yaml: "
             f"{ASSIGNMENTS:,} papers; `paper-tui team status --json`: wall time and CPU "
             f"time (its own and its git processes'), the best of {args.runs} each; trees: "
             + ", ".join(f"{n} = `{s}`" for n, s in trees.items()),
             "", "| members | file | " + " | ".join(names) + " |",
             "|---:|---:|" + "---:|" * len(names)]
    for row in rows:
        lines.append(f"| {row['members']:,} | {row['bytes'] / 2**20:.1f} MB | "
                     + " | ".join(str(row[n]) for n in names) + " |")
    out = HERE / "results" / "team_status.md"
    out.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"wrote {out}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
