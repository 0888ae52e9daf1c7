"""The live keymap: every action's binding id and the keys it has now.

Each remappable action is a :class:`textual.binding.Binding` with an ``id`` (``to-read``,
``star``, …). ``config.yaml``'s ``keymap`` maps ids to keys (``star: "s,*"``); Textual
applies it with ``App.set_keymap``. The help screen and the command palette both read
:func:`live_bindings`, so they always show the keys in force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen

from paper_tui.tui.textual_internals import keymap_in_force, own_bindings


@dataclass(frozen=True)
class KeyAction:
    id: str
    keys: tuple[str, ...]
    description: str
    help: str
    action: str
    owner: DOMNode
    """The node whose binding this is (the app or a pane); the action runs there."""
    where: str
    """Where the key works: ``anywhere`` (the app's and the screen's keys) or the pane's id."""

    @property
    def key_display(self) -> str:
        return " ".join(_pretty(k) for k in self.keys)


_NAMES = {"question_mark": "?", "slash": "/", "space": "space", "asterisk": "*",
          "full_stop": ".", "comma": ",", "exclamation_mark": "!", "plus": "+",
          "minus": "-", "equals_sign": "=", "number_sign": "#", "ampersand": "&",
          "less_than_sign": "<", "greater_than_sign": ">", "colon": ":",
          "semicolon": ";", "apostrophe": "'", "quotation_mark": '"'}


_HINT_NAMES = {"escape": "Esc", "enter": "Enter", "tab": "Tab", "space": "Space",
               "delete": "Del", "backspace": "Backspace", "up": "↑", "down": "↓"}


def hint_key(key: str) -> str:
    """``key`` as a hint on screen names it: ``Esc``, ``J``, ``ctrl+t``."""
    return _HINT_NAMES.get(key) or _pretty(key)


def _pretty(key: str) -> str:
    if key in _NAMES:
        return _NAMES[key]
    if key.startswith("shift+") and len(key) == 7:
        return key[-1].upper()
    return key


def config_keymap(values: Mapping[str, str], known: Iterable[str]) -> tuple[dict[str, str],
                                                                             list[str]]:
    """The usable part of the config's ``keymap`` and one message per unknown action id."""
    known = set(known)
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in values.items():
        if binding_id not in known:
            problems.append(f"config keymap.{binding_id}: no such action "
                            f"(see ? for the action ids); ignored")
            continue
        cleaned = ",".join(k.strip() for k in str(keys).split(",") if k.strip())
        if not cleaned:
            problems.append(f"config keymap.{binding_id}: no keys given; keeping the default")
            continue
        keymap[binding_id] = cleaned
    return keymap, problems


def binding_ids(nodes: Iterable[DOMNode]) -> set[str]:
    return {b.id for node in nodes for b in own_bindings(node) if b.id}


def key_hint(nodes: Iterable[DOMNode], keymap: Mapping[str, str], binding_id: str
             ) -> str | None:
    """The first key ``binding_id`` has now on the first of ``nodes`` that binds it, as a
    hint names it; None when none does."""
    for node in nodes:
        bindings = BindingsMap(own_bindings(node))
        bindings.apply_keymap(dict(keymap))
        for key, bs in bindings.key_to_bindings.items():
            if any(b.id == binding_id for b in bs):
                return hint_key(key)
    return None


def screen_key_hint(screen: Screen, binding_id: str) -> str:
    """The key ``binding_id`` has now (the keymap in force), as a hint on ``screen`` names
    it: looked up on ``screen``, then on the screens below it and the app."""
    app = screen.app
    nodes = [screen, *reversed(app.screen_stack), app]
    return key_hint(nodes, keymap_in_force(app), binding_id) or binding_id


def live_bindings(nodes: Iterable[DOMNode], keymap: Mapping[str, str]) -> list[KeyAction]:
    """Every bound action of ``nodes`` with the keys ``keymap`` gives it, first node first.

    A key a screen binds hides the app's binding of that key (``q`` is "back" on the
    reading lists, not the app's "quit"), as Textual resolves it."""
    found: dict[str, KeyAction] = {}
    screens_keys: set[str] = set()
    for node in nodes:
        bindings = BindingsMap(own_bindings(node))
        bindings.apply_keymap(dict(keymap))
        by_id: dict[str, list[Binding]] = {}
        for key, bs in bindings.key_to_bindings.items():
            if node is node.app and key in screens_keys:
                continue
            if isinstance(node, Screen):
                screens_keys.add(key)
            for binding in bs:
                if binding.id and binding.id not in found:
                    by_id.setdefault(binding.id, []).append(binding)
        for binding_id, bs in by_id.items():
            first = bs[0]
            found[binding_id] = KeyAction(
                id=binding_id, keys=tuple(dict.fromkeys(b.key for b in bs)),
                description=first.description, help=first.tooltip or first.description,
                action=first.action, owner=node,
                where="anywhere" if node is node.app or isinstance(node, Screen)
                else (node.id or type(node).__name__))
    return list(found.values())
