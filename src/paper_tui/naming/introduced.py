"""The name an introducing cue introduces (:func:`find_candidates`).

After the cue (:mod:`paper_tui.naming.cues`) comes either the name itself (``KV-PRM``,
``KV Packet``, ``L$^2$EAP (…)``), a long form with its acronym (``Koopman Generative
Operator (KGO)``, checked with the Schwartz–Hearst abbreviation test), or a generic noun
phrase followed by the name ("a novel framework, X,", "a new benchmark (X)"). Where several
names are introduced, :func:`paper_tui.naming.choice.pick` chooses the one the abstract is
about. Markup is removed first (:mod:`paper_tui.naming.cleaning`); the abbreviation tests
live in :mod:`paper_tui.naming.abbreviations`, the word lists (background terms, kinds of
thing) in :mod:`paper_tui.naming.words`.
"""

from __future__ import annotations

import re
from typing import Literal, TypeAlias

from paper_tui.naming.abbreviations import abbreviates_whole, long_form_start, spells_out
from paper_tui.naming.candidates import (
    MODIFIER,
    QUOTE_CHARS,
    TOKEN,
    Candidate,
    bad_name,
    coined_shapes,
    is_distinctive,
    prior_work,
    token_shape,
)
from paper_tui.naming.choice import mentions, pick
from paper_tui.naming.cues import cues
from paper_tui.naming.words import (
    FOLLOW,
    FUNCTION_WORDS,
    ING_NOUNS,
    KINDS,
    PROPER_ADJECTIVES,
    VERBISH,
)

# What a reading of one shape at a position finds: the name; None when the shape is there
# but names nothing (a bad name: look no further); False when the shape is not there.
_Found: TypeAlias = Candidate | Literal[False] | None

# "vOPD", "f-Cal", "π-LSAM"
_LOWER_NAME = re.compile(r"[a-z]+[A-Z\d$]|[^\W\d_A-Z]{1,2}-[A-Z]")
_VERSION = re.compile(r"\d+(?:\.\d+)*|[vV]\d+(?:\.\d+)*|I{2,3}|IV")


def _phrase(text: str, pos: int) -> tuple[list[tuple[str, int]], int]:
    """Up to three capitalised or distinctive tokens at ``pos``, space separated."""
    toks: list[tuple[str, int]] = []
    end = pos
    if pos >= len(text) or (text[pos].islower() and not _LOWER_NAME.match(text, pos)):
        return toks, end  # the common case: an ordinary lowercase word
    p = pos
    while len(toks) < 3:
        m = TOKEN.match(text, p)
        if not m:
            break
        tok = m.group()
        shape = token_shape(tok)
        if toks and _VERSION.fullmatch(tok):
            shape = 2  # "GelSlim 3.0", "Snapbot V2"
        if shape == 0 or (tok in FUNCTION_WORDS and (not toks or shape < 2)):
            break
        toks.append((tok, shape))
        end = m.end()
        if end + 1 < len(text) and text[end] == " ":
            p = end + 1
        else:
            break
    return toks, end


_QUOTE = re.compile(rf"[{QUOTE_CHARS}]+")
_ARTICLE = re.compile(r"(?:(?:[Tt]he|[Aa]n?|[Oo]ur|[Tt]his)\s+)?")
_PAREN = re.compile(r"\s*\(([^()]{1,160})\)")
# The long form of an acronym: words up to its parenthesis, within one clause.
_NAMED_IN_PAREN = (r"\s*\(\s*(?:(?:dubbed|called|named|termed|abbreviated|denoted|referred\s+to"
                   r"|abbr\.)(?:\s+as)?\s+)?"
                   r"[\"“`']*([^()\s,;\"“”`']{2,24})[\"”']*(?:\s+(?:for|in)\s+short)?\s*\)")
