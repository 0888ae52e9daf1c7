"""Importers: one module per format behind :mod:`paper_tui.importers.registry`."""

from paper_tui.importers.common import NO_HINTS, Hints
from paper_tui.importers.parallel import Prepare
from paper_tui.importers.registry import ImportReport, import_file, iter_files, sniff

__all__ = ["NO_HINTS", "Hints", "ImportReport", "Prepare", "import_file", "iter_files", "sniff"]
