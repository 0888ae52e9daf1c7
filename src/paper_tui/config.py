"""Configuration: the defaults <- the user's file <- ``--config FILE``.

Every key is declared once, with its type, default, range and meaning (:func:`setting`,
:data:`SETTINGS`); the shipped ``config.yaml`` documents them at their defaults and the
README's table lists them (``tests/test_config.py`` holds both to the declarations). A
user file overrides the defaults key by key; an unknown key or a value of the wrong type
gets one message naming it, and that key keeps its default, so one typo never stops the
app. What the code reads is
:class:`Settings`: every key typed and checked once, when the files are loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

import yaml

from paper_tui import paths
from paper_tui.query import ranges
from paper_tui.vocabulary import CITATION_STYLES, SORTS

try:
    from yaml import CSafeLoader as _YamlLoader
except ImportError:  # libyaml missing: the pure-Python loader reads the same YAML
    # Must stay: mypy types the name by its first import (libyaml's loader); this is
    # another class with the same API, and a union could not be SafeLoader's base.
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


def setting(default: Any, doc: str, *, minimum: float | None = None,
            choices: tuple[str, ...] = (), strip: str = "", zero_is_default: bool = False,
            not_empty: bool = False) -> Any:
    """One setting's declaration, as a field of the settings dataclasses (whose field names
    are the keys, whose annotations the types): its ``default`` as the shipped
    ``config.yaml`` writes it (a whole number where the YAML has one: a wrong value's
    message says ``int``), ``doc`` the one line of the README's table, and its range:
    ``minimum`` (a smaller number is taken as it), ``choices`` (another value is said and
    the first choice used), ``strip`` (characters taken off the end: a URL's ``/``),
    ``zero_is_default`` (0 means the default), ``not_empty`` (blank text is said and the
    default used)."""
    metadata = {"doc": doc, "minimum": minimum, "choices": choices, "strip": strip,
                "zero_is_default": zero_is_default, "not_empty": not_empty}
    if isinstance(default, Mapping):
        return field(default_factory=lambda: MappingProxyType(dict(default)),
                     metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class TriageSettings:
    advance_after_triage: bool = setting(True, "move to the next paper after `i`/`r`/`x`")


@dataclass(frozen=True)
class SearchSettings:
    debounce_ms: float = setting(
        0, "wait after a keystroke before searching (a newer keystroke cancels)", minimum=0)
    history_size: int = setting(100, "queries remembered for `up`/`down`")
    sort: str = setting(
        "relevance", "`relevance`, `year`, `title`, `rating` (the reviewers' mean), "
        "`citations`, `consensus` (the mean less the reviewers' spread; unknown values "
        "last), `rating-change` (the mean's rise since the first point of its history), "
        "`team` (most members kept, then most starred) or `for-you` (`S` picks, "
        "`ctrl+s` cycles)", choices=SORTS)
    all_versions: bool = setting(
        False, "list every version of a paper from two sources (arXiv and proceedings), "
        "not only the fullest")


@dataclass(frozen=True)
class SyncSettings:
    every_minutes: float = setting(
        0, "run the team sync in the app on its own every N minutes (0: only on `Y`)")


@dataclass(frozen=True)
class FetchSettings:
    """Where ``paper-tui fetch`` goes and how politely (``fetch:`` in config.yaml)."""

    openreview_url: str = setting(
        "https://api2.openreview.net", "OpenReview's API, where `paper-tui fetch` gets "
        "OpenReview's lists ([Get a list](#get-a-list)); a mirror or a local server works",
        strip="/")
    openreview_v1_url: str = setting(
        "https://api.openreview.net", "OpenReview's API v1, asked for a venue API v2 has no "
        "papers of (venues before 2024)", strip="/")
    paperlists_url: str = setting(
        "https://raw.githubusercontent.com/papercopilot/paperlists/main",
        "where paperlists' lists are fetched from", strip="/")
    arxiv_url: str = setting("https://export.arxiv.org", "arXiv's API", strip="/")
    dblp_url: str = setting("https://dblp.org", "DBLP's API", strip="/")
    reviews: bool = setting(
        False, "OpenReview: fetch each paper's reviews, meta-review, decision and public "
        "comments with its list, in the same requests (as `fetch --reviews`; [Reviews]"
        "(#reviews))")
    arxiv_delay_s: float = setting(
        3, "seconds between two requests to arXiv (arXiv's rule)", minimum=0)
    timeout_s: float = setting(
        30, "give up on a request that sends nothing for this many seconds (0: 30)",
        minimum=0, zero_is_default=True)
    retries: int = setting(
        3, "tries after a failed request (a 5xx, a reset connection)", minimum=0)
    retry_delay_s: float = setting(
        2, "seconds before the first retry, doubling for each next one", minimum=0)
    max_wait_s: float = setting(
        300, "wait out a `Retry-After` of at most this many seconds; longer: give up",
        minimum=0)
    deadline_s: float = setting(
        900, "give up on a request that takes longer than this many seconds in all, "
        "however the server trickles its answer (0: no limit)", minimum=0)
    """The longest one request may take, whatever the server sends (0: no limit)."""
    min_bytes_per_s: float = setting(
        1024, "give up on a transfer slower than this many bytes a second over "
        "`timeout_s` (0: any rate is fine)", minimum=0)
    """The least rate over each ``timeout_s`` of a transfer (0: none)."""


@dataclass(frozen=True)
class ImportSettings:
    """``paper-tui import`` and every list a fetch or a sync imports (``import:`` in
    config.yaml; the field that holds it is ``import_``, ``import`` being Python's)."""

    max_unpacked_gb: float = setting(
        16, "the biggest list an import reads, in GB (2**30 bytes) unpacked (a plain file: "
        "its size); a list over it imports nothing, nor does a gzip file that unpacks to "
        "over 100 times its size (0: 16)", minimum=0, zero_is_default=True)


@dataclass(frozen=True)
class PdfSettings:
    """``paper-tui pdf`` (``pdf:`` in config.yaml)."""

    max_mb: float = setting(
        100, "the largest PDF `paper-tui pdf get` downloads, in MB (2**20 bytes)", minimum=0,
        zero_is_default=True)
    viewer: str = setting(
        "", "the program `pdf open` runs on a PDF's path (\"\": `$PDF_VIEWER`, else "
        "xdg-open, else open; with none it prints the path)")
    private_hosts: bool = setting(
        False, "let `pdf get` follow a list's PDF link to this machine or a private network "
        "(loopback, 10.x, 192.168.x, …: a local mirror); a link-local address (cloud "
        "metadata) never")


@dataclass(frozen=True)
class RecommendSettings:
    """``paper-tui recommend`` and the app's "for you" sort (``recommend:`` in config.yaml)."""

    whole_up_to: int = setting(
        100000, "a library of up to this many papers is ranked whole; a bigger one from "
        "`sample` of them (what the recommender holds in memory stays bounded)", minimum=1)
    sample: int = setting(
        10000, "how many papers of a bigger library are ranked: a reproducible sample, the "
        "papers sharing the most terms with what you kept, and your labelled ones "
        "(`recommend` says so)", minimum=1)


@dataclass(frozen=True)
class Settings:
    """Every key of ``config.yaml``, typed and checked (:func:`read_settings`): each
    declared once, by :func:`setting`, with its type, default, range and meaning; the
    shipped ``config.yaml`` and the README's table are held to them by
    ``tests/test_config.py``."""

    library: str = setting(
        "", "library directory (empty: `$PAPER_TUI_HOME`, else the user data dir; "
        "`--library` wins)")
    bundled_lists: bool = setting(
        True, "import the bundled NeurIPS 2026 list into a new library whose first command "
        "brings no list of its own (`sources remove neurips-2026` drops it later)")
    citation_style: str = setting(
        CITATION_STYLES[0], "style of `c` and `paper-tui cite`: `bibtex`, `plain`, "
        "`markdown`, `key`, any CSL style id (`apa`, `ieee`, …) or a `.csl` file",
        not_empty=True)
    """A built-in style (:data:`~paper_tui.vocabulary.CITATION_STYLES`), a CSL style's id
    or a ``.csl`` file (checked when used: looking styles up costs startup time)."""
    citation_styles: tuple[str, ...] = setting((), "favourite styles, offered first by `C`")
    """The reader's favourite styles, first in the app's style picker (``C``)."""
    theme: str = setting("paper-dark", "colour theme (below)")
    """A theme's name (the app checks that it has one by that name)."""
    keymap: Mapping[str, str] = setting(
        {}, "action id -> keys, comma-separated ([Keys](#keys))")
    """Action id -> keys, comma-separated (the app checks the ids)."""
    triage: TriageSettings = TriageSettings()
    search: SearchSettings = SearchSettings()
    sync: SyncSettings = SyncSettings()
    fetch: FetchSettings = FetchSettings()
    import_: ImportSettings = ImportSettings()
    pdf: PdfSettings = PdfSettings()
    recommend: RecommendSettings = RecommendSettings()


_SECTIONS: dict[str, type[Any]] = {cls.__name__: cls for cls in (
    TriageSettings, SearchSettings, SyncSettings, FetchSettings, ImportSettings, PdfSettings,
    RecommendSettings)}


def key_of(name: str) -> str:
    """The config key of a settings field: its name, less the underscore that a name
    which is a Python keyword takes (``import_``: ``import``)."""
    return name[:-1] if name.endswith("_") else name


class Declared(NamedTuple):
    """One setting as :func:`setting` declared it (a named tuple: a dataclass more would
    cost the import half a millisecond)."""

    key: str
    """Dotted: ``search.sort``."""
    type: str
    """The annotation, as written: ``float``, ``tuple[str, ...]``."""
    default: Any
    doc: str
    minimum: float | None
    choices: tuple[str, ...]
    strip: str
    zero_is_default: bool
    not_empty: bool


def _declared(cls: type[Any], prefix: str = "") -> list[Declared]:
    found: list[Declared] = []
    for f in fields(cls):
        section = _SECTIONS.get(str(f.type))
        if section is not None:
            found += _declared(section, f"{prefix}{key_of(f.name)}.")
            continue
        default = f.default if f.default_factory is MISSING else f.default_factory()
        found.append(Declared(f"{prefix}{key_of(f.name)}", str(f.type), default,
                              **f.metadata))
    return found


SETTINGS: tuple[Declared, ...] = tuple(_declared(Settings))
"""Every setting, in the order of the settings dataclasses."""
OPEN_MAPPINGS = {s.key for s in SETTINGS if s.type.startswith("Mapping[")}
"""Keys whose value is a free-form mapping (the keymap): user entries are merged in, each
checked only for being a string."""


def in_force(settings: Settings) -> dict[str, Any]:
    """Every setting's key -> its value in ``settings``, as JSON holds it (``config --json``:
    one line per declared setting, so a new one is listed without more code)."""
    values: dict[str, Any] = {}
    for s in SETTINGS:
        node: Any = settings
        for part in s.key.split("."):
            node = getattr(node, part if hasattr(node, part) else f"{part}_")
        values[s.key] = dict(node) if isinstance(node, Mapping) else \
            list(node) if isinstance(node, tuple) else node
    return values


def default_values() -> dict[str, Any]:
    """Every key at its default, as the shipped ``config.yaml`` reads (lists and mappings
    as YAML gives them)."""
    values: dict[str, Any] = {}
    for s in SETTINGS:
        *sections, name = s.key.split(".")
        node = values
        for section in sections:
            node = node.setdefault(section, {})
        node[name] = dict(s.default) if isinstance(s.default, Mapping) else \
            list(s.default) if isinstance(s.default, tuple) else s.default
    return values


def _value(values: Mapping[str, Any], key: str) -> Any:
    node: Any = values
    for part in key.split("."):
        node = node[part]
    return node


def _typed(s: Declared, value: Any) -> Any:
    """A value of the shipped type (:func:`load` checked it) as the setting's type."""
    if s.type == "bool":
        return bool(value)
    if s.type in ("int", "float"):
        number = int(value) if s.type == "int" else float(value)
        if s.minimum is not None:
            number = max(type(number)(s.minimum), number)
        return float(s.default) if s.zero_is_default and not number else number
    if s.type == "str":
        text = str(value or "").strip() if s.not_empty else str(value)
        return text.rstrip(s.strip) if s.strip else text
    if s.type.startswith("tuple["):
        return tuple(str(v).strip() for v in value or () if str(v).strip())
    if s.type.startswith("Mapping["):
        return MappingProxyType({str(k): str(v) for k, v in (value or {}).items()})
    raise TypeError(f"setting {s.key}: no reader for type {s.type}")


def read_settings(values: Mapping[str, Any], problems: list[str]) -> Settings:
    """The settings in ``values`` (the shipped keys, each of the shipped type: see
    :func:`load`); a value that is not one of its choices, or blank where it must not be,
    is said in ``problems`` (one line) and its default used."""
    typed = {s.key: _typed(s, _value(values, s.key)) for s in SETTINGS}
    for s in SETTINGS:  # the choices first, then the blanks: the lines in their old order
        if s.choices and typed[s.key] not in s.choices:
            problems.append(f"config {s.key}: must be one of {', '.join(s.choices)}, "
                            f"not {typed[s.key]!r}; using {s.choices[0]}")
            typed[s.key] = s.choices[0]
    for s in SETTINGS:
        if s.not_empty and not typed[s.key]:
            problems.append(f"config: {s.key} is empty; using {s.default}")
            typed[s.key] = s.default
    return _build(Settings, "", typed)


def _build(cls: type[Any], prefix: str, typed: dict[str, Any]) -> Any:
    kwargs = {}
    for f in fields(cls):
        section = _SECTIONS.get(str(f.type))
        key = f"{prefix}{key_of(f.name)}"
        kwargs[f.name] = _build(section, key + ".", typed) if section else typed[key]
    return cls(**kwargs)


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
    values = default_values()
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