_LONG_PAREN = re.compile(rf"([^().;:!?]{{3,140}}?){_NAMED_IN_PAREN}")
# Two words in the parenthesis: "Snap Machine Learning (Snap ML)", "(DISCO Nets)".
_LONG_PAREN2 = re.compile(r"([^().;:!?]{3,140}?)\s*\(([^\W_][\w\-]{1,20} [A-Z\d][\w.\-]{0,10})\)")
_LEAD_WORD = re.compile(r"[a-z][a-z\-]*")
# A generic noun phrase ("a novel framework"), then the name.
_GEN_WORD = re.compile(rf"[\w{QUOTE_CHARS}][\w\-{QUOTE_CHARS}]*")
_GEN_SEP = re.compile(r"\s*(?:,|:|\s-+|-+(?=\s)|—|–)\s*"
                      r"(?:(?:called|named|dubbed|termed|coined|denoted|namely)(?:\s+as)?,?\s+"
                      r"|i\.e\.,?\s+)?"
                      r"(?:the\s+)?"
                      r"|\s+(?:called|named|dubbed|termed|coined|namely)\s+(?:the\s+)?"
                      r"|\s+(?:the\s+)?")
_GEN_PAREN = re.compile(_NAMED_IN_PAREN)
_NAMEISH = re.compile(r"[A-Z(\d$∞∇]")
# Before the first capital, a word that ends the noun phrase: the generic parse would stop.
_GEN_BLOCK = re.compile(
    r"\b(?:that|which|where|who|to|whose|while|is|are|was|were|with|from|using|across|over|via"
    r"|against|than|by|at|under|as|into)\s|(?<!based )\bon\s|[.;!?]\s")
_GEN_STOP = frozenset({"achieves", "achieve", "outperforms", "improves", "obtains", "reaches",
                       "shows", "yields", "that", "which", "where", "who", "to", "whose",
                       "while", "is", "are",
                       "was", "were", "on", "with", "from", "using", "across", "over", "via",
                       "against", "than", "by", "at", "under", "as", "into"})
_NEXT_WORD = re.compile(r" ([a-z]+)\b")
_APPOSITION = re.compile(r"\s*(?:,|:|;|—|–|-+)\s*(?:which\s+is\s+|that\s+is\s+)?"
                         r"(?=(?:a|an|the|our)\s)|\s+(?=(?:a|an)\s|the\s+first\s)")
_CLAUSE_END = re.compile(r",\s(?:which|where|while|whereas|and\s+(?:we|it|show|demonstrate))\b"
                         r"|;|\.\s|\.$|\s\((?:i\.e|e\.g|see)|,\s(?:we|our)\b")
# A character class first (a fast scan); "i.e.", "e.g.", "et al.", "vs.", "etc." end no sentence.
_SENTENCE_GAP = re.compile(r"[.!?]\s+")
_NOT_A_GAP = ("i.e", "e.g", " al", "vs", "etc")
_PREPOSITIONS = frozenset({
    "on", "of", "for", "with", "using", "via", "in", "to", "by", "from", "that", "which",
    "based", "into", "over", "under", "through", "between", "at", "as", "called", "named",
    "leveraging", "and", "or", "is", "are", "be", "the", "their", "its", "this", "these",
})


def _clause(text: str, start: int) -> str:
    m = _CLAUSE_END.search(text, start)
    end = m.start() if m else len(text)
    return text[start:end].strip().rstrip(",")


def gist_after(text: str, end: int) -> str:
    """The appositive that follows a name (``X, a zero-parameter diagnostic …``), if any."""
    m = _APPOSITION.match(text, end)
    return _clause(text, m.end()) if m else ""


def _skip_quotes(text: str, pos: int) -> int:
    if pos < len(text) and text[pos] in QUOTE_CHARS:
        quotes = _QUOTE.match(text, pos)
        assert quotes is not None  # text[pos] is a quote
        return quotes.end()
    return pos


