"""A paper's name and title (:func:`name_and_title`): the rules combined, and the title
built from the name.

The *title* of a title-less abstract is ``NAME: Long Form`` when the abstract spells the
name out, else ``NAME: `` plus the gist of the phrase that introduces it, else a shortened
first sentence. A real source title is kept as it is; its ``NAME: …`` prefix names the
paper (:func:`title_name`).
"""

from __future__ import annotations

import re

from paper_tui.naming.apposed import apposed_name
from paper_tui.naming.candidates import Candidate, token_shape
from paper_tui.naming.choice import with_evidence
from paper_tui.naming.cleaning import clean
from paper_tui.naming.evidence import evidence_name
from paper_tui.naming.introduced import find_candidates, gist_after

MAX_TITLE = 90
NAMED_CHARS = 8_000
"""Names come from an abstract's first 8,000 characters: real abstracts are shorter (in the
87,549-paper corpus all but one are under 4,700), and on long repetitive text some rules
scan superlinearly (2,000 repeats of one sentence took seconds)."""
# A sentence ends at . ! or ? before a space and a capital (or parenthesis). Literal first,
# so the search skips ahead quickly.
SENTENCE_GAP = re.compile(r"[.!?]\s+(?=[A-Z(])")
# Words that only lead to the name, left at the end of a long form or gist ("Harmonic
# Networks or" from "Harmonic Networks or H-Nets"): dropped from a title's tail.
_DANGLING = re.compile(r"(?:[\s,;:(]+(?:or|called|named|dubbed|termed|namely|i\.e\.|e\.g\.))+"
                       r"[\s,;:(]*$")


def shorten(sentence: str, limit: int = MAX_TITLE) -> str:
    """Cut at a word boundary and mark the cut with an ellipsis."""
    sentence = " ".join(sentence.split())
    if len(sentence) <= limit:
        return sentence.rstrip(".")
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def first_sentence(text: str) -> str:
    return _first_sentence(" ".join(text.split()))


def _first_sentence(flat: str) -> str:
    m = SENTENCE_GAP.search(flat)
    return flat[:m.start() + 1] if m else flat


def flat_text(text: str) -> str:
    """White space collapsed; skipped (it costs a split and a join) when already so."""
    if "  " in text or "\n" in text or "\t" in text or "\r" in text or text[:1].isspace() \
            or text[-1:].isspace():
        return " ".join(text.split())
    return text


def _title_for(candidate: Candidate, text: str, flat: str) -> str:
    """``NAME: Long Form``, else ``NAME: gist``, else ``NAME: first sentence``."""
    gist = candidate.gist if len(candidate.gist.split()) >= 3 else ""  # not just "method"
    tail = candidate.expansion or gist or gist_after(text, candidate.end)
    tail = _DANGLING.sub("", " " + tail).strip() if tail else ""
    if not tail:
        tail = _first_sentence(flat)
    tail = tail[0].upper() + tail[1:]
    return shorten(f"{candidate.name}: {tail}")


def _found(text: str) -> Candidate | None:
    """The name the abstract introduces, or the one its evidence points to, or one set off
    after its description later in an introducing sentence."""
    return with_evidence(find_candidates(text), evidence_name(text), text) or apposed_name(text)


def name_and_title(abstract: str, title: str = "") -> tuple[str, str]:
    """Return ``(name, title)`` for a paper; ``title`` is the source's own, if any.

    Both are raw text (LaTeX kept); the caller renders them for display. A source title
    is kept; its ``NAME: …`` prefix names the paper, else the abstract does.
    """
    title = title.strip()
    flat = flat_text(abstract[:NAMED_CHARS])
    text = clean(flat)
    if title:
        name = title_name(title, text)
        if not name:
            found = _found(text)
            name = found.name if found else ""
        return name, title
    found = _found(text)
    if found is None:
        return "", shorten(_first_sentence(flat))
    return found.name, _title_for(found, text, flat)


_TITLE_PREFIX = re.compile(r"^\s*(?P<prefix>[^:]{1,60}?)\s*:\s+\S")
# "Long Form (ACR)", with a space: "Siame-se(3)" and "Graph(Graph)" are names, not "3".
_TITLE_ACRONYM = re.compile(r"^.+\s\((?P<acr>[^()\s]+)\)$")
_GENRES = frozenset({
    "position", "survey", "review", "tutorial", "overview", "editorial", "erratum",
    "corrigendum", "commentary", "perspective", "introduction", "keynote", "demo", "report",
    "summary", "retraction", "note", "reply", "response", "abstract", "preface", "foreword",
    "invited talk", "extended abstract", "short paper", "book review", "case study",
})


def title_name(title: str, text: str) -> str:
    """The NAME of a ``NAME: …`` title: short, and shaped like a name."""
    m = _TITLE_PREFIX.match(clean(title))
    if not m:
        return ""
    prefix = m.group("prefix")
    acr = _TITLE_ACRONYM.match(prefix)
    if acr and token_shape(acr.group("acr")):
        return acr.group("acr")
    words = prefix.split()
    if len(words) > 3 or prefix.lower() in _GENRES:
        return ""
    shapes = [token_shape(w) for w in words]
    if 0 in shapes and 2 not in shapes:
        return ""
    if 2 in shapes or len(words) == 1 or prefix in text:
        return prefix
    return ""
