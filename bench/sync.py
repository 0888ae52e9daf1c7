"""Team sync at scale: 5 members x 1,000 annotations, one of them on the 87,549-paper library.

Every sync of member 0 is a real ``paper-tui sync`` process (wall time, start-up included)
through a real bare repository. Member 0 is the big library; members 1-4 (and member 0's
other machine) push their people file with plain git, as their own sync would (so the
bench needs no second 87,549-paper library). Measured on member 0:

- ``sync`` with nothing new (target <= 1 s);
- pulling 1,000 new annotations of another member (target <= 3 s);
- pulling 1,000 of its own, made on another machine (they land in its annotation store);
- sending 1,000 changes of its own;
- in-process, as the app would run it in a worker: a triage change's latency (p50/p95)
  while idle and while a sync pulling 1,000 annotations runs in a thread;
- in the app itself (bench/tui.py's ``key_latency``: the ``x`` key from the terminal
  driver to the frame showing the next paper): p50/p95 idle, and while the app's own sync
  (its ``Y`` key, a worker thread) pulls another member's 1,000 annotations; rounds
  interleaved, a fresh 1,000 pushed before each sync (results key
  ``app_triage_key_during_sync``).

    python bench/sync.py [--big DIR]     # DIR: the 87,549-paper library (built if absent)
    python bench/sync.py --app-key-only  # the join, then the app's key only
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from textual import events

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.store.annotations import SCHEMA, STATUSES
from paper_tui.store.file_store import YamlStore
from paper_tui.team import repo
from paper_tui.team.sync import run_sync
from results_file import run_header, save
from tui import key_latency
from tui import p95 as tui_p95

CORPUS = Path("/work/shared/corpus/papers-ml.jsonl.gz")
MEMBERS = 5
PER_MEMBER = 1_000
RUNS = 5
TAGS = ["causal", "rl", "theory", "vision", "llm", "benchmark", "survey", "to-discuss"]


def cli(library: Path, *args: str, env: dict[str, str], config: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           "--config", str(config), *args], capture_output=True, text=True,
                          env=env, timeout=1800)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"paper-tui {' '.join(args)} failed: {done.stderr.strip()}")
    return took, done.stdout.strip()


def corpus_ids(big: Path) -> list[str]:
    ids = []
    for path in sorted((big / "sources").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            ids += [json.loads(line)["id"] for line in fh]
    return ids


def changes(ids: list[str], rng: random.Random, old: dict[str, dict] | None = None
            ) -> dict[str, dict]:
    """1,000 records as triage would leave them (on top of ``old``)."""
    out = dict(old or {})
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for pid in ids:
        record = dict(out.get(pid) or {})
        record["status"] = rng.choice(STATUSES[1:])
        if rng.random() < 0.2:
            record["starred"] = True
        if rng.random() < 0.5:
            record["tags"] = tuple(rng.sample(TAGS, rng.randint(1, 3)))
        if rng.random() < 0.1:
            record["note"] = f"looked at this on {stamp}"
        record["updated"] = stamp
        out[pid] = record
    return out


def annotate(library: Path, ids: list[str], rng: random.Random) -> None:
    """1,000 changes in a library's store, as triage there would make them."""
    store = YamlStore(library / "annotations.yaml", SCHEMA)
    now = time.time()
    for pid, record in changes(ids, rng, store.snapshot()).items():
        store.put(pid, record, now)
    store.save()