def _followed_ok(text: str, end: int, shapes: list[int], named: bool = False,
                 verb_ok: bool = False) -> bool:
    """May a phrase ending at ``end`` be a name? Not if a noun follows ("GAN models").

    A plain capitalised phrase ("Kairos") needs an apposition ("Kairos, a …"), a long form
    or a naming verb before it; a distinctive one ("KiteNorm") does not. ``verb_ok``: where
    the name is a subject ("our approach X enhances …"), a verb in -s may follow.
    """
    if end + 1 < len(text) and text[end] == " " and text[end + 1] in ",;:(":
        end += 1  # "IDD-3D , which"
    if end >= len(text):
        return True
    ch = text[end]
    if named and not text.startswith(" and ", end):
        return True  # "called X" names X whatever follows
    distinctive = 2 in shapes
    if ch in ",:;—–-":
        return distinctive or bool(_APPOSITION.match(text, end)) or text.startswith(
            (", which", ", that"), end)
    if ch in ".)":
        return distinctive
    if ch == "(":
        return True
    if ch == " ":
        m = _NEXT_WORD.match(text, end)
        if not m:
            return (distinctive and text[end + 1:end + 2] in "(—–-") or bool(
                _APPOSITION.match(text, end))
        word = m.group(1)
        if _APPOSITION.match(text, end):
            return True  # "Debiasify a novel …", "VerA the first …"
        if distinctive and word.endswith("ing") and word not in KINDS and \
                word not in ING_NOUNS:
            return True  # "we propose GET-UP leveraging …"
        return ((distinctive and (word in FOLLOW or (verb_ok and (
            word.endswith(("s", "ly")) or word in VERBISH)))) or word in KINDS)
    return False


def _acronym_candidate(text: str, p: int, start: int, strong: bool, lead_max: int = 4,
                       loose: bool = True) -> _Found:
    """"the Koopman Generative Operator (KGO)": a long form starting at ``p`` (after at
    most ``lead_max`` adjectives) and its acronym. False when there is none."""
    paren = text.find("(", p, p + 150)
    if paren < 0:
        return False
    m = _LONG_PAREN.match(text, p)
    if not m:
        m = _LONG_PAREN2.match(text, p)
        if not m or not all(TOKEN.fullmatch(w) for w in m.group(2).split()):
            return False
    acr, long = m.group(2), m.group(1)
    first = acr.split()[0]
    # "(Corgi)": a coined word (never in lower case) counts like an acronym.
    if not TOKEN.fullmatch(first) or (token_shape(first) != 2 and (
            len(first) < 4 or coined_shapes([(first, token_shape(first))], text) != [2])):
        return False
    s = long_form_start(acr, long)
    # 'a new benchmark "Humans Interacting with Common Objects" (HICO)': quotes around it.
    if s < 0 or not _lead_ok(long[:s].rstrip(QUOTE_CHARS).split(), lead_max):
        # The greedy match may start too late ("cascaded Depth Denoising and Refinement
        # Network (DDRNet)"): try each word after a run of adjectives instead.
        words = long.split()
        for k in range(min(lead_max, len(words) - 1) + 1 if loose else 0):
            if not _lead_ok(words[:k], lead_max):
                break
            rest = " ".join(words[k:])
            # After adjectives, only a capitalised long form ("cascaded Depth Denoising …"),
            # and not across an apposition ("Propulsion, a novel parameter-efficient
            # fine-tuning (PEFT)": PEFT abbreviates only its end).
            first = rest.split(" ", 1)[0]
            if (rest[0].isupper() or k == 0) and token_shape(first) != 2 and \
                    not _APPOSED_IN.search(rest) and abbreviates_whole(acr, rest):
                long, s = rest, 0
                break
        else:
            return False
        if s:
            return False
    if text.startswith((" based", "-based"), m.end()):
        return False  # "a model-agnostic meta-learning (MAML) based framework": background
    long = long[s:].strip()
    if TOKEN.fullmatch(long) and token_shape(long) == 2:  # "AutoProteinEngine (AutoPE)"
        return None if bad_name(long, text, start) else Candidate(long, start, m.end(), strong)
    if bad_name(acr, text, start):
        return None
    return Candidate(acr, start, m.end(), strong, expansion=long)


_APPOSED_IN = re.compile(r", (?:an?|the) ")


def _lead_ok(words: list[str], lead_max: int) -> bool:
    """Words before a long form: a few adjectives ("novel", "RL-based"), no prepositions."""
    return len(words) <= lead_max and not any(
        (w in _PREPOSITIONS and not (w == "and" and 0 < i < len(words) - 1))
        or not (_LEAD_WORD.fullmatch(w) or MODIFIER.search(w))
        for i, w in enumerate(words))


