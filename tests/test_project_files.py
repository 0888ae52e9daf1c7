"""What people expect of a released package: one version (the one `--version` prints), a
LICENSE matching the metadata, a changelog with this version's entry, project links."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import paper_tui

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))


def test_the_version_lives_in_one_place_and_version_prints_it() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "src/paper_tui/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", paper_tui.__version__)
    # the installed metadata was built from the same line
    assert importlib.metadata.version("paper-tui") == paper_tui.__version__
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, f"paper-tui {paper_tui.__version__}\n", "")


def test_the_license_file_is_the_license_the_metadata_names() -> None:
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    text = (REPO / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) ")
    assert "the paper-tui authors" in text.splitlines()[2]
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_the_changelog_keeps_a_changelog_with_this_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text("utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert headings[0] == ("Unreleased", "")
    released = [version for version, date in headings[1:] if date]
    assert released and released[0] == paper_tui.__version__
    # every version heading has its link at the bottom
    for version, _ in headings:
        assert re.search(rf"^\[{re.escape(version)}\]: https://", text, re.M), version


def test_the_project_links_are_in_the_metadata() -> None:
    urls = PYPROJECT["project"]["urls"]
    assert {"Homepage", "Repository", "Issues", "Changelog"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
