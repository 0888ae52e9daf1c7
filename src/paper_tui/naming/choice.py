"""Which of several introduced names is the paper's? (used by :mod:`paper_tui.naming.introduced`)

An abstract often introduces more than one name: a data set on the way to the method, a
module inside the system, an earlier version it builds on. The paper is about the name it
goes on to talk about, so each candidate is weighed by what the rest of the abstract does
with it: every mention counts, a mention as the subject of a result ("X outperforms", "X
can") or owned ("our X", "the effectiveness of X") counts more, being introduced first or
extending another candidate's name ("FIRE" → "FIREPruning") counts a little, and a part of
the system ("a … decoder layer (CF)") counts against, as does, a little, an acronym of
lower-case words (a term of the field more often than a coined name).
"""

from __future__ import annotations

import re

from paper_tui.naming.candidates import Candidate

_COMPONENTS = frozenset({"module", "block", "layer", "loss", "head", "unit", "cell", "component",
                         "mechanism", "branch", "operation", "term", "submodule", "modules",
                         "blocks", "layers", "units", "strategy", "scheme", "attention"})
_NEXT_WORD = re.compile(r" ([a-z]+)\b")
_SECOND_WORD = re.compile(r" (?:[a-z][a-z-]+ )?([a-z]+)\b")  # "(CF) decoder layer"
# After a mention: the name is the subject of a result or a claim.
_RESULT = (" outperform", " achieve", " surpass", " significantly", " consistently",
           " substantially", " improves", " yields", " attains", " beats", " obtains", " sets",
           " establishes", " delivers", " can ", " is ", " is able", " shows", " demonstrates",
           " reduces", " performs")
# Before a mention: the abstract owns the name.
_OWNED = ("our ", "the proposed ", "effectiveness of ", "superiority of ", "efficacy of ")
_RESULT_WEIGHT = 2
_OWNED_WEIGHT = 2
_COMPONENT_WEIGHT = 3
_TERM_WEIGHT = 1


def mentions(name: str, text: str) -> int:
    """How often ``name`` occurs as a word ("CF" is not counted inside "CF-DETR")."""
    return len(_occurrences(name, text))


def _occurrences(name: str, text: str) -> list[int]:
    found, i = [], text.find(name)
    while i >= 0:
        e = i + len(name)
        if (not i or not (text[i - 1].isalnum() or text[i - 1] == "-")) and (
                e >= len(text) or not (text[e].isalnum() or text[e] == "-")):
            found.append(i)
        i = text.find(name, e)
    return found


def component(got: Candidate, text: str) -> bool:
    """Is ``got`` a part of the system ("a saliency enhancement module (SEM)")?"""
    words = (got.expansion or got.gist).split()
    after = _NEXT_WORD.match(text, got.end)
    after2 = _SECOND_WORD.match(text, got.end)
    return bool((words and words[-1].lower() in _COMPONENTS) or (
        after and after.group(1) in _COMPONENTS) or (after2 and after2.group(1) in _COMPONENTS))


def _weight(got: Candidate, text: str) -> int:
    score = 0
    for i in _occurrences(got.name, text):
        e = i + len(got.name)
        score += 1
        if text[e:e + 16].lower().startswith(_RESULT):
            score += _RESULT_WEIGHT
        if text[max(0, i - 20):i].lower().endswith(_OWNED):
            score += _OWNED_WEIGHT
    return score - _COMPONENT_WEIGHT * component(got, text) - _TERM_WEIGHT * _term(got)


def _term(got: Candidate) -> bool:
    """An acronym of lower-case words ("plane sweep volume (PSV)", "universal adversarial
    perturbation (UAP)") is more often a term of the field than a coined name ("Filter
    Inactive RatE (FIRE)"): a tie-breaker against it."""
    return bool(got.expansion) and got.expansion.replace("-", "").replace(" ", "").islower()


def pick(found: list[Candidate], text: str) -> Candidate:
    """The candidate the abstract is most about; the first one on a tie."""
    if len(found) == 1:
        return found[0]
    best, top = found[0], None
    for k, got in enumerate(found):
        score = _weight(got, text) + (k == 0) + any(
            o.name != got.name and o.name in got.name for o in found)
        if top is None or score > top:
            best, top = got, score
    return best


def with_evidence(found: Candidate | None, evidence: Candidate | None,
                  text: str) -> Candidate | None:
    """The introduced name, or the name the evidence fallback finds if the abstract is more
    about that one ("We construct InstructionSpeak … ConTinTin outperforms …"). Another
    spelling of the introduced name (AutoProteinEngine / AutoPE, RENAS / RENASNet) does not
    replace it, unless the introduced one is a phrase ("PISA Pixelwise Image")."""
    if found is None or evidence is None or evidence.name == found.name:
        return found or evidence
    if " " not in found.name and _spellings(found.name, evidence.name):
        return found
    return pick([found, evidence], text)


def _spellings(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` two spellings of one name: one inside the other, or the letters
    of the shorter running through the longer from its first letter on?"""
    short, long = sorted((a.lower(), b.lower()), key=len)
    if short in long:
        return True
    i = 0
    for c in short:
        if not c.isalnum():
            continue
        i = long.find(c, i) + 1
        if i == 0:
            return False
    return short[:1] == long[:1]
