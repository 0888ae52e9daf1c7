"""What to read next (issue 18): does ``paper-tui recommend`` find a reader's topic sooner
than arxiv-sanity-lite, and is it fast enough?

**Quality.** Real lists from ``../shared/corpus/papers-ml.jsonl.gz``: every venue-year whose
papers carry author keywords (IJCAI 2020-24, ICLR 2017-18, COLM, CoRL, WWW 2025), each
imported into its own library with the keywords stripped (paper-tui never sees them). A
topic is one keyword held by at least N + 20 of the list's papers and at most a quarter of
them. The simulated reader meets the papers in a random order, marks the topic's papers
to-read and every other paper skipped, until N are to-read (N = 1, 5, 20); then each method
ranks the papers left, and precision@20 counts the topic's papers among its first 20.
Methods, on the same papers and labels in the same run:

* ``paper-tui``: :func:`paper_tui.recommend.learner.fit` over the index's own term matrix
  (:mod:`paper_tui.index.term_matrix`), exactly what ``recommend`` runs;
* ``arxiv-sanity-lite``: its ``compute.py`` + ``serve.py`` — ``TfidfVectorizer(ngram_range
  =(1, 2), max_features=20000, min_df=5, max_df=0.1, sublinear_tf=True, stop_words=
  'english')`` over title + abstract + authors, ``LinearSVC(class_weight='balanced',
  C=0.01)``, the reader's to-read papers against every other paper;
* ``random``: the expected precision of a random order (the topic's share of the rest).

Venue-years are split into ``tune`` (where the learner's settings were chosen) and
``held-out`` (the acceptance numbers); ``--variants`` also scores the alternatives tried.

**Speed.** ``paper-tui recommend`` in a new process (median of 5, after one warm-up run
that builds the term cache) on a ~1,000-paper list (IJCAI 2024) and on the whole corpus
(87,549 papers; ``--big DIR``: a library made once with ``paper-tui --library DIR import
papers-ml.jsonl.gz``, ~2 minutes), each with 5 kept and 50 skipped papers; and the refresh
after one more label on 5,000 papers (ICLR-sized: the first 5,000 of the corpus's NeurIPS
papers) in one process, as the app does it (median of 20).

**In the app** (``--app``: only this; results in ``bench/results/recommend-app.json``): the
same 5,000 NeurIPS papers, 10 to-read on one topic (titles with "reinforcement") and 30
others skipped, so the model exists. Interleaved, 3 rounds of the for-you sort against the
relevance sort (``search.sort`` in a config file): a triage key ``x`` to the next paper
shown (``bench/tui.py``'s ``key_latency``, 30 presses, one every ``--gap`` s), and, for
for-you, from the key to the first frame that shows the list ranked again (the search the
``Relearned`` message starts, applied: ``search.shown_generation`` past the key's); and
first paint in tmux with each sort (``bench/tui.py``'s ``first_paint``, ``--config``).

**A big library** (``--bounded DIR``: only this; DIR a library of the whole corpus):
the corpus ranked whole and from samples of 5,000, 10,000 and 20,000 papers (what a
library over ``recommend.whole_up_to`` papers does), precision@20 on 30 keyword topics
with 5 kept and 50 skipped papers each; results in ``recommend.json``'s ``bounded``.

Run: ``pip install '.[bench]'`` (scikit-learn), then ``python bench/recommend.py --variants
--quality-only`` (about 10 minutes; run it under ``nice``) and ``python bench/recommend.py
--speed-only --big /tmp/rec-big`` (not under ``nice``: it times processes); results in
``bench/results/recommend.json`` (``quality`` and ``speed``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from paper_tui import config as config_mod
from paper_tui.importers import jsonl
from paper_tui.index.term_matrix import term_matrix
from paper_tui.library import Library
from paper_tui.model import Paper
from paper_tui.recommend.features import FIELD_WEIGHTS, features
from paper_tui.recommend.learner import Settings, fit
from results_file import RESULTS_DIR, run_header, save

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers-ml.jsonl.gz"
WORK = Path(os.environ.get("TMPDIR", "/tmp")) / "bench-recommend"
TUNE = [("ijcai", 2020), ("ijcai", 2022), ("iclr", 2017), ("colm", 2024), ("corl", 2022),
        ("corl", 2024)]
HELD_OUT = [("ijcai", 2021), ("ijcai", 2023), ("ijcai", 2024), ("iclr", 2018),
            ("colm", 2025), ("corl", 2021), ("corl", 2023), ("corl", 2025), ("www", 2025)]
LABELS = (1, 5, 20)
AT = 20
ORDERS = 5  # random reading orders per topic
VARIANTS = {
    "paper-tui": {},
    "no feedback": {"settings": {"feedback": 0}},
    "skips only (no unlabelled)": {"settings": {"unlabelled_weight": 0.0}},
    "skips as unlabelled": {"settings": {"skip_weight": 0.05}},
    "skips x 2": {"settings": {"skip_weight": 2.0}},
    "unlabelled 0.02": {"settings": {"unlabelled_weight": 0.02}},
    "feedback 20": {"settings": {"feedback": 20}},
    "feedback 10 x 0.6": {"settings": {"feedback_weight": 0.6}},
    "C 0.3": {"settings": {"c": 0.3}},
    "scikit-learn's LogisticRegression": {"solve": "sklearn"},
    "fields equal": {"weights": dict.fromkeys(FIELD_WEIGHTS, 1.0)},
    "authors 0.7": {"weights": {**FIELD_WEIGHTS, "authors": 0.7}},
    "authors 2.5": {"weights": {**FIELD_WEIGHTS, "authors": 2.5}},
    "title 1, venue 0": {"weights": {**FIELD_WEIGHTS, "title": 1.0, "venue": 0.0}},
    # Issue 24: what the venue says as features (a token each, beside the terms).
    "+ area": {"signals": {"area": 0.5}},
    "+ affiliations": {"signals": {"affiliations": 0.5}},
    "+ decision": {"signals": {"decision": 0.3}},
    "+ area, affiliations, decision": {"signals": {"area": 0.5, "affiliations": 0.5,
                                                   "decision": 0.3}},
    "+ area, affiliations x 0.25": {"signals": {"area": 0.25, "affiliations": 0.25}},
}
PAPERLISTS = CORPUS.parent / "paperlists"


# -- the lists ----------------------------------------------------------------------------
def read_corpus() -> list[dict]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f.read().split("\n") if line]


def venue_year_library(key: tuple[str, int], records: list[dict]
                       ) -> tuple[Library, list[dict]]:
    """A library holding one venue-year, keywords stripped (made once, then reused), and
    the records it imported, each with the id paper-tui gave it."""
    root = WORK / f"{key[0]}-{key[1]}"
    cfg = config_mod.defaults()
    path = root / "list.jsonl"
    if not (root / "index").exists():
        root.mkdir(parents=True, exist_ok=True)
        signals = venue_signals_of(key)
        with open(path, "w", encoding="utf-8") as out:
            for record in records:
                extra = signals.get(" ".join(record["title"].lower().split()), {})
                out.write(json.dumps({**record, **extra, "keywords": []}, ensure_ascii=False)
                          + "\n")
        with Library.open(root, config=cfg, bundled=False) as lib:
            lib.import_paths([path])
    imported = [{**record, "id": paper.id} for record, paper
                in zip(records, jsonl.read(path, "bench"), strict=True)
                if isinstance(paper, Paper)]
    return Library.open(root, config=cfg, bundled=False), imported


def venue_signals_of(key: tuple[str, int]) -> dict[str, dict]:
    """The area and affiliations the real paperlists file of a venue-year gives (the
    corpus lacks them), by folded title; nothing when that file is not in ``shared``."""
    path = PAPERLISTS / f"{key[0]}{key[1]}.json"
    if not path.exists():
        return {}
    fields = ("primary_area", "aff", "aff_country_unique")
    return {" ".join(str(r.get("title", "")).lower().split()):
            {k: r[k] for k in fields if r.get(k)}
            for r in json.loads(path.read_text(encoding="utf-8"))}


def signal_columns(lib: Library, ids: tuple[str, ...], weights: dict[str, float]):
    """One column per decision, area word and affiliation, each row of unit length times
    the kind's weight: what the venue says, beside the term features."""
    from scipy import sparse

    columns: dict[str, int] = {}
    rows, cols, data = [], [], []
    for row, paper_id in enumerate(ids):
        paper = lib.paper(paper_id)
        tokens = {
            "decision": [paper.decision] if paper.decision else [],
            "area": [w for w in paper.area.lower().replace(",", " ").split() if len(w) > 2],
            "affiliations": list(dict.fromkeys(a.lower() for names in paper.affiliations
                                               for a in names)),
        }
        for kind, weight in weights.items():
            found = tokens[kind]
            for token in found:
                rows.append(row)
                cols.append(columns.setdefault(f"{kind}:{token}", len(columns)))
                data.append(weight / len(found) ** 0.5)
    return sparse.csr_matrix((np.array(data, dtype=np.float32), (rows, cols)),
                             shape=(len(ids), max(len(columns), 1)))


