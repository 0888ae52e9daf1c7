"""The clipboard for real: an Xvfb server, xclip, and ``paper-tui cite --copy`` subprocesses.

The subprocess tests capture stdout and stderr with a timeout: a clipboard tool left holding
those pipes (pyperclip's way of running xclip) would make them time out.
"""

from __future__ import annotations

import base64
import fcntl
import os
import pty
import select
import shlex
import shutil
import subprocess
import sys
import termios
import time
import xml.etree.ElementTree as ET
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
    """A private X server; DISPLAY points at it (and Wayland is out of the way).

    Xvfb picks a free display number itself and writes it to ``-displayfd`` once it
    accepts connections, so tests running at once never race for one number."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp"],
                            pass_fds=(write_end,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        answer = b""
        deadline = time.monotonic() + 30
        while not answer.endswith(b"\n") and time.monotonic() < deadline:
            if select.select([read_end], [], [], 0.5)[0]:
                chunk = os.read(read_end, 16)
                if not chunk:  # Xvfb exited
                    break
                answer += chunk
    finally:
        os.close(read_end)
    if not answer.strip().isdigit():
        proc.kill()
        proc.wait()
        raise RuntimeError("Xvfb did not start")
    display = f":{int(answer)}"
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    try:
        yield display
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def read_clipboard(expected: str) -> str:
    """The clipboard, once it holds ``expected`` (or after 5 s): xclip takes the selection
    from its background child, a moment after the command itself has returned."""
    deadline = time.monotonic() + 5
    while True:
        # check=False: between two copies no client owns the selection for a moment
        # (the old xclip has let go, the new one's child has not taken it yet): exit 1
        out = subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True,
                             timeout=5, check=False).stdout.decode("utf-8")
        if out == expected or time.monotonic() > deadline:
            return out
        time.sleep(0.05)


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
    assert read_clipboard(text) == text
    again = clipboard.copy("second", what="")
    assert again.ok and again.message == "copied 6 characters to the clipboard with xclip"
    assert read_clipboard("second") == "second"


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
    expected = citations.cite(two_papers, "bibtex")
    assert read_clipboard(expected) == expected

    done = run_cite(library_dir, ids[0], "--copy", "--format", "markdown")
    assert done.returncode == 0 and done.stdout == ""
    assert "Markdown reference for" in done.stderr
    expected = citations.cite(two_papers[:1], "markdown")
    assert read_clipboard(expected) == expected


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

    done = run_cite(library_dir, two_papers[0].id, "--copy", "--format", "plain")  # no tty
    assert done.returncode == EXIT_NO_CLIPBOARD == 3
    assert done.stdout == citations.cite(two_papers[:1], "plain") + "\n"
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("paper-tui: could not copy reference for ")
    assert done.stderr.endswith("no graphical session (DISPLAY / WAYLAND_DISPLAY unset, "
                                "e.g. over SSH); no terminal to send OSC 52 to either; "
                                "printing it instead\n")
    assert "sent" not in done.stderr  # one outcome: failed, and why


def test_over_ssh_the_cli_asks_the_terminal_with_osc52(
        monkeypatch: pytest.MonkeyPatch, two_papers: list[Paper], library_dir: Path) -> None:
    """No graphical session but a terminal (an SSH login): OSC 52 goes to the terminal."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    master, slave = pty.openpty()

    def take_terminal() -> None:  # in the child, after setsid: the pty becomes its /dev/tty
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    try:
        done = subprocess.run([*paper_tui(), "--library", str(library_dir), "cite",
                               two_papers[0].id, "--copy"], stdin=slave, capture_output=True,
                              text=True, timeout=60, start_new_session=True,
                              preexec_fn=take_terminal)
        seen = b""
        while select.select([master], [], [], 0.2)[0]:
            seen += os.read(master, 65536)
    finally:
        os.close(master)
        os.close(slave)
    text = citations.cite(two_papers[:1], "bibtex")
    assert done.returncode == 0
    assert seen == clipboard.osc52(text).encode()
    assert base64.b64decode(seen[len(b"\x1b]52;c;"):-1]).decode() == text
    assert done.stdout == text + "\n"
    assert done.stderr.startswith("paper-tui: sent BibTeX for ")
    assert done.stderr.count("\n") == 1
    assert done.stderr.endswith(" through the terminal (OSC 52); if nothing arrives, tmux "
                                "needs `set -g set-clipboard on`; it is printed too\n")
    assert "could not" not in done.stderr  # one outcome: sent, not also "could not copy"


