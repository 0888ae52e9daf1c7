"""Citations of papers: ``bibtex``, ``plain``, ``markdown`` and the bare citation ``key``.

One module for the CLI (``paper-tui cite``), the TUI (``c`` / ``C``) and reading-list export.
Every style is text for people (and LaTeX): a citation never holds an escape sequence or a
control character (:mod:`paper_tui.inert`), wherever it goes (a terminal, a file, the
clipboard); a plain or Markdown reference and a key are one line.

BibTeX choices (why the code below looks the way it does):

* The source's own entry is used when the import carried one *and* it describes this paper
  (one well-formed entry whose title, year and authors' last names agree with the record).
  Public lists sometimes attach another paper's entry or the proceedings' publication year;
  those are replaced by a generated entry, so a citation always matches what the reader saw.
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pylatexenc.latexencode import UnicodeToLatexEncoder

from paper_tui import display
from paper_tui.errors import ConfigError
from paper_tui.inert import inert_paper, inert_text
from paper_tui.model import Paper, slug
from paper_tui.venues import display_venue, proceedings
from paper_tui.vocabulary import CITATION_STYLES as STYLES

DEFAULT_STYLE = STYLES[0]
LABELS = {"bibtex": "BibTeX", "plain": "reference", "markdown": "Markdown reference",
          "key": "citation key"}

# -- names -------------------------------------------------------------------------------------
_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du",
              "le", "la", "ter", "ten", "zu", "bin", "ibn", "al", "el", "y"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


@dataclass(frozen=True)
class Name:
    first: str
    von: str
    last: str
    jr: str = ""


def split_name(name: str) -> Name:
    """``Josef van Genabith`` -> first ``Josef``, von ``van``, last ``Genabith``.

    A name already written ``Last, First`` (or ``Last, Jr, First``) is taken as such.
    """
    name = " ".join(name.split())
    if "," in name:
        parts = [p.strip() for p in name.split(",")]
        jr = parts[1] if len(parts) > 2 else ""
        return Name(parts[-1] if len(parts) > 1 else "", "", parts[0], jr)
    words = name.split(" ")
    jr = ""
    if len(words) > 2 and words[-1].lower() in _SUFFIXES:
        jr = words.pop()
    if len(words) == 1:
        return Name("", "", words[0], jr)
    last = [words.pop()]
    von: list[str] = []
    while len(words) > 1 and words[-1].lower() in _PARTICLES and words[-1][0].islower():
        von.insert(0, words.pop())
    return Name(" ".join(words), " ".join(von), " ".join(last), jr)


# -- LaTeX encoding ----------------------------------------------------------------------------
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


def _balanced(text: str) -> bool:
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
        if _balanced(body) and not _MATH_UNSAFE.search(body):
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


def author_names(authors: Iterable[str]) -> list[str]:
    """The authors one by one: a source string ``"C. Serviere and D. Baudois"`` is two."""
    return [part for a in authors for part in re.split(r"\s+and\s+", a.strip()) if part]


def _url_value(url: str) -> str:
    return url.replace("{", "%7B").replace("}", "%7D").replace(" ", "%20")


# -- the source's own entry --------------------------------------------------------------------
_HEAD = re.compile(r"\s*@\s*([A-Za-z]+)\s*([{(])\s*([^\s,{}()\"#%'=]+)\s*,")
_FIELD_NAME = re.compile(r"\s*([A-Za-z][\w\-:.+/]*)\s*=\s*")
_NOT_ENTRIES = {"comment", "string", "preamble"}
_BARE_VALUE = re.compile(r"[A-Za-z0-9_\-.:+/]+")  # a number or a macro name (``aug``)


@dataclass(frozen=True)
class _SourceEntry:
    text: str
    key: str
    key_span: tuple[int, int]


def _scan_value(text: str, i: int) -> tuple[str, int] | None:
    """One value part at ``text[i]``: ``{…}``, ``"…"``, a number or a macro name."""
    if i >= len(text):
        return None
    ch = text[i]
    if ch in "{\"":
        depth = 0
        for j in range(i + 1, len(text)):
            c = text[j]
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    return (text[i + 1:j], j + 1) if ch == "{" else None
                depth -= 1
            elif c == '"' and ch == '"' and depth == 0:
                return text[i + 1:j], j + 1
        return None
    m = _BARE_VALUE.match(text, i)
    return (m.group(0), m.end()) if m else None


def _parse_entry(text: str) -> tuple[str, str, tuple[int, int], dict[str, str]] | None:
    """``(type, key, key span, fields)`` when ``text`` is exactly one well-formed entry."""
    head = _HEAD.match(text)
    if head is None or head.group(1).lower() in _NOT_ENTRIES or not _balanced(text):
        return None
    closer = "}" if head.group(2) == "{" else ")"
    fields: dict[str, str] = {}
    i = head.end()
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == closer:
            return ((head.group(1).lower(), head.group(3), head.span(3), fields)
                    if not text[i + 1:].strip() else None)
        m = _FIELD_NAME.match(text, i)
        if m is None:
            return None
        i, parts = m.end(), []
        while True:
            scanned = _scan_value(text, i)
            if scanned is None:
                return None
            part, i = scanned
            parts.append(part)
            while i < len(text) and text[i].isspace():
                i += 1
            if i < len(text) and text[i] == "#":
                i += 1
                while i < len(text) and text[i].isspace():
                    i += 1
                continue
            break
        fields[m.group(1).lower()] = "".join(parts)
        if i < len(text) and text[i] == ",":
            i += 1
        elif i >= len(text) or text[i] != closer:
            return None


def _fold(text: str) -> str:
    """Letters and digits only, LaTeX commands dropped: for comparing, never for output."""
    return slug(re.sub(r"\\(?:[A-Za-z]+|.)", "", text))


def _split_and(value: str) -> list[str]:
    names, depth, start = [], 0, 0
    for m in re.finditer(r"[{}]|\s+and\s+", value, re.IGNORECASE):
        token = m.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            names.append(value[start:m.start()])
            start = m.end()
    names.append(value[start:])
    return [n.strip() for n in names if n.strip()]


def _last_word(name: str) -> str:
    name = name.split(",")[0] if "," in name else name
    words = name.split()
    return _fold(words[-1]) if words else ""


@lru_cache(maxsize=4096)
def _source_entry(bibtex: str, title: str, year: int | None,
                  authors: tuple[str, ...]) -> _SourceEntry | None:
    if not bibtex:
        return None
    parsed = _parse_entry(bibtex)
    if parsed is None:
        return None
    _kind, key, span, fields = parsed
    if _fold(fields.get("title", "")) != _fold(title):
        return None
    if year is not None and re.findall(r"\d{4}", fields.get("year", ""))[:1] != [str(year)]:
        return None
    names = _split_and(fields.get("author", ""))
    if [_last_word(n) for n in names] != [_last_word(a) for a in authors]:
        return None
    return _SourceEntry(bibtex, key, span)


# -- keys --------------------------------------------------------------------------------------
_STOPWORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "towards", "toward", "with",
              "and", "or", "is", "are", "via", "from", "by", "at", "as", "do", "does", "can",
              "when", "what", "how", "why", "be", "its", "it", "into", "we", "our"}


def _first_word(title: str) -> str:
    for word in re.split(r"[\s\-/:]+", title):
        folded = slug(word)
        if folded and folded not in _STOPWORDS and not folded.isdigit():
            return folded[:20]
    return ""


def citation_key(paper: Paper) -> str:
    """The paper's own key, before de-duplication in a batch.

    The source entry's key when that entry is used; else ``lastnameYYYYfirstword``
    (``vaswani2017attention``), or ``nameYYYY`` from the short name when there are no
    authors (``l2eap2026``), or ``anonYYYYfirstword`` when there is neither.
    """
    paper = inert_paper(paper)
    entry = _source_entry(paper.bibtex, paper.title, paper.year, paper.authors)
    if entry is not None:
        return entry.key
    year = str(paper.year) if paper.year else ""
    title = paper.display_title or display.plain(paper.title)
    if paper.authors:
        n = split_name(display.plain(paper.authors[0]))
        who = slug(n.last)[:20] or slug(paper.authors[0])[:20] or "anon"
        return f"{who}{year}{_first_word(title)}"
    if slug(paper.name):
        return f"{slug(paper.name)[:24]}{year}"
    return f"anon{year}{_first_word(title)}"


def _suffix(n: int) -> str:
    """1 -> ``a``, 26 -> ``z``, 27 -> ``aa``."""
    letters = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def unique_papers(papers: Iterable[Paper]) -> list[Paper]:
    """Each paper once, in the order given (a paper listed twice is cited once)."""
    seen: dict[str, Paper] = {}
    for paper in papers:
        seen.setdefault(paper.id, paper)
    return list(seen.values())


def citation_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """Paper id -> key for a batch: no two papers share a key (``smith2020deep``,
    ``smith2020deepa``, ``smith2020deepb``); the first keeps the plain key."""
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for paper in unique_papers(papers):
        base = citation_key(paper)
        key, n = base, 0
        while key.lower() in taken:
            n += 1
            key = base + _suffix(n)
        taken.add(key.lower())
        keys[paper.id] = key
    return keys


# -- styles ------------------------------------------------------------------------------------
def _field(name: str, value: str) -> str:
    return f"  {name} = {{{value}}}"


def _generated_bibtex(paper: Paper, key: str) -> str:
    venue_name = proceedings(paper.venue) if paper.venue else ""
    journal = venue_name.startswith(("Transactions", "Journal"))
    kind = "article" if journal else "inproceedings" if venue_name else "misc"
    fields = [_field("title", bibtex_title(paper.title))]
    if paper.authors:
        fields.append(_field("author", " and ".join(bibtex_name(a)
                                                    for a in author_names(paper.authors))))
    if venue_name:
        fields.append(_field("journal" if journal else "booktitle", latex_escape(venue_name)))
    if paper.year:
        fields.append(_field("year", str(paper.year)))
    if paper.url:
        fields.append(_field("url", _url_value(paper.url)))
    missing = [what for what, gone in (("Authors", not paper.authors),
                                       ("title", paper.title_generated)) if gone]
    if missing:
        where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
        note = f"{' and '.join(missing).capitalize()} not given in the source list" + \
            (f" ({where})" if where else "") + \
            ("; the title is derived from the abstract" if paper.title_generated else "")
        fields.append(_field("note", latex_escape(note)))
    return f"@{kind}{{{key},\n" + ",\n".join(fields) + "\n}"


def bibtex(paper: Paper, key: str | None = None) -> str:
    """One BibTeX entry: the source's own when it fits (re-keyed if ``key`` differs)."""
    paper = inert_paper(paper)
    entry = _source_entry(paper.bibtex, paper.title, paper.year, paper.authors)
    if entry is not None:
        if key is None or key == entry.key:
            return entry.text
        start, end = entry.key_span
        return entry.text[:start] + key + entry.text[end:]
    return _generated_bibtex(paper, key or citation_key(paper))