def _direct_candidate(text: str, p: int, start: int, strong: bool, named: bool,
                      verb_ok: bool = False) -> _Found:
    """The name itself at ``p`` ("KV-PRM, a …", "L$^2$EAP (LLM-in-Lean …)")."""
    toks, end = _phrase(text, p)
    if not toks:
        return False
    if len(toks) == 3 and _phrase(text, end + 1)[0] and text.startswith(" ", end):
        return _short_after_long(text, p, end, start, strong)
    phrase = text[p:end]
    # "we propose Seed, by …": a coined word straight after the verb, with no article.
    shapes = coined_shapes(toks, text) if strong and not named and not verb_ok and \
        p > 2 and text[p - 2].isalpha() and not text.endswith(_ARTICLES, 0, p) \
        else [s for _, s in toks]
    after = _skip_quotes(text, end)
    # 'we train a "Dynamic-Net" that …': quotes around it right after the cue name it (not
    # 'a "General Position" searching algorithm', '“Bernstein’s problem”').
    if strong and after > end and text[p - 1:p] in QUOTE_CHARS and not named:
        word = _NEXT_WORD.match(text, after)
        named = text.startswith((",", ".", " (", ";", ":"), after) or bool(
            word and (word.group(1) in FOLLOW))
    # "we propose Weight Distillation to …": a capitalised phrase with no article is a name.
    bare = len(toks) > 1 and strong and toks[0][0] not in PROPER_ADJECTIVES and \
        not text.endswith(_ARTICLES, 0, p) and text.startswith((" that ", " which ", " to "),
                                                                 after)
    # "the Transkimmer architecture", "the Flexpoint data format", "our Mnemonist method".
    kind_named = _kind_follows(text, after, 3) and text[:p].rstrip(QUOTE_CHARS).endswith(
        ("the ", "our ", "Our ", "proposed ")) and toks[0][0] not in PROPER_ADJECTIVES
    if not bare and not kind_named and not _followed_ok(text, after, shapes, named, verb_ok):
        return False
    # A plain capitalised phrase is a name only with an apposition or a long form, or as
    # "the Transkimmer architecture".
    if 2 not in shapes and not named and not (
            _APPOSITION.match(text, after) or text.startswith((" (", "(", ", which"), after)
            or (len(toks) > 1 and strong and text.startswith((" that ", " which ", " to "),
                                                             after))
            or kind_named):
        return False
    if len(toks) > 1 or toks[0][1] != 2:
        # "the High-Quality Celebrity Video Dataset (CelebV-HQ)": a long form, its name after,
        # also in quotes ("this Pre-trained Prompt Tuning framework “PPT”") or commas when it
        # spells the long form ("Body-Expression-Audio-Text dataset, BEAT,"); after one word,
        # only with a kind of thing between ("O(N2)" is no name).
        acr = _KIND_THEN_ACRONYM.match(text, after)
        if acr and len(toks) == 1 and not acr.group(1):
            acr = None
        short = acr and (acr.group(2) or acr.group(3) or acr.group(4))
        if acr and short and is_distinctive(short) and not bad_name(short, text, start) and (
                not acr.group(4) or spells_out(short, text[p:acr.end(1)])):
            return Candidate(short, start, acr.end(), strong,
                             expansion=text[p:acr.end(1)].strip())
    if bad_name(phrase, text, start):
        return None
    paren = _PAREN.match(text, after)
    expansion = ""
    if paren:
        inner = paren.group(1).strip()
        if " " in inner and spells_out(phrase, inner):
            expansion, after = inner, paren.end()
        elif len(toks) > 1 and TOKEN.fullmatch(inner) and coined_shapes(
                [(inner, token_shape(inner))], text) == [2] and \
                mentions(inner, text) > 1 and not bad_name(inner, text, start):
            # "the Deformable Volume Network (Devon)": a coined short name, not an acronym.
            return Candidate(inner, start, paren.end(), strong, expansion=phrase)
    return Candidate(phrase, start, after, strong, expansion=expansion)


def _short_after_long(text: str, p: int, end: int, start: int,
                      strong: bool) -> Candidate | Literal[False]:
    """A capitalised phrase longer than a name ("Cross-lingual Open-Retrieval Question
    Answering (XOR QA)", "… Graphical Neural Networks, or DRAGNN"): the short form after it
    is the name; without one, nothing here is ("Multi Volume Occupancy Grids")."""
    while True:
        toks, nxt = _phrase(text, end + 1)
        if not toks or not text.startswith(" ", end):
            break
        end = nxt
    short = _SHORT_AFTER.match(text, end)
    if not short:
        return False
    inner = short.group(1) or short.group(2)
    words = inner.split()
    if not inner or len(words) > 2 or not all(TOKEN.fullmatch(w) for w in words) or \
            token_shape(words[0]) != 2 or bad_name(inner, text, start):
        return False
    return Candidate(inner, start, short.end(), strong, expansion=text[p:end])


