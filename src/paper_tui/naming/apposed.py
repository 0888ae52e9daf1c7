"""A name set off after its description, later in the introducing sentence (used by
:func:`paper_tui.naming.name_and_title` when nothing else names the paper).

"We propose to address face reconstruction in the wild by using a multi-metric regression
network, MMFace, to align …", "This paper proposes a novel visual SLAM method … using a
monocular camera: TT-SLAM.", "… a compliant robotic ankle, or Jammkle.": the introducing
verb is followed by a description, and the name only comes at its end, after a comma, colon,
dash or ", or". The name is distinctive (``MMFace``) or a coined word the abstract never
writes in lower case (``Jammkle``); a coined word must not be plural ("…, or Hexapods") or
follow "based on" / "using" (a language the paper uses: "…, Buzz"). Lists look the same
("clipping, RMSprop, Adagrad and Adam", "(camera, LIDAR, radar)"), so the name must follow
a lowercase word, stand outside parentheses, and be followed by the end of the sentence or
a clause ("…, X, which", "…, X, to align", "…, X (…)"), not by another list item.
"""

from __future__ import annotations

import re

from paper_tui.naming.candidates import Candidate, bad_name, coined, is_distinctive
from paper_tui.naming.cues import cues

# ", X" / ": X" / " - X", the name perhaps quoted, then what may follow it.
_APPOSED = re.compile(r"(?:,|:|\s[—–-]+)\s+(?:or\s+)?[\"“']?"
                      r"([^\s,;:()\"”']*[^\s,;:()\"”'.])[\"”']?"
                      r"(?=[,;:]|\.(?:\s|$)|\s[—–-]|\s\(|$)")
_AFTER = re.compile(r"[\"”']?(?:[.;]|$|\s\(|\s[—–-]|,\s(?:which|that|who|to|a|an|the|for|with"
                    r"|in|is|was|are|as|capable|built|based|using|whose|where|designed|consisting"
                    r"|able|trained|by|on)\b)")
# Before a coined word: it is something the paper uses.
_USED = re.compile(r"\b(?:based on|using|uses|such as)\b")
_LOWER_WORD = re.compile(r"[a-z][a-z\-]+")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")  # a character class first: a fast scan
_NOT_AN_END = ("i.e", "e.g", " al", "vs")
# How far after its verb a name is looked for: an introducing sentence is shorter, and a
# text without full stops must not make every cue scan to its end.
_REACH = 400


def apposed_name(text: str) -> Candidate | None:
    """The first new name set off after a description in a sentence that an introducing
    verb opens ("we propose …, X, which …"); not after "we build on …"."""
    for start, end, kind in cues(text):
        if kind != "intro" or text.startswith("on ", end):
            continue
        stop_at = _sentence_end(text, end, end + _REACH)
        for m in _APPOSED.finditer(text, end, stop_at):
            name = m.group(1)
            before = text[max(0, m.start() - 40):m.start()].rsplit(" ", 1)[-1]
            if not coined(name, text) or not _LOWER_WORD.fullmatch(before) or \
                    text.rfind("(", end, m.start()) > text.rfind(")", end, m.start()) or \
                    not _AFTER.match(text, m.end(1)) or bad_name(name, text, m.start(1)):
                continue
            if not is_distinctive(name) and (name.endswith("s") or _USED.search(
                    text, end, m.start())):
                continue  # "…, or Hexapods", "based on a scripting language, Buzz"
            return Candidate(name, start, m.end(1), False)
    return None


def _sentence_end(text: str, pos: int, limit: int) -> int:
    """Where the sentence that ``pos`` is in ends (after its full stop), at most ``limit``;
    "i.e.", "e.g.", "et al." and "vs." end none."""
    limit = min(limit, len(text))
    m = _SENTENCE_END.search(text, pos, limit)
    while m and text.endswith(_NOT_AN_END, 0, m.start()):
        m = _SENTENCE_END.search(text, m.end(), limit)
    return m.end() if m else limit
