"""Real processes on one annotations file: concurrent writers and kill -9."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from paper_tui.store import Annotations

# A worker annotates papers NAME-START … NAME-(START+COUNT-1) one by one and prints
# "ack ID" after each change is durably on disk (flush returned), like a CLI exiting 0
# or a TUI save completing.
WORKER = r"""
import sys, time
from pathlib import Path
from paper_tui.store import Annotations

root, name, start, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), \
    float(sys.argv[5])
notes = Annotations(Path(root))
notes.get("warm-up")
time.sleep(max(0.0, go - time.time()))
for i in range(start, start + count):
    pid = f"{name}-{i:04d}"
    notes.add_tags([pid], [name, "shared"])
    notes.add_tags(["common-paper"], [f"{name}-{i}"])
    notes.set_note(pid, f"note {i}\nline: two # {name}")
    notes.flush()
    print(f"ack {pid}", flush=True)
notes.close()
"""


def _worker(root: Path, name: str, start: int, count: int, go: float = 0.0,
            out: Path | None = None) -> subprocess.Popen:
    args = [sys.executable, "-c", WORKER, str(root), name, str(start), str(count), str(go)]
    if out is None:
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with out.open("w") as fh:
        return subprocess.Popen(args, stdout=fh, stderr=subprocess.DEVNULL)


def test_two_processes_tagging_at_once_keep_every_tag(tmp_path: Path) -> None:
    go = time.time() + 1.5  # both start writing at the same moment
    workers = [_worker(tmp_path, name, 0, 25, go) for name in ("alpha", "beta")]
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
        assert out.count("ack ") == 25
    final = Annotations(tmp_path)
    for name in ("alpha", "beta"):
        for i in range(25):
            note = final.get(f"{name}-{i:04d}")
            assert note.tags == (name, "shared")
            assert note.note == f"note {i}\nline: two # {name}"
    # Both processes tagged one paper too: the tag sets were merged, nothing lost.
    common = set(final.get("common-paper").tags)
    assert common == {f"{name}-{i}" for name in ("alpha", "beta") for i in range(25)}
    assert final.read_only_reason is None
    final.close()


def test_kill_9_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(os.getpid())
    acked: list[str] = []
    start = 0
    for round_ in range(4):
        log = tmp_path / f"worker-{round_}.log"
        worker = _worker(tmp_path, "k", start, 1000, out=log)
        time.sleep(0.8 + rng.uniform(0.0, 0.8))  # start-up, then a random moment of work
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        acked += [line.split()[1] for line in log.read_text().splitlines()
                  if line.startswith("ack ")]
        start += 1000
        # After every kill the file parses and holds every acknowledged change.
        check = Annotations(tmp_path)
        assert check.read_only_reason is None
        missing = [pid for pid in acked if check.get(pid).tags != ("k", "shared")]
        assert not missing
        check.close()
    assert len(acked) > 5  # the workers did get work done between the kills
