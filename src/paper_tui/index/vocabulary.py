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
    ``vocabulary.txt`` beside the index, sorted: the word list for ``word~``, ``word*``
    and "did you mean" (a Whoosh field would cost a second posting per word per paper).

    Only the words with the first letter asked for are split out of the file's text (a
    run of its lines): the first fuzzy query of a process no longer splits and hashes all
    167,000 words (~45 ms) to use a tenth of them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._text = ""
        self._by_letter: dict[str, list[str]] = {}
        self._by_first: dict[str, _Group] = {}

    def _load(self) -> None:
        try:
            stat = self.path.stat()
        except OSError:
            stat = None
        stamp = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
        if stamp == self._stamp:
            return
        self._text = self.path.read_text("utf-8") if stat else ""
        self._by_letter = {}
        self._by_first = {}
        self._stamp = stamp

    def _starting_with(self, first: str) -> list[str]:
        """The words beginning with the letter ``first``, in order (cached)."""
        self._load()
        words = self._by_letter.get(first)
        if words is None:
            text = self._text
            start = 0 if text.startswith(first) else text.find("\n" + first) + 1
            if start == 0 and not text.startswith(first):
                words = []
            else:  # sorted: the words with one first letter are one run of lines
                end = text.find("\n", text.rfind("\n" + first) + 1)
                words = text[start:end if end >= 0 else len(text)].split()
            self._by_letter[first] = words
        return words

    def __contains__(self, word: str) -> bool:
        words = self._starting_with(word[:1]) if word else []
        i = bisect.bisect_left(words, word)
        return i < len(words) and words[i] == word

    def extend(self, words: Iterable[str]) -> None:
        self._load()
        known = set(self._text.split())
        new = {fold(w) for w in words} - known
        if new:
            atomic.write_text(self.path, "\n".join(sorted(known | new)) + "\n")
            self._stamp = None

    def starting(self, prefix: str) -> list[str]:
        self._load()
        words = self._starting_with(prefix[:1]) if prefix else self._text.split()
        out = []
        for i in range(bisect.bisect_left(words, prefix), len(words)):
            if not words[i].startswith(prefix) or len(out) >= MAX_EXPANSION:
                break
            out.append(words[i])
        return out

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Words within ``maxdist`` edits of ``word`` sharing its first ``prefix`` letters
        (and always its first letter), closest first."""
        self._load()
        first = word[:1]
        if not first:
            return []
        group = self._by_first.get(first)
        if group is None:
            group = self._by_first[first] = _Group(self._starting_with(first))
        letters = _letters(word)
        pieces = _pieces(word, maxdist)
        found = []
        for size in range(max(1, len(word) - maxdist), len(word) + maxdist + 1):
            masks, words = group.of_length(size)
            # An edit changes at most two letters of the set of letters a word uses, and
            # leaves at least one of maxdist + 1 pieces of the word intact: two C-speed
            # filters before the exact distance.
            for i, mask in enumerate(masks):
                if (mask ^ letters).bit_count() > 2 * maxdist:
                    continue
                cand = words[i]
                if cand[:prefix] != word[:prefix] or not any(p in cand for p in pieces):
                    continue
                dist = distance(word, cand)
                if dist <= maxdist:
                    found.append((dist, cand))
        return [cand for _, cand in sorted(found)[:MAX_FUZZY]]


class _Group:
    """The words with one first letter, by length, each with its set of letters as bits
    (worked out per length on first use: a query needs only lengths near its word's)."""

    def __init__(self, words: list[str]) -> None:
        self._words: dict[int, list[str]] = {}
        for word in words:
            self._words.setdefault(len(word), []).append(word)
        self._masks: dict[int, list[int]] = {}

    def of_length(self, size: int) -> tuple[list[int], list[str]]:
        words = self._words.get(size, [])
        masks = self._masks.get(size)
        if masks is None:
            masks = self._masks[size] = [_letters(word) for word in words]
        return masks, words


def _letters(word: str) -> int:
    mask = 0
    for ch in set(word):
        mask |= 1 << (ord(ch) % 61)
    return mask


def _pieces(word: str, maxdist: int) -> list[str]:
    """``word`` cut into ``maxdist + 1`` pieces: ``maxdist`` edits leave one intact."""
    k = maxdist + 1
    cuts = [round(i * len(word) / k) for i in range(k + 1)]
    return [word[cuts[i]:cuts[i + 1]] for i in range(k)]


def distance(a: str, b: str) -> int:
    """Levenshtein distance, bit-parallel (Myers 1999, Hyyrö's form): one pass over ``b``
    with ``a``'s letters as bit masks, instead of a table of len(a) x len(b) cells."""
    m = len(a)
    if not m:
        return len(b)
    peq: dict[str, int] = {}
    for i, ch in enumerate(a):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    full, last = (1 << m) - 1, 1 << (m - 1)
    pv, mv, score = full, 0, m
    for ch in b:
        eq = peq.get(ch, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | ~(xh | pv)
        mh = pv & xh
        if ph & last:
            score += 1
        elif mh & last:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv
    return score
