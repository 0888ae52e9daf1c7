"""The core never imports Textual; only the index package imports Whoosh."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import paper_tui

PACKAGE = Path(paper_tui.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_shipped" not in p.parts)


def test_package_has_modules() -> None:
    names = {p.relative_to(PACKAGE).as_posix() for p in _modules()}
    assert {"index/__init__.py", "library/__init__.py", "model.py", "cli/__init__.py"} <= names


def test_core_never_imports_textual() -> None:
    offenders = [p.relative_to(PACKAGE).as_posix() for p in _modules()
                 if p.relative_to(PACKAGE).parts[0] != "tui" and "textual" in _imports(p)]
    assert offenders == []


def test_only_index_imports_whoosh() -> None:
    offenders = [p.relative_to(PACKAGE).as_posix() for p in _modules()
                 if p.relative_to(PACKAGE).parts[0] != "index" and "whoosh" in _imports(p)]
    assert offenders == []


def test_cli_commands_do_not_load_textual() -> None:
    """A headless command must not pay for (or depend on) the UI toolkit."""
    code = ("import sys; from paper_tui.cli import build_parser; build_parser(); "
            "import paper_tui.library; print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_gits_merge_driver_loads_no_index(tmp_path: Path) -> None:
    """git runs ``paper-tui merge-driver`` once per file it merges: it reads YAML, and must
    not pay for Whoosh and numpy (0.3 s of CPU each time)."""
    sides = []
    for side in ("base", "ours", "theirs"):
        (tmp_path / side).write_text("version: 1\npapers: {}\n", "utf-8")
        sides.append(str(tmp_path / side))
    code = ("import runpy, sys\n"
            f"sys.argv = ['paper-tui', 'merge-driver', *{sides!r}, 'people/a.yaml']\n"
            "try:\n    runpy.run_module('paper_tui', run_name='__main__')\n"
            "except SystemExit as done:\n    assert not done.code, done.code\n"
            "print(sorted(m for m in ('whoosh', 'numpy', 'paper_tui.library.facade') "
            "if m in sys.modules), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stderr.strip().splitlines()[-1] == "[]"
