"""Title case as citeproc-js (Zotero's CSL processor) applies ``text-case="title"``, so a
title renders the same as there: ``Modern LLMs Continue … across Languages``.

The rules, in citeproc-js's order: the text is cut at punctuation, quotes, brackets,
hyphens and slashes; in each piece every word of two letters or more that is not a stop
word gets a capital, and so does the first word, a word after ``:``, ``?`` or ``!``, and,
in the first piece only, a word before a hyphen; a word already holding a capital is left
as written; the last word gets a capital even when it is a stop word. Quotes that do not
pair up give back the first letter after them as it was.
"""

from __future__ import annotations

import re
from typing import Any

from citeproc.string import MixedString, NoCase, String

STOP_WORDS = (
    "about", "above", "across", "afore", "after", "against", "al", "along", "alongside",
    "amid", "amidst", "among", "amongst", "anenst", "apropos", "apud", "around", "as",
    "aside", "astride", "at", "athwart", "atop", "barring", "before", "behind", "below",
    "beneath", "beside", "besides", "between", "beyond", "but", "by", "circa", "despite",
    "down", "during", "et", "except", "for", "forenenst", "from", "given", "in", "inside",
    "into", "lest", "like", "modulo", "near", "next", "notwithstanding", "of", "off", "on",
    "onto", "out", "over", "per", "plus", "pro", "qua", "sans", "since", "than", "through",
    " thru", "throughout", "thruout", "till", "to", "toward", "towards", "under",
    "underneath", "until", "unto", "up", "upon", "versus", "vs.", "v.", "vs", "v", "via",
    "vis-à-vis", "with", "within", "without", "according to", "ahead of", "apart from",
    "as for", "as of", "as per", "as regards", "aside from", "back to", "because of",
    "close to", "due to", "except for", "far from", "inside of", "instead of", "near to",
    "next to", "on to", "out from", "out of", "outside of", "prior to", "pursuant to",
    "rather than", "regardless of", "such as", "that of", "up to", "where as", "or", "yet",
    "so", "for", "and", "nor", "a", "an", "the", "de", "d'", "von", "van", "c", "ca")
"""citeproc-js's ``SKIP_WORDS``, as it writes them (a regular expression's alternatives)."""

_STOP = re.compile(r"(?:(?:[?!:]*\s+|-|^)(?:" + "|".join(STOP_WORDS) + r")(?=[!?:]*\s+|-|$))")
_TAGS = re.compile("(“|”|‘|’| \"| '|\"|'|[-–—/.,;?!:]|\\[|\\]|\\(|\\))")
_SPACES = re.compile("([\u00a0\u0020\u2000-\u200b\u205f\u3000]+)")
_OPENERS = {" \"": (" '", "\""), " '": (" \"", "'"), "‘": ("‘", "’"), "“": ("“", "”")}
_QUOTE = re.compile(r"(^(?:‘|’|“|”|\"|')|(?: \"| ')$)")


def _capitalise(word: str) -> str:
    m = re.match(r"(\s*)(.)(.*)", word, re.DOTALL)
    if m and not (re.fullmatch("[\u0370-\u03ff]", m.group(2)) and not m.group(3)):
        return m.group(1) + m.group(2).upper() + m.group(3)
    return word


class _State:
    def __init__(self) -> None:
        self.first = True
        self.after_punct = False
        self.last: tuple[int, int] | None = None
        self.quotes: list[dict[str, Any]] = []


def _words(state: _State, piece: str, index: int, following: str | None) -> str:
    if not piece.strip():
        return piece
    parts = _SPACES.split(piece)  # words at even positions, the spaces between at odd
    words = parts[::2]
    for j, word in enumerate(words):
        if not word:
            continue
        lower = word.lower()
        capitalize = (len(word) > 1 and not _STOP.search(lower)) \
            or (j == len(words) - 1 and following == "-") or state.first or state.after_punct
        if capitalize and word == lower:
            words[j] = _capitalise(word)
        state.after_punct = state.first = False
        state.last = (index, j)
    parts[::2] = words
    return "".join(parts)


def _split(text: str) -> tuple[list[str], list[str]]:
    """``text`` cut at the tags: (the pieces, the tags between them)."""
    pieces = _TAGS.split(text)
    strings, tags = pieces[::2], pieces[1::2]
    for i, tag in enumerate(tags):  # an apostrophe inside a word stays with the word
        if tag == "'" and strings[i + 1]:
            strings[i + 1] = tag + strings[i + 1]
            tags[i] = ""
    return strings, tags


def _quote_fix(state: _State, tag: str, pos: int) -> int | None:
    m = _QUOTE.search(tag)
    if not m:
        return None
    tag = m.group(1)
    if tag in ("“", "‘", " \"", " '"):
        opener, closer = _OPENERS[tag]
        if not state.quotes or tag == state.quotes[-1]["opener"]:
            state.quotes.append({"opener": opener, "closer": closer, "pos": pos})
            return None
        previous = state.quotes.pop()["pos"]
        state.quotes.append({"opener": opener, "closer": closer})
        return previous
    if state.quotes and tag == state.quotes[-1]["closer"]:
        state.quotes.pop()
        return None
    return pos


def _title(text: str) -> str:
    if not text:
        return text
    strings, tags = _split(text)
    original = list(strings)
    state = _State()
    if strings[0].strip():
        strings[0] = _words(state, strings[0], 0, tags[0] if tags else None)
    for i, tag in enumerate(tags):
        if re.search(r"[!?:]$", tag):
            state.after_punct = True
        # citeproc-js hands these pieces something other than the tag that follows them
        strings[i + 1] = _words(state, strings[i + 1], i + 1, None)
        pos = _quote_fix(state, tag, i)
        if pos is not None:
            strings[pos + 1] = original[pos + 1][:1] + strings[pos + 1][1:]
            state.last = None
    for quote in state.quotes:
        if "pos" in quote:
            pos = quote["pos"]
            strings[pos + 1] = original[pos + 1][:1] + strings[pos + 1][1:]
    if state.last is not None:
        index, j = state.last
        parts = _SPACES.split(strings[index])
        word = parts[2 * j]
        if len(word) > 1 and _STOP.search(word.lower()):
            parts[2 * j] = _capitalise(word)
        strings[index] = "".join(parts)
    out = [strings[0]]
    for tag, piece in zip(tags, strings[1:], strict=True):
        out += [tag, piece]
    return "".join(out)


def title_case(text: Any) -> Any:
    """``text`` (a citeproc-py string, or a ``str``) in title case; parts marked no-case
    (``<span class="nocase">``) keep their letters."""
    plain = str(text)
    cased = _title(plain)
    if isinstance(text, MixedString) and any(isinstance(s, NoCase) for s in text):
        if len(cased) != len(plain):
            return text
        out, at = MixedString(), 0
        for segment in text:
            size = len(str(segment))
            piece = cased[at:at + size]
            out.append(segment if isinstance(segment, NoCase) else String(piece))
            at += size
        return out
    return String(cased)
