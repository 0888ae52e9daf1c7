"""Putting text on the system clipboard without ever holding the caller's stdio.

pyperclip picks the backend (``pyperclip.determine_clipboard()``, asked afresh every time:
``is_available()`` keeps answering from the first attempt even after a failure). For the
command-line backends we run the tool ourselves, because pyperclip lets it inherit our
stdout and stderr, and ``xclip``, ``xsel`` and ``wl-copy`` leave a background process
serving the selection: a script capturing ``paper-tui cite … --copy`` would wait for that
process to die. Here the tool gets ``stdin`` as a pipe, ``stdout`` on ``/dev/null``,
``stderr`` on an unnamed temporary file (read back for the error message) and a new
session, and its exit status is checked (pyperclip ignores it). In-process backends
(Windows, macOS pyobjc, Qt) and Klipper are called through pyperclip.

Over SSH there is usually no clipboard here at all. Then the terminal itself can help: the
OSC 52 escape sequence asks it to set *its* (the reader's local) clipboard. The TUI sends it
through Textual; the CLI, when there is no clipboard here, to ``/dev/tty``
(:func:`copy_or_send`). Each copy reports one outcome: copied with a tool, sent through
the terminal, or failed and why.
"""

from __future__ import annotations

import base64
import os
import subprocess
import tempfile
from dataclasses import dataclass

import pyperclip

TIMEOUT = 5.0
"""Seconds a clipboard tool may take to take the text and go to the background."""
_MAX_ARGUMENT = 120_000
"""Bytes of plain text that go on xclip's command line (``-alt-text``; Linux caps one
argument at 128 KiB); longer text is copied alone."""

# pyperclip's copy function -> (how we name it, the command we run, the text encoding)
_COMMANDS: dict[str, tuple[str, list[str], str]] = {
    "copy_xclip": ("xclip", ["xclip", "-selection", "clipboard"], "utf-8"),
    "copy_xsel": ("xsel", ["xsel", "--clipboard", "--input"], "utf-8"),
    "copy_wl": ("wl-copy", ["wl-copy"], "utf-8"),
    "copy_osx_pbcopy": ("pbcopy", ["pbcopy"], "utf-8"),
    "copy_wsl": ("clip.exe", ["clip.exe"], "utf-16-le"),
}
# Backends that run in our process, or run a tool that exits at once: pyperclip calls them.
_THROUGH_PYPERCLIP = {"copy_windows": "the Windows clipboard",
                      "copy_osx_pyobjc": "the macOS pasteboard", "copy_qt": "the Qt clipboard",
                      "copy_klipper": "Klipper", "copy_dev_clipboard": "/dev/clipboard"}


@dataclass(frozen=True)
class CopyResult:
    """``ok``: the text is on the clipboard. ``method``: the tool used (``xclip``, …; empty
    when none was found). ``message``: one line for the user saying which way it went."""

    ok: bool
    method: str
    message: str

    @property
    def confirmed(self) -> bool:
        """The text is on the clipboard for sure: copied with a tool (OSC 52 is sent, not
        known to arrive, and the fronts say more about it: the CLI prints the text too,
        the app shows its message for longer)."""
        return self.ok and self.method != OSC52


def _no_clipboard_reason() -> str:
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no clipboard here: no graphical session (DISPLAY / WAYLAND_DISPLAY unset, "
                "e.g. over SSH)")
    return "no clipboard tool found: install xclip or xsel (X11) or wl-clipboard (Wayland)"


