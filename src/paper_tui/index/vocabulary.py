"""The unstemmed word list behind ``word~``, ``word*`` and "did you mean"."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from pathlib import Path

from paper_tui import atomic
from paper_tui.index.schema import MAX_EXPANSION, MAX_FUZZY
from paper_tui.query import fold


def common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class Vocabulary:
    """Every unstemmed, folded word of the titles, abstracts and authors, one a line in
    ``vocabulary.txt`` beside the index: the word list for ``word~``, ``word*`` and "did
    you mean" (a Whoosh field would cost a second posting per word per paper)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._words: list[str] = []
        self._set: set[str] = set()
        self._by_first: dict[str, list[str]] = {}

    def _load(self) -> None:
        try:
            stat = self.path.stat()
        except OSError:
            stat = None
        stamp = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
        if stamp == self._stamp:
            return
        text = self.path.read_text("utf-8") if stat else ""
        self._words = text.split()
        self._set = set(self._words)
        self._by_first = {}
        self._stamp = stamp

    def __contains__(self, word: str) -> bool:
        self._load()
        return word in self._set

    def extend(self, words: Iterable[str]) -> None:
        self._load()
        new = {fold(w) for w in words} - self._set
        if new:
            atomic.write_text(self.path, "\n".join(sorted(self._set | new)) + "\n")
            self._stamp = None

    def starting(self, prefix: str) -> list[str]:
        self._load()
        words = self._words
        out = []
        for i in range(bisect.bisect_left(words, prefix), len(words)):
            if not words[i].startswith(prefix) or len(out) >= MAX_EXPANSION:
                break
            out.append(words[i])
        return out

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Words within ``maxdist`` edits of ``word`` sharing its first ``prefix`` letters."""
        self._load()
        first = word[:1]
        group = self._by_first.get(first)
        if group is None:
            lo = bisect.bisect_left(self._words, first)
            hi = bisect.bisect_left(self._words, first + "\U0010ffff")
            group = self._by_first[first] = self._words[lo:hi] if first else []
        letters = set(word)
        found = []
        for cand in group:
            if abs(len(cand) - len(word)) > maxdist or cand[:prefix] != word[:prefix]:
                continue
            if len(letters.symmetric_difference(cand)) > 2 * maxdist:
                continue
            dist = _within(cand, word, maxdist)
            if dist <= maxdist:
                found.append((dist, cand))
        return [cand for _, cand in sorted(found)[:MAX_FUZZY]]


def _within(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of a and b, or limit + 1 when it is larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]

