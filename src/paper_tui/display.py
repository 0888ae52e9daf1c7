"""LaTeX and Markdown in titles and abstracts -> display text with emphasis spans.

``L$^2$EAP`` -> ``L²EAP``, ``$\\times$`` -> ``×``, ``\\emph{x}`` / ``*x*`` / ``_x_`` ->
italic, ``**x**`` / ``__x__`` -> bold, ``$200{,}000$`` -> ``200,000``. Run once per paper
at import time; the result is stored with the paper so no frame ever re-renders LaTeX.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text

from paper_tui.model import Span

# pylatexenc logs a warning for every macro it cannot expand; the text still comes out.
logging.getLogger("pylatexenc").setLevel(logging.ERROR)

_SUPERSCRIPT = str.maketrans("0123456789+-=()nijkT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱʲᵏᵀ")
_SUBSCRIPT = str.maketrans("0123456789+-=()aeijkmnoprstux", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤₓ")
_SUP_OK = set("0123456789+-=()nijkT")
_SUB_OK = set("0123456789+-=()aeijkmnoprstux")

# Emphasis: macro with a braced argument, Markdown bold, Markdown italic, or inline math.
# Bold is at most 300 characters, as ``__bold__`` (the corpus's longest is 154): an opening
# ``**`` that no ``**`` closes would otherwise rescan the rest of the text (92 s for 100,000
# characters of "**a ").
_COMMON = (
    r"(?P<macro>\\(?P<cmd>emph|textit|textbf|mathbf|mathit|textsc|boldsymbol|bm)\s*\{)"
    r"|(?P<bold>(?<![\\*])\*\*(?=\S)(?P<bold_body>.{1,300}?)(?<=\S)\*\*(?!\*))"
    r"|(?P<italic>(?<![\w\\*])\*(?=[^\s*])(?P<italic_body>[^*\n]+?)(?<=[^\s*])\*(?![\w*]))"
    r"|(?P<math>(?<!\\)\$(?P<math_body>[^$]+?)(?<!\\)\$)"
)
# Markdown ``__bold__`` and ``_italic_``, outside math only (there ``_`` is a subscript), and
# only at word boundaries, so ``file_name_v2``, ``a_b``, ``x_1``, ``\|Mx\|_p`` and the
# ``/_private_/`` of a URL stay as they are: opened after white space or an opening bracket
# or quote, closed before white space or punctuation, never next to a backslash (``\_``).
_OPEN = r"(?<![^\s(\[{\"'“‘])"
_CLOSE = r"(?![^\s)\]}.,;:!?\"'”’-])"
_UNDERSCORES = (
    rf"|(?P<ubold>{_OPEN}__(?=[^\s_])(?P<ubold_body>[^\n]{{1,300}}?)(?<=[^\s_\\])__{_CLOSE})"
    rf"|(?P<uitalic>{_OPEN}_(?=[^\s_])(?P<uitalic_body>[^\n]{{1,300}}?)(?<=[^\s_\\])_{_CLOSE})"
)
_TOKEN = re.compile(_COMMON + _UNDERSCORES)
_COMMON_TOKEN = re.compile(_COMMON)
"""In math, and in text without an underscore (most of it: a faster search)."""
_BODIES = (("bold_body", "bold"), ("italic_body", "italic"), ("ubold_body", "bold"),
           ("uitalic_body", "italic"))
_STYLE = {"emph": "italic", "textit": "italic", "mathit": "italic", "textbf": "bold",
          "mathbf": "bold", "boldsymbol": "bold", "bm": "bold", "textsc": ""}
_SCRIPT = re.compile(r"(?P<op>[\^_])(?:\{(?P<group>[^{}]*)\}|(?P<single>\\?[A-Za-z0-9+\-=]))")
_NEEDS_LATEX = re.compile(r"[\\{}]|``|''")
# Where a token can begin: each alternative's first character.
_STARTS = re.compile(r"[\\*$_]")
_COMMON_STARTS = re.compile(r"[\\*$]")


def token_search(token: re.Pattern[str], starts: re.Pattern[str], text: str, cursor: int
                 ) -> re.Match[str] | None:
    """``token.search(text, cursor)``, tried only where ``starts`` finds a token could begin
    (the search tried at every character of an abstract: a sixth of an import's parsing).
    A match at a position sees the text before it, as the search's does."""
    for start in starts.finditer(text, cursor):
        m = token.match(text, start.start())
        if m is not None:
            return m
    return None


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    return LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


_SIMPLE = {"\\%": "%", "\\&": "&", "\\_": "_", "\\#": "#", "{,}": ",", "~": "\u00a0"}
# A tie (~) is a no-break space, but \~ is a tilde accent: leave that to pylatexenc.
_SIMPLE_RE = re.compile("|".join(r"(?<!\\)~" if k == "~" else re.escape(k) for k in _SIMPLE))
# A run of non-space text holding LaTeX; pylatexenc reads char by char, so it only ever
# sees these small islands, never a whole abstract.
_ISLAND = re.compile(r"[^\s\\{}]*(?:\\[A-Za-z]+\*?|\\.|[{}]|``|'')[^\s]*")
_MAX_ISLAND = 2_000  # characters of LaTeX converted at once (a formula is far shorter)
_MAX_NESTING = 32  # levels of emphasis inside emphasis (or math)


@lru_cache(maxsize=8192)
def _island(text: str, math: bool) -> str:
    if len(text) > _MAX_ISLAND:  # no formula: pylatexenc's time grows with its square
        return text
    if text.count("{") != text.count("}"):
        return text.replace("{", "").replace("}", "") if "\\" not in text else text
    return _converter().latex_to_text(f"${text}$" if math else text)


def _latex(chunk: str, math: bool) -> str:
    if "\\" in chunk or "{" in chunk or "~" in chunk:
        chunk = _SIMPLE_RE.sub(lambda m: _SIMPLE[m.group(0)], chunk)
    if not _NEEDS_LATEX.search(chunk):
        return chunk
    if math:
        return _island(chunk, True)
    return _ISLAND.sub(lambda m: _island(m.group(0), False), chunk)


def _scripts(math: str) -> str:
    """Turn ``^2`` / ``_{ij}`` into Unicode super/subscripts where every character has one."""

    def repl(m: re.Match[str]) -> str:
        body = m.group("group") if m.group("group") is not None else m.group("single")
        allowed, table = (_SUP_OK, _SUPERSCRIPT) if m.group("op") == "^" else (_SUB_OK, _SUBSCRIPT)
        if body and all(ch in allowed for ch in body):
            return body.translate(table)
        return m.group(0)

    return _SCRIPT.sub(repl, math)


def _closing_brace(text: str, start: int) -> int:
    depth = 1
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{" and text[i - 1] != "\\":
            depth += 1
        elif ch == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _render(text: str, math: bool, out: list[str], spans: list[Span], pos: int,
            depth: int = 0) -> int:
    """Append the display form of ``text`` to ``out``; return the new output length.

    Emphasis nested deeper than :data:`_MAX_NESTING` is no text's but a run of ``*`` or
    ``_`` (each level rescans the rest: 3.7 s for 100,000 stars before the recursion
    limit stopped it): it raises, and :func:`render` shows the text plain."""
    if depth > _MAX_NESTING:
        raise RecursionError("emphasis nested too deeply")
    cursor = 0
    token, starts = (_TOKEN, _STARTS) if not math and "_" in text else \
        (_COMMON_TOKEN, _COMMON_STARTS)
    while cursor < len(text):
        m = token_search(token, starts, text, cursor)
        if m is None:
            break
        if m.start() > cursor:
            piece = _latex(text[cursor:m.start()], math)
            out.append(piece)
            pos += len(piece)
        if m.group("macro"):
            end = _closing_brace(text, m.end())
            if end < 0:  # unbalanced: show the rest as it is
                piece = _latex(text[m.start():], math)
                out.append(piece)
                return pos + len(piece)
            start = pos
            pos = _render(text[m.end():end], math, out, spans, pos, depth + 1)
            style = _STYLE[m.group("cmd")]
            if style and pos > start:
                spans.append((start, pos, style))
            cursor = end + 1
            continue
        if m.group("math"):
            pos = _render(_scripts(m.group("math_body")), True, out, spans, pos, depth + 1)
        else:
            body, style = next((m.group(g), style) for g, style in _BODIES if m.group(g))
            start = pos
            pos = _render(body, math, out, spans, pos, depth + 1)
            if pos > start:
                spans.append((start, pos, style))
        cursor = m.end()
    if cursor < len(text):
        piece = _latex(text[cursor:], math)
        out.append(piece)
        pos += len(piece)
    return pos


def render(raw: str) -> tuple[str, tuple[Span, ...]]:
    """Return ``(display_text, emphasis_spans)`` for a raw title or abstract."""
    if not raw:
        return "", ()
    out: list[str] = []
    spans: list[Span] = []
    try:
        _render(raw, False, out, spans, 0)
    except Exception:  # pylatexenc is tolerant, but a display glitch must never stop an import
        return " ".join(raw.split()), ()
    text = "".join(out)
    # Collapse white space only when it changes nothing about span offsets.
    if "\n" in text or "  " in text:
        text = text.replace("\n", " ")
    return text, tuple(sorted(spans))


def plain(raw: str) -> str:
    """Display text without emphasis: for titles in one-line contexts and for search."""
    return render(raw)[0]