class Clone:
    """Another member (or member 0's other machine) pushing their file with plain git: what
    their own ``paper-tui sync`` would push, without a second 87,549-paper library."""

    def __init__(self, remote: Path, where: Path, name: str) -> None:
        self.where, self.name = where, name
        subprocess.run(["git", "clone", "-q", str(remote), str(where)], check=True)
        self.records: dict[str, dict] = {}

    def push(self, ids: list[str], rng: random.Random) -> None:
        path = self.where / repo.person_file(self.name)
        subprocess.run(["git", "pull", "-q", "--no-rebase"], cwd=self.where, check=True)
        if path.exists():
            self.records = repo.read(path.read_text(), path, repo.PEOPLE_SCHEMA).records
        self.records = changes(ids, rng, self.records)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(repo.write(repo.PEOPLE_SCHEMA, self.records, {}))
        env = {**os.environ, "GIT_AUTHOR_NAME": self.name, "GIT_AUTHOR_EMAIL": "b@x.invalid",
               "GIT_COMMITTER_NAME": self.name, "GIT_COMMITTER_EMAIL": "b@x.invalid"}
        for args in (["add", "-A"], ["commit", "-qm", f"{self.name}: 1,000 changes"],
                     ["push", "-q", "origin", "HEAD:main"]):
            subprocess.run(["git", *args], cwd=self.where, check=True, env=env)


def timed(fn, runs: int = RUNS) -> list[float]:
    return [fn() for _ in range(runs)]