def topics_of(records: list[dict]) -> dict[str, set[str]]:
    """Each usable keyword and the ids of its papers."""
    papers: dict[str, set[str]] = {}
    for record in records:
        for keyword in {k.strip().lower() for k in record.get("keywords") or ()}:
            papers.setdefault(keyword, set()).add(record["id"])
    return {k: v for k, v in papers.items()
            if len(v) >= min(LABELS) + AT and len(v) <= len(records) / 4}


# -- the simulated reader -----------------------------------------------------------------
def sessions(ids: list[str], topic: set[str], rng: random.Random):
    """(N, kept, skipped, left) at the moment the reader has marked N papers to-read."""
    order = ids[:]
    rng.shuffle(order)
    kept: list[str] = []
    skipped: list[str] = []
    for i, paper_id in enumerate(order):
        if paper_id in topic:
            kept.append(paper_id)
            if len(kept) in LABELS and len(topic) >= len(kept) + AT:
                yield len(kept), list(kept), list(skipped), order[i + 1:]
        else:
            skipped.append(paper_id)


def precision(ranked: np.ndarray, left: list[str], topic: set[str]) -> float:
    return sum(left[i] in topic for i in ranked[:AT]) / AT


def top(scores: np.ndarray) -> np.ndarray:
    return np.argsort(-scores, kind="stable")[:AT]


