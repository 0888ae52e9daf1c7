"""The design doc and the README's "How it is built" name modules and packages that exist.

Every backticked ``paper_tui/...`` or ``src/paper_tui/...`` path (a ``.py`` module or a
package directory) and every backticked ``tests/...`` file named in ``docs/design.md`` or
in the README's "How it is built" section is in the tree: a module moved or renamed without
its doc fails here, one test per path. And no doc points at a design file a clone does not
have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
README = ROOT / "README.md"
BUILT_HEADING = "## How it is built"

_BACKTICKED = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"(?:src/)?paper_tui(?:/[A-Za-z0-9_.]+)*/?|tests/[A-Za-z0-9_./]+\.py")


def built_section(readme: str) -> str:
    """The README's "How it is built" section: from its heading to the next one of its
    level."""
    start = readme.index(BUILT_HEADING)
    end = readme.find("\n## ", start + len(BUILT_HEADING))
    return readme[start:] if end < 0 else readme[start:end]


def named_paths(text: str) -> list[str]:
    """The paths the text names in backticks, each once, in order of first mention."""
    found: dict[str, None] = {}
    for span in _BACKTICKED.findall(text):
        if _PATH.fullmatch(span):
            found.setdefault(span.removeprefix("src/").rstrip("/"), None)
    return list(found)


def missing(path: str) -> str | None:
    """Why ``path`` (``paper_tui/...`` under ``src/``, or ``tests/...``) is not in the
    tree; None when it is."""
    where = (ROOT / "src" / path) if path.startswith("paper_tui") else ROOT / path
    if path.endswith(".py"):
        return None if where.is_file() else "no such module"
    if not (where / "__init__.py").is_file():
        return "no such package"
    return None


def _documented() -> list[str]:
    paths = named_paths(DESIGN.read_text("utf-8"))
    paths += [p for p in named_paths(built_section(README.read_text("utf-8")))
              if p not in paths]
    return paths


DOCUMENTED = _documented()


def test_paths_are_found() -> None:
    text = ("`paper_tui/query/parse.py`, `src/paper_tui/tui/` and `paper_tui/model.py` "
            "twice: `paper_tui/model.py`; `tests/test_layering.py`; not `Library.open`, "
            "`paper_tui` alone is the package, `paper-tui sync` is a command")
    assert named_paths(text) == ["paper_tui/query/parse.py", "paper_tui/tui",
                                 "paper_tui/model.py", "tests/test_layering.py", "paper_tui"]
    assert missing("paper_tui/model.py") is None
    assert missing("paper_tui/tui") is None
    assert missing("paper_tui/no_such.py") == "no such module"
    assert missing("paper_tui/model") == "no such package"


def test_the_docs_name_the_code() -> None:
    """The design doc names the packages a newcomer opens (a path scheme that stopped
    matching would make the test below check nothing)."""
    assert len(DOCUMENTED) >= 60
    for package in ("cli", "tui", "library", "index", "store", "team", "fetch"):
        assert f"paper_tui/{package}" in DOCUMENTED


@pytest.mark.parametrize("path", DOCUMENTED)
def test_a_documented_path_exists(path: str) -> None:
    assert missing(path) is None, f"{path}: {missing(path)} (named in the docs)"


def test_the_readme_points_at_the_design_doc() -> None:
    assert "docs/design.md" in built_section(README.read_text("utf-8"))


def test_no_doc_points_outside_the_repo() -> None:
    """The design the developers keep is ``docs/design.md``; a clone has no
    ``../shared``."""
    docs = [README, ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md",
            *sorted((ROOT / "docs").rglob("*.md"))]
    assert [doc.relative_to(ROOT).as_posix() for doc in docs
            if "shared/DESIGN.md" in doc.read_text("utf-8")] == []
