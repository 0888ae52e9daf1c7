"""The unstemmed word list behind ``word~``, ``word*`` and "did you mean"."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from whoosh.analysis.filters import STOP_WORDS

from paper_tui.index.lazy import np
from paper_tui.index.schema import MAX_EXPANSION, MAX_FUZZY, stem
from paper_tui.query.parse import WORD, fold, plain_words
from paper_tui.trust import atomic


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
        self._stamp: atomic.FileIdentity | None = None
        self._text = ""
        self._by_letter: dict[str, list[str]] = {}
        self._by_first: dict[str, _Group] = {}
        self._near: dict[tuple[str, int, int], list[str]] = {}

    def _load(self) -> None:
        stamp = atomic.identity(self.path) or (0, 0, 0)  # (0, 0, 0): no file
        if stamp == self._stamp:
            return
        # A damaged file (bytes that are not UTF-8) costs a few junk words, never a crash.
        self._text = self.path.read_text("utf-8", errors="replace") \
            if stamp != (0, 0, 0) else ""
        self._by_letter = {}
        self._by_first = {}
        self._near = {}
        self._stamp = stamp

    def _starting_with(self, first: str) -> list[str]:
        """The words beginning with the letter ``first``, in order (cached)."""
        self._load()
        words = self._by_letter.get(first)
        if words is None:  # sorted: the words with one first letter are one run of lines
            text = self._text
            words = self._by_letter[first] = text[_bound(text, first, False):
                                                  _bound(text, first, True)].split()
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
        out: list[str] = []
        for i in range(bisect.bisect_left(words, prefix), len(words)):
            if not words[i].startswith(prefix) or len(out) >= MAX_EXPANSION:
                break
            out.append(words[i])
        return out

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Words within ``maxdist`` edits of ``word`` sharing its first ``prefix`` letters
        (and always its first letter), closest first. Kept per word: a query asks once per
        field it searches (five times for a plain ``word~``)."""
        self._load()
        key = (word, maxdist, prefix)
        found = self._near.get(key)
        if found is None:
            if len(self._near) >= _NEAR_KEPT:
                self._near.clear()
            found = self._near[key] = self._find_near(word, maxdist, prefix)
        return list(found)

    def _find_near(self, word: str, maxdist: int, prefix: int) -> list[str]:
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
            # filters (the first over all the words at once) before the exact distance.
            close = _popcount()[(masks ^ np.uint64(letters)).view(np.uint8)].reshape(-1, 8)
            for i in np.flatnonzero(close.sum(axis=1) <= 2 * maxdist).tolist():
                cand = words[i]
                if cand[:prefix] != word[:prefix] or not any(p in cand for p in pieces):
                    continue
                dist = distance(word, cand)
                if dist <= maxdist:
                    found.append((dist, cand))
        return [cand for _, cand in sorted(found)[:MAX_FUZZY]]


def _bound(text: str, first: str, after: bool) -> int:
    """Where, in sorted lines, the first line starting with ``first`` (``after``: with a
    letter after it) begins: a binary search over the text, no split."""

    def line_from(pos: int) -> int:  # the first line beginning at or after pos
        if pos == 0:
            return 0
        k = text.find("\n", pos - 1)
        return len(text) if k < 0 else k + 1

    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi) // 2
        start = line_from(mid)
        if start < len(text) and (text[start] <= first if after else text[start] < first):
            lo = mid + 1
        else:
            hi = mid
    return line_from(lo)


_NEAR_KEPT = 256
"""Fuzzy words kept (the answers of :meth:`Vocabulary.near`): a few KB."""


class _Group:
    """The words with one first letter, by length, each with its set of letters as bits
    (worked out per length on first use, for all the words of a length at once with
    numpy: a query needs only lengths near its word's)."""

    def __init__(self, words: list[str]) -> None:
        self._all = words
        self._lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        self._by_length: dict[int, tuple[np.ndarray, list[str]]] = {}

    def of_length(self, size: int) -> tuple[np.ndarray, list[str]]:
        found = self._by_length.get(size)
        if found is None:
            words = [self._all[i] for i in np.flatnonzero(self._lengths == size).tolist()]
            found = self._by_length[size] = (_letter_masks(words, size), words)
        return found


def _letter_masks(words: list[str], size: int) -> np.ndarray:
    """:func:`_letters` of each of ``words`` (all ``size`` letters long), as uint64."""
    if not words or not size:
        return np.zeros(len(words), dtype=np.uint64)
    codes = np.array(words, dtype=f"<U{size}").view(np.uint32).reshape(len(words), size)
    bits = np.left_shift(np.uint64(1), (codes % 61).astype(np.uint64))
    return np.bitwise_or.reduce(bits, axis=1)


@cache
def _popcount() -> np.ndarray:
    """The number of bits set in each byte value."""
    return np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


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


def one_swap(a: str, b: str) -> bool:
    """``b`` is ``a`` with two neighbouring letters swapped (``nueral``, ``neural``): one
    slip of the fingers, though Levenshtein counts it as two edits, as it does ``nuprl``."""
    if len(a) != len(b):
        return False
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(differ) == 2 and differ[1] == differ[0] + 1 and \
        a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]]


def did_you_mean(query: str, vocabulary: Vocabulary, reader) -> str | None:
    """"Did you mean": the query with unknown words replaced by close known ones (known:
    in the vocabulary and, stemmed, in a title or abstract of the Whoosh ``reader``).

    The words are replaced in one pass over the query (one pass per word cost the
    query's length for each: seconds for 1,000 misspelt words beside a long one)."""
    def frequency(word: str) -> int:
        return sum(reader.doc_frequency(f, stem(word)) for f in ("title", "abstract"))

    better: dict[str, str] = {}
    for word in dict.fromkeys(plain_words(query)):
        if len(word) < 3 or word in STOP_WORDS or (word in vocabulary and frequency(word)):
            continue
        for dist in (1, 2):
            cands = [c for c in vocabulary.near(word, dist, 1) if frequency(c)]
            if cands:
                best = max(cands, key=lambda w: (one_swap(word, w), common_prefix(w, word),
                                                 frequency(w), w))
                if best != word:
                    better[word] = best
                break
    if not better:
        return None
    changed = WORD.sub(lambda m: better.get(fold(m.group()), m.group()), query)
    return changed if changed != query else None