def _author_list(authors: Sequence[str]) -> str:
    names = [display.plain(a) for a in authors]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _venue_phrase(paper: Paper) -> str:
    if not paper.venue:
        return ""
    short = display_venue(paper.venue)
    full = proceedings(paper.venue)
    year = f" {paper.year}" if paper.year else ""
    return f"{full} ({short}{year})" if full != short else f"{short}{year}"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".?!…" else text + "."


def plain(paper: Paper) -> str:
    """``Authors. Year. Title. In Proceedings (Venue Year). URL`` on one line."""
    paper = inert_paper(paper)
    title = paper.display_title or display.plain(paper.title)
    parts = []
    if paper.authors:
        parts.append(_sentence(_author_list(paper.authors)))
    if paper.year:
        parts.append(f"{paper.year}.")
    parts.append(_sentence(title))
    venue = _venue_phrase(paper)
    if venue:
        parts.append(_sentence(("In " if paper.venue and not venue.startswith(
            ("Transactions", "Journal")) else "") + venue))
    if not paper.authors:
        parts.append("Authors not given in the source list.")
    if paper.url:
        parts.append(paper.url)
    return " ".join(parts)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>])")


def markdown(paper: Paper) -> str:
    """``[Title](url) — Authors. *Venue* Year.``"""
    paper = inert_paper(paper)
    title = _MD_SPECIAL.sub(r"\\\1", paper.display_title or display.plain(paper.title))
    if paper.url:
        url = paper.url if not re.search(r"[\s()<>]", paper.url) else f"<{paper.url}>"
        head = f"[{title}]({url})"
    else:
        head = f"**{title}**"
    tail = []
    if paper.authors:
        tail.append(_MD_SPECIAL.sub(r"\\\1", ", ".join(display.plain(a) for a in paper.authors)))
    where = " ".join(x for x in (f"*{display_venue(paper.venue)}*" if paper.venue else "",
                                 str(paper.year or "")) if x)
    if where:
        tail.append(where)
    return head + (" — " + ". ".join(tail) + "." if tail else "")


