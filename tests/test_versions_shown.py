"""A set of documents with versions among them maps to the shown one of each group, the
same way for a small set (a dict look-up each) and a big one (sorted arrays at once)."""

from __future__ import annotations

import random

import numpy as np

from paper_tui.index.versions import Versions


def test_big_and_small_sets_map_hidden_versions_alike() -> None:
    rng = random.Random(36)
    shown = rng.sample(range(200_000), 3_000)
    hidden = rng.sample(sorted(set(range(200_000)) - set(shown)), 6_000)
    versions = Versions(primary_of={h: shown[i % len(shown)] for i, h in enumerate(hidden)})
    for n in (0, 10, 1_023, 1_024, 50_000, 150_000):
        docs = np.array(sorted(rng.sample(range(200_000), n)), dtype=np.int64)
        expected = sorted({versions.primary_of.get(int(d), int(d)) for d in docs})
        assert versions.shown_for(docs).tolist() == expected, n
    assert Versions().shown_for(np.arange(5)).tolist() == [0, 1, 2, 3, 4]
