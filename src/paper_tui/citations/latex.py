"""Text as BibTeX reads it: LaTeX specials escaped, non-ASCII letters as BibTeX specials
(``{\\'e}``), inline math kept braced, capitals protected the way DBLP and OpenReview do it.

Every value is meant to pass ``bibtex`` (plain.bst), ``biber`` and ``pdflatex`` with T1
fonts: a letter pylatexenc has no macro for keeps the accent T1 can set (``ậ`` -> ``â``) or
is folded to ASCII, one with no LaTeX form at all is left out; math
keeps only macros LaTeX (with amsmath) knows, and only LaTeX in it (``$\\ell_∞$`` ->
``$\\ell_{\\ensuremath{\\infty}}$``). With ``utf8`` (for biblatex users) letters stay UTF-8.

* A generated title is built from the raw title: inline math (``$\\ell_1$``) is kept as the
  authors wrote it, braced; the text around it goes through the display renderer (which
  resolves LaTeX accents, ``\\emph`` and Markdown emphasis) and is then re-encoded: LaTeX
  specials escaped, non-ASCII letters as BibTeX special characters (``{\\'e}``). A literal
  brace becomes ``\\textbraceleft{}``, because BibTeX counts ``\\{`` as a brace too.
* Capitals are protected the way DBLP and OpenReview do it: a word is braced when it has a
  capital beyond its first letter (``{BERT}``, ``{LLM-Powered}``, ``{GANs}``) or is a lone
  capital (``{K}``); ordinary title-case words are left for the bibliography style.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import get_default_latex_context_db
from pylatexenc.latexencode import UnicodeToLatexEncoder

from paper_tui import display
from paper_tui.citations.names import split_name

_ASCII_SPECIALS = {"\\": r"\textbackslash{}", "{": r"\textbraceleft{}",
                   "}": r"\textbraceright{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_",
                   "$": r"\$", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_ASCII_RE = re.compile(r"[\\{}&%#_$~^]")


@lru_cache(maxsize=1)
def _encoder() -> UnicodeToLatexEncoder:
    return UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="braces-all",
                                 unknown_char_policy="keep", unknown_char_warning=False)


def _settable(ch: str) -> str:
    """A letter pylatexenc has no macro for, as one T1 (and inputenc, which reads what
    biber writes back as UTF-8) can set: with the one accent of its own that makes a
    Latin-1 or Latin Extended-A letter (``ậ`` -> ``â``, ``ồ`` -> ``ô``), else its ASCII
    letter (``ạ`` -> ``a``, ``ﬁ`` -> ``fi``), else nothing (``中``)."""
    decomposed = unicodedata.normalize("NFD", ch)
    for mark in decomposed[1:]:
        single = unicodedata.normalize("NFC", decomposed[0] + mark)
        if len(single) == 1 and "\u00c0" <= single <= "\u017f":
            return _encoder().unicode_to_latex(single)
    folded = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    return _ASCII_RE.sub(lambda m: _ASCII_SPECIALS[m.group(0)], folded) \
        if folded.isprintable() else ""


# ``{\\'\\i}``: biber gives back a dotless i with a combining accent, which inputenc
# cannot set; ``{\\'i}`` is the same letter
_DOTLESS = re.compile(r"(\\[`'^\"~=.uvHr])\{?\\([ij])\}?(?![A-Za-z])")


def _composed(text: str) -> str:
    """NFC, and a dotless ``ı`` with an accent as the ``i`` it is (``ı́`` -> ``í``)."""
    return unicodedata.normalize("NFC", re.sub(r"[ıȷ](?=[\u0300-\u036f])",
                                               lambda m: "ij"["ıȷ".index(m.group(0))], text))


def _encode(text: str) -> str:
    """Non-ASCII characters as LaTeX; ASCII is left as it is."""
    encoded = _DOTLESS.sub(r"\1{\2}", _encoder().unicode_to_latex(_composed(text)))
    return encoded if encoded.isascii() else "".join(
        ch if ch.isascii() else _settable(ch) for ch in encoded)


def latex_escape(text: str, *, utf8: bool = False) -> str:
    """Unicode text -> LaTeX that BibTeX reads with balanced braces and LaTeX prints as is;
    ``utf8``: non-ASCII letters left as they are (biblatex with biber reads UTF-8)."""
    text = _ASCII_RE.sub(lambda m: _ASCII_SPECIALS[m.group(0)], text)
    text = text.replace("\u00a0", "~")
    if text.isascii():
        return text
    if utf8:  # letters as they are; a symbol (``∞``) as LaTeX, as in math
        return "".join(_encode(ch) if unicodedata.category(ch)[0] == "S" else ch
                       for ch in _composed(text))
    return _encode(text)


def _needs_protection(word: str) -> bool:
    """True for ``BERT``, ``GANs``, ``LLM-Powered``, ``K``, ``Q-learning``; not for ``Deep``,
    ``Cross-Domain`` or the article ``A``."""
    if word == "A":
        return False
    for part in re.split(r"[-/‐-—]", word):
        letters = [i for i, ch in enumerate(part) if ch.isalpha()]
        capitals = [i for i in letters if part[i].isupper()]
        if not capitals:
            continue
        if len(capitals) > 1 or capitals[0] != letters[0]:
            return True
        after = capitals[0] + 1
        if not (after < len(part) and part[after].islower()):
            return True
    return False


def _text_words(text: str, utf8: bool = False) -> str:
    """Unicode text -> LaTeX, bracing the words whose capitals must survive."""
    out = []
    for piece in re.split(r"(\s+)", text):
        if not piece or piece.isspace():
            out.append(" " if piece else "")
            continue
        encoded = latex_escape(piece, utf8=utf8)
        out.append("{" + encoded + "}" if _needs_protection(piece) else encoded)
    return "".join(out)


_MATH = re.compile(r"(?<!\\)\$(?!\$)([^$]+?)(?<!\\)\$")
_MATH_UNSAFE = re.compile(r"(?<!\\)[%#&]")
_MACRO = re.compile(r"\\([A-Za-z]+)")
# amsmath and amssymb's, beyond what pylatexenc knows: what a paper's LaTeX loads
_AMS_MACROS = {"operatorname", "boldsymbol", "left", "right", "big", "Big", "bigg", "Bigg",
               "mathbb", "mathfrak", "text", "lVert", "rVert", "lvert", "rvert", "dots",
               "tfrac", "dfrac", "varnothing", "lesssim", "gtrsim", "mathscr", "bm"}


def _known_macro(name: str) -> bool:
    return name in _AMS_MACROS or get_default_latex_context_db().get_macro_spec(name) \
        is not None


def _math(body: str) -> str:
    """Inline math as LaTeX can set it: a macro LaTeX does not know is its name in letters
    (``\\sqrtT`` -> ``sqrtT``), a non-ASCII symbol its macro (``∞`` -> ``\\infty``)."""
    body = _MACRO.sub(lambda m: m.group(0) if _known_macro(m.group(1)) else m.group(1), body)
    if not body.isascii():
        body = "".join(ch if ch.isascii() else "{" + _encode(ch) + "}" for ch in body)
    return "{$" + body + "$}"


def balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def bibtex_title(raw: str, *, utf8: bool = False) -> str:
    """A raw title (LaTeX, Markdown or plain) -> the value of a BibTeX ``title`` field."""
    out: list[str] = []
    cursor = 0
    dollars = len(re.findall(r"(?<!\\)\$", raw))
    matches = list(_MATH.finditer(raw)) if dollars % 2 == 0 else []
    if any(raw.count("{", 0, m.start()) != raw.count("}", 0, m.start()) for m in matches):
        matches = []  # math inside a macro argument (``\\textbf{$x$ y}``): render it all
    for m in matches:
        out.append(_text_words(display.plain(raw[cursor:m.start()]), utf8))
        body = m.group(1)
        if balanced(body) and not _MATH_UNSAFE.search(body):
            out.append(_math(body))
        else:
            out.append(_text_words(display.plain(m.group(0)), utf8))
        cursor = m.end()
    out.append(_text_words(display.plain(raw[cursor:]), utf8))
    return " ".join("".join(out).split())


def bibtex_name(name: str, *, utf8: bool = False) -> str:
    """One author as ``von Last, Jr, First`` with LaTeX-encoded letters ("" for a name with
    no letters at all)."""
    name = " ".join(display.plain(name).split()).strip(" ,")  # ``Vuli{\\'c}`` -> Unicode
    name = re.sub(r"\s*,(\s*,)+", ",", name)
    if not any(ch.isalnum() for ch in name):
        return ""
    if name.lower() == "others":
        return "others"
    n = split_name(name)
    last = latex_escape(" ".join(x for x in (n.von, n.last) if x), utf8=utf8)
    parts = [last] + ([latex_escape(n.jr, utf8=utf8)] if n.jr else []) + \
        ([latex_escape(n.first, utf8=utf8)] if n.first else [])
    return ", ".join(p for p in parts if p)