class ArxivSanityLite:
    """arxiv-sanity-lite's features and SVM, as its compute.py and serve.py make them."""

    def __init__(self, records: list[dict], ids: list[str]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        by_id = {r["id"]: r for r in records}
        corpus = [f"{by_id[i]['title']}. {by_id[i].get('abstract') or ''} "
                  f"{' '.join(by_id[i].get('authors') or ())}" for i in ids]
        vectorizer = TfidfVectorizer(input="content", encoding="utf-8", decode_error="replace",
                                     strip_accents="unicode", lowercase=True, analyzer="word",
                                     stop_words="english",
                                     token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b",
                                     ngram_range=(1, 2), max_features=20000, norm="l2",
                                     use_idf=True, smooth_idf=True, sublinear_tf=True,
                                     max_df=0.1, min_df=5)
        self.x = vectorizer.fit_transform(corpus)
        self.row = {paper_id: i for i, paper_id in enumerate(ids)}

    def rank(self, kept: list[str], left: list[str]) -> np.ndarray:
        from sklearn.svm import LinearSVC

        y = np.zeros(self.x.shape[0])
        y[[self.row[i] for i in kept]] = 1
        clf = LinearSVC(class_weight="balanced", verbose=0, max_iter=10000, tol=1e-6, C=0.01)
        clf.fit(self.x, y)
        return top(clf.decision_function(self.x[[self.row[i] for i in left]]))


def sklearn_logistic(x, y, weight, c):
    """The same objective by scikit-learn (liblinear), to check paper-tui's own solver."""
    from sklearn.linear_model import LogisticRegression

    learner = LogisticRegression(C=c, solver="liblinear", max_iter=200)
    learner.fit(x, y, sample_weight=weight)
    return learner.coef_.ravel(), float(learner.intercept_[0])


def ours(lib: Library, variant: dict):
    matrix = term_matrix(lib.index)
    x = features(matrix, variant.get("weights"))
    if variant.get("signals"):
        from scipy import sparse

        x = sparse.hstack([x, signal_columns(lib, matrix.ids, variant["signals"])],
                          format="csr")
        norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
        norms[norms == 0] = 1
        x = sparse.diags(1 / norms) @ x
    settings = replace(Settings(), **variant.get("settings", {}))
    solve = sklearn_logistic if variant.get("solve") == "sklearn" else None

    def rank(kept: list[str], skipped: list[str], left: list[str]) -> np.ndarray:
        left_rows = matrix.rows(left)
        model = fit(x, matrix.rows(kept), matrix.rows(skipped), left_rows, settings, solve)
        return top(model.scores(x[left_rows]))

    return rank


def quality(records_by_list: dict, lists: list, variants: list[str], seed: int) -> dict:
    """precision@20 per method and N, averaged over topics (each over its reading orders)."""
    runs: dict[str, dict[int, list[float]]] = {}
    topics_seen = 0
    for key in lists:
        lib, records = venue_year_library(key, records_by_list[key])
        try:
            matrix = term_matrix(lib.index)
            ids = [r["id"] for r in records if r["id"] in matrix.row_of]
            asl = ArxivSanityLite(records, ids)
            ranks = {name: ours(lib, VARIANTS[name]) for name in variants}
            topics = topics_of(records)
            topics_seen += len(topics)
            for name, topic in sorted(topics.items()):
                per: dict[str, dict[int, list[float]]] = {}
                rng = random.Random(f"{seed}-{key}-{name}")
                for _ in range(ORDERS):
                    for n, kept, skipped, left in sessions(ids, topic, rng):
                        scores = {"random": sum(i in topic for i in left) / len(left),
                                  "arxiv-sanity-lite": precision(asl.rank(kept, left), left,
                                                                 topic)}
                        for variant, rank in ranks.items():
                            scores[variant] = precision(rank(kept, skipped, left), left, topic)
                        for method, p in scores.items():
                            per.setdefault(method, {}).setdefault(n, []).append(p)
                for method, by_n in per.items():
                    for n, ps in by_n.items():
                        runs.setdefault(method, {}).setdefault(n, []).append(statistics.mean(ps))
            print(f"  {key[0]} {key[1]}: {len(ids)} papers, {len(topics)} topics", flush=True)
        finally:
            lib.close()
    table: dict = {"lists": [f"{v} {y}" for v, y in lists], "topics": topics_seen}
    anchor = runs.get("arxiv-sanity-lite", {})
    for method, by_n in runs.items():
        table[method] = {}
        for n, ps in sorted(by_n.items()):
            entry = {"precision@20": round(statistics.mean(ps), 4), "topics": len(ps)}
            if method != "arxiv-sanity-lite" and anchor.get(n):
                entry["vs arxiv-sanity-lite"] = round(statistics.mean(ps)
                                                      / statistics.mean(anchor[n]), 3)
            table[method][str(n)] = entry
    return table


def print_table(title: str, table: dict) -> None:
    print(f"\n{title}: {', '.join(table['lists'])} ({table['topics']} topics)")
    print(f"{'method':<30}" + "".join(f"{f'{n} to-read':>22}" for n in LABELS))
    for method, by_n in table.items():
        if method in ("lists", "topics"):
            continue
        cells = []
        for n in LABELS:
            e = by_n.get(str(n))
            ratio = f" ({e['vs arxiv-sanity-lite']:.2f}x)" if e and \
                "vs arxiv-sanity-lite" in e else ""
            cells.append(f"{e['precision@20']:.3f}{ratio}" if e else "-")
        print(f"{method:<30}" + "".join(f"{c:>22}" for c in cells))


# -- a big library ranked from a sample (recommend.whole_up_to, recommend.sample) -----------
def bounded_quality(root: Path, records: list[dict], seed: int, samples: tuple[int, ...],
                    topics: int = 30, kept: int = 5, skipped: int = 50) -> dict:
    """precision@20 of ``recommend`` on the whole corpus (``--bounded DIR``: a library of
    it), ranked whole and ranked from a sample of each size in ``samples`` (the bound set
    below the library's size), on the same labels: ``topics`` keywords of 50 to 3,000
    papers, each with ``kept`` of its papers to-read and ``skipped`` others skipped. The
    seconds are one ``recommend`` in a process that has its sample in memory."""
    from paper_tui.config import RecommendSettings
    from paper_tui.recommend import Recommender

    imported = [{**record, "id": paper.id} for record, paper
                in zip(records, jsonl.read(CORPUS, "bench"), strict=True)
                if isinstance(paper, Paper)]
    rng = random.Random(seed)
    found = {k: v for k, v in topics_of(imported).items() if 50 <= len(v) <= 3000}
    chosen = rng.sample(sorted(found), min(topics, len(found)))
    every = [r["id"] for r in imported]
    labels = [(rng.sample(sorted(found[k]), kept),
               rng.sample([i for i in every if i not in found[k]], skipped)) for k in chosen]
    methods = {"whole": None, **{f"sample {n:,}": RecommendSettings(whole_up_to=1, sample=n)
                                 for n in samples}}
    table: dict[str, list[float]] = {m: [] for m in methods}
    seconds: dict[str, list[float]] = {m: [] for m in methods}
    with Library.open(root, config=config_mod.defaults(), bundled=False) as lib:
        for method, bound in methods.items():
            for keyword, (labelled_kept, labelled_skipped) in zip(chosen, labels, strict=True):
                label(lib, labelled_kept, labelled_skipped)
                start = time.perf_counter()
                items = Recommender(lib, bound=bound).recommend(limit=AT).items
                seconds[method].append(time.perf_counter() - start)
                table[method].append(sum(i.paper.id in found[keyword] for i in items) / AT)
                lib.annotations.set_status(labelled_kept + labelled_skipped, "new")
                lib.annotations.flush()
            print(method, round(statistics.mean(table[method]), 3), flush=True)
    return {"topics": chosen, "kept": kept, "skipped": skipped,
            "precision@20": {m: round(statistics.mean(v), 3) for m, v in table.items()},
            "per topic": {m: v for m, v in table.items()},
            "seconds, median": {m: round(statistics.median(v), 2) for m, v in seconds.items()}}


# -- speed --------------------------------------------------------------------------------
def label(lib: Library, kept: list[str], skipped: list[str]) -> None:
    lib.annotations.set_status(kept, "to-read")
    lib.annotations.set_status(skipped, "skipped")
    lib.annotations.flush()


def cli_median(root: Path, runs: int = 5) -> dict:
    """``paper-tui recommend`` in a new process: one warm-up, then the median of ``runs``;
    ``paper-tui search`` alternating with it, as the baseline of the moment (the machine is
    shared: its load moves both)."""
    base = [sys.executable, "-m", "paper_tui", "--library", str(root)]
    commands = {"recommend": [*base, "recommend", "--limit", "20", "--json"],
                "search": [*base, "search", "learning", "--limit", "20", "--json"]}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for i in range(runs + 1):
        for name, cmd in commands.items():
            start = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True)
            took = time.perf_counter() - start
            if i:
                times[name].append(took)
            else:
                assert json.loads(out.stdout), out.stderr
    return {"median_s": round(statistics.median(times["recommend"]), 3), "runs": runs,
            "times_s": [round(t, 3) for t in times["recommend"]],
            "search_median_s": round(statistics.median(times["search"]), 3),
            "load_average": round(os.getloadavg()[0], 2)}