_SHORT_AFTER = re.compile(r"\s*\(([^()]{1,30})\)|,? or ([^\s,.;()]+(?= ?[,.;]))")


_ARTICLES = ("a ", "an ", "the ", "our ", "this ", "A ", "An ", "The ", "Our ", "This ")
_KIND_AFTER = re.compile(r" (?:[a-z][a-z-]+ )?([a-z]+)\b")


def _kind_follows(text: str, after: int, words: int = 2) -> bool:
    """A kind of thing after a name, perhaps after more words ("X data format", "X
    convolutional neural network")."""
    for w in text[after:after + 60].split(" ", words + 1)[1:words + 1]:
        if w.rstrip(",.;:") in KINDS:
            return True
        if not w.isalpha() or not w.islower():
            return False
    return False


_KIND_THEN_ACRONYM = re.compile(
    r"((?:\s+[A-Za-z][\w-]*)?)\s*(?:\(([^()\s,;]{2,24})\)|[“\"]([^()\s,;“”\"]{2,24})[”\"]"
    r"|,\s([^()\s,;]{2,24}),)")


def _generic_candidate(text: str, pos: int, p: int, start: int, strong: bool,
                       max_words: int = 9, verb_ok: bool = False) -> _Found:
    """"a novel framework, X, …", "a new method X for …", "the X module", "a baseline (X)":
    up to nine lowercase words, then the name."""
    q = p
    prev = ""
    for _ in range(max_words):
        w = _GEN_WORD.match(text, q)
        if not w or (w.group() in _GEN_STOP and not (
                w.group() == "on" and text.endswith("based ", 0, q))):
            return False
        word, wend = w.group(), w.end()
        paren = _GEN_PAREN.match(text, wend) if text.startswith((" (", "("), wend) else None
        if paren:
            # "(X)" abbreviates the phrase ("a simple … Generation (MulZDG)"), or names it
            # ("a simple baseline approach (PARE)"); but "… based on graph neural networks
            # (GNNs)" only abbreviates its end.
            got = _acronym_candidate(text, p, start, strong, 6)
            if got is not False:
                return got or _name_after_paren(text, paren.end(), start, strong)
            name = paren.group(1)
            if not TOKEN.fullmatch(name) or coined_shapes(
                    [(name, token_shape(name))], text) != [2] \
                    or long_form_start(name, text[p:wend]) >= 0:
                return _name_after_paren(text, paren.end(), start, strong) or False
            if bad_name(name, text, start):
                return None
            return Candidate(name, start, paren.end(), strong, gist=text[pos:wend])
        sep = _GEN_SEP.match(text, wend)
        if not sep:
            return False
        explicit = sep.group().strip() not in ("", "the")
        nxt = _skip_quotes(text, sep.end())
        toks, end = _phrase(text, nxt)
        if toks and explicit:
            # "…, namely Deep Event Network (DevNet)", "… a Semi-Direct DefSLAM (SD-DefSLAM)"
            got = _acronym_candidate(text, nxt, start, strong, 0)
            if got is not False:
                return got
        after = _skip_quotes(text, end)
        shapes = coined_shapes(toks, text) if word in KINDS and (
            explicit or verb_ok) else [sh for _, sh in toks]
        # "…, hyperparameter-free topic modelling algorithm, Community Topic."
        ends = (",", " (", "(", ".") if word in KINDS else (",", " (", "(")
        if toks and (2 in shapes or (explicit and text.startswith(ends, after))):
            kind_after = _NEXT_WORD.match(text, after)
            if (explicit or word in KINDS or (kind_after and kind_after.group(1) in KINDS)
                    or (word in ("novel", "new") and 2 in shapes)
                    # "the design, development, and evaluation of HREyes: …"
                    or (word == "of" and prev in _MAKING and 2 in shapes)
                    or (2 in shapes and (_APPOSITION.match(text, after) or text.startswith(
                        (" (", ", which", " that", " which", ", as "), after)))) \
                    and _followed_ok(text, after, shapes, explicit, verb_ok):
                if kind_after and kind_after.group(1) in KINDS:
                    # "a novel SSL algorithm named AllMatch": the later name wins.
                    later = _generic_candidate(text, pos, kind_after.start(1), start, strong)
                    if later:
                        return later
                name = text[nxt:end]
                if not bad_name(name, text, start):
                    return Candidate(name, start, after, strong, gist=text[pos:wend])
        if explicit and "," not in sep.group():
            return False
        prev = word
        # Go on after a comma: "a novel, parameter efficient, … framework, PECoP"
        q = sep.end()
    return False