def _run(command: list[str], data: bytes) -> str | None:
    """Run a clipboard tool detached from our stdio; None on success, else the reason."""
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True, close_fds=True)
        except OSError as exc:
            return f"cannot run {command[0]}: {exc.strerror or exc}"
        try:
            proc.communicate(data, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return f"{command[0]} did not finish within {TIMEOUT:g} s"
        if proc.returncode == 0:
            return None
        err.seek(0)
        detail = " ".join(err.read().decode("utf-8", "replace").split())[:200]
        return f"{command[0]} failed (exit status {proc.returncode})" + \
            (f": {detail}" if detail else "")


def _alt_text_supported() -> bool:
    """Whether this xclip offers a plain-text target beside another (``-alt-text``,
    xclip after 0.13)."""
    try:
        done = subprocess.run(["xclip", "-help"], capture_output=True, text=True,
                              timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "-alt-text" in done.stdout + done.stderr


def _html_command(method: str, command: list[str], text: str, html: str,
                  html_only: bool) -> list[str] | None:
    """The command that puts ``html`` as ``text/html`` on the clipboard with the plain
    ``text`` beside it (or, with ``html_only``, the HTML alone); None when the tool
    cannot."""
    if method == "xclip":
        html_target = [*command, "-t", "text/html"]
        if html_only:
            return html_target
        if len(text.encode("utf-8")) < _MAX_ARGUMENT and _alt_text_supported():
            return [*html_target, "-alt-text", text]
        return None
    if method == "wl-copy" and html_only:  # wl-copy offers the HTML as its plain text too
        return [*command, "--type", "text/html"]
    return None


def copy(text: str, what: str = "", *, html: str = "", html_only: bool = False) -> CopyResult:
    """Put ``text`` on the clipboard. Never raises; never leaves a process on our stdio.

    ``what`` names the content in the message (``BibTeX for vaswani2017attention``);
    without it the message counts characters. ``html``: the same as HTML, put beside the
    text as ``text/html`` where the tool can offer both (xclip with ``-alt-text``), so a
    word processor pastes it with its formatting and a terminal the text; ``html_only``:
    the HTML alone (xclip ``-t text/html``, wl-copy ``--type text/html``).
    """
    what = what or f"{len(text):,} characters"
    try:
        copy_func, _paste = pyperclip.determine_clipboard()
    except Exception as exc:  # a broken backend probe must not stop the caller
        return CopyResult(False, "", f"could not copy {what}: {exc}")
    name = getattr(copy_func, "__name__", type(copy_func).__name__)
    if name in _COMMANDS:
        method, command, encoding = _COMMANDS[name]
        both = _html_command(method, command, text, html, html_only) if html else None
        if both is not None:
            problem = _run(both, html.encode("utf-8"))
            kind = " (HTML only)" if html_only else " (HTML and plain text)"
        elif html_only:
            return CopyResult(False, method, f"could not copy {what} as HTML: {method} "
                                             "cannot put HTML on the clipboard")
        else:
            problem = _run(command, text.encode(encoding))
            kind = (f" as plain text (this {method} cannot offer HTML beside it; "
                    "--html copies the HTML alone)") if html else ""
        if problem is None:
            return CopyResult(True, method, f"copied {what} to the clipboard with "
                                            f"{method}{kind}")
        return CopyResult(False, method, f"could not copy {what}: {problem}")
    if name in _THROUGH_PYPERCLIP:
        method = _THROUGH_PYPERCLIP[name]
        try:
            copy_func(text)
        except Exception as exc:  # every backend has its own exceptions
            return CopyResult(False, method, f"could not copy {what} to {method}: {exc}")
        return CopyResult(True, method, f"copied {what} to {method}")
    return CopyResult(False, "", f"could not copy {what}: {_no_clipboard_reason()}")


def osc52(text: str) -> str:
    """The OSC 52 sequence asking the terminal to put ``text`` on its clipboard."""
    return "\x1b]52;c;" + base64.b64encode(text.encode("utf-8")).decode("ascii") + "\x07"


OSC52 = "OSC 52"
"""The :attr:`CopyResult.method` of a copy sent through the terminal."""
TMUX_HINT = "if nothing arrives, tmux needs `set -g set-clipboard on`"
"""Said with every copy sent through the terminal: tmux drops OSC 52 by default."""


def sent_through_terminal(what: str) -> CopyResult:
    """The outcome of ``what`` sent to the terminal with OSC 52: sent, not known to have
    arrived (most terminals obey; some ask first or refuse; tmux passes it on only with
    ``set-clipboard on``)."""
    return CopyResult(True, OSC52, f"sent {what} through the terminal (OSC 52); {TMUX_HINT}")


def _send_to_terminal(text: str) -> str | None:
    """Write the OSC 52 sequence for ``text`` to the controlling terminal; None when it was
    written, else why not."""
    try:
        fd = os.open("/dev/tty", os.O_WRONLY | os.O_NOCTTY)
    except OSError:
        return "no terminal to send OSC 52 to either"
    try:
        os.write(fd, osc52(text).encode("ascii"))
    except OSError as exc:
        return f"sending it to the terminal (OSC 52) failed too: {exc.strerror or exc}"
    finally:
        os.close(fd)
    return None


def copy_or_send(text: str, what: str = "", *, html: str = "", html_only: bool = False,
                 sent: bool = False) -> CopyResult:
    """Copy ``text`` to the system clipboard (:func:`copy`), else send it through the
    terminal with OSC 52 (over SSH); one outcome, whose message says which, or why
    neither worked. The one policy of both fronts: the CLI sends OSC 52 here (to
    ``/dev/tty``); the app has always ``sent`` it already, through Textual, so a copy the
    system clipboard did not take is the one sent through the terminal."""
    what = what or f"{len(text):,} characters"
    result = copy(text, what, html=html, html_only=html_only)
    if result.ok:
        return result
    problem = None if sent else _send_to_terminal(text)
    if problem is None:
        return sent_through_terminal(what)
    return CopyResult(False, result.method, f"{result.message}; {problem}")
