"""Names and titles for papers, including title-less abstracts.

A paper's *name* is what readers call it: the system, method, benchmark or data set its
abstract introduces ("We present L$^2$EAP (…)", "we propose **SMITH** (…)", "…, called
X"). It is found only where the abstract itself introduces it; an acronym it merely uses
(LLMs, MoE, RL) or a method it compares against is never a name, and when nothing is
introduced the name is empty: a wrong name is worse than none.

The *title* of a title-less abstract is ``NAME: Long Form`` when the abstract spells the
name out, else ``NAME: `` plus the gist of the phrase that introduces it, else a shortened
first sentence. A real source title is kept as it is.

Everything here is raw text (LaTeX kept); the importers render it for display. It runs on
every imported paper, so all patterns are compiled once and each abstract is scanned by a
handful of regular-expression passes.
"""

from __future__ import annotations

import re

from paper_tui.naming_apposed import apposed_name
from paper_tui.naming_choice import with_evidence
from paper_tui.naming_fallback import evidence_name
from paper_tui.naming_rules import Candidate, clean, find_candidates, gist_after, title_name

MAX_TITLE = 90
NAMED_CHARS = 8_000
"""Names come from an abstract's first 8,000 characters: real abstracts are shorter (in the
87,549-paper corpus all but one are under 4,700), and on long repetitive text some rules
scan superlinearly (2,000 repeats of one sentence took seconds)."""
# A sentence ends at . ! or ? before a space and a capital (or parenthesis). Literal first,
# so the search skips ahead quickly.
_SENTENCE_GAP = re.compile(r"[.!?]\s+(?=[A-Z(])")
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
    m = _SENTENCE_GAP.search(flat)
    return flat[:m.start() + 1] if m else flat


def _flat(text: str) -> str:
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
    flat = _flat(abstract[:NAMED_CHARS])
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