_APPOSED = re.compile(r"(?: [a-z]+){0,2}, ([^\s,]+),")


def _name_after_paren(text: str, pos: int, start: int, strong: bool) -> Candidate | None:
    """"a novel gaze-guided graph neural network (GNN), GazeGNN, to …": the background
    acronym is followed by the name."""
    m = _APPOSED.match(text, pos)
    if m and is_distinctive(m.group(1)) and not bad_name(m.group(1), text, start):
        return Candidate(m.group(1), start, m.end(1), strong)
    return None


_MAKING = frozenset({"design", "development", "implementation", "evaluation", "construction",
                    "creation", "introduction", "release"})
_LOWER_NAME_APPOSITION = re.compile(r"([a-z][a-z0-9]{2,}(?:[-_][a-z0-9]+)*),\s+(?:a|an)\s")
# Words that take no article ("we propose regularization, a …") are not names.
_MASS_NOUN = ("tion", "sion", "ing", "ment", "ity", "ness", "ism", "ance", "ence", "sis", "ure",
              "ics", "ogy", "ed", "s", "al", "ive", "ly", "ncy", "ship", "age", "work", "ware")


_NOT_NAMES = frozenset({"here", "first", "both", "however", "code", "region", "them", "this",
                        "that", "these", "those", "one", "two", "new", "further", "moreover",
                        "thus", "hence", "then", "also", "there", "herein", "next", "finally",
                        "now", "instead", "again", "today", "data", "software", "hardware"})


def _after_intro(text: str, pos: int, start: int, strong: bool, named: bool = False,
                 verb_ok: bool = False) -> Candidate | str | None:
    """Parse what follows an introducing cue: a Candidate; or, when the cue introduces a
    nameless "a … framework", that phrase (str) as the gist of a name in the next sentence;
    or None."""
    pos = _skip_quotes(text, pos)
    lower = _LOWER_NAME_APPOSITION.match(text, pos) if strong and not verb_ok else None
    if lower and not lower.group(1).endswith(_MASS_NOUN) and lower.group(1) not in _NOT_NAMES and \
            not bad_name(lower.group(1), text, start):
        # "we introduce textless-lib, a PyTorch-based library": a lowercase name, no article.
        return Candidate(lower.group(1), start, lower.end(1), strong)
    article = _ARTICLE.match(text, pos)
    assert article is not None  # the article is optional: the pattern always matches
    p = _skip_quotes(text, article.end())
    if text.startswith("(", p):  # "our model (TABBIE)", "the proposed method (called X)"
        m = _GEN_PAREN.match(text, p)
        if m and token_shape(m.group(1)) == 2 and not bad_name(m.group(1), text, start):
            return Candidate(m.group(1), start, m.end(), strong)
    nameish = _NAMEISH.search(text, p, p + 160)
    if nameish:  # no capital, digit or parenthesis: no name
        got = _acronym_candidate(text, p, start, strong)
        if got is None:  # a background acronym, perhaps followed by the name
            got = _name_after_paren(text, text.find(")", p) + 1, start, strong)
        if got:
            # "a novel monocular visual odometry (VO) system called UnDeepVO": that name.
            later = _CALLED.match(text, got.end)
            if later:
                got = _direct_candidate(text, later.end(), start, strong, True) or got
        if got is False:
            got = _direct_candidate(text, p, start, strong, named, verb_ok)
        # After "our", only "our method, X" / "our model (X)": not "our bounds … for SDCA".
        if got is False and (not verb_ok or any(
                w.strip(",") in KINDS for w in text[p:p + 40].split()[:3])) and \
                not _GEN_BLOCK.search(text, p, nameish.start()):
            # "our method, X": a few words; not "the proposed method compressed a ResNet-18".
            got = _generic_candidate(text, pos, p, start, strong, 3 if verb_ok else 9, verb_ok)
        if got is not False:
            return got
        if strong and not verb_ok:
            got = _sentence_acronym(text, p, start)
            if got:
                return got
    if named or verb_ok or not any(w in KINDS for w in text[pos:pos + 90].split()[:10]):
        return None
    return _clause(text, pos)


