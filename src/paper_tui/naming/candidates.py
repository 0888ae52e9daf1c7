"""A candidate name and the tests on its shape: is a token shaped like a name (``KGO``,
``KiteNorm``, ``MemR$^3$``), a coined word, background, a modifier, someone else's work?"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from paper_tui.naming.cleaning import MATH, MATH_RE
from paper_tui.naming.words import BACKGROUND, FUNCTION_WORDS, PROPER_ADJECTIVES


@dataclass(frozen=True, slots=True)
class Candidate:
    """A name found after a cue; ``end`` is where the text after the name begins."""

    name: str
    start: int
    end: int
    strong: bool
    expansion: str = ""
    gist: str = ""


# A name's letters, digits and math; joined by - & / + ("A*+BFHS", "S+T"); "P^3-Net", "RL^2";
# led by a math symbol ("∞-former", "∇SLAM"); a trade mark ends it ("EMS®", "LabRat™").
# A Greek letter in math ends a name ("Mobi-$\pi$"); one that starts a word is a math term
# ("$\epsilon$-optimal").
_GREEK = (r"\$\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|kappa|lambda|mu"
          r"|nu|xi|pi|rho|sigma|tau|phi|varphi|chi|psi|omega)\$")
TOKEN = re.compile(
    rf"(?:[^\W_]|[∞∇](?=[\w-])|{MATH})(?:[^\W_]|{MATH}|(?<=-){_GREEK}|[-&/–](?=[^\W_]|\$)"
    r"|\.(?=[A-Z\d])|\^\{?[^\W_]{1,3}\}?(?![^\W_])|[+*]{1,2}(?=[A-Z])|[+*]{1,2}(?![^\W_*+])"
    r"|[®™](?![^\W_])|['’](?=[A-Z]\b))*")
# The quote marks a name may stand in.
QUOTE_CHARS = "\"“”'`‘’"
# A modifier, not a name: "LLM-based agents", "KG-guided search".
MODIFIER = re.compile(
    r"-(?:based|driven|aware|guided|free|level|like|style|specific|agnostic|efficient|oriented"
    r"|centric|conditioned|augmented|enhanced|powered|assisted|inspired|informed|only|wise"
    r"|scale|shot|generated|grounded|compatible|friendly|native|ready|time|step|order|type)$")
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")
# Degrees of freedom: "6-DoF", "7DOF".
_DOF = re.compile(r"\d*-?(?:DOF|DoF|DOFs|DoFs)")


_LETTER = re.compile(r"[^\W\d_]")
# An upper-case letter inside a word part (``KiteNorm``, ``KGO``, ``vOPD``), or a one-letter
# prefix (``U-Net``); "Vision-Language-Action" is only a capitalised compound.
_INNER_UPPER = re.compile(r"[^\W\d_][A-Z]|^[A-Z]-|^[a-z]{1,2}-[A-Z]")
_DIGIT_UPPER = re.compile(r"\d.*[A-Z]|[A-Z].*\d")


@lru_cache(maxsize=8192)
def token_shape(tok: str) -> int:
    """2: distinctive (``KGO``, ``KiteNorm``, ``vOPD``, ``K12``, ``MemR$^3$``);
    1: a capitalised word (``Kairos``, ``Vision-Language``); 0: anything else."""
    core = MATH_RE.sub("", tok) if "$" in tok else tok
    if not _LETTER.search(core):
        return 0
    if core != tok or _INNER_UPPER.search(core) or core[0] in "∞∇" or (
            core[-1] == "*" and core[0].isupper()):
        return 2  # "∞-former", "∇SLAM": a math symbol leads; "T*", "BIT*": a star ends
    if _DIGIT_UPPER.search(core) and (core[0].isalpha() or len(_LETTER.findall(core)) > 1):
        return 2  # "K12", "R3M", "360-Indoor"; not "3D"
    return 1 if core[0].isupper() else 0


def coined_shapes(toks: list[tuple[str, int]], text: str) -> list[int]:
    """Shapes of a phrase; a lone capitalised word the abstract never writes in lower case
    ("Ruleformer", "Ladybird") is a coined word, as distinctive as "KiteNorm"."""
    shapes = [sh for _, sh in toks]
    if shapes == [1]:
        tok = toks[0][0]
        if len(tok) > 3 and tok not in FUNCTION_WORDS and tok not in PROPER_ADJECTIVES \
                and tok not in BACKGROUND and re.search(
                    rf"(?<![\w-]){re.escape(tok.lower())}(?![\w-])", text) is None:
            return [2]
    return shapes


def coined(tok: str, text: str) -> bool:
    """One token shaped like a name, or a capitalised word the abstract never writes in
    lower case ("Jammkle")."""
    return bool(TOKEN.fullmatch(tok)) and coined_shapes([(tok, token_shape(tok))], text) == [2]


def is_distinctive(tok: str) -> bool:
    """One token shaped like a name (``KGO``, ``KiteNorm``, ``MemR$^3$``)."""
    return token_shape(tok) == 2 and bool(TOKEN.fullmatch(tok))


def bad_name(name: str, text: str, before: int) -> bool:
    """Background or already-used names, and modifiers, are not contributions."""
    return (
        len(name) > 40
        or name in BACKGROUND
        or bool(_DOF.fullmatch(name))
        or bool(_PLURAL_ACRONYM.match(name))
        or bool(MODIFIER.search(name))
        or text.find(name, 0, before) >= 0
    )


# "… known as parity model (ParM) has been recently proposed": someone else's.
_PRIOR = re.compile(r"(?<![Ww]e )(?<![Ww]e have )\brecently\s+(?:proposed|introduced|developed)"
                    r"|\bwidely\s+used"
                    r"|\bexisting\s+[\w\s-]{0,30}?(?:called|named|known\s+as)\b")


def prior_work(text: str, got: Candidate) -> bool:
    """Does the sentence that introduces ``got`` speak of earlier work?"""
    start = text.rfind(". ", 0, got.start) + 1
    end = text.find(". ", got.end)
    end = end if end >= 0 else len(text)
    # Plain substring checks first: the pattern opens with look-behinds, a slow scan.
    if text.find("recently", start, end) < 0 and text.find("widely", start, end) < 0 and \
            text.find("existing", start, end) < 0:
        return False
    return bool(_PRIOR.search(text, start, end))