def labelled_library(root: Path, records: list[dict] | None, rng: random.Random) -> Path:
    """A library at ``root`` (importing ``records`` when it has no index yet) with 5 kept
    and 50 skipped papers."""
    cfg = config_mod.defaults()
    if records is not None and not (root / "index").exists():
        root.mkdir(parents=True, exist_ok=True)
        path = root / "list.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                        encoding="utf-8")
        with Library.open(root, config=cfg, bundled=False) as lib:
            lib.import_paths([path])
    with Library.open(root, config=cfg, bundled=False) as lib:
        earlier = list(lib.annotations.store.snapshot())  # a previous run's labels
        lib.annotations.set_status(earlier, "new")
        ids = lib.results("").ids()
        chosen = rng.sample(ids, 55)
        label(lib, chosen[:5], chosen[5:])
    return root


def refresh_median(root: Path, rng: random.Random, runs: int = 20) -> dict:
    """One more label (a new paper marked), then the refit and the ranking of every paper
    again, as the app's worker does it: median over ``runs`` labels (the first refresh,
    which loads the term matrix, is not timed)."""
    from paper_tui.recommend import Recommender

    with Library.open(root, config=config_mod.defaults(), bundled=False) as lib:
        rec = Recommender(lib)
        rec.refresh()
        candidates = lib.results("").ids()
        rec.rank(candidates)
        times = []
        for k, paper_id in enumerate(rng.sample(rec.new_ids(), runs)):
            lib.annotations.set_status([paper_id], "to-read" if k % 4 == 0 else "skipped")
            start = time.perf_counter()
            changed = rec.refresh()
            rec.rank(candidates)
            times.append(time.perf_counter() - start)
            assert changed
        return {"ranked": len(candidates), "median_ms": round(statistics.median(times) * 1e3, 1),
                "p95_ms": round(sorted(times)[int(0.95 * (len(times) - 1))] * 1e3, 1),
                "runs": runs, "learned_from": rec.learned_from.text(),
                "load_average": round(os.getloadavg()[0], 2)}


