"""Import speed per format: the same few thousand corpus papers written as each format.

Reads the first ``--papers`` records with an abstract from
``shared/corpus/papers-ml.jsonl.gz`` and writes them as a paperlists JSON array (the
baseline), OpenReview API v2 notes, an arXiv Atom feed, RIS, CSL-JSON, DBLP XML (no
abstracts: DBLP has none) and a Mini-Conf CSV (``Name* (Affiliation)|…`` author cells).
Times, per paper and best of ``--repeat`` runs: the importer alone (reading and parsing the
file into papers, which includes naming each paper), and a whole ``Library.import_paths``
into a fresh library (parsing, storing, indexing). The ratio is to paperlists' time.

    python bench/import.py                # writes bench/results/import.json
    python bench/import.py --corpus /work/shared/corpus    # from a worktree elsewhere
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

from paper_tui import config as config_mod
from paper_tui.importers import registry
from paper_tui.library import Library
from paper_tui.model import Paper
from results_file import save

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers-ml.jsonl.gz"
LIMIT = 1.5  # each format within 1.5x of paperlists' time per paper


def load(n: int, corpus: Path = CORPUS) -> list[dict]:
    records = []
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            if record.get("abstract", "").strip() and record.get("authors"):
                records.append(record)
                if len(records) == n:
                    break
    return records


def _family_given(name: str) -> tuple[str, str]:
    given, _, family = name.rpartition(" ")
    return family, given


def paperlists(records: list[dict]) -> str:
    return json.dumps([{"title": r["title"], "author": ", ".join(r["authors"]),
                        "abstract": r["abstract"], "status": r["status"], "track": r["track"],
                        "site": r["url"], "pdf": r["pdf"], "keywords": "; ".join(r["keywords"]),
                        "year": r["year"], "venue": r["venue"]} for r in records])


def openreview(records: list[dict]) -> str:
    notes = [{"id": f"n{i}", "forum": f"n{i}", "content": {
        "title": {"value": r["title"]}, "authors": {"value": r["authors"]},
        "abstract": {"value": r["abstract"]}, "keywords": {"value": r["keywords"]},
        "TL;DR": {"value": r["tldr"]}, "pdf": {"value": f"/pdf/n{i}.pdf"},
        "venue": {"value": f"{r['venue'].upper()} {r['year']} {r['status'].lower()}"},
        "venueid": {"value": f"{r['venue'].upper()}.cc/{r['year']}/Conference"}}}
        for i, r in enumerate(records)]
    return json.dumps({"notes": notes})


def atom(records: list[dict]) -> str:
    entries = []
    for i, r in enumerate(records):
        authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in r["authors"])
        entries.append(
            f"<entry><id>http://arxiv.org/abs/2001.{i:05d}v2</id>"
            f"<published>{r['year']}-01-01T00:00:00Z</published>"
            f"<title>{escape(r['title'])}</title><summary>{escape(r['abstract'])}</summary>"
            f"{authors}<arxiv:primary_category term=\"cs.LG\"/><category term=\"cs.LG\"/>"
            f"<category term=\"stat.ML\"/></entry>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'
            ' xmlns:arxiv="http://arxiv.org/schemas/atom">' + "".join(entries) + "</feed>\n")


def ris(records: list[dict]) -> str:
    out = []
    for r in records:
        lines = ["TY  - CPAPER", f"TI  - {r['title']}"]
        lines += ["AU  - {}, {}".format(*_family_given(a)) for a in r["authors"]]
        lines += [f"PY  - {r['year']}", f"T2  - {r['venue']}",
                  f"AB  - {' '.join(r['abstract'].split())}", f"UR  - {r['url']}"]
        lines += [f"KW  - {k}" for k in r["keywords"]]
        out.append("\n".join([*lines, "ER  - "]))
    return "\n\n".join(out) + "\n"


def csl_json(records: list[dict]) -> str:
    return json.dumps([{
        "id": f"item{i}", "type": "paper-conference", "title": r["title"],
        "author": [dict(zip(("family", "given"), _family_given(a), strict=True))
                   for a in r["authors"]],
        "issued": {"date-parts": [[r["year"]]]}, "container-title": r["venue"],
        "URL": r["url"], "abstract": r["abstract"]} for i, r in enumerate(records)])


def dblp(records: list[dict]) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>']
    for i, r in enumerate(records):
        authors = "".join(f"<author>{escape(a)}</author>" for a in r["authors"])
        out.append(f'<inproceedings key="conf/x/p{i}" mdate="2024-01-01">{authors}'
                   f"<title>{escape(r['title'])}.</title><year>{r['year']}</year>"
                   f"<booktitle>{escape(r['venue'].upper())}</booktitle>"
                   f"<ee>{escape(r['url'])}</ee></inproceedings>")
    return "\n".join([*out, "</dblp>\n"])


def miniconf(records: list[dict]) -> str:
    out = [["UID", "title", "authors", "abstract", "session"]]
    for i, r in enumerate(records):
        cell = "|".join(f"{a}{'*' if j == 0 else ''} (University {j})"
                        for j, a in enumerate(r["authors"]))
        out.append([f"P{i}", r["title"], cell, r["abstract"], f"Session {i % 10}"])
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(out)
    return text.getvalue()


FORMATS: dict[str, tuple[str, Callable[[list[dict]], str]]] = {
    "paperlists": ("papers.json", paperlists), "openreview": ("notes.json", openreview),
    "arxiv": ("feed.atom", atom), "ris": ("refs.ris", ris), "csl-json": ("refs.json", csl_json),
    "dblp": ("dblp.xml", dblp), "csv": ("papers.csv", miniconf),
}


def parse_seconds(path: Path) -> tuple[str, int, float]:
    module = registry.sniff(path)
    start = time.perf_counter()
    papers = sum(isinstance(r, Paper) for r in module.read(path, registry.source_id(path)))
    return module.FORMAT, papers, time.perf_counter() - start


def import_seconds(path: Path, root: Path) -> tuple[int, float]:
    lib = Library.open(root, config=config_mod.defaults(), bundled=False)
    try:
        start = time.perf_counter()
        report = lib.import_paths([path])
        seconds = time.perf_counter() - start
    finally:
        lib.close()
    assert not report.errors, report.errors[:3]
    return report.papers, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=CORPUS,
                        help="papers-ml.jsonl.gz, or the directory holding it (default: "
                             "../shared/corpus beside the repo)")
    args = parser.parse_args()
    corpus = args.corpus / CORPUS.name if args.corpus.is_dir() else args.corpus
    records = load(args.papers, corpus)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, (file_name, write) in FORMATS.items():
            path = paths[name] = Path(tmp) / "in" / name / file_name
            path.parent.mkdir(parents=True)
            path.write_text(write(records), encoding="utf-8")
        parse: dict[str, list[float]] = {name: [] for name in FORMATS}
        whole: dict[str, list[float]] = {name: [] for name in FORMATS}
        counts: dict[str, int] = {}
        # Rounds over all formats, not all runs of one format then the next: the machine's
        # load (shared) changes over minutes, and then weighs on every format alike.
        for round_ in range(args.repeat):
            for name, path in paths.items():
                fmt, counts[name], seconds = parse_seconds(path)
                assert fmt == name, (fmt, name)
                parse[name].append(seconds)
                whole[name].append(import_seconds(path, Path(tmp) / f"lib-{name}-{round_}")[1])
        for name, path in paths.items():
            papers = counts[name]
            rows[name] = {"papers": papers, "file_bytes": path.stat().st_size,
                          "parse_ms_per_paper": round(min(parse[name]) / papers * 1000, 4),
                          "import_ms_per_paper": round(min(whole[name]) / papers * 1000, 4)}
            print(f"{name:<11} {papers:>5} papers  parse {rows[name]['parse_ms_per_paper']:.3f}"
                  f" ms/paper  import {rows[name]['import_ms_per_paper']:.3f} ms/paper",
                  flush=True)
    base = rows["paperlists"]
    for row in rows.values():
        row["parse_ratio"] = round(row["parse_ms_per_paper"] / base["parse_ms_per_paper"], 2)
        row["import_ratio"] = round(row["import_ms_per_paper"] / base["import_ms_per_paper"], 2)
        row["within_limit"] = row["import_ratio"] <= LIMIT and row["parse_ratio"] <= LIMIT
    path = save("import", f"{args.papers}-papers", {"records": len(records), "limit": LIMIT,
                                                     "formats": rows})
    print("\n| format | papers | parse ms/paper | x paperlists | import ms/paper | "
          "x paperlists |\n|---|---:|---:|---:|---:|---:|")
    for name, row in rows.items():
        print(f"| {name} | {row['papers']:,} | {row['parse_ms_per_paper']:.3f} | "
              f"{row['parse_ratio']:.2f} | {row['import_ms_per_paper']:.3f} | "
              f"{row['import_ratio']:.2f} |")
    print(f"\nwritten to {path}")


if __name__ == "__main__":
    main()
