"""The modules of ``paper_tui.index`` import each other without a circle, type-only imports
included (a circle makes a module's meaning depend on which one was imported first)."""

from __future__ import annotations

import ast
from pathlib import Path

import paper_tui.index

INDEX = Path(paper_tui.index.__file__).parent


def imports(path: Path) -> set[str]:
    """The ``paper_tui.index`` modules one module imports, anywhere in it (``TYPE_CHECKING``
    blocks and function bodies too); the package itself counts as its ``__init__``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name == "paper_tui.index":
                found.add("__init__")
            elif name.startswith("paper_tui.index.") and \
                    (INDEX / f"{name.split('.')[2]}.py").exists():
                found.add(name.split(".")[2])
    return found - {path.stem}


def test_the_index_modules_import_each_other_without_a_circle() -> None:
    graph = {path.stem: imports(path) for path in INDEX.glob("*.py")}
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        if state.get(module) == "done":
            return
        assert state.get(module) != "open", " -> ".join([*path, module])
        state[module] = "open"
        for other in sorted(graph[module]):
            visit(other, [*path, module])
        state[module] = "done"

    for module in sorted(graph):
        visit(module, [])
    assert graph["paper_index"] >= {"results", "snapshot"}  # the walk saw the imports