@pytest.mark.skipif(not shutil.which("tmux"), reason="tmux not installed")
def test_in_tmux_osc52_reaches_tmux_clipboard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               two_papers: list[Paper],
                                               library_dir: Path) -> None:
    """Inside a real tmux (``set-clipboard on``), the copy lands in tmux's paste buffer."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("TMUX", raising=False)
    sock, conf = tmp_path / "tmux.sock", tmp_path / "tmux.conf"
    conf.write_text("set -g set-clipboard on\n", "utf-8")
    tmux = ["tmux", "-S", str(sock), "-f", str(conf)]
    command = shlex.join([*paper_tui(), "--library", str(library_dir), "cite",
                          *(p.id for p in two_papers), "--copy", "--format", "key"])
    signal = shlex.join([*tmux, "wait-for", "-S", "cited"])
    try:
        subprocess.run([*tmux, "new-session", "-d", "-x", "120", "-y", "30",
                        f"{command}; {signal}; sleep 30"], check=True, timeout=10)
        subprocess.run([*tmux, "wait-for", "cited"], check=True, timeout=60)
        buffer = subprocess.run([*tmux, "show-buffer"], capture_output=True, text=True,
                                check=True, timeout=10).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=10)
    assert buffer == citations.cite(two_papers, "key")


def read_target(target: str, expected_part: str) -> str:
    """The clipboard as ``target`` (``text/html``), once it holds ``expected_part``."""
    deadline = time.monotonic() + 5
    while True:
        out = subprocess.run(["xclip", "-o", "-selection", "clipboard", "-t", target],
                             capture_output=True, timeout=5, check=False).stdout.decode()
        if expected_part in out or time.monotonic() > deadline:
            return out
        time.sleep(0.05)


@needs_x
def test_a_csl_style_copies_html_that_keeps_its_italics(xvfb: str, two_papers: list[Paper],
                                                        library_dir: Path) -> None:
    paper_id = two_papers[0].id
    done = run_cite(library_dir, paper_id, "-f", "apa", "--copy", "--html")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("paper-tui: copied apa citation for ")
    assert done.stderr.endswith(" to the clipboard with xclip (HTML only)\n")
    html = read_target("text/html", "csl-entry")
    root = ET.fromstring(html)  # parses
    italic = [el.text for el in root.iter("i")]
    assert italic == ["Advances in Neural Information Processing Systems"]
    plain = run_cite(library_dir, paper_id, "-f", "apa").stdout.strip()
    assert "".join(root.itertext()) == plain

    done = run_cite(library_dir, paper_id, "-f", "apa", "--copy")
    assert done.returncode == 0, done.stderr
    if "plain text (this xclip cannot offer HTML" in done.stderr:  # xclip 0.13
        assert read_clipboard(plain) == plain
    else:  # an xclip with -alt-text: HTML for a word processor, text for a terminal
        assert done.stderr.endswith("with xclip (HTML and plain text)\n")
        assert "<i>" in read_target("text/html", "<i>")
        assert read_target("STRING", plain) == plain

    done = run_cite(library_dir, paper_id, "--copy", "--html")  # bibtex: no HTML form
    assert (done.returncode, done.stderr) == (
        1, "paper-tui: style 'bibtex' has no HTML form (plain text only)\n")