# -- in the app ---------------------------------------------------------------------------
APP_LIBRARY = WORK / "app-nips-5000"
TOPIC_WORD = "reinforcement"


def app_library(records: list[dict], rng: random.Random) -> Path:
    """The first 5,000 NeurIPS papers (imported once), 10 to-read whose titles say
    :data:`TOPIC_WORD` and 30 others skipped; every other label a previous run left undone."""
    root = APP_LIBRARY
    cfg = config_mod.defaults()
    if not (root / "index").exists():
        root.mkdir(parents=True, exist_ok=True)
        path = root / "list.jsonl"
        neurips = [r for r in records if r["venue"] == "nips"][:5000]
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in neurips),
                        encoding="utf-8")
        with Library.open(root, config=cfg, bundled=False) as lib:
            lib.import_paths([path])
    with Library.open(root, config=cfg, bundled=False) as lib:
        earlier = list(lib.annotations.store.snapshot())
        lib.annotations.set_status(earlier, "new")
        ids = lib.results("").ids()
        on_topic = [i for i in ids if TOPIC_WORD in lib.paper(i).title.lower()]
        others = [i for i in ids if i not in set(on_topic)]
        label(lib, rng.sample(on_topic, 10), rng.sample(others, 30))
    return root


def sort_config(directory: Path, sort: str) -> Path:
    path = directory / f"{sort}.yaml"
    path.write_text(f"search:\n  sort: {sort}\n", encoding="utf-8")
    return path


