"""The TUI's modules import each other without a circle (type-only and deferred imports
count too), and only ``tui/textual_internals.py`` reaches into Textual's private modules."""

from __future__ import annotations

import ast
from pathlib import Path

import paper_tui.tui

TUI = Path(paper_tui.tui.__file__).parent
PREFIX = "paper_tui.tui"


def _module_name(path: Path) -> str:
    parts = path.relative_to(TUI).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PREFIX, *parts))


def _imported(path: Path, modules: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Every module ``path`` imports, anywhere in the file (type-only and deferred imports
    too). ``from package import module`` is an import of the module, not of the package's
    ``__init__``, when ``module`` is one of ``modules``."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update(names & set(modules))
            if not names <= set(modules):
                found.add(node.module)
    return found


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in TUI.rglob("*.py")}
    return {name: {m for m in _imported(path, set(paths)) if m in paths and m != name}
            for name, path in paths.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                return [*stack[stack.index(other):], other]
            if other not in state and (found := visit(other)):
                return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)):
            return found
    return None


def test_the_check_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_circle_in_the_tui() -> None:
    graph = _graph()
    assert f"{PREFIX}.screens.main" in graph[f"{PREFIX}.app"]  # the graph sees imports
    assert _cycle(graph) is None


def test_only_textual_internals_imports_textual_private_modules() -> None:
    offenders = []
    for path in TUI.rglob("*.py"):
        if path.name == "textual_internals.py":
            continue
        for module in _imported(path):
            if module.startswith("textual.") and any(
                    part.startswith("_") for part in module.split(".")[1:]):
                offenders.append(f"{path.relative_to(TUI)}: {module}")
    assert offenders == []
