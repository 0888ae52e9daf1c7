"""Which library reads a PDF's text for ``paper-tui pdf`` (issue 36: "choose with numbers
on real papers"), against poppler's ``pdftotext`` as the reference for speed and words;
and ``paper-tui pdf get`` end to end against ``pdftotext`` alone on the same files.

Each Python candidate is installed into a virtualenv of its own (nothing added to the
project's environment but the one chosen)::

    for p in pypdfium2 pypdf pdfminer.six; do
        python -m venv /tmp/pdfb/v-$p && /tmp/pdfb/v-$p/bin/pip install $p; done
    python -m venv /tmp/pdfb/v-empty
    python bench/pdfs.py --corpus DIR --venvs /tmp/pdfb

``DIR`` holds real research papers (the run in ``bench/results/pdfs.md`` used the 28 of
allenai/science-parse's test fixtures and pdfminer.six's naacl06-shinyama.pdf; the
suite's two in ``tests/data/pdfs`` work too). Per candidate, each in a new interpreter:

- pages per CPU-second: every page's text of every file, ``time.process_time`` around the
  extraction alone (the import not counted); ``pdftotext``'s is its children's CPU time,
  one process per file as a user runs it;
- words: the share of ``pdftotext``'s words (lower-cased ``\\w+``, a word broken by a
  hyphen at a line's end joined again in every text) that the candidate found too,
  counted as multisets;
- run together: the candidate's words that are no word of ``pdftotext``'s but two of them
  glued (``phrasegeneration``), in all, and the papers with more than 20;
- install size: the venv's ``site-packages`` less an empty venv's; import time: best of
  5 new interpreters (``import M`` alone: ``pypdfium2``, ``pypdf``,
  ``pdfminer.high_level``).

``--get``: the corpus served on 127.0.0.1, imported as a list, ``paper-tui pdf get
--list`` in a new library (download, check, extract, write), wall time, against the sum
of ``pdftotext``'s wall times on the same files.

Results: printed, and written to bench/results/pdfs.md.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import http.server
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "pdfs.md"
CANDIDATES = {"pypdfium2": "pypdfium2", "pypdf": "pypdf", "pdfminer.six": "pdfminer.high_level"}
LICENCES = {"pypdfium2": "Apache-2.0 or BSD-3-Clause (PDFium: BSD-3-Clause)",
            "pypdf": "BSD-3-Clause", "pdfminer.six": "MIT",
            "pdftotext": "GPL-2.0-or-later (poppler; a program, not a library)"}
VERDICT = """Chosen: pypdfium2 (a dependency of paper-tui, imported only by the `pdf`
commands). Faster than pdftotext itself per CPU-second and ten times pypdf, the most of
pdftotext's words of the three, the fewest run together, a permissive licence, one wheel
with PDFium inside (no compiler, no system library). pypdf is pure Python but an order of
magnitude slower; pdfminer.six is slower still, loses words on multi-column pages and
pulls in `cryptography`. PyMuPDF (AGPL-3.0) was not measured: its licence rules it out.
pdftotext is the reference, not a candidate: a GPL program a user may not have."""
_WORD = re.compile(r"\w+")
_BROKEN = re.compile(r"(\w)-\n\s*(\w)")


# -- the worker: one candidate, in its own interpreter ----------------------------------
def _extract(name: str, path: Path) -> tuple[int, str]:
    if name == "pypdfium2":
        import pypdfium2

        document = pypdfium2.PdfDocument(path)
        texts = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            raw = textpage.get_text_range()
            texts.append(raw.replace("\ufffe\r\n", "").replace("\ufffe", "")
                         .replace("\r\n", "\n"))
            textpage.close()
            page.close()
        document.close()
        return len(texts), "\f".join(texts)
    if name == "pypdf":
        import logging

        import pypdf

        logging.getLogger("pypdf").setLevel(logging.ERROR)  # "fontTools is required…"

        reader = pypdf.PdfReader(path)
        return len(reader.pages), "\f".join(page.extract_text() or ""
                                            for page in reader.pages)
    if name == "pdfminer.six":
        from pdfminer.high_level import extract_text
        from pdfminer.pdfpage import PDFPage

        with path.open("rb") as file:
            pages = sum(1 for _ in PDFPage.get_pages(file))
        return pages, extract_text(str(path))
    raise ValueError(name)


def worker(name: str, files: list[Path], out: Path) -> None:
    importlib_module = CANDIDATES[name]
    __import__(importlib_module)
    texts, pages, failed = {}, 0, []
    start = time.process_time()
    for path in files:
        try:
            count, text = _extract(name, path)
        except Exception as exc:  # a candidate that cannot read a file: counted
            failed.append(f"{path.name}: {type(exc).__name__}")
            continue
        pages += count
        texts[path.name] = text
    cpu = time.process_time() - start
    out.write_text(json.dumps({"pages": pages, "cpu_s": cpu, "texts": texts,
                               "failed": failed}), "utf-8")


# -- the driver -------------------------------------------------------------------------
def words(text: str) -> list[str]:
    return _WORD.findall(_BROKEN.sub(r"\1\2", text).lower())


def pdftotext(files: list[Path]) -> dict[str, object]:
    texts, pages = {}, 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    for path in files:
        texts[path.name] = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"],
                                          capture_output=True, check=True).stdout.decode()
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for path in files:
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
        found = re.search(r"^Pages:\s+(\d+)", info, re.M)
        pages += int(found.group(1)) if found else 0
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"pages": pages, "cpu_s": cpu, "wall_s": wall, "texts": texts, "failed": []}


def glued(word: str, vocabulary: set[str]) -> bool:
    return len(word) >= 6 and word not in vocabulary and any(
        word[:i] in vocabulary and word[i:] in vocabulary and len(word[:i]) > 1
        and len(word[i:]) > 1 for i in range(2, len(word) - 1))


def compare(found: dict[str, object], reference: dict[str, object]) -> dict[str, float]:
    ref_texts, texts = reference["texts"], found["texts"]
    assert isinstance(ref_texts, dict) and isinstance(texts, dict)
    shared = total = together = heavy = 0
    for name, ref in ref_texts.items():
        ref_words = collections.Counter(words(ref))
        got = collections.Counter(words(texts.get(name, "")))
        total += sum(ref_words.values())
        shared += sum((ref_words & got).values())
        vocabulary = set(ref_words)
        run = sum(n for word, n in got.items() if glued(word, vocabulary))
        together += run
        heavy += run > 20
    return {"recall": shared / total if total else 0.0, "together": together,
            "heavy": heavy}


def site_size(python: Path) -> int:
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return sum(f.stat().st_size for f in Path(site).rglob("*") if f.is_file())


def import_time(python: Path, module: str, runs: int = 5) -> float:
    best = float("inf")
    code = (f"import time; t = time.perf_counter(); import {module}; "
            "print(time.perf_counter() - t)")
    for _ in range(runs):
        out = subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                             check=True)
        best = min(best, float(out.stdout))
    return best


def measure(name: str, python: Path, files: list[Path]) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        subprocess.run([str(python), __file__, "--worker", name, "--out", str(out),
                        *map(str, files)], check=True)
        return json.loads(out.read_text("utf-8"))


# -- paper-tui pdf get, end to end ------------------------------------------------------
@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def pdf_get(files: list[Path], src: Path = REPO / "src") -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    with tempfile.TemporaryDirectory() as tmp, served(files[0].parent) as url:
        root = Path(tmp)
        (root / "list.jsonl").write_text("".join(json.dumps(
            {"title": f"Paper {path.stem}", "abstract": "a paper",
             "pdf": f"{url}/{path.name}"}) + "\n" for path in files), "utf-8")
        # the corpus is served on 127.0.0.1: a PDF link there needs pdf.private_hosts
        (root / "config.yaml").write_text("bundled_lists: false\npdf:\n  private_hosts: true\n",
                                          "utf-8")
        base = [sys.executable, "-m", "paper_tui", "--library", str(root / "lib"),
                "--config", str(root / "config.yaml")]
        subprocess.run([*base, "import", str(root / "list.jsonl")], check=True, env=env,
                       capture_output=True)
        subprocess.run([*base, "lists", "create", "bench"], check=True, env=env,
                       capture_output=True)
        ids = json.loads(subprocess.run([*base, "list", "--json"], check=True, env=env,
                                        capture_output=True).stdout)
        subprocess.run([*base, "lists", "add", "bench", *[p["id"] for p in ids]],
                       check=True, env=env, capture_output=True)
        start = time.perf_counter()
        done = subprocess.run([*base, "pdf", "get", "--list", "bench"], env=env,
                              capture_output=True, text=True)
        wall = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([*base, "list"], env=env, capture_output=True, check=True)
        startup = time.perf_counter() - start
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
        return {"wall_s": wall, "startup_s": startup, "status": done.returncode}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "tests" / "data" / "pdfs")
    parser.add_argument("--venvs", type=Path, default=None,
                        help="DIR with v-<candidate> and v-empty virtualenvs (default: "
                             "this interpreter for all: each must be installed in it)")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of pdf get against pdftotext (default 3)")
    parser.add_argument("--no-get", action="store_true",
                        help="skip paper-tui pdf get end to end")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.files, args.out)
        return
    files = sorted(p for p in args.corpus.glob("*.pdf") if p.stat().st_size > 0)
    if shutil.which("pdftotext") is None:
        sys.exit("pdftotext (poppler-utils) is needed as the reference")
    reference = pdftotext(files)
    rows = [("pdftotext", reference, {"recall": 1.0, "together": 0, "heavy": 0}, None, None)]
    empty = site_size(args.venvs / "v-empty" / "bin" / "python") if args.venvs else None
    for name, module in CANDIDATES.items():
        python = args.venvs / f"v-{name}" / "bin" / "python" if args.venvs else \
            Path(sys.executable)
        found = measure(name, python, files)
        size = site_size(python) - empty if empty is not None else None
        rows.append((name, found, compare(found, reference), size,
                     import_time(python, module)))
    pages, size = reference["pages"], sum(f.stat().st_size for f in files) / 2**20
    lines = [f"{len(files)} papers, {pages} pages ({size:.1f} MB) from {args.corpus}; "
             f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load "
             f"{os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d')}",
             "",
             "| reader | pages / CPU-s | CPU s (all) | words of pdftotext's found | words run "
             "together (papers > 20) | unreadable files | install MB | import ms | licence |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, found, quality, size, imported in rows:
        cpu = float(found["cpu_s"])  # type: ignore[arg-type]
        rate = int(found["pages"]) / cpu if cpu else float("inf")  # type: ignore[call-overload]
        lines.append(
            f"| {name} | {rate:,.0f} | {cpu:.2f} | {quality['recall']:.1%} | "
            f"{quality['together']:,} ({quality['heavy']}) | {len(found['failed'])} | "  # type: ignore[arg-type]
            f"{'' if size is None else f'{size / 2**20:.1f}'} | "
            f"{'' if imported is None else f'{imported * 1000:.0f}'} | {LICENCES[name]} |")
    if not args.no_get:
        gets, walls = [], []
        for _ in range(args.rounds):  # in turns: the machine's noise falls on both
            walls.append(float(pdftotext(files)["wall_s"]))  # type: ignore[arg-type]
            gets.append(pdf_get(files))
        got = min(gets, key=lambda g: g["wall_s"])
        wall = min(walls)
        lines += ["", f"`paper-tui pdf get --list` of the {len(files)} papers served on "
                  f"127.0.0.1 (download, check, extract, write, into a new library), best "
                  f"of {args.rounds}: {got['wall_s']:.2f} s wall (exit {got['status']:.0f}; "
                  f"a `paper-tui list` alone: {got['startup_s']:.2f} s); `pdftotext` on "
                  f"the same files, one process each, best of {args.rounds}: {wall:.2f} s "
                  f"wall: {got['wall_s'] / wall:.1f}x (issue 36 allows 3x)."]
    lines += ["", VERDICT]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text("# bench/pdfs.py\n\n" + text, "utf-8")


if __name__ == "__main__":
    main()
