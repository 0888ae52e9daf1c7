"""Which CSL processor renders like citeproc-js (Zotero's, the reference), and at what cost:
the measurement behind ``citations/csl.py``'s choice.

For the 40 papers of ``tests/test_citation_styles.py`` (six from each corpus sample, ten
from the bundled list) in APA, IEEE, Chicago (author-date) and Nature, each paper's
bibliography entry as rendered by

- citeproc-py as released (the shipped styles and locales, nothing changed),
- citeproc-py with paper-tui's fixes (``citations/citeproc_fixes.py``),
- pandoc's citeproc: each ``pandoc`` given with ``--pandoc PATH`` (Debian's 2.17, the
  pandoc 3 of the ``pypandoc-binary`` wheel, …),

is compared with citeproc-js's, modulo whitespace (node and ``tests/reference`` needed).
Also timed: building a citeproc-js engine per style (what a process would pay for
every ``cite``), a pandoc run of one paper, citeproc-py's import.

    python bench/cite_engines.py [--pandoc PATH ...]   # -> bench/results/cite_engines.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import citeproc
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON

from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.citations import csl
from paper_tui.citations.csl_item import RENDERED_ONLY
from paper_tui.citations.styles import resolve
from paper_tui.library import Library
from results_file import run_header, save

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
REFERENCE = REPO / "tests" / "reference"
SAMPLES = ("acl2022-sample.json", "iclr2018-sample.json", "icml2019-sample.json",
           "nips2017-sample.json", "nips2018-sample.json")
STYLES = ("apa", "ieee", "chicago-author-date", "nature")
ENGINE_JS = """
const CSL = require(process.argv[1]);
let input = ""; process.stdin.on("data", c => { input += c; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const sys = {retrieveLocale: l => job.locales[l] || false, retrieveItem: id => null};
  const started = Date.now(), cpu = process.cpuUsage();
  new CSL.Engine(sys, job.style, "en-US");
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({wall: Date.now() - started,
                                       cpu: Math.round((used.user + used.system) / 1000)}));
});
"""


def _words(text: str) -> str:
    return " ".join(text.split())


def _items() -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib", config=config_mod.defaults())
        lib.import_paths([DATA / name for name in SAMPLES])
        by_source: dict[str, list] = {}
        for paper in lib.papers():
            by_source.setdefault(paper.source, []).append(paper)
        chosen = []
        for source, papers in sorted(by_source.items()):
            papers.sort(key=lambda p: p.id)
            chosen += papers[:6] if source.endswith("-json") else papers[:5]
        keys = citations.citation_keys(chosen)
        lib.close()
    return [{k: v for k, v in citations.csl_item(p, keys[p.id]).items()
             if k not in RENDERED_ONLY} for p in chosen]


def _locales() -> dict[str, str]:
    folder = Path(citeproc.LOCALES_PATH)
    return {p.name[len("locales-"):-len(".xml")]: p.read_text("utf-8")
            for p in folder.glob("locales-en-*.xml")}


def _reference(style: str, items: list[dict]) -> list[str]:
    """citeproc-js's entry for each item alone."""
    script = """
const CSL = require(process.argv[1]);
let input = ""; process.stdin.on("data", c => { input += c; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const byId = Object.fromEntries(job.items.map(i => [i.id, i]));
  const sys = {retrieveLocale: l => job.locales[l] || false, retrieveItem: id => byId[id]};
  const engine = new CSL.Engine(sys, job.style, "en-US");
  engine.setOutputFormat("text");
  const out = job.items.map(i => { engine.updateItems([i.id]);
                                   return engine.makeBibliography()[1].join(""); });
  process.stdout.write(JSON.stringify(out));
});
"""
    csl_file = resolve(style).csl
    assert csl_file is not None
    job = {"style": csl_file.read_text("utf-8"), "locales": _locales(), "items": items}
    done = subprocess.run(["node", "-e", script, str(REFERENCE / "node_modules" / "citeproc")],
                          input=json.dumps(job), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _citeproc_py_as_released(style: str, items: list[dict]) -> list[str]:
    csl_file = resolve(style).csl
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = CitationStylesStyle(str(csl_file), validate=False)
        for item in items:
            bibliography = CitationStylesBibliography(parsed, CiteProcJSON([item]),
                                                      formatter.plain)
            bibliography.register(Citation([CitationItem(item["id"])]))
            out.append("".join(str(e) for e in bibliography.bibliography()))
    return out


def _fixed(style: str, items: list[dict]) -> list[str]:
    resolved = resolve(style)
    return [csl.render(resolved, [item]).text for item in items]


def _pandoc(pandoc: str, style: str, items: list[dict]) -> list[str]:
    csl_file = resolve(style).csl
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for item in items:
            data = Path(tmp) / "item.json"
            data.write_text(json.dumps([item]), "utf-8")
            done = subprocess.run([pandoc, "-f", "csljson", "-t", "plain", "--citeproc",
                                   "--csl", str(csl_file), "--wrap=none", str(data)],
                                  capture_output=True, text=True, timeout=600)
            out.append(done.stdout if done.returncode == 0 else "")
    return out


def _agree(reference: list[str], got: list[str]) -> int:
    return sum(_words(a) == _words(b) for a, b in zip(reference, got, strict=True))


def _engine_ms(style: str) -> dict[str, int]:
    csl_file = resolve(style).csl
    assert csl_file is not None
    job = {"style": csl_file.read_text("utf-8"), "locales": _locales()}
    done = subprocess.run(["node", "-e", ENGINE_JS, str(REFERENCE / "node_modules" /
                                                         "citeproc")],
                          input=json.dumps(job), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _import_s() -> float:
    code = "import time; t = time.perf_counter(); import citeproc, lxml.etree; " \
           "print(time.perf_counter() - t)"
    return round(min(float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                          text=True, check=True).stdout)
                     for _ in range(5)), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pandoc", action="append", default=[], metavar="PATH",
                        help="a pandoc to compare (repeat for several)")
    args = parser.parse_args()
    if shutil.which("node") is None or not (REFERENCE / "node_modules").is_dir():
        sys.exit("needs node and citeproc-js: npm install --prefix tests/reference")
    pandocs = args.pandoc
    items = _items()
    result = run_header("cite_engines.py", sys.argv[1:])
    result["papers"] = len(items)
    result["citeproc_py_import_s"] = _import_s()
    for style in STYLES:
        reference = _reference(style, items)
        row: dict[str, object] = {"citeproc_js_engine_build_ms": _engine_ms(style),
                                  "load_average": os.getloadavg()[0]}
        row["citeproc_py_as_released"] = _agree(reference, _citeproc_py_as_released(style,
                                                                                    items))
        row["citeproc_py_with_fixes"] = _agree(reference, _fixed(style, items))
        for pandoc in pandocs:
            version = subprocess.run([pandoc, "--version"], capture_output=True, text=True
                                     ).stdout.split("\n", 1)[0]
            started = time.perf_counter()
            rendered = _pandoc(pandoc, style, items)
            row[version] = _agree(reference, rendered)
            row[f"{version} s per paper"] = round((time.perf_counter() - started) / len(items),
                                                  3)
        result[style] = row
        print(style, row, flush=True)
    print(save("cite_engines", "latest", result))


if __name__ == "__main__":
    main()
