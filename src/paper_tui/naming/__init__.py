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

The modules, one idea each: :mod:`~paper_tui.naming.titles` (:func:`name_and_title`: the
rules combined, and the title), :mod:`~paper_tui.naming.cleaning` (markup that hides names),
:mod:`~paper_tui.naming.cues` (where an abstract introduces a name),
:mod:`~paper_tui.naming.introduced` (the name a cue introduces),
:mod:`~paper_tui.naming.candidates` (a candidate and the tests on its shape),
:mod:`~paper_tui.naming.abbreviations` (does a short form abbreviate a long one),
:mod:`~paper_tui.naming.choice` (which of several names the paper is about),
:mod:`~paper_tui.naming.evidence` (a name used as the paper's own without a cue),
:mod:`~paper_tui.naming.apposed` (a name set off late in the introducing sentence),
:mod:`~paper_tui.naming.words` (the word lists). Only the names below are for use outside
the package; the rest may change with the rules.
"""

from __future__ import annotations

from paper_tui.naming.abbreviations import long_form_start
from paper_tui.naming.candidates import Candidate, bad_name, coined, is_distinctive
from paper_tui.naming.choice import pick
from paper_tui.naming.cleaning import clean
from paper_tui.naming.cues import cues
from paper_tui.naming.evidence import (
    FAMOUS,
    MIXED_CASE,
    NEUTRAL,
    OTHERS,
    OTHERS_AFTER,
    OWNED,
    RESULT_OF,
    RESULT_VERB,
    VERB_AFTER,
    evidence_tokens,
)
from paper_tui.naming.titles import (
    NAMED_CHARS,
    SENTENCE_GAP,
    first_sentence,
    flat_text,
    name_and_title,
    shorten,
)

# What the importers use (name_and_title), and what tests and the benchmarks' studies use:
# the title's parts, candidates, cues and the choice among them, and the evidence fallback's
# tokens and context words (bench/naming_learned.py's features).
__all__ = [
    "FAMOUS",
    "MIXED_CASE",
    "NAMED_CHARS",
    "NEUTRAL",
    "OTHERS",
    "OTHERS_AFTER",
    "OWNED",
    "RESULT_OF",
    "RESULT_VERB",
    "SENTENCE_GAP",
    "VERB_AFTER",
    "Candidate",
    "bad_name",
    "clean",
    "coined",
    "cues",
    "evidence_tokens",
    "first_sentence",
    "flat_text",
    "is_distinctive",
    "long_form_start",
    "name_and_title",
    "pick",
    "shorten",
]
