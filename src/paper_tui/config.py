"""Configuration: the shipped ``config.yaml`` <- the user's file <- ``--config FILE``.

Every key has its default in the shipped file, and only there. A user file overrides it
key by key; an unknown key or a value of the wrong type gets one message naming it, and
that key keeps its default, so one typo never stops the app. What the code reads is
:class:`Settings`: every key typed and checked once, when the files are loaded.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from paper_tui import paths
from paper_tui.query import ranges
from paper_tui.vocabulary import CITATION_STYLES, SORTS

try:
    from yaml import CSafeLoader as _YamlLoader
except ImportError:  # libyaml missing: the pure-Python loader reads the same YAML
    from yaml import SafeLoader as _YamlLoader  # type: ignore[assignment]


class SafeLoader(_YamlLoader):
    """YAML's safe loader (libyaml's when it is there) whose whole number too long for
    Python (more than 4,300 digits) is an error at its line, not an internal error."""


def _whole_number(loader: SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return loader.construct_yaml_int(node)
    except ValueError:
        raise yaml.constructor.ConstructorError(
            None, None, f"{ranges.shown(str(node.value))} is too long a number",
            node.start_mark) from None


SafeLoader.add_constructor("tag:yaml.org,2002:int", _whole_number)
NUMBER_LIMIT = 1e12
"""The largest number (either sign) a setting takes: beyond it, NaN or infinite, the
default is used (a delay of 1e400 ms is no delay anyone means)."""

# Keys whose value is a free-form mapping (e.g. the keymap): user entries are merged in,
# each checked only for being a string.
OPEN_MAPPINGS = {"keymap"}


@dataclass(frozen=True)
class TriageSettings:
    advance_after_triage: bool
    """After ``i`` / ``r`` / ``x``, move to the next paper."""


@dataclass(frozen=True)
class SearchSettings:
    debounce_ms: float
    """Wait after a keystroke before searching (never negative)."""
    history_size: int
    sort: str
    """One of :data:`~paper_tui.vocabulary.SORTS`."""
    all_versions: bool


@dataclass(frozen=True)
class SyncSettings:
    every_minutes: float
    """Sync in the app every this many minutes (0: only when asked)."""


@dataclass(frozen=True)
class FetchSettings:
    """Where ``paper-tui fetch`` goes and how politely (``fetch:`` in config.yaml)."""

    openreview_url: str
    openreview_v1_url: str
    paperlists_url: str
    arxiv_url: str
    dblp_url: str
    arxiv_delay_s: float
    timeout_s: float
    retries: int
    retry_delay_s: float
    max_wait_s: float
    deadline_s: float
    """The longest one request may take, whatever the server sends (0: no limit)."""
    min_bytes_per_s: float
    """The least rate over each ``timeout_s`` of a transfer (0: none)."""


@dataclass(frozen=True)
class PdfSettings:
    """``paper-tui pdf`` (``pdf:`` in config.yaml)."""

    max_mb: float = 100.0
    """The largest PDF downloaded, in MB (2**20 bytes)."""
    viewer: str = ""
    """The program ``pdf open`` runs on a PDF's path ("": ``$PDF_VIEWER``, xdg-open, open)."""


@dataclass(frozen=True)
class Settings:
    """Every key of ``config.yaml``, typed and checked (:func:`read_settings`)."""

    library: str
    bundled_lists: bool
    citation_style: str
    """A built-in style (:data:`~paper_tui.vocabulary.CITATION_STYLES`), a CSL style's id
    or a ``.csl`` file (checked when used: looking styles up costs startup time)."""
    theme: str
    """A theme's name (the app checks that it has one by that name)."""
    keymap: Mapping[str, str]
    """Action id -> keys, comma-separated (the app checks the ids)."""
    triage: TriageSettings
    search: SearchSettings
    sync: SyncSettings
    fetch: FetchSettings
    citation_styles: tuple[str, ...] = ()
    """The reader's favourite styles, first in the app's style picker (``C``)."""
    pdf: PdfSettings = PdfSettings()


def read_settings(values: Mapping[str, Any], problems: list[str]) -> Settings:
    """The settings in ``values`` (the shipped keys, each of the shipped type: see
    :func:`load`); a value that is not one of its choices is said in ``problems`` (one
    line) and its default used."""
    search = values["search"]
    sort = str(search["sort"])
    if sort not in SORTS:
        problems.append(f"config search.sort: must be one of {', '.join(SORTS)}, "
                        f"not {sort!r}; using relevance")
        sort = SORTS[0]
    style = str(values["citation_style"] or "").strip()
    if not style:
        problems.append(f"config: citation_style is empty; using {CITATION_STYLES[0]}")
        style = CITATION_STYLES[0]
    return Settings(
        library=str(values["library"]),
        bundled_lists=bool(values["bundled_lists"]),
        citation_style=style,
        theme=str(values["theme"]),
        keymap=MappingProxyType({str(k): str(v) for k, v in
                                 (values["keymap"] or {}).items()}),
        triage=TriageSettings(bool(values["triage"]["advance_after_triage"])),
        search=SearchSettings(debounce_ms=max(0.0, float(search["debounce_ms"])),
                              history_size=int(search["history_size"]),
                              sort=sort, all_versions=bool(search["all_versions"])),
        sync=SyncSettings(float(values["sync"]["every_minutes"] or 0)),
        fetch=_fetch_settings(values["fetch"]),
        citation_styles=tuple(str(v).strip() for v in values["citation_styles"] or ()
                              if str(v).strip()),
        pdf=PdfSettings(max(0.0, float(values["pdf"]["max_mb"])) or 100.0,
                        str(values["pdf"]["viewer"] or "").strip()),
    )


