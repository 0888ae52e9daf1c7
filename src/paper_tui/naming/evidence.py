"""Fallback for :func:`paper_tui.naming.name_and_title`: a name the abstract uses as its
own without an introducing phrase ("Our SDNet contains only 2M parameters", "QATM
outperforms …", "code: github.com/…/LLaMA-Rider").

Only distinctive tokens (``SDNet``, ``QMIX``, ``LLaMA-Rider``) compete. Each mention adds
evidence from its context: owned ("our X", "the proposed X", "(dubbed X)"), a repository
path, the subject of a result ("X outperforms", "the effectiveness of X"), repeated use.
Context that marks someone else's method ("such as X", "than X", "X-based", "compared with
X") rules the token out. The best token is a name only above a threshold (a little lower for a
mixed-case token or one whose effectiveness the abstract shows), so an abstract without
clear evidence keeps no name: a wrong name is worse than none.
"""

from __future__ import annotations

import re

from paper_tui.naming.candidates import Candidate, bad_name, is_distinctive, prior_work

# Candidates are the tokens around a capital that follows a letter, digit or capital
# ("SDNet", "QMIX", "L$^2$EAP"); the anchor search is a fast scan, the token is grown from it.
_ANCHOR = re.compile(r"[A-Z](?<=[a-z\d}A-Z][A-Z])")  # a capital first: the scan skips ahead
_TOKEN_TAIL = re.compile(r"[\w$^{}+\-]*")
_TOKEN_CHARS = frozenset("$^{}+-_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# The end of a repository's name: "github.com/user/NAME", "…/NAME/", "…/NAME.git"; a user
# name is followed by "/" and more path.
_REPO_END = re.compile(r"/?(?:$|[\s.)\"'])")
OWNED = ("our ", "the proposed ", "our proposed ", "dubbed ", "called ", "named ", "coined ",
          "(dubbed ", "(called ", "(named ", "code for ", "code of ", "implementation of ")
RESULT_VERB = (" outperform", " achieve", " surpass", " significantly", " consistently",
                " substantially", " improves", " yields", " attains", " beats", " obtains",
                " sets a new", " establishes", " delivers", " also ", " can ", " is able",
                " is available", " is publicly", " is open-source", " is released", " code is",
                " will be released", " will be made", " will be publicly", " is freely")
RESULT_OF = ("effectiveness of ", "efficacy of ", "superiority of ", "advantages of ",
              "validity of ", "effectiveness of the ", "efficacy of the ", "superiority of the ")
OTHERS = ("such as ", "e.g., ", "e.g. ", "like ", "including ", "than ", "existing ",
           "baseline ", "baselines ", "compared to ", "compared with ", "versus ", "vs. ",
           "vs ", "previous ", "prior ", "standard ", "popular ", "original ", "classical ",
           "conventional ", "state-of-the-art ", "sota ", "over ", "extends ", "extend ",
           "upon ")
OTHERS_AFTER = ("-based", " based", "-style", "-like", "-inspired")
# A mention in a list or after a preposition is no evidence either way.
NEUTRAL = ("and ", "or ", "of ", "with ", "on ", "from ", "to ", "via ", "using ", "in ")
_NEUTRAL_AFTER = (" and ", ", and", " or ")
VERB_AFTER = re.compile(r" (?:is|was|can|will|has|consists|contains|comprises|[a-z]{3,}(?<!s)s) ")
THRESHOLD = 4
# Well-known models and data sets, and their variants ("MobileNet-V1", "DeBERTa-large"): used
# by many papers, so a mention of one is evidence of nothing.
FAMOUS = ("GPT", "LLaMA", "Llama", "BERT", "RoBERTa", "DeBERTa", "ALBERT", "DistilBERT", "XLNet",
           "ELMo", "GloVe", "fastText", "word2vec", "ResNet", "ResNeXt", "DenseNet", "MobileNet",
           "EfficientNet", "VGG", "AlexNet", "YOLO", "ViT", "CLIP", "Qwen", "Mistral", "Gemini",
           "PaLM", "StyleGAN", "CycleGAN", "PointNet", "ImageNet", "CIFAR", "MS-COCO", "VoteNet",
           "DeepSeek", "OpenAI", "ChatGPT", "GitHub", "Github", "YouTube", "PyTorch", "TensorFlow")
# Lower case then a capital ("BlobGAN", "CHiMP"): field acronyms are mostly all capitals.
MIXED_CASE = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]")