def check_style(style: str) -> str:
    if style not in STYLES:
        raise ConfigError(f"unknown citation style {style!r}; use one of: {', '.join(STYLES)}")
    return style


def cite(papers: Sequence[Paper], style: str) -> str:
    """The citations of ``papers`` in ``style``: one entry per paper, keys unique.

    BibTeX and plain entries are separated by a blank line; Markdown gives one list item
    per paper when there are several; keys are joined by commas, ready for ``\\cite{}``.
    """
    check_style(style)
    batch = unique_papers(papers)
    keys = citation_keys(batch)
    if style == "key":
        text = ",".join(keys[p.id] for p in batch)
    elif style == "bibtex":
        text = "\n\n".join(bibtex(p, keys[p.id]) for p in batch)
    elif style == "plain":
        text = "\n\n".join(plain(p) for p in batch)
    else:
        items = [markdown(p) for p in batch]
        text = items[0] if len(items) == 1 else "\n".join(f"- {item}" for item in items)
    # each paper was made inert before it was cited; this holds whatever the LaTeX
    # renderer made of it
    return inert_text(text)


def describe(papers: Sequence[Paper], style: str) -> str:
    """What a copy holds, for a one-line notification: ``BibTeX for vaswani2017attention``."""
    batch = unique_papers(papers)
    keys = list(citation_keys(batch).values())
    label = LABELS.get(style, style)
    if len(keys) == 1:
        return f"{label} for {keys[0]}"
    shown = ", ".join(keys[:3]) + (", …" if len(keys) > 3 else "")
    plural = "citation keys" if style == "key" else label
    return f"{plural} for {len(keys):,} papers ({shown})"