def _fetch_settings(values: Mapping[str, Any]) -> FetchSettings:
    def seconds(key: str) -> float:
        return max(0.0, float(values[key]))

    return FetchSettings(
        openreview_url=str(values["openreview_url"]).rstrip("/"),
        openreview_v1_url=str(values["openreview_v1_url"]).rstrip("/"),
        paperlists_url=str(values["paperlists_url"]).rstrip("/"),
        arxiv_url=str(values["arxiv_url"]).rstrip("/"),
        dblp_url=str(values["dblp_url"]).rstrip("/"),
        arxiv_delay_s=seconds("arxiv_delay_s"), timeout_s=seconds("timeout_s") or 30.0,
        retries=max(0, int(values["retries"])), retry_delay_s=seconds("retry_delay_s"),
        max_wait_s=seconds("max_wait_s"), deadline_s=seconds("deadline_s"),
        min_bytes_per_s=seconds("min_bytes_per_s"))


@dataclass
class Config:
    """The config files as read: their merged values, what was wrong with them (one line
    each), the files read, and the :class:`Settings` they make."""

    values: dict[str, Any]
    settings: Settings
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
    except yaml.MarkedYAMLError as exc:  # a scanner's or parser's: it knows where
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        return {}, f"{where}: not valid YAML ({exc.problem}); using defaults"
    except yaml.YAMLError as exc:
        return {}, f"{path}: not valid YAML ({exc}); using defaults"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return {}, f"{path}: expected a mapping of keys at the top level; using defaults"
    return data, None


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, (int, float)):  # NaN is in no range
        return isinstance(value, (int, float)) and -NUMBER_LIMIT <= value <= NUMBER_LIMIT
    if default is None:
        return value is None or isinstance(value, str)
    return isinstance(value, type(default))


def _key_lines(path: Path) -> dict[str, int]:
    """The line each key of a YAML file is on, by dotted name (``search.sort``: 4); empty
    for a file that cannot be read (its reader has said why)."""
    lines: dict[str, int] = {}

    def walk(node: yaml.Node, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                dotted = f"{prefix}{key.value}"
                lines.setdefault(dotted, key.start_mark.line + 1)
                walk(value, dotted + ".")

    try:
        root = yaml.compose(path.read_text("utf-8"), Loader=SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return lines
    if root is not None:
        walk(root, "")
    return lines


class _Origin:
    """A config file as a problem names it: with the key's line, read only when a problem
    is said (a file without one is not read a second time at start)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lines: dict[str, int] | None = None

    def of(self, dotted: str) -> str:
        if self._lines is None:
            self._lines = _key_lines(self.path)
        line = self._lines.get(dotted)
        return f"{self.path}:{line}" if line else str(self.path)


def _merge(base: dict[str, Any], over: dict[str, Any], prefix: str, origin: _Origin,
           problems: list[str]) -> None:
    for key, value in over.items():
        dotted = f"{prefix}{key}"
        if key not in base:
            if prefix.rstrip(".") in OPEN_MAPPINGS:
                if isinstance(value, str):
                    base[key] = value
                else:
                    problems.append(f"{origin.of(dotted)}: {dotted} must be a string of keys; "
                                    "ignored")
                continue
            problems.append(f"{origin.of(dotted)}: unknown key {dotted!r}; ignored")
            continue
        default = base[key]
        if isinstance(default, dict):
            if isinstance(value, dict):
                _merge(default, value, dotted + ".", origin, problems)
            else:
                problems.append(f"{origin.of(dotted)}: {dotted} must be a mapping; using the "
                                "default")
        elif _same_type(default, value):
            base[key] = value
        else:
            problems.append(f"{origin.of(dotted)}: {dotted} must be {type(default).__name__}, "
                            f"not {ranges.shown(repr(value))}; using the default {default!r}")


def load(explicit: Path | None = None, *, user_file: Path | None = None) -> Config:
    """Load defaults, then the user's file, then ``explicit`` (``--config``)."""
    defaults, problem = _read_yaml(paths.default_config_file())
    if problem:  # the shipped file is ours: a broken one is a bug, say so loudly
        raise RuntimeError(problem)
    values = copy.deepcopy(defaults)
    problems: list[str] = []
    sources: list[Path] = []
    user = user_file if user_file is not None else paths.user_config_file()
    for path in (user, explicit):
        if path is None:
            continue
        if not path.exists():
            if path is explicit:
                problems.append(f"{path}: no such config file; using defaults")
            continue
        data, problem = _read_yaml(path)
        if problem:
            problems.append(problem)
        _merge(values, data, "", _Origin(path), problems)
        sources.append(path)
    settings = read_settings(values, problems)
    return Config(values, settings, problems, sources)


def defaults() -> Config:
    """The shipped defaults alone (tests, and code that must not read the user's home)."""
    return load(user_file=Path("/nonexistent/paper-tui.yaml"))