def ms_summary(times: list[float]) -> dict:
    import tui

    return {"p50": round(statistics.median(times) * 1e3, 1),
            "p95": round(tui.p95(times) * 1e3, 1), "max": round(max(times) * 1e3, 1),
            "n": len(times)}


def app_speed(gap: float, seed: int, argv: list[str]) -> None:
    """Issue 18's app targets: a triage key with the for-you sort as fast as with
    relevance, the list ranked again within 300 ms of the key, first paint unchanged."""
    import asyncio
    import tempfile

    import tui
    from paper_tui.tui.app import PaperApp

    rng = random.Random(seed)
    root = app_library(read_corpus(), rng)
    sorts = ("relevance", "for-you")
    keys: dict[str, list] = {s: [[], [], 0] for s in sorts}
    reranked: list[float] = []
    not_reranked = 0
    paint: dict[str, list[float]] = {s: [] for s in sorts}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
        os.environ.update(env)  # never read or write the real user's config
        files = {s: sort_config(Path(tmp), s) for s in sorts}
        waiting: list[tuple[float, int]] = []  # the last key: sent at, search generation

        def on_key(app: PaperApp, sent_at: float) -> None:
            nonlocal not_reranked
            not_reranked += len(waiting)  # the previous key's ranking never came
            waiting[:] = [(sent_at, app.main.search.generation)]

        def on_frame(app: PaperApp, drawn_at: float) -> None:
            if waiting and app.main.search.shown_generation > waiting[0][1]:
                reranked.append(drawn_at - waiting.pop()[0])

        for round_ in range(3):
            for sort in sorts if round_ % 2 == 0 else sorts[::-1]:
                config = config_mod.load(files[sort], user_file=Path("/nonexistent"))
                hooks = {"on_key": on_key, "on_frame": on_frame} if sort == "for-you" \
                    else {}
                times, cpu, frames = asyncio.run(tui.key_latency(
                    root, "x", 30, gap, config=config, **hooks))
                not_reranked += len(waiting)
                waiting.clear()
                keys[sort][0] += times
                keys[sort][1] += cpu
                keys[sort][2] += frames
                print(f"round {round_ + 1}, {sort}: x p50 "
                      f"{statistics.median(times) * 1e3:.1f} ms", flush=True)
        for _ in range(5):
            for sort in sorts:
                paint[sort] += tui.first_paint(root, env, 1, f"--config {files[sort]}")
    result: dict = run_header("recommend.py", argv)
    result["library"] = "first 5,000 NeurIPS papers of papers-ml.jsonl.gz; 10 to-read " \
        f"(titles with {TOPIC_WORD!r}), 30 skipped; x every {gap} s, 3 rounds x 30"
    for sort in sorts:
        result[f"triage_key_to_next_paper_ms, {sort}"] = tui.latency_summary(*keys[sort])
    result["triage_key_to_reranked_list_ms, for-you"] = {
        **ms_summary(reranked), "keys_with_no_new_ranking": not_reranked}
    for sort in sorts:
        result[f"first_paint_s, {sort}"] = {
            "median": round(statistics.median(paint[sort]), 3),
            "max": round(max(paint[sort]), 3), "runs": len(paint[sort])}
    save_path = RESULTS_DIR / "recommend-app.json"
    save_path.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\n{'':<36}{'relevance':>12}{'for-you':>12}")
    for what, unit in (("p50", "ms"), ("p95", "ms")):
        cells = [result[f"triage_key_to_next_paper_ms, {s}"][what] for s in sorts]
        print(f"{'x to next paper ' + what + ' (' + unit + ')':<36}"
              + "".join(f"{c:>12}" for c in cells))
    rr = result["triage_key_to_reranked_list_ms, for-you"]
    for what in ("p50", "p95"):
        print(f"{'x to re-ranked list ' + what + ' (ms)':<36}{'-':>12}{rr[what]:>12}")
    cells = [result[f"first_paint_s, {s}"]["median"] for s in sorts]
    print(f"{'first paint median (s)':<36}" + "".join(f"{c:>12}" for c in cells))
    print(f"-> {save_path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--big", type=Path, help="a library holding the whole corpus")
    parser.add_argument("--bounded", type=Path, metavar="DIR",
                        help="only: the whole corpus's library DIR ranked whole and from "
                             "samples (a big library's bound)")
    parser.add_argument("--variants", action="store_true", help="also score the alternatives")
    parser.add_argument("--quality-only", action="store_true")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--app", action="store_true", help="only the app's for-you sort")
    parser.add_argument("--gap", type=float, default=0.5,
                        help="--app: seconds between triage keys")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--variant", action="append", choices=list(VARIANTS),
                        help="score only these alternatives besides paper-tui (repeatable)")
    args = parser.parse_args()
    if args.app:
        app_speed(args.gap, args.seed, sys.argv[1:])
        return
    WORK.mkdir(parents=True, exist_ok=True)
    records = read_corpus()
    if args.bounded:
        found = bounded_quality(args.bounded, records, args.seed, (5000, 10000, 20000))
        found["command"] = " ".join(["python bench/recommend.py", *sys.argv[1:]])
        print(json.dumps(found, indent=1))
        save("recommend", "bounded", found)
        return
    by_list: dict = {}
    for record in records:
        key = (record["venue"], record["year"])
        if key in TUNE or key in HELD_OUT:
            by_list.setdefault(key, []).append(record)
    variants = list(VARIANTS) if args.variants else ["paper-tui"]
    if args.variant:
        variants = ["paper-tui", *(v for v in args.variant if v != "paper-tui")]
    command = " ".join(["python bench/recommend.py", *sys.argv[1:]])
    if not args.speed_only:
        result: dict = {"command": command}
        start = time.perf_counter()
        print("tune lists:")
        result["tune"] = quality(by_list, TUNE, variants, args.seed)
        print_table("tune", result["tune"])
        print("\nheld-out lists:")
        result["held-out"] = quality(by_list, HELD_OUT, variants, args.seed)
        print_table("held-out", result["held-out"])
        result["seconds"] = round(time.perf_counter() - start, 1)
        save("recommend", "quality", result)
    if not args.quality_only:
        rng = random.Random(args.seed)
        speed: dict = {"command": command}
        ijcai = labelled_library(WORK / "speed-ijcai-2024", by_list[("ijcai", 2024)], rng)
        speed["cli, 1,044-paper list (ijcai 2024)"] = cli_median(ijcai)
        neurips = [r for r in records if r["venue"] == "nips"][:5000]
        five = labelled_library(WORK / "speed-nips-5000", neurips, rng)
        speed["refresh after one label, 5,000 papers"] = refresh_median(five, rng)
        if args.big:
            labelled_library(args.big, None, rng)
            speed[f"cli, {len(records):,}-paper library"] = cli_median(args.big)
        print("\n" + json.dumps(speed, indent=1))
        save("recommend", "speed", speed)


if __name__ == "__main__":
    main()
