"""One paper from two sources is one row: an arXiv feed and a proceedings file holding the
same paper show it once (the fuller record), marks on either hold for both, and two
different papers sharing a title stay two."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.library import Library

TEST_DATA = Path(__file__).parent / "data"
TITLE = ("Frequency of Hot Jupiters and Very Hot Jupiters from the OGLE-III Transit Surveys "
         "Toward the Galactic Bulge and Carina")
AUTHORS = ["Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski"]


def _proceedings(path: Path) -> Path:
    """The journal's list: the same paper (as Acta Astronomica 2006 printed it), another
    paper with the same title by other authors, and one of the same authors years later."""
    rows = [
        {"title": TITLE, "authors": AUTHORS, "venue": "Acta Astronomica", "year": 2006,
         "abstract": "We derive the frequencies of hot Jupiters with 3-5 day periods and very "
                     "hot Jupiters with 1-3 day periods from the OGLE-III survey.",
         "pdf": "https://example.org/acta-56-1.pdf", "keywords": ["exoplanets"]},
        {"title": TITLE, "authors": ["Jane Other", "Andrew Gould"], "venue": "Acta Astronomica",
         "year": 2006, "abstract": "A different study under the same title."},
        {"title": TITLE, "authors": AUTHORS, "venue": "Acta Astronomica", "year": 2012,
         "abstract": "A follow-up, years later, under the old title."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def lib(tmp_path: Path):
    shutil.copy(TEST_DATA / "formats" / "arxiv-api-old-id.atom", tmp_path / "feed.atom")
    library = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    library.import_paths([tmp_path / "feed.atom", _proceedings(tmp_path / "acta.jsonl")])
    yield library
    library.close()


def _ids(lib: Library, query: str, **kw) -> list[str]:
    return [hit.paper.id for hit in lib.search(query, limit=None, **kw).hits]


def test_the_preprint_and_the_proceedings_paper_are_one_row(lib: Library) -> None:
    everything = _ids(lib, "", all_versions=True)
    assert len(everything) == 4
    shown = _ids(lib, "")
    assert len(shown) == 3 and "arxiv-astro-ph-0601001" not in shown
    hot = _ids(lib, "hot jupiters")
    acta = next(pid for pid in hot if lib.paper(pid).pdf == "https://example.org/acta-56-1.pdf")
    assert lib.detail(acta).as_json()["also_in"] == ["arxiv-astro-ph-0601001"]
    assert lib.detail(acta).also_in == ("arXiv astro-ph-0601001",)
    # words only the preprint's abstract has find the row shown for both
    assert _ids(lib, "hipparcos") == [acta]
    assert _ids(lib, "hipparcos", all_versions=True) == ["arxiv-astro-ph-0601001"]
    # a shared title by other authors, and the same authors six years on, stay apart
    assert len(_ids(lib, f'"{TITLE.split()[0]} of hot jupiters"')) == 3


def test_a_mark_on_either_version_holds_for_both(lib: Library) -> None:
    acta = next(pid for pid in _ids(lib, "hot jupiters") if lib.detail(pid).also_in)
    lib.annotations.add_tags(["arxiv-astro-ph-0601001"], ["planets"])
    assert lib.annotations.get(acta).tags == ("planets",)
    assert _ids(lib, "tag:planets") == [acta]
    lib.annotations.set_status([acta], "to-read")
    assert lib.annotations.get("arxiv-astro-ph-0601001").status == "to-read"
    lib.annotations.flush()
    stored = (lib.root / "annotations.yaml").read_text()
    assert acta in stored and "arxiv-astro-ph-0601001" in stored  # both, for re-import and sync


def test_the_cli_lists_both_when_asked(lib: Library) -> None:
    lib.close()

    def search(*extra: str) -> list[dict]:
        done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(lib.root),
                               "search", "hot jupiters", "--json", *extra],
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    rows = search()
    assert len(rows) == 3
    assert [r["also_in"] for r in rows if r["also_in"]] == [["arxiv-astro-ph-0601001"]]
    assert len(search("--all-versions")) == 4