_CALLED = re.compile(r"(?: [a-z]+){0,6},? (?:called|named|dubbed|termed|coined) (?:as )?")
_ACRONYM_PAREN = re.compile(r"\(([^()\s,;]{2,24})\)")
_OTHERS_BEFORE = re.compile(r"\b(?:such\s+as|e\.g\.|i\.e\.|including|like|than|existing"
                            r"|popular|standard|conventional|traditional|classical|based|using"
                            r"|utilize|use|uses|aboard|via|through)\b")


_KIND_OF_LEAD = frozenset({"a", "an", "the", "our", "new", "novel", "simple", "general",
                           "effective", "efficient", "of", "for", "performing", "using"})


def _kind_of(words: list[str]) -> bool:
    """"a new method of", "an approach of performing", "to add": words that make what
    follows the thing introduced."""
    if words[:1] == ["to"] and len(words) <= 2:
        return True
    return 0 < len(words) <= 6 and any(
        w in KINDS and words[i + 1:i + 2] in (["of"], ["for"]) for i, w in enumerate(words)
    ) and all(w in _KIND_OF_LEAD or w in KINDS for w in words)


def _sentence_acronym(text: str, p: int, start: int) -> Candidate | None:
    """"we propose a framework for weakly supervised … estimation (VoluMon)": an acronym
    defined later in the introducing sentence, after a preposition. Background acronyms are
    defined that way too, so it must be new, abbreviate the words before it, and be used
    again (a contribution is talked about; a term defined in passing is not)."""
    end = text.find(". ", p)
    end = len(text) if end < 0 else end
    for m in _ACRONYM_PAREN.finditer(text, p, end):
        acr = m.group(1)
        if not TOKEN.fullmatch(acr) or token_shape(acr) != 2 or bad_name(acr, text, start) or \
                text.startswith((" based", "-based"), m.end()):
            continue
        long = text[p:m.start()].rstrip()
        s = long_form_start(acr, long)
        if s < 0 or _OTHERS_BEFORE.search(long):
            continue
        # A plain initialism ("RL", "MPC") is background unless its long form is what the
        # cue introduces: "a method of Learning to Rank Senses (LTRS)", "to add … (GAL)".
        if acr.isalpha() and acr.isupper() and len(acr) < 5 and not _kind_of(long[:s].split()):
            continue
        return Candidate(acr, start, m.end(), False, expansion=long[s:])
    return None


def _next_sentence_name(text: str, pos: int, gist: str) -> Candidate | None:
    """"We propose a … framework that … . KG-Guard represents …": the name opens the next
    sentence."""
    m = _SENTENCE_GAP.search(text, pos)
    while m and text.endswith(_NOT_A_GAP, 0, m.start()):
        m = _SENTENCE_GAP.search(text, m.end())
    if not m:
        return None
    s = m.end()
    got = _acronym_candidate(text, s, s, False, 0, loose=False)
    if not got:
        toks, end = _phrase(text, s)
        if len(toks) != 1 or toks[0][1] != 2:
            return None
        name = text[s:end]
        if bad_name(name, text, s) or not _followed_ok(text, end, [2], verb_ok=True):
            return None
        got = Candidate(name, s, end, False, gist=gist)
    # "Focused assessment with sonography for trauma (FAST) is important …": background.
    verb = _IS.match(text, got.end)
    if verb and _BACKGROUND_DESCRIPTION.match(text, verb.end()):
        return None
    return got


