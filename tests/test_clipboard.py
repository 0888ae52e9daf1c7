"""The clipboard for real: an Xvfb server, xclip, and ``paper-tui cite --copy`` subprocesses.

The subprocess tests capture stdout and stderr with a timeout: a clipboard tool left holding
those pipes (pyperclip's way of running xclip) would make them time out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paper_tui import citations, clipboard
from paper_tui.cli.cite import EXIT_NO_CLIPBOARD
from paper_tui.library import Library
from paper_tui.model import Paper

HAVE_X_TOOLS = bool(shutil.which("Xvfb") and shutil.which("xclip"))
needs_x = pytest.mark.skipif(not HAVE_X_TOOLS, reason="Xvfb or xclip not installed")


def _free_display(start: int = 90) -> int:
    for number in range(start, start + 200):
        if not (Path(f"/tmp/.X11-unix/X{number}").exists()
                or Path(f"/tmp/.X{number}-lock").exists()):
            return number
    raise RuntimeError("no free X display number")


@pytest.fixture
def xvfb(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private X server; DISPLAY points at it (and Wayland is out of the way)."""
    number = _free_display()
    for _attempt in range(5):
        proc = subprocess.Popen(["Xvfb", f":{number}", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        socket = Path(f"/tmp/.X11-unix/X{number}")
        deadline = time.monotonic() + 10
        while not socket.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if socket.exists() and proc.poll() is None:
            break
        proc.kill()
        proc.wait()
        number = _free_display(number + 1)  # another server took it meanwhile
    else:
        raise RuntimeError("Xvfb did not start")
    monkeypatch.setenv("DISPLAY", f":{number}")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    try:
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def read_clipboard() -> str:
    out = subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True,
                         timeout=5, check=True)
    return out.stdout.decode("utf-8")


def paper_tui() -> list[str]:
    """The installed ``paper-tui`` command."""
    found = shutil.which("paper-tui") or Path(sys.executable).with_name("paper-tui")
    return [str(found)] if Path(found).exists() else [sys.executable, "-m", "paper_tui"]


@pytest.fixture
def two_papers(library: Library, library_dir: Path) -> list[Paper]:
    papers = list(library.papers())[:2]
    library.close()  # the subprocess opens the library itself
    return papers


def run_cite(library_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*paper_tui(), "--library", str(library_dir), "cite", *args],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ),
                          start_new_session=True)


@needs_x
def test_copy_puts_the_text_on_the_x_clipboard(xvfb: str) -> None:
    text = "@inproceedings{x,\n  title = {Sch{\\\"u}tze — ℓ₁ 中文}\n}"
    result = clipboard.copy(text, what="a test entry")
    assert result == clipboard.CopyResult(True, "xclip",
                                          "copied a test entry to the clipboard with xclip")
    assert read_clipboard() == text
    again = clipboard.copy("second", what="")
    assert again.ok and again.message == "copied 6 characters to the clipboard with xclip"
    assert read_clipboard() == "second"


@needs_x
def test_cli_copy_with_captured_output_returns_promptly(xvfb: str, two_papers: list[Paper],
                                                        library_dir: Path) -> None:
    ids = [p.id[:-2] for p in two_papers]  # unique prefixes work too
    started = time.monotonic()
    done = run_cite(library_dir, *ids, "--copy")
    assert time.monotonic() - started < 30
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    keys = list(citations.citation_keys(two_papers).values())
    assert done.stderr == (f"paper-tui: copied BibTeX for 2 papers ({keys[0]}, {keys[1]}) "
                           "to the clipboard with xclip\n")
    assert read_clipboard() == citations.cite(two_papers, "bibtex")

    done = run_cite(library_dir, ids[0], "--copy", "--format", "markdown")
    assert done.returncode == 0 and done.stdout == ""
    assert "Markdown reference for" in done.stderr
    assert read_clipboard() == citations.cite(two_papers[:1], "markdown")


@needs_x
def test_unreachable_display_is_a_clear_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", f":{_free_display(300)}")  # no server there
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = clipboard.copy("text", what="BibTeX for x")
    assert not result.ok and result.method == "xclip"
    assert result.message.startswith("could not copy BibTeX for x: xclip failed (exit status 1)")
    assert "open display" in result.message and "\n" not in result.message


def test_no_display_falls_back_to_printing(monkeypatch: pytest.MonkeyPatch,
                                           two_papers: list[Paper], library_dir: Path) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = clipboard.copy("text")
    assert result == clipboard.CopyResult(
        False, "", "could not copy 4 characters: no clipboard here: no graphical session "
                   "(DISPLAY / WAYLAND_DISPLAY unset, e.g. over SSH)")

    done = run_cite(library_dir, two_papers[0].id, "--copy", "--format", "plain")
    assert done.returncode == EXIT_NO_CLIPBOARD == 3
    assert done.stdout == citations.cite(two_papers[:1], "plain") + "\n"
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("paper-tui: could not copy reference for ")
    assert done.stderr.endswith("no graphical session (DISPLAY / WAYLAND_DISPLAY unset, "
                                "e.g. over SSH); printing it instead\n")