def evidence_name(text: str) -> Candidate | None:
    """The distinctive token with the most evidence of being the paper's own, if enough."""
    low = text.lower()
    score: dict[str, int] = {}
    first: dict[str, int] = {}
    owned: set[str] = set()  # tokens with evidence beyond being mentioned
    banned: set[str] = set()
    in_text: set[str] = set()  # not only in a link
    result_of: set[str] = set()  # "the effectiveness of X": the paper's own result
    for s, tok in evidence_tokens(text):
        if tok in banned:
            continue
        e = s + len(tok)
        w = text.rfind(" ", 0, s) + 1
        if "/" in text[w:s] or "." in text[w:s]:  # in a URL: only a repository's own name
            if "github" in low[w:s] and low[s - 1] == "/" and _REPO_END.match(text, e):
                owned.add(tok)
                score[tok] = score.get(tok, 0) + 3
                first.setdefault(tok, s)
            continue
        if tok not in score:
            if not is_distinctive(tok) or bad_name(tok, text, s) or tok.startswith(FAMOUS) \
                    or _generic_compound(tok):
                banned.add(tok)
                continue
            first[tok] = s
            score[tok] = 0
        before = low[max(0, s - 20):s]
        after = low[e:e + 20]
        points = 1
        if before.endswith(OWNED):
            points += 3
        elif before.endswith(RESULT_OF):
            points += 2
            result_of.add(tok)
        if after.startswith(RESULT_VERB):
            points += 2
        elif (s == 0 or text.startswith(". ", s - 2)) and VERB_AFTER.match(after):
            points += 1  # "PACS contains 13,400 …", "SoPrA is validated …"
        if tok not in owned and (after.startswith(OTHERS_AFTER) or (
                before.endswith(OTHERS) and not before.endswith(OWNED + RESULT_OF))):
            banned.add(tok)
            continue
        if points == 1 and (before.endswith(NEUTRAL) or after.startswith(_NEUTRAL_AFTER)):
            continue
        if points > 1:
            owned.add(tok)
        score[tok] += points
        in_text.add(tok)
    # In text order, so a tie goes to the first token (a set's order changes between runs).
    best = max((t for t in score if t in owned and t not in banned), key=score.__getitem__,
               default="")
    # A mixed-case name used in the text, or one whose effectiveness the abstract shows,
    # needs a little less evidence.
    mixed = best in in_text and (bool(MIXED_CASE.search(best)) or best in result_of)
    if not best or score[best] < THRESHOLD - mixed:
        return None
    got = Candidate(best, first[best], first[best] + len(best), False)
    return None if prior_work(text, got) else got


def evidence_tokens(text: str) -> list[tuple[int, str]]:
    """``(start, token)`` of every candidate token, in text order."""
    found: list[tuple[int, str]] = []
    done = 0
    for m in _ANCHOR.finditer(text):
        a = m.start() - 1  # the letter, digit or capital before the capital
        if a < done:
            continue  # inside the previous token
        s = a
        while s and (text[s - 1] in _TOKEN_CHARS or text[s - 1].isalnum()):
            s -= 1
        tail = _TOKEN_TAIL.match(text, a)
        assert tail is not None  # the pattern matches the empty string
        done = tail.end()
        if not text[s].isalpha() or (s and text[s - 1] == ".") or (
                s == a and not _ANCHOR.search(text, s + 2, done)):
            continue  # not a word; in a URL or number; two capitals only ("QA", "RL")
        tok = text[s:done].rstrip("-+")
        if tok.endswith("}") and tok.count("{") < tok.count("}"):
            tok = tok.rstrip("}$")  # "\textbf{DecoupleSegNets}": the macro's brace
        found.append((s, tok))
    return found


def _generic_compound(tok: str) -> bool:
    """"Bi-LSTM", "UAV-UGV", "micro-UAVs", "CNN-corrupted", "CNNbased": built from field
    terms or plain words, so a description rather than a name."""
    parts = tok.split("-")
    return tok.endswith("based") or (len(parts) > 1 and any(
        bad_name(p, "", 0) or (p.islower() and len(p) > 3) for p in parts))
