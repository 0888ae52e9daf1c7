"""What the venue says, taken out: ``show --json`` / ``search --json`` keys, plain ``show``,
and every export (CSV, JSON and YAML read back equal; Markdown, Org, RIS, CSL-JSON)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import forked_cli
from paper_tui import config as config_mod
from paper_tui.exports import formats as export
from paper_tui.importers import import_file
from paper_tui.library import Library
from paper_tui.model import Paper

VENUE = Path(__file__).parent / "data" / "venue"
KEYS = ("decision", "decision_text", "ratings", "rating", "rating_spread", "confidences",
        "confidence", "area", "award", "citations", "citations_date", "code", "project",
        "affiliations", "countries")
# Fields an export writes as the paper has them (the rest are display text or derived).
SIGNALS = KEYS


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("venue") / "lib"
    library = Library.open(root, config=config_mod.defaults(), bundled=False)
    report = library.import_paths([VENUE])
    assert not report.errors
    yield library
    library.close()


def _by_title(lib: Library, title: str) -> Paper:
    [hit] = [h for h in lib.search(f'title:"{title}"', limit=None).hits
             if h.paper.title == title]
    return hit.paper


ORAL = "Spectral Normalization for Generative Adversarial Networks"  # iclr2018: reviews, code
AWARD = "DiBiMT: A Novel Benchmark for Measuring Word Sense Disambiguation Biases in Machine Translation"  # noqa: E501


def papers(lib: Library) -> list[Paper]:
    """An oral with reviews and code; an award with a project; an ACM MM paper (area, no
    abstract); a NeurIPS record without an abstract, whose only signal is its decision."""
    acmmm = lib.search("venue:acmmm").hits[0].paper
    bare = next(p for p in lib.papers() if not p.abstract and p.venue == "NeurIPS"
                and p.citations is None)
    return [_by_title(lib, ORAL), _by_title(lib, AWARD), acmmm, bare]


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PAPER_TUI_HOME=str(home), NO_COLOR="1")
    return forked_cli.run([sys.executable, "-m", "paper_tui", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_show_and_search_json_carry_every_key_null_or_empty_when_unknown(lib: Library) -> None:
    oral = _by_title(lib, ORAL)
    out = run(lib.root, "show", oral.id, "--json")
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert {k: shown[k] for k in KEYS} == {
        "decision": "oral", "decision_text": "Oral", "ratings": [7.0, 7.0, 8.0],
        "rating": 7.333, "rating_spread": 0.471, "confidences": [4.0, 2.0, 3.0],
        "confidence": 3.0, "area": "", "award": None, "citations": 5867,
        "citations_date": oral.citations_date,
        "code": "https://github.com/pfnet-research/sngan_projection", "project": "",
        "affiliations": [], "countries": []}
    found = run(lib.root, "search", "venue:neurips", "--json", "--limit", "100")
    assert found.returncode == 0, found.stderr
    rows = json.loads(found.stdout)
    assert rows and all(set(KEYS) <= set(row) for row in rows)
    bare = [r for r in rows if not r["abstract"]]
    assert bare and all(r["rating"] is None and r["ratings"] == [] and r["award"] is None
                        for r in bare)


def test_plain_show_says_what_the_venue_said(lib: Library) -> None:
    oral = _by_title(lib, ORAL)
    lines = run(lib.root, "show", oral.id).stdout.splitlines()
    venue = lines.index("Venue:   ICLR 2018")
    assert lines[venue + 1] == (f"         Oral · rating 7.3 ± 0.5 (7 7 8; confidence 3.0) · "
                                f"5,867 citations ({oral.citations_date})")
    assert "Code:    https://github.com/pfnet-research/sngan_projection" in lines
    award = _by_title(lib, AWARD)
    lines = run(lib.root, "show", award.id).stdout.splitlines()
    authors = next(i for i, line in enumerate(lines) if line.startswith("Authors: "))
    assert lines[authors + 1] == \
        "         Sapienza University of Rome; SSML Carlo Bo, Rome (Italy)"
    assert lines[lines.index("Venue:   ACL 2022") + 1].startswith(
        "         Accepted (Long) · 36 citations (")
    assert lines[lines.index("Venue:   ACL 2022") + 1].endswith(") · award")
    assert "Project: https://nlp.uniroma1.it/dibimt" in lines


def _signals(paper: Paper) -> dict:
    return {k: v for k, v in paper.to_dict().items() if k in SIGNALS}


def test_csv_json_yaml_exports_read_back_equal(lib: Library, tmp_path: Path) -> None:
    chosen = papers(lib)
    assert len(chosen) == 4
    rows = list(csv.DictReader(io.StringIO(export.export(lib, chosen, "csv"))))
    assert rows[0]["ratings"] == "7; 7; 8" and rows[0]["decision"] == "oral"
    assert rows[1]["award"] == "yes" and rows[3]["award"] == ""
    for fmt, name in (("csv", "back.csv"), ("json", "back.json")):
        path = tmp_path / name
        path.write_text(export.export(lib, chosen, fmt))
        _, _, records = import_file(path)
        back = list(records)
        assert [_signals(p) for p in back] == [_signals(p) for p in chosen], fmt
        assert [p.title for p in back] == [p.title for p in chosen]
        assert not any(p.decision_text in ("new", "read") for p in back)  # triage status
    data = yaml.safe_load(export.export(lib, chosen, "yaml"))
    assert [{k: d[k] for k in SIGNALS} for d in data] == \
        [json.loads(json.dumps(_signals(p))) for p in chosen]


def test_csl_json_keeps_the_signals_for_a_round_trip(lib: Library, tmp_path: Path) -> None:
    chosen = papers(lib)
    path = tmp_path / "refs.json"
    path.write_text(export.export(lib, chosen, "csl-json"))
    items = json.loads(path.read_text())
    assert items[0]["custom"]["decision"] == "oral" and "award" not in items[0]["custom"]
    _, fmt, records = import_file(path)
    assert fmt == "csl-json"
    assert [_signals(p) for p in records] == [_signals(p) for p in chosen]


def test_markdown_org_and_ris_say_only_what_is_known(lib: Library, tmp_path: Path) -> None:
    oral, award, acmmm, bare = papers(lib)
    lines = export.export(lib, [oral, bare], "markdown").splitlines()
    said = lines[lines.index(next(x for x in lines if x.startswith("1. "))) + 1]
    assert said == (f"   Oral · rating 7.3 ± 0.5 (7 7 8; confidence 3.0) · 5,867 citations "
                    f"({oral.citations_date}) · "
                    "[code](https://github.com/pfnet-research/sngan_projection)")
    second = lines.index(next(x for x in lines if x.startswith("2. ")))
    assert lines[second + 1] == "   " + bare.decision.capitalize()  # only the decision
    org = export.export(lib, [award, acmmm], "org")
    assert ":DECISION: Accepted (Long)" in org and ":AWARD: yes" in org
    assert ":AFFILIATIONS: Sapienza University of Rome; SSML Carlo Bo, Rome (Italy)" in org
    assert f":AREA: {acmmm.area}" in org and ":REVIEWS: " in org
    assert "[[https://nlp.uniroma1.it/dibimt][project]]" in org
    ris = export.export(lib, [award, oral], "ris")
    assert [line for line in ris.splitlines() if line.startswith("AD  - ")][:4] == \
        ["AD  - " + " + ".join(names) for names in award.affiliations]
    assert len(award.affiliations) == len(award.authors) == 4
    assert "UR  - https://github.com/pfnet-research/sngan_projection" in ris
    path = tmp_path / "back.ris"
    path.write_text(ris)
    _, _, records = import_file(path)
    back = list(records)
    assert back[0].affiliations == award.affiliations  # one AD an author: read back
    assert back[0].url == award.url  # the first UR is the page, code and project after
