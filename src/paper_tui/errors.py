"""Errors a user can cause. Each carries enough to print one line naming the culprit."""

from __future__ import annotations

from pathlib import Path

from paper_tui.trust.surrogates import escape_surrogates


class PaperTuiError(Exception):
    """Base class: the fronts print ``str(err)`` as one line, never a traceback."""


class SourceError(PaperTuiError):
    """A file (or one record in it) could not be imported."""

    def __init__(self, path: str | Path, message: str, line: int | None = None,
                 record: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.record = record
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = escape_surrogates(self.path)  # a file name that is not UTF-8, escaped
        if self.line is not None:
            where += f":{self.line}"
        if self.record is not None:
            where += f" (record {self.record})"
        return f"{where}: {self.message}"


class SkippedRecord(SourceError):
    """A record left out on purpose (e.g. no abstract): reported, but not a failure."""


class TooBig(SourceError):
    """A file stopped by a cap on its size (``import.max_unpacked_gb``, a gzip file that
    unpacks to more than 100 times its size, a list too big to read whole): an import
    takes nothing of it, not even the papers read before the cap, as a fetch that cannot
    have a list whole keeps none of it."""


class SourceNotice(SourceError):
    """Something the reader should know about a file that imported (read as Latin-1;
    rejected submissions flagged): printed, neither a failure nor a skipped record."""


class FetchError(PaperTuiError):
    """A list could not be fetched: the source or URL named, and why in a few words."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


class QueryError(PaperTuiError):
    """A search query that cannot be parsed."""


class StoreError(PaperTuiError):
    """The annotation store cannot be read or written."""


class UnknownPaperError(PaperTuiError):
    """An id (or id prefix) that names no paper, or more than one."""


class ConfigError(PaperTuiError):
    """A configuration file or key that cannot be used."""


class StyleError(ConfigError):
    """A citation style that cannot be used: an unknown id, a file that is not CSL, a
    style the CSL processor cannot render."""
