"""Cleaning for :mod:`paper_tui.naming`: emphasis markup hides names.

``**SMITH**``, ``\\emph{KnowEvo}``, ``$\\textbf{J}$oint``, a macro that lost its backslash
("mph{X}"), a name in bare braces, a naming word glued to the name by a lost space ("which we
callOTTers"): all become plain text, while math that is part of a name (``L$^2$EAP``) stays.
"""

from __future__ import annotations

import re

# A superscript or subscript inside a name: ``L$^2$EAP``, ``MemR$^3$``, ``P$_{k}$``.
MATH = r"\$[\^_](?:\{[^{}$]{1,8}\}|\\?[A-Za-z0-9+\-*]{1,6})\$"
MATH_RE = re.compile(MATH)
_MACRO = re.compile(
    r"\\(?:textbf|textit|textsc|texttt|textrm|textsf|text|emph|mbox|mathbf|mathit|mathrm|mathsf"
    r"|mathtt|boldsymbol|bm|underline)\s*\{([^{}]*)\}")
_LOST_TAB_MACRO = re.compile(
    r"\$?\s?\b(?:ext(?:bf|it|sc|tt|rm|sf)|e?mph|mbox)\s*\{([^{}]*)\}\$?")
# A name in bare braces ("we propose {FALCON}, a …"), not math ("$x^{2}$").
_BRACED = re.compile(r"(?<![\w\\^_{])\{([A-Za-z][\w+\-]*)\}")
# A naming word glued to the name by a lost space ("calledCooperative GAN", "we proposeCASA").
_GLUED = ("called", "named", "dubbed", "termed", "coined", "namely,", "call", "propose",
          "present", "introduce", "the")
_MATH_NAME = re.compile(r"\$([A-Za-z]{2,})\^(\{?\w\}?)\$")  # "$HS^2$" -> "HS$^2$"
_PLAIN_MATH = re.compile(r"(?<![\w^}])\$([A-Za-z][^$\\^_{}]{0,60})\$")
_MD_BOLD = re.compile(r"\*\*(?=\S)([^*]+?)(?<=\S)\*\*")
_MD_ITALIC = re.compile(r"\*(?<![\w*]\*)(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")


def clean(text: str) -> str:
    """Drop emphasis markup (LaTeX macros, Markdown stars) but keep math like ``$^2$``."""
    if "\\" in text:
        for _ in range(2):  # nested wrappers: \textbf{\emph{X}}
            text = _MACRO.sub(r"\1", text)
    if ("xt" in text or "mph" in text or "mbox" in text) and "{" in text:
        # "\textit", "\emph" that lost "\t" / "\e" on the way: "$ extit{X}$", "mph{X}"
        text = _LOST_TAB_MACRO.sub(r"\1", text)
    if "{" in text:
        text = _BRACED.sub(r"\1", text)
    text = _unglue(text)
    if "$" in text:
        text = _PLAIN_MATH.sub(r"\1", _MATH_NAME.sub(r"\1$^\2$", text))
    if "*" in text:
        text = _MD_ITALIC.sub(r"\1", _MD_BOLD.sub(r"\1", text))
    return text


def _unglue(text: str) -> str:
    """A space back after a naming word glued to the name (plain substring scans)."""
    cuts = []
    for word in _GLUED:
        i = text.find(word)
        while i >= 0:
            e = i + len(word)
            if text[e:e + 1].isupper() and (i == 0 or text[i - 1] == " "):
                cuts.append(e)
            i = text.find(word, e)
    if not cuts:
        return text
    cuts.sort()
    parts, last = [], 0
    for e in cuts:
        parts.append(text[last:e])
        last = e
    parts.append(text[last:])
    return " ".join(parts)
