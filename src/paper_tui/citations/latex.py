"""Text as BibTeX reads it: LaTeX specials escaped, non-ASCII letters as BibTeX specials
(``{\\'e}``), inline math kept braced, capitals protected the way DBLP and OpenReview do it.

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
from functools import lru_cache

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


def latex_escape(text: str) -> str:
    """Unicode text -> LaTeX that BibTeX reads with balanced braces and LaTeX prints as is."""
    text = _ASCII_RE.sub(lambda m: _ASCII_SPECIALS[m.group(0)], text)
    text = text.replace("\u00a0", "~")
    if text.isascii():
        return text
    return _encoder().unicode_to_latex(text)


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


def _text_words(text: str) -> str:
    """Unicode text -> LaTeX, bracing the words whose capitals must survive."""
    out = []
    for piece in re.split(r"(\s+)", text):
        if not piece or piece.isspace():
            out.append(" " if piece else "")
            continue
        encoded = latex_escape(piece)
        out.append("{" + encoded + "}" if _needs_protection(piece) else encoded)
    return "".join(out)


_MATH = re.compile(r"(?<!\\)\$(?!\$)([^$]+?)(?<!\\)\$")
_MATH_UNSAFE = re.compile(r"(?<!\\)[%#&]")


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


def bibtex_title(raw: str) -> str:
    """A raw title (LaTeX, Markdown or plain) -> the value of a BibTeX ``title`` field."""
    out: list[str] = []
    cursor = 0
    dollars = len(re.findall(r"(?<!\\)\$", raw))
    matches = list(_MATH.finditer(raw)) if dollars % 2 == 0 else []
    if any(raw.count("{", 0, m.start()) != raw.count("}", 0, m.start()) for m in matches):
        matches = []  # math inside a macro argument (``\textbf{$x$ y}``): render it all
    for m in matches:
        out.append(_text_words(display.plain(raw[cursor:m.start()])))
        body = m.group(1)
        if balanced(body) and not _MATH_UNSAFE.search(body):
            out.append("{$" + body + "$}")
        else:
            out.append(_text_words(display.plain(m.group(0))))
        cursor = m.end()
    out.append(_text_words(display.plain(raw[cursor:])))
    return " ".join("".join(out).split())


def bibtex_name(name: str) -> str:
    """One author as ``von Last, Jr, First`` with LaTeX-encoded letters."""
    name = " ".join(display.plain(name).split())  # LaTeX (``Vuli{\'c}``) -> Unicode
    if name.lower() == "others":
        return "others"
    n = split_name(name)
    last = latex_escape(" ".join(x for x in (n.von, n.last) if x))
    parts = [last] + ([latex_escape(n.jr)] if n.jr else []) + \
        ([latex_escape(n.first)] if n.first else [])
    return ", ".join(parts)


