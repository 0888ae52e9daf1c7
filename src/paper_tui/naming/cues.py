"""Introducing cues: where an abstract introduces its own name.

A name is accepted only after an introducing cue, and only if it is new at that point of
the abstract (an acronym used earlier is background, not a contribution):

* strong cues: "we propose / present / introduce / release / develop / design … X",
  "by introducing X", "we address this with X", "…, called / named / dubbed X";
* weak cues: "our method, X, …", "X, a new … model", and a sentence that starts with a new
  name right after "we propose a … framework".

What follows a cue is parsed by :mod:`paper_tui.naming.introduced`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from paper_tui.naming.candidates import QUOTE_CHARS, is_distinctive
from paper_tui.naming.words import KINDS

# Each cue pattern starts with a literal so the regex engine can skip ahead quickly; they run
# on a lower-cased copy of the abstract (same offsets).
_VERB = (r"(?:propos|present|introduc|releas|develop|design|buil[dt]|construct|contribut"
         r"|creat|devis|offer|describ|curat|collect|establish|unveil|open-sourc|deriv|provid|produc|train)\w*"
         r"|put\s+forward")
_ADVERBS = (r"(?:\s+(?:also|further|then|first|here|now|finally|additionally|therefore|thus"
            r"|hence|instead|next|accordingly|have|has|can|will|are|hereby|herein|\w+ly))*")
_CUE_WE = re.compile(
    rf"we(?:,[^,.]{{1,30}},)?{_ADVERBS}\s+(?:(?:aim|seek|try|attempt|set\s+out)\s+to\s+)?"
    rf"(?:(?P<intro>(?:{_VERB})(?:\s+and\s+[a-z]+(?<!ed))?)|(?P<naming>(?:call|name|term|dub)"
    r"(?:\s+(?:it|this|them|these|(?:our|the|this)\s+\w+))?(?:\s+as)?)"
    r"|(?P<address>(?:address|tackle|solve|overcome|mitigate|remedy|resolve|bridge|fill|close)"
    r"\w*\s+(?:[\w-]+\s+){0,5}?(?:with|via|through))),?\s+")
_DOCUMENT = r"(?:work|article|study|report|note|thesis|chapter|submission|letter)"
_CUE_THIS = re.compile(rf"this\s+{_DOCUMENT}{_ADVERBS}\s+(?P<intro>{_VERB}),?\s+")
# "the paper introduces", "the following paper describes", "us to introduce"
_CUE_PAPER = re.compile(rf"paper{_ADVERBS}\s+(?P<intro>{_VERB}),?\s+")
_CUE_US = re.compile(rf"us\s+to\s+(?P<intro>{_VERB})\s+")
_CUE_AND = re.compile(rf"and\s+(?P<intro>{_VERB})\s+")
_CUE_OUR = re.compile(
    rf"our\s+(?:(?:approach|method|framework|work|system|model|paper|study)\s+(?P<intro>{_VERB})"
    r"\s+|(?P<ours>))")
_CUE_THE = re.compile(r"the\s+(?:proposed|resulting|new|presented|developed|introduced|underlying"
                      r"|final|overall)\s+"
                      r"(?P<ours>)")
_OWN_PAPER = ("this ", "the ", "our ", "present ", "following ", "current ")
# "we study a novel convex estimator MixLasso": any verb, when what follows is new.
_CUE_NEW = re.compile(r"we\s+(?P<intro>(?:study|explore|consider|investigate|formulate|define"
                      r"|adopt|employ|use|train|apply|describe|report|demonstrate|show)\w*)\s+"
                      r"(?=(?:a|an|the|our)\s+(?:novel|new)\s)")
_CUE_PATTERNS = (_CUE_WE, _CUE_THIS, _CUE_PAPER, _CUE_US, _CUE_AND, _CUE_OUR, _CUE_THE,
                 _CUE_NEW)
# Gerunds ("by introducing X") and participles ("called X") are found from their endings.
_GERUND_STEMS = ("propos", "present", "introduc", "releas", "develop", "design", "build",
                 "construct", "creat", "devis", "curat", "produc", "generat", "contribut")
_GERUND_LEADS = (" by ", " via ", " through ", " thus ", " hence ", " and ", " then ", " first ",
                 " also ", " further ", ", ", " after ", " while ")
_NAMING_STEMS = tuple(f"{c}{stem}" for stem in (
    "call", "nam", "dubb", "coin", "term", "nicknam", "codenam", "denot", "tagg", "referr",
    "designat", "abbreviat") for c in " (")
_NAMING_TAIL = re.compile(r"(?:\s+(?:as|to\s+as|by))?\s+")
_PASSIVE = (" is proposed", " is introduced", " is presented", " is developed", " are proposed",
            " are introduced", " is designed", " was developed", " is described")
# Rarer naming phrases, found by a plain substring search first.
_NAMING_NEEDLES = (
    ("namely", re.compile(r"namely,?\s+")),
    ("known ", re.compile(r"known\s+(?:here\s+|hereafter\s+)?as\s+(?P<known>)")),
    ("resulting in", re.compile(r"resulting\s+in\s+(?P<intro>)")),
    ("development of", re.compile(r"development\s+of\s+(?P<intro>)")),
    ("contribution", re.compile(r"contributions?\s+(?:is|are|includes?)\s+(?P<intro>)")),
    (" i ", re.compile(rf" i\s+(?P<intro>{_VERB})\s+")),
    ("refer to", re.compile(
        r"refer\s+to\s+(?:(?:it|them|(?:this|these|the|our)(?:\s+[\w-]+){0,4}?)\s+)?as\s+")),
)


@lru_cache(maxsize=4)
def cues(text: str) -> tuple[tuple[int, int, str], ...]:
    """``(start, end, kind)`` of every introducing cue, in text order (kept for the few
    abstracts being named: :mod:`paper_tui.naming.apposed` reads them again)."""
    return tuple(_cues(text))


def _cues(text: str) -> list[tuple[int, int, str]]:
    low = text.lower()
    if len(low) != len(text):  # a rare character changed length when lower-cased
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    found: list[tuple[int, int, str]] = []
    for pattern in _CUE_PATTERNS:
        for m in pattern.finditer(low):
            i = m.start()
            if i and low[i - 1].isalnum():
                continue
            if pattern is _CUE_PAPER and not low.endswith(_OWN_PAPER, 0, i):
                continue  # "a previous paper proposed X" is someone else's
            found.append((i, m.end(), m.lastgroup or "intro"))
    i = low.find("ing ")
    while i >= 0:
        if low.endswith(_GERUND_STEMS, max(0, i - 10), i) and low[i + 4:i + 5].isalnum():
            j = low.rfind(" ", 0, i) + 1
            # "by introducing X", "…, producing X"; not "Developing X is hard".
            if low.endswith(_GERUND_LEADS, 0, j):
                found.append((j, i + 4, "intro"))
        i = low.find("ing ", i + 4)
    i = low.find("ed ")
    while i >= 0:
        if low.endswith(_NAMING_STEMS, max(0, i - 10), i):
            j = low.rfind(" ", 0, i) + 1
            if text[j].islower() or text[j] == "(":
                # "called X", "a robot (named X)"; not "Named Entity Recognition"
                tail = _NAMING_TAIL.match(low, i + 2)
                assert tail is not None  # low[i + 2] is the space after "ed"
                found.append((j, tail.end(), "naming"))
        i = low.find("ed ", i + 3)
    for needle, pattern in _NAMING_NEEDLES:
        i = low.find(needle)
        while i >= 0:
            named = pattern.match(low, i)
            if named:
                found.append((i, named.end(), named.lastgroup or "naming"))
            i = low.find(needle, i + 4)
    # "A new Temporal CAM (TCAM) method is introduced": parse from the sentence start.
    for needle in _PASSIVE if " is " in low or " are " in low or " was " in low else ():
        i = low.find(needle)
        while i >= 0:
            j = low.rfind(". ", 0, i) + 2 if low.rfind(". ", 0, i) >= 0 else 0
            k = low.find(", ", j, min(i, j + 40))  # "In this work, a … network (X) is …"
            found.append((j, j if k < 0 else k + 2, "intro"))
            w = low.rfind(" ", 0, i) + 1
            if w > j and is_distinctive(text[w:i]):  # "…, FABRIKv is proposed by …"
                found.append((w, w, "naming"))
            i = low.find(needle, i + 5)
    # "SALVe, our novel alignment verifier": the name comes first.
    i = low.find(", our ")
    while i >= 0:
        if low.startswith(("novel", "new", "proposed"), i + 6):
            j = low.rfind(" ", 0, i) + 1
            found.append((j, j, "naming"))
        i = low.find(", our ", i + 6)
    _appositions(text, low, found)
    found.sort()
    return found


# Words before "X, a …" that make X someone else's or a list item (whole words).
_APPOS_LEADS = (" such as ", " e.g., ", " e.g. ", " like ", " including ", " and ", " or ",
                " than ", " of ", " with ", " vs. ", " over ", " on ", " in ", " using ", " to ",
                " by ", " for ", " from ", " at ", " via ", " the ", " outperforms ",
                " generalize ", "; ", ", ")
# A gloss that describes someone else's work ("SMT-CBS, a recent solving approach").
_OTHERS_GLOSS = frozenset({"recent", "popular", "well-known", "state-of-the-art", "standard",
                           "existing", "classic", "classical", "widely", "commercial", "known"})


def _appositions(text: str, low: str, found: list[tuple[int, int, str]]) -> None:
    """"… to train LuxEmbedder, an enhanced sentence embedding model": a new distinctive
    name glossed by "a/an … <kind of thing>" names a contribution wherever it stands (a weak
    cue: an introducing verb wins)."""
    for needle in (" a ", " an "):
        i = low.find(needle)
        while i >= 0:
            k = i - 1 if low[i - 1:i] in (",", ":", "—") else i - 2 if low[i - 2:i] in (
                " -", " —", " –") else -1  # where the separator starts
            if k > 0:
                j = low.rfind(" ", 0, k) + 1
                tok = text[j:k].strip(QUOTE_CHARS)
                gloss = low[i + len(needle):i + 80].split()[:8]
                if is_distinctive(tok) and not low.endswith(_APPOS_LEADS, 0, j) and \
                        text.find(tok, 0, j) < 0 and not _OTHERS_GLOSS.intersection(gloss) and \
                        any(w.strip(",.;") in KINDS or w in ("new", "novel") for w in gloss):
                    found.append((j, j, "appos"))
            i = low.find(needle, i + 2)
