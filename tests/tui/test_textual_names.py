"""Textual's names are Textual's: none of our widgets, screens or apps (nor the mixins they
are made of) defines or assigns an underscore name that a Textual base class already has.

A widget that assigns ``self._name`` replaces ``DOMNode._name`` (its ``name`` then reads
None), and one that defines ``_render`` replaces the method Textual's own drawing calls.
Reaching into Textual's private parts on purpose is ``textual_internals.py``'s job alone.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Callable
from functools import cache

from textual.dom import DOMNode

import paper_tui.tui

ALLOWED_MODULE = "paper_tui.tui.textual_internals"


def _our_modules() -> list[str]:
    names = [paper_tui.tui.__name__]
    for info in pkgutil.walk_packages(paper_tui.tui.__path__, prefix="paper_tui.tui."):
        names.append(info.name)
    return [name for name in names if name != ALLOWED_MODULE]


def _class_node(cls: type) -> ast.ClassDef | None:
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return None
    node = ast.parse(source).body[0]
    return node if isinstance(node, ast.ClassDef) else None


def _self_assigned(node: ast.AST) -> set[str]:
    """Names assigned on ``self`` anywhere in ``node`` (``self.x = …``, ``self.x: T = …``,
    ``self.x += …``, ``self.a, self.b = …``)."""
    names: set[str] = set()
    for child in ast.walk(node):
        targets: list[ast.expr] = []
        if isinstance(child, ast.Assign):
            targets = list(child.targets)
        elif isinstance(child, ast.AnnAssign | ast.AugAssign):
            targets = [child.target]
        while targets:
            target = targets.pop()
            if isinstance(target, ast.Tuple | ast.List):
                targets.extend(target.elts)
            elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                  and target.value.id == "self"):
                names.add(target.attr)
    return names


def _defined(node: ast.ClassDef) -> set[str]:
    """Names the class body itself defines: methods, nested classes, class attributes."""
    names: set[str] = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(item.name)
        elif isinstance(item, ast.Assign):
            names.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
    return names


def _private(names: set[str]) -> frozenset[str]:
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


@cache
def _our_names(cls: type) -> frozenset[str]:
    """The private names our class's source defines or assigns (not those Textual's
    machinery adds to every subclass, such as ``_css_type_name``)."""
    node = _class_node(cls)
    return _private(_defined(node) | _self_assigned(node)) if node else frozenset()


@cache
def _textual_names(cls: type) -> frozenset[str]:
    """The private names a Textual class has: its attributes, and what its source
    assigns on ``self``."""
    node = _class_node(cls)
    return _private(set(vars(cls)) | (_self_assigned(node) if node else set()))


def _ours(cls: type) -> bool:
    return cls.__module__.startswith("paper_tui.") and cls.__module__ != ALLOWED_MODULE


def _textual(cls: type) -> bool:
    return cls.__module__.split(".")[0] in ("textual", "rich")


def our_dom_classes() -> list[type]:
    """Every Widget, Screen and App subclass defined in ``paper_tui.tui``."""
    found: dict[str, type] = {}
    for name in _our_modules():
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if (inspect.isclass(obj) and issubclass(obj, DOMNode) and obj.__module__ == name):
                found[f"{name}.{obj.__qualname__}"] = obj
    return list(found.values())


def collisions(cls: type, ours: Callable[[type], bool] = _ours) -> dict[str, list[str]]:
    """``{"OurClass._name": ["DOMNode"]}`` for each private name of one of ``cls``'s own
    classes (it and its mixins: ``ours``) that a Textual class in its MRO has too."""
    textual_names: dict[str, list[str]] = {}
    for base in cls.__mro__:
        if _textual(base):
            for name in _textual_names(base):
                textual_names.setdefault(name, []).append(base.__qualname__)
    found: dict[str, list[str]] = {}
    for own in cls.__mro__:
        if ours(own):
            for name in sorted(_our_names(own) & set(textual_names)):
                found[f"{own.__name__}.{name}"] = textual_names[name]
    return found


def test_the_walk_sees_our_widgets_screens_and_app():
    names = {cls.__name__ for cls in our_dom_classes()}
    assert {"PaperApp", "MainScreen", "AbstractView", "ResultsList", "TagEditor",
            "StatusLine", "FacetsPanel", "LineScrollBar"} <= names


def test_the_check_finds_a_name_textual_has():
    """The check itself: a widget assigning ``_name`` (DOMNode's) or defining ``_render``
    (Widget's) is caught; one with names of its own is not."""
    from textual.widget import Widget

    class Clashing(Widget):
        def __init__(self) -> None:
            super().__init__()
            self._name = "mine"

        def _render(self):  # type: ignore[override]
            return ""

    class Fine(Widget):
        def __init__(self) -> None:
            super().__init__()
            self._badge_style = None

    def local(cls: type) -> bool:
        return cls in (Clashing, Fine)

    assert set(collisions(Clashing, local)) == {"Clashing._name", "Clashing._render"}
    assert collisions(Fine, local) == {}


def test_no_widget_screen_or_app_of_ours_reuses_a_private_textual_name():
    found: dict[str, list[str]] = {}
    for cls in our_dom_classes():
        found.update(collisions(cls))
    assert found == {}, "private names Textual's base classes already have (rename ours): " \
        + "; ".join(f"{name} (also in {', '.join(bases)})" for name, bases in found.items())


def test_a_named_abstract_view_keeps_its_name():
    """The bug the check was written for: AbstractView assigned ``self._name`` (its badge
    style), so Textual's ``name`` read None."""
    from paper_tui.tui.widgets.abstract import AbstractView

    assert AbstractView(name="abstract").name == "abstract"