def summary(times: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
            "runs": len(times)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big", type=Path, default=Path("/tmp/team-bench/big"))
    parser.add_argument("--app-key-only", action="store_true",
                        help="after the join, measure the app's triage key only")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="paper-tui-sync-bench-"))
    env = {**os.environ, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "config"),
           "XDG_DATA_HOME": str(work / "data")}
    os.environ.update(env)  # the app runs in this process: never the real user's config
    config = work / "config.yaml"
    config.write_text("bundled_lists: false\n")
    big = args.big
    if not (big / "sources" / "manifest.json").exists():
        took, _ = cli(big, "import", str(CORPUS), env=env, config=config)
        print(f"built the big library in {took:.0f} s")
    ids = corpus_ids(big)
    print(f"{len(ids):,} papers in {big}")
    rng = random.Random(16)
    remote = work / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    # Keep the big library's own annotations as they were (the bench adds its own).
    saved = {name: (big / name).read_bytes() for name in ("annotations.yaml",
                                                           "reading-lists.yaml")
             if (big / name).exists()}
    for name in ("annotations.yaml", "reading-lists.yaml", "team.json"):
        (big / name).unlink(missing_ok=True)
    shutil.rmtree(big / "team", ignore_errors=True)
    result: dict = {"papers": len(ids), "members": MEMBERS, "annotations_each": PER_MEMBER}
    try:
        annotate(big, rng.sample(ids, PER_MEMBER), rng)
        took, out = cli(big, "sync", "--remote", str(remote), "--as", "m0", env=env,
                        config=config)
        result["join_sharing_the_87k_list_s"] = round(took, 3)
        print(f"m0 joins, sharing its 87k paper list: {took:.2f} s  ({out})")
        others = [Clone(remote, work / f"m{n}", f"m{n}") for n in range(1, MEMBERS)]
        if not args.app_key_only:
            cli_timings(big, remote, others, ids, rng, env, config, result, work)
            result["triage_latency_ms"] = responsiveness(big, others[0], ids, rng)
            print(f"triage latency: {result['triage_latency_ms']}")
        app_key = app_key_during_sync(big, others[0], ids, rng)
    finally:
        for name in ("annotations.yaml", "reading-lists.yaml", "team.json"):
            (big / name).unlink(missing_ok=True)
        for name, data in saved.items():
            (big / name).write_bytes(data)
        shutil.rmtree(big / "team", ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    if not args.app_key_only:
        print(f"wrote {save('sync', 'papers-ml-87k', result)}")
    app_key = {**run_header("sync.py", sys.argv[1:]), "papers": len(ids), **app_key}
    print(f"wrote {save('sync', 'app_triage_key_during_sync', app_key)}")
    idle, busy = app_key["idle_ms"]["p95"], app_key["during_sync_ms"]["p95"]
    print(f"triage key p95 idle / during a sync: {idle:.1f} / {busy:.1f} ms "
          f"({busy / idle:.2f}x)")


def cli_timings(big: Path, remote: Path, others: list[Clone], ids: list[str], rng: random.Random,
                env: dict[str, str], config: Path, result: dict, work: Path) -> None:
    """The ``paper-tui sync`` processes' wall times, into ``result``."""
    for other in others:
        other.push(rng.sample(ids, PER_MEMBER), rng)
    took, out = cli(big, "sync", env=env, config=config)
    result["pull_4x1000_s"] = round(took, 3)
    print(f"m0 takes in 4 members x 1,000: {took:.2f} s  ({out})")

    idle = timed(lambda: cli(big, "sync", env=env, config=config)[0])
    result["nothing_new"] = summary(idle)
    print(f"nothing new: {result['nothing_new']}")

    pulls = []
    for other in others[:3]:
        other.push(rng.sample(ids, PER_MEMBER), rng)
        took, out = cli(big, "sync", env=env, config=config)
        assert f"papers from {other.name}" in out, out  # less the ones re-stamped alike
        pulls.append(took)
        print(f"pull 1,000 from {other.name}: {took:.2f} s  ({out})")
    result["pull_1000_from_a_member"] = summary(pulls)

    laptop = Clone(remote, work / "m0-laptop", "m0")
    own = []
    for _ in range(3):
        laptop.push(rng.sample(ids, PER_MEMBER), rng)
        took, out = cli(big, "sync", env=env, config=config)
        own.append(took)
        print(f"pull 1,000 of m0's own from its laptop: {took:.2f} s  ({out})")
    result["pull_1000_own_from_another_machine"] = summary(own)

    sends = []
    for _ in range(3):
        annotate(big, rng.sample(ids, PER_MEMBER), rng)
        cli(big, "tags", env=env, config=config)  # the index takes them in, as triage does
        took, out = cli(big, "sync", env=env, config=config)
        sends.append(took)
        print(f"send 1,000: {took:.2f} s  ({out})")
    result["send_1000"] = summary(sends)


def responsiveness(big: Path, other: Clone, ids: list[str], rng: random.Random
                   ) -> dict[str, float]:
    """A status change's latency in this process (what a triage key costs the app), idle and
    while a sync that pulls 1,000 annotations runs in a worker thread."""
    lib = Library.open(big, config=config_mod.defaults(), bundled=False)
    try:
        picks = rng.sample(ids, 4000)

        def measure(stop: threading.Event | None, first: int, count: int) -> list[float]:
            out = []
            for i in range(first, first + count):
                if stop is not None and stop.is_set():
                    break
                start = time.perf_counter()
                lib.annotations.set_status([picks[i]], STATUSES[1 + i % 3])
                out.append((time.perf_counter() - start) * 1000)
                time.sleep(0.01)  # a fast typist: 100 keys a second at most
            return out

        idle = measure(None, 0, 200)
        other.push(rng.sample(ids, PER_MEMBER), rng)
        done = threading.Event()
        worker = threading.Thread(target=lambda: (run_sync(lib), done.set()))
        worker.start()
        busy = measure(done, 1000, 3000)
        worker.join()
        lib.annotations.flush()
    finally:
        lib.close()

    def pct(values: list[float], q: float) -> float:
        return round(sorted(values)[int(q * (len(values) - 1))], 3)

    return {"idle_p50": pct(idle, 0.5), "idle_p95": pct(idle, 0.95),
            "during_sync_p50": pct(busy, 0.5), "during_sync_p95": pct(busy, 0.95),
            "keys_during_sync": len(busy)}


def app_key_during_sync(big: Path, other: Clone, ids: list[str], rng: random.Random,
                        rounds: int = 3, presses: int = 30, gap: float = 0.05
                        ) -> dict[str, object]:
    """The app's ``x`` key, idle and while the app's own sync runs (started as its ``Y``
    key does), in interleaved rounds, each in a fresh app on ``big``; before each sync,
    ``other`` pushes new changes to its 1,000 annotations (the same papers each round, so
it keeps 1,000 annotations as the bench's other members do), which the sync must take in.

    A sync is short (about 0.3 s on the 87,579 papers; 4 x 1,000 or 4 x 2,500 took 0.4-0.6
    s), so the keys come fast (one every ``gap`` 0.05 s; key_latency needs each key's frame
    before the next key) and only those sent while the sync was running count as during
    it; rounds go on (at least ``rounds``) until ``presses`` such keys were timed. The sync
    starts with its key (``Y``) sent as the ``x`` keys are, ``gap`` before the first of them:
    sent in the same instant, the first ``x`` would share its frame slot with ``Y``'s status
    line (Textual draws 60 frames a second at most), which idle keys never do."""
    idle: list[float] = []
    busy: list[float] = []
    idle_cpu: list[float] = []
    busy_cpu: list[float] = []
    sync_s: list[float] = []
    running_at_send: list[bool] = []

    @contextlib.asynccontextmanager
    async def syncing(app):
        async def watch() -> float:
            while app.main.team_sync.running:
                await asyncio.sleep(0.005)
            return time.perf_counter() - start

        send = app._driver.send_message

        def send_noting(message) -> None:
            running_at_send.append(app.main.team_sync.running)
            send(message)

        app._driver.send_message = send_noting
        start = time.perf_counter()
        send(events.Key("Y", "Y"))  # the sync key, a key like the others: `gap` before the next
        await asyncio.sleep(gap)
        ended = asyncio.ensure_future(watch())
        yield
        app._driver.send_message = send
        sync_s.append(await ended)
        said = [m for m in app.said if m.startswith("sync: ")]
        if not any(f"from {other.name}" in m for m in said):
            raise SystemExit(f"the sync took in nothing from {other.name}: {said}")

    theirs = rng.sample(ids, PER_MEMBER)  # changed anew each round: 1,000 annotations each
    n = 0
    while n < rounds or len(busy) < presses:
        n += 1
        if n > 20:
            raise SystemExit(f"only {len(busy)} keys during a sync in 20 rounds")
        times, cpu, _ = asyncio.run(key_latency(big, "x", presses, gap))
        idle += times
        idle_cpu += cpu
        other.push(theirs, rng)
        running_at_send.clear()
        times, cpu, _ = asyncio.run(key_latency(big, "x", presses, gap, around=syncing))
        during = [i for i, running in enumerate(running_at_send) if running]
        busy += [times[i] for i in during]
        busy_cpu += [cpu[i] for i in during]
        print(f"round {n}: the sync took {sync_s[-1]:.2f} s, {len(during)} keys during it "
              f"(max {max(times[i] for i in during) * 1000:.1f} ms); idle p95 "
              f"{tui_p95(idle[-presses:]) * 1000:.1f} ms")

    def ms(times: list[float], cpu: list[float]) -> dict[str, float | int]:
        return {"p50": round(statistics.median(times) * 1000, 2),
                "p95": round(tui_p95(times) * 1000, 2), "max": round(max(times) * 1000, 2),
                "ui_thread_cpu_p50": round(statistics.median(cpu) * 1000, 2),
                "ui_thread_cpu_p95": round(tui_p95(cpu) * 1000, 2), "presses": len(times)}

    idle_ms, busy_ms = ms(idle, idle_cpu), ms(busy, busy_cpu)
    return {"rounds": n, "presses_per_round": presses, "gap_s": gap,
            "pushed_before_each_sync":
                f"new changes to the {PER_MEMBER:,} annotations of {other.name}",
            "idle_ms": idle_ms, "during_sync_ms": busy_ms,
            "p95_ratio": round(busy_ms["p95"] / idle_ms["p95"], 2),
            "sync_s": [round(t, 2) for t in sync_s]}


if __name__ == "__main__":
    main()