def find_candidates(text: str) -> Candidate | None:
    """The name the (cleaned) abstract introduces.

    Of the names introduced, the one the abstract is most about (see
    :func:`paper_tui.naming.choice.pick`); else a name that opens a sentence as its subject
    ("X is a …").
    """
    found: list[Candidate] = []
    for start, end, kind in cues(text):
        # "known as" also names places and tasks: it needs a distinctive name.
        got = _after_intro(text, end, start, kind not in ("ours", "appos"),
                           named=kind in ("naming", "appos"), verb_ok=kind == "ours")
        if isinstance(got, str):
            got = _next_sentence_name(text, end, got)
        if got is None or prior_work(text, got) or (kind == "known" and got.expansion):
            continue  # "a task known as non-rigid structure-from-motion (NRSfM)": a field term
        if all(c.name != got.name for c in found):
            found.append(got)
    return _singular(pick(found, text) if found else _subject_name(text), text)


def _singular(got: Candidate | None, text: str) -> Candidate | None:
    """"hierarchical deep CNNs (HD-CNNs) … An HD-CNN separates …": name it HD-CNN."""
    if got and (" " in got.name or (not got.expansion and token_shape(got.name) == 1)):
        got = _short_form(got, text)
    if got and got.name.endswith("s") and len(got.name) > 3 and re.search(
            rf"(?<![\w-]){re.escape(got.name[:-1])}(?![\w-])", text):
        return Candidate(got.name[:-1], got.start, got.end, got.strong, got.expansion, got.gist)
    return got


# The short form a few words after a long form: "(EpicFlow)", "(SGTM 2.0)", "(XOR QA)",
# ", or DRAGNN."
_LATER_SHORT = re.compile(
    r"(?:[^().;:!?]|\.(?=\d)){0,100}?(?:\((?:``|[\"“'])?|,? or )"
    r"([^()\s,;.\"”']{2,24}(?: \d+(?:\.\d+)?| [A-Z][A-Za-z]{1,5})?)"
    r"(?:''|[\"”'])?(?:\)|[,.](?:\s|$))")


def _short_form(got: Candidate, text: str) -> Candidate:
    """"called Edge-Preserving Interpolation of Correspondences (EpicFlow)", "namely,
    Adversarial attacks against … checks (ADC)": a long form taken as the name, when the
    abstract gives its short form a few words on."""
    i = text.find(got.name, got.start)
    m = _LATER_SHORT.match(text, i) if i >= 0 else None
    if not m:
        return got
    short = m.group(1)
    first = short.split(" ", 1)[0]
    long = text[i:m.start(1)].rstrip(" (`\"“'").removesuffix(", or").removesuffix(" or").strip()
    if long[:1].lower() == short[:1].lower() and TOKEN.fullmatch(first) and \
            coined_shapes([(first, token_shape(first))], text) == [2] and \
            not bad_name(short, text, i) and (
                long_form_start(short, long) == 0 or abbreviates_whole(short, long)
                or spells_out(short, long)):
        return Candidate(short, got.start, m.end(1), got.strong, expansion=long)
    return got


# "X is a popular / widely used …": someone else's X.
_BACKGROUND_DESCRIPTION = re.compile(
    r"(?:important|popular|widely|powerful|fundamental|key|common|commonly|well-known|standard"
    r"|classical|classic|emerging|prominent|promising|state-of-the-art|leading|recent|major"
    r"|central|critical|crucial|core|dominant|successful|general|ubiquitous|family|class|type"
    r"|technique|kind|branch|subfield|field|method\s+of|challenging|difficult|long-standing)\b")
_IS = re.compile(r"\s*,?\s*(?:is|are|was|were|has|have)\s+(?:an?\s+|the\s+)?")
_SUBJECT_TAIL = re.compile(r"(?:\s*\([^()]{1,80}\))?,?\s+(?:is|was|are)\s+(?:a|an|the\s+first"
                           r"|the\s+\w+est|designed|capable|equipped|composed)\s")


def _subject_name(text: str) -> Candidate | None:
    """"SiWare is an AI-powered knowledge discovery system …": a new distinctive name that
    opens a sentence and is defined there."""
    if " is " not in text and " was " not in text and " are " not in text:
        return None
    i = 0
    while i >= 0:
        s = i + 2 if i else 0
        toks, end = _phrase(text, s)
        if len(toks) == 1 and toks[0][1] == 2:
            name = text[s:end]
            tail = _SUBJECT_TAIL.match(text, end)
            if tail and not bad_name(name, text, s) and \
                    not _BACKGROUND_DESCRIPTION.match(text, tail.end()):
                return Candidate(name, s, end, False)
        i = text.find(". ", i + 2)
    return None
