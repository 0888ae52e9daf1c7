"""What a test module builds once for the whole run, not once per pytest-xdist worker.

A module-scoped fixture is set up by each worker that runs one of the module's tests: with
the tests dealt out one or two at a time, a library a module imports was built by up to
four workers. Here the first worker to ask builds it in the run's shared temp dir (the
workers of a run share its parent) while the others wait on a file lock; then each gets
the same finished folder."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import filelock
import pytest


def built_once(factory: pytest.TempPathFactory, name: str,
               build: Callable[[Path], None]) -> Path:
    """The folder ``build(folder)`` filled, built by the first test process of the run to
    ask for ``name``. It is shared: copy what a test changes."""
    base = factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / f"built-{name}"
    with filelock.FileLock(str(shared / f"built-{name}.lock")):
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


def copy_of(factory: pytest.TempPathFactory, folder: Path, name: str) -> Path:
    """A copy of ``folder`` of this test process's own, as ``…/NAME``."""
    target = factory.mktemp(name) / name
    shutil.copytree(folder, target)
    return target
