"""No import circle and no upward import inside paper_tui: every import counts, also one
inside a function or under ``if TYPE_CHECKING:``, relative or absolute. And the fronts go
through the library's door: they never reach into its parts."""

from __future__ import annotations

import ast
from pathlib import Path

import paper_tui

PACKAGE = Path(paper_tui.__file__).parent

# The layers, top down: a module may import its own layer and those below, never above.
# The command line sits on the app (it starts it: ``paper-tui`` alone), never the other way
# round; both fronts sit on the library; the library on the domains; the domains on the
# shared basics. A domain may use another domain's public parts but not the library: one
# that needs to name something above it declares a Protocol of its own.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("paper_tui.__main__",),
    ("paper_tui.cli",),
    ("paper_tui.tui",),
    ("paper_tui.library",),
    ("paper_tui.recommend", "paper_tui.team", "paper_tui.exports"),
    ("paper_tui.index", "paper_tui.store", "paper_tui.importers", "paper_tui.naming",
     "paper_tui.holdings", "paper_tui.citations", "paper_tui.clipboard", "paper_tui.config",
     "paper_tui.fetch", "paper_tui.pdfs"),
    ("paper_tui.display", "paper_tui.venue", "paper_tui.query", "paper_tui.model",
     "paper_tui.vocabulary", "paper_tui.paths", "paper_tui.trust", "paper_tui.errors",
     "paper_tui.crash", "paper_tui"),
)
FRONTS = ("cli", "tui")
LIBRARY_PARTS = frozenset({"annotations", "lists", "index", "team"})
"""What a :class:`~paper_tui.library.Library` is built from: a front calls its methods,
never a part's."""


def _modules(package: Path) -> dict[str, Path]:
    """Dotted name -> file of every module of the package at ``package`` (a directory)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        if "_shipped" in path.parts:
            continue
        parts = (package.name, *path.relative_to(package).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, name: str, is_package: bool,
              modules: dict[str, Path]) -> set[str]:
    """The package's modules one import statement names (a ``from X import y`` names module
    ``X.y`` when there is one, else ``X``)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    if node.level:
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    found = {f"{target}.{alias.name}" for alias in node.names
             if f"{target}.{alias.name}" in modules}
    if target in modules and len(found) < len(node.names):
        found.add(target)
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports anywhere in its text."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges |= _imported(node, name, path.name == "__init__.py", modules)
        graph[name] = edges - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg.sub import helper\n",
        "plain.py": "import os\nimport pkg.top\n",
        "top.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg import plain\n",
        "sub/__init__.py": "from . import helper\nfrom .. import top\n",
        "sub/helper.py": "def f():\n    from ..plain import x\n    from .other import y\n",
        "sub/other.py": "from pkg.sub import helper, not_a_module\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text, "utf-8")
    assert import_graph(pkg) == {
        "pkg": {"pkg.sub.helper"},
        "pkg.plain": {"pkg.top"},
        "pkg.top": {"pkg.plain"},  # under TYPE_CHECKING
        "pkg.sub": {"pkg.sub.helper", "pkg.top"},  # relative, from a package's __init__
        "pkg.sub.helper": {"pkg.plain", "pkg.sub.other"},  # relative, inside a function
        "pkg.sub.other": {"pkg.sub.helper", "pkg.sub"},  # a name of the package's __init__
    }
    # The package's __init__ imports helper, which imports other, which imports the __init__.
    assert cycles(import_graph(pkg)) == [frozenset({"pkg.plain", "pkg.top"}),
                                         frozenset({"pkg.sub", "pkg.sub.helper", "pkg.sub.other"})]


def test_graph_reads_paper_tui() -> None:
    graph = import_graph()
    assert "paper_tui.naming.candidates" in graph["paper_tui.naming.choice"]
    assert "paper_tui.naming" in graph["paper_tui.importers.common"]  # from paper_tui import naming


def test_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    assert [sorted(c) for c in cycles(import_graph())] == []


def _layer(module: str) -> int:
    best = None
    for depth, names in enumerate(LAYERS):
        for name in names:
            inside = module == name or module.startswith(name + ".")
            if inside and (best is None or len(name) > best[1]):
                best = (depth, len(name))
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[0]


def test_no_upward_import() -> None:
    upward = sorted((module, target) for module, targets in import_graph().items()
                    for target in targets if _layer(target) < _layer(module))
    assert upward == []


def test_the_app_never_imports_the_command_line() -> None:
    """``cli`` may start the app; the app needs nothing of ``cli`` (what both need is
    below them)."""
    assert _layer("paper_tui.tui") > _layer("paper_tui.cli")
    assert _layer("paper_tui.library.context") > _layer("paper_tui.tui")


def reaches_into_library(tree: ast.AST) -> list[int]:
    """Lines where code reaches past a library to one of its parts: ``lib.annotations``,
    ``self.library.index``, ``host.library.team``, ``getattr(library, "lists")``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in LIBRARY_PARTS:
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else \
                owner.attr if isinstance(owner, ast.Attribute) else ""
            if name in ("lib", "library"):
                lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in LIBRARY_PARTS):
            lines.append(node.lineno)
    return sorted(lines)


def test_reaching_into_a_library_is_seen() -> None:
    code = ("lib.annotations.get(x)\nself.library.lists.all()\nself.host.library.team\n"
            "library.index\ngetattr(lib, 'team')\nlib.annotation(x)\ndetail.team\n"
            "self.lists\nSORTS.index(s)\n")
    assert reaches_into_library(ast.parse(code)) == [1, 2, 3, 4, 5]


def test_the_fronts_go_through_the_library_door() -> None:
    """``cli/`` and ``tui/`` call :class:`~paper_tui.library.Library` methods only: a part's
    API (the store's, the index's) can change without either front changing."""
    found = [f"{path.relative_to(PACKAGE)}:{line}"
             for front in FRONTS for path in sorted((PACKAGE / front).rglob("*.py"))
             for line in reaches_into_library(ast.parse(path.read_text("utf-8")))]
    assert found == []
