"""A YAML file of paper records, as ``paper-tui export -f yaml`` writes it: the same array
the JSON export holds, read into the same Python values.

YAML from elsewhere is untrusted like any list: only plain data is built (no tags run), a
file with anchors or aliases is refused before anything is built (``*a`` repeated in
nested lists would expand exponentially as its fields are read), and dates stay the text
they are written as (``2026-12-01``), as in JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent

from paper_tui.config import SafeLoader as _Base  # libyaml's when it is there
from paper_tui.errors import SourceError
from paper_tui.importers.common import read_text

_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _Loader(_Base):
    """The safe loader without its date and time resolver."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != _TIMESTAMP]
    for first, resolvers in _Base.yaml_implicit_resolvers.items()}


def read_yaml(path: Path) -> Any:
    """The file's YAML value; a bad file is one error naming its line."""
    text = read_text(path)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, AliasEvent):
                mark = event.start_mark
                raise SourceError(path, "anchors and aliases (&name, *name) are not "
                                  "supported here", line=mark.line + 1 if mark else None)
        return yaml.load(text, Loader=_Loader)  # a safe loader: plain data only
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise SourceError(path, f"invalid YAML: {exc.problem or exc.context}",
                          line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise SourceError(path, f"invalid YAML: {exc}") from None
    except RecursionError:
        raise SourceError(path, "invalid YAML: nested too deeply") from None
