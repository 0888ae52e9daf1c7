"""Can a learned scorer take names past the rules? A ceiling study for issue 3.

The rules in :mod:`paper_tui.naming` reach 90 % recall on the development half of the corpus
but 87 % on the held-out half. This script asks whether something other than rules closes
the gap at a low false-name rate. It does not change what paper-tui does.

Every candidate name in an abstract (each token shaped like a name, each capitalised word,
and the rules' own name) gets features: how often and where it is mentioned, what stands
before and after each mention ("our X", "X outperforms", "such as X", "X-based"), whether
an introducing phrase comes before it in its sentence, its shape, and in how many
development abstracts it occurs (a name many papers mention is someone else's). A
gradient-boosted classifier learns from the development half which candidate is the title's
``NAME``; candidates a colon-free title contains are left out of training, the rest are
negatives. On the development half every paper is scored by a model that did not see it
(5 folds); the held-out half is scored by one model trained on all of the development half.

The model is then used two ways on top of the rules, at a range of thresholds:

* **fallback**: where the rules name nothing, its best candidate if its probability is
  above ``t``;
* **override**: where the rules name something, its best candidate if that is above 0.2
  and beats the rules' name by 0.1.

For each threshold the table gives recall on ``NAME:`` papers, the invented-name rate on
colon-free papers (as ``bench/naming.py`` counts them) and the share of colon-free papers
given any name. ``--show N`` prints N development names the fallback adds that their
titles do not contain, with their context, to read by hand.

Run: ``pip install '.[bench]'`` (scikit-learn), then ``python bench/naming_learned.py``
(five to seven minutes). Results: ``bench/results/naming_learned.json``.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import random
import re
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from naming import RESULTS as NAMING_RESULTS
from naming import abbreviates, half, load, norm, same, scored
from paper_tui import naming as rules
from paper_tui.trust.atomic import write_text

RESULTS = NAMING_RESULTS.parent / "naming_learned.json"
THRESHOLDS = (None, 0.3, 0.15, 0.1, 0.07, 0.05, 0.04, 0.03, 0.02, 0.015, 0.01)
OVERRIDE_AT, OVERRIDE_MARGIN = 0.2, 0.1

_WORD = re.compile(r"(?<![\w\-$\\{])[A-Za-z][\w\-+$^{}]*[\w+}$]|(?<![\w\-$\\{])[A-Z]\b")
_APPOSITION = re.compile(r",? (?:a|an|the|which|that) ")
_WE = re.compile(r"\b(?:we|our|this paper|this work)\b")


@dataclass
class Paper:
    id: str
    half: str
    title: str
    expected: str  # the title's NAME, or "" for a colon-free title
    rule: str  # what paper-tui names it today
    names: list[str] = field(default_factory=list)
    rows: list[list[float]] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)  # 1 NAME, 0 not, -1 in a plain title
    text: str = ""  # the cleaned abstract, for --show


def occurrences(name: str, text: str) -> list[int]:
    found, i = [], text.find(name)
    while i >= 0:
        e = i + len(name)
        if (not i or not (text[i - 1].isalnum() or text[i - 1] in "-\\")) and (
                e >= len(text) or not (text[e].isalnum() or text[e] == "-")):
            found.append(i)
        i = text.find(name, e)
    return found


def candidates(text: str, rule: str) -> dict[str, int]:
    """Every name-shaped token and capitalised word, with its first offset."""
    found: dict[str, int] = {}
    for s, tok in rules.evidence_tokens(text):
        found.setdefault(tok, s)
    for m in _WORD.finditer(text):
        if any(c.isupper() for c in m.group()):
            found.setdefault(m.group().rstrip("-+"), m.start())
    if rule and rule not in found and rule in text:
        found[rule] = text.find(rule)
    return found


def features(name: str, rank: int, occ: list[int], text: str, low: str, starts: list[int],
             cue_spans: tuple[tuple[int, int, str], ...], rule: str) -> list[float]:
    first = occ[0]
    sentence = bisect.bisect_right(starts, first) - 1
    end = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
    owned = result_of = result_after = others = others_after = neutral = 0
    in_paren = paren_after = sentence_subject = apposed = colon_after = 0
    for s in occ:
        e = s + len(name)
        before, after = low[max(0, s - 22):s], low[e:e + 22]
        owned += before.endswith(rules.OWNED)
        result_of += before.endswith(rules.RESULT_OF)
        result_after += after.startswith(rules.RESULT_VERB)
        others += before.endswith(rules.OTHERS)
        others_after += after.startswith(rules.OTHERS_AFTER)
        neutral += before.endswith(rules.NEUTRAL)
        in_paren |= s > 0 and text[s - 1] == "("
        paren_after |= text.startswith(" (", e)
        sentence_subject |= (s == 0 or text.startswith(". ", s - 2)) and bool(
            rules.VERB_AFTER.match(after))
        apposed |= bool(_APPOSITION.match(text, e))
        colon_after |= text.startswith(":", e)
    long_form = text[first - 1:first] == "(" and rules.long_form_start(
        name, text[max(0, first - 160):first].rstrip(" (")) >= 0
    cue_gap, cue_naming = -1, False
    for s, e, kind in cue_spans:
        if starts[sentence] <= s <= first:
            cue_gap, cue_naming = len(text[e:first].split()), kind == "naming"
    return [
        min(len(occ), 6), math.log1p(len(occ)), first / len(text), sentence == 0,
        sentence == 1, sentence >= 2, name == rule, min(owned, 3), min(result_of, 3),
        min(result_after, 3), min(others, 3), min(others_after, 3), neutral == len(occ),
        in_paren, paren_after, long_form, cue_gap >= 0, min(max(cue_gap, 0), 20) / 20,
        cue_naming, bool(_WE.search(low, starts[sentence], end)), sentence_subject, apposed,
        colon_after, bool(rules.MIXED_CASE.search(name)), name.isupper(),
        any(c.isdigit() for c in name), "-" in name, "$" in name or "\\" in name,
        min(len(name), 20) / 20, rules.is_distinctive(name),
        " " not in name and rules.coined(name, text),
        name.startswith(rules.FAMOUS), rules.bad_name(name, "", 0),
        not name.islower() and f" {name.lower()}" in low, all(s in starts for s in occ),
        name[:1].isupper() and name[1:].islower(), name.endswith("s") and not name.isupper(),
        len(name.split()), rank == 0, min(rank, 30) / 30,
    ]


def prepare(papers: list[dict]) -> tuple[list[Paper], float]:
    """The papers with their candidates' features, and the seconds the features took
    (what naming an abstract would cost on top of the rules)."""
    out, spent = [], 0.0
    for paper, title, abstract, expected in scored(papers):
        rule = rules.name_and_title(abstract)[0]
        t0 = time.perf_counter()
        text = rules.clean(rules.flat_text(abstract[:rules.NAMED_CHARS]))
        low, starts = text.lower(), [0] + [m.end() for m in rules.SENTENCE_GAP.finditer(text)]
        spans = rules.cues(text)
        p = Paper(str(paper.get("id")), half(paper), title, expected, rule)
        found = candidates(text, rule)
        for rank, name in enumerate(sorted(found, key=found.__getitem__)):
            occ = occurrences(name, text)
            if occ:
                p.names.append(name)
                p.rows.append(features(name, rank, occ, text, low, starts, spans, rule))
        spent += time.perf_counter() - t0
        p.text = text
        for name in p.names:
            if expected:
                p.labels.append(int(same(name, expected)))
            else:
                p.labels.append(-1 if norm(name) and norm(name) in norm(title) else 0)
        out.append(p)
    return out, spent


def with_frequency(papers: list[Paper], df: Counter, own: int) -> list[np.ndarray]:
    """Each paper's feature matrix plus how many development abstracts hold each name
    (``own`` = 1 leaves the paper's own abstract out of its count)."""
    return [np.array([[*row, math.log1p(df[n] - own), float(df[n] - own <= 0)]
                      for n, row in zip(p.names, p.rows, strict=True)]) for p in papers]


def fit(mats: list[np.ndarray], papers: list[Paper]) -> HistGradientBoostingClassifier:
    xs, ys = [], []
    for m, p in zip(mats, papers, strict=True):
        keep = np.array(p.labels) >= 0
        if keep.any():
            xs.append(m[keep])
            ys.append(np.array(p.labels)[keep])
    model = HistGradientBoostingClassifier(max_iter=200, max_depth=4, learning_rate=0.1,
                                           random_state=0)
    return model.fit(np.vstack(xs), np.concatenate(ys))


def score(papers: list[Paper], probs: list[np.ndarray],
          threshold: float | None) -> tuple[dict, list[tuple[Paper, str]]]:
    """Rates with the model on top of the rules, and the names it adds that colon-free
    titles do not contain."""
    hit = named_total = plain = plain_named = invented = 0
    added: list[tuple[Paper, str]] = []
    for p, probs_p in zip(papers, probs, strict=True):
        final = p.rule
        if len(probs_p):
            j = int(probs_p.argmax())
            best, pb = p.names[j], float(probs_p[j])
            if not final and threshold is not None and pb > threshold:
                final = best
            elif final and threshold is not None and best != final and pb > OVERRIDE_AT:
                pr = float(probs_p[p.names.index(final)]) if final in p.names else 0.0
                final = best if pb - pr > OVERRIDE_MARGIN else final
        if p.expected:
            named_total += 1
            hit += same(final, p.expected)
        else:
            plain += 1
            plain_named += bool(final)
            wrong = bool(final) and norm(final) not in norm(p.title) and not abbreviates(
                final, p.title)
            invented += wrong
            if wrong and final != p.rule:
                added.append((p, final))
    return {"recall": round(hit / named_total, 4),
            "invented_rate_on_plain": round(invented / plain, 4),
            "named_rate_on_plain": round(plain_named / plain, 4)}, added


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", type=int, default=0,
                        help="print N dev names the fallback adds that titles lack")
    parser.add_argument("--seed", type=int, default=0, help="which N (--show)")
    args = parser.parse_args()
    started = time.perf_counter()
    papers, spent = prepare(load())
    dev = [p for p in papers if p.half == "dev"]
    held = [p for p in papers if p.half == "heldout"]
    df: Counter = Counter()
    for p in dev:
        df.update(set(p.names))
    dev_mats, held_mats = with_frequency(dev, df, 1), with_frequency(held, df, 0)
    folds = [zlib.crc32(p.id.encode()) // 2 % 5 for p in dev]
    dev_probs: list[np.ndarray] = [np.array([])] * len(dev)
    for k in range(5):
        model = fit([m for m, f in zip(dev_mats, folds, strict=True) if f != k],
                    [p for p, f in zip(dev, folds, strict=True) if f != k])
        for i, f in enumerate(folds):
            if f == k and len(dev_mats[i]):
                dev_probs[i] = model.predict_proba(dev_mats[i])[:, 1]
    model = fit(dev_mats, dev)
    held_probs = [model.predict_proba(m)[:, 1] if len(m) else np.array([]) for m in held_mats]
    table = []
    for t in THRESHOLDS:
        d, _ = score(dev, dev_probs, t)
        h, _ = score(held, held_probs, t)
        table.append({"fallback_threshold": t, "dev": d, "heldout": h})
        label = "rules only" if t is None else f"t = {t}"
        print(f"{label:11s} held-out recall {h['recall']:.2%} invented "
              f"{h['invented_rate_on_plain']:.2%} named {h['named_rate_on_plain']:.1%} | "
              f"dev recall {d['recall']:.2%} invented "
              f"{d['invented_rate_on_plain']:.2%} named {d['named_rate_on_plain']:.1%}")
    result = {
        "command": "python bench/naming_learned.py",
        "model": "HistGradientBoostingClassifier(max_iter=200, max_depth=4), "
                 f"{model.n_features_in_} features per candidate",
        "override": {"at": OVERRIDE_AT, "margin": OVERRIDE_MARGIN},
        "dev": "5-fold cross-validated", "heldout": "one model trained on all of dev",
        "features_us_per_abstract": round(spent / len(papers) * 1e6),
        "table": table,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    write_text(RESULTS, json.dumps(result, indent=2) + "\n")
    if args.show:
        _, added = score(dev, dev_probs, THRESHOLDS[-3])
        print(f"\n# dev names added at t = {THRESHOLDS[-3]} that titles do not contain")
        for p, name in random.Random(args.seed).sample(added, min(args.show, len(added))):
            first = occurrences(name, p.text)[0]
            print(f"{name!r} | {p.title}\n    …{p.text[max(0, first - 150):first + 110]}…")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
