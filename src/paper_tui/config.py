"""Configuration: the shipped ``config.yaml`` <- the user's file <- ``--config FILE``.

Every key has its default in the shipped file. A user file overrides it key by key; an
unknown key or a value of the wrong type gets one message naming it, and that key keeps
its default, so one typo never stops the app.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from paper_tui import paths

try:
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # libyaml missing: the pure-Python loader reads the same YAML
    from yaml import SafeLoader  # type: ignore[assignment]

# Keys whose value is a free-form mapping (e.g. the keymap): user entries are merged in,
# each checked only for being a string.
OPEN_MAPPINGS = {"keymap"}


@dataclass
class Config:
    values: dict[str, Any]
    problems: list[str] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.values
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def __getitem__(self, dotted: str) -> Any:
        sentinel = object()
        value = self.get(dotted, sentinel)
        if value is sentinel:
            raise KeyError(dotted)
        return value


def _read_yaml(path: Path) -> tuple[dict[str, Any], str | None]:
    try:
        data = yaml.load(path.read_text("utf-8"), Loader=SafeLoader)
    except OSError as exc:
        return {}, f"{path}: cannot read ({exc.strerror})"
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        return {}, f"{where}: not valid YAML ({getattr(exc, 'problem', exc)}); using defaults"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return {}, f"{path}: expected a mapping of keys at the top level; using defaults"
    return data, None


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float))
    if default is None:
        return value is None or isinstance(value, str)
    return isinstance(value, type(default))


def _merge(base: dict[str, Any], over: dict[str, Any], prefix: str, origin: Path,
           problems: list[str]) -> None:
    for key, value in over.items():
        dotted = f"{prefix}{key}"
        if key not in base:
            if prefix.rstrip(".") in OPEN_MAPPINGS:
                if isinstance(value, str):
                    base[key] = value
                else:
                    problems.append(f"{origin}: {dotted} must be a string of keys; ignored")
                continue
            problems.append(f"{origin}: unknown key {dotted!r}; ignored")
            continue
        default = base[key]
        if isinstance(default, dict):
            if isinstance(value, dict):
                _merge(default, value, dotted + ".", origin, problems)
            else:
                problems.append(f"{origin}: {dotted} must be a mapping; using the default")
        elif _same_type(default, value):
            base[key] = value
        else:
            problems.append(f"{origin}: {dotted} must be {type(default).__name__}, "
                            f"not {value!r}; using the default {default!r}")


def load(explicit: Path | None = None, *, user_file: Path | None = None) -> Config:
    """Load defaults, then the user's file, then ``explicit`` (``--config``)."""
    defaults, problem = _read_yaml(paths.default_config_file())
    if problem:  # the shipped file is ours: a broken one is a bug, say so loudly
        raise RuntimeError(problem)
    config = Config(copy.deepcopy(defaults))
    user = user_file if user_file is not None else paths.user_config_file()
    for path in (user, explicit):
        if path is None:
            continue
        if not path.exists():
            if path is explicit:
                config.problems.append(f"{path}: no such config file; using defaults")
            continue
        data, problem = _read_yaml(path)
        if problem:
            config.problems.append(problem)
        _merge(config.values, data, "", path, config.problems)
        config.sources.append(path)
    return config


def defaults() -> Config:
    """The shipped defaults alone (tests, and code that must not read the user's home)."""
    return load(user_file=Path("/nonexistent/paper-tui.yaml"))
