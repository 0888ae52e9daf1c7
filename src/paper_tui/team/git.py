"""Running ``git`` as a subprocess, with one clear line for each way it can say no.

Git is never allowed to ask a question (no terminal prompt, ssh in batch mode): a sync runs
in the background of the app, where nobody could answer. Its messages are read in the C
locale, so the faults below are recognised whatever the user's language.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from paper_tui.errors import PaperTuiError

NETWORK_TIMEOUT = 300.0  # seconds a fetch or push may take before we give up
LOCAL_TIMEOUT = 60.0

_UNREACHABLE = ("does not appear to be a git repository", "could not resolve host",
                "connection refused", "connection timed out", "no route to host",
                "network is unreachable", "unable to access", "repository not found",
                "no such file or directory", "could not read from remote repository",
                "failed to connect")
_REFUSED = ("authentication failed", "could not read username", "could not read password",
            "permission denied", "access denied", "requested url returned error: 401",
            "requested url returned error: 403", "host key verification failed",
            "terminal prompts disabled")


class GitError(PaperTuiError):
    """Git could not do what a sync needed; the message is one line saying what to do."""


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0


_SAYS_NOTHING = ("hint:", "failed to push some refs", "could not read from remote repository",
                 "please make sure you have the correct access", "and the repository exists")


def last_line(text: str) -> str:
    """Git's most telling line: what the remote said, else the last ``fatal:``/``error:``
    or rejection, else the last line (hints and generic lines say nothing)."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not any(
        s in line.lower() for s in _SAYS_NOTHING)]
    for prefixes in (("remote:",), ("fatal:", "error:", "! [")):
        for line in reversed(lines):
            if line.startswith(prefixes) and line.rstrip(":") not in ("remote", "fatal"):
                return line
    return lines[-1] if lines else "no message"


def remote_fault(err: str, url: str, what: str) -> GitError:
    """The error for a fetch or push that failed: refused, unreachable, or something else."""
    low = err.lower()
    said = last_line(err)
    if any(s in low for s in _REFUSED):
        return GitError(f"the team remote {url} refused access while trying to {what} "
                        f"({said}); check your credentials or ssh key, nothing local changed")
    if any(s in low for s in _UNREACHABLE):
        return GitError(f"cannot reach the team remote {url} to {what} ({said}); "
                        "your changes stay here and go out with the next sync")
    return GitError(f"git could not {what} {url}: {said}")


class Git:
    """``git`` run in one work tree as the team member ``who`` (author of its commits)."""

    def __init__(self, work_tree: Path, who: str) -> None:
        exe = shutil.which("git")
        if exe is None:
            raise GitError("git is not installed (or not on PATH): team sync needs git; "
                           "install it and run sync again, nothing local changed")
        self.exe = exe
        self.work_tree = work_tree
        env = dict(os.environ)
        env.update(GIT_TERMINAL_PROMPT="0", LC_ALL="C", LANGUAGE="C", GIT_MERGE_AUTOEDIT="no",
                   GIT_AUTHOR_NAME=who, GIT_AUTHOR_EMAIL=f"{who}@paper-tui.invalid",
                   GIT_COMMITTER_NAME=who, GIT_COMMITTER_EMAIL=f"{who}@paper-tui.invalid")
        if "GIT_SSH_COMMAND" not in env and "GIT_SSH" not in env:
            env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
        self.env = env

    def run(self, *args: str, timeout: float = LOCAL_TIMEOUT, stdin: str | None = None
            ) -> Result:
        """Run ``git ARGS`` in the work tree; never raises for git's own exit status."""
        done = self._spawn(args, timeout, stdin, text=True)
        return Result(done.returncode, done.stdout, done.stderr)

    def objects(self, ids: list[str]) -> dict[str, bytes]:
        """The contents of git objects, read by one ``git cat-file --batch`` (one process
        for any number); an id git does not have is left out. :class:`GitError` when git
        fails."""
        done = self._spawn(("cat-file", "--batch"), LOCAL_TIMEOUT,
                           "".join(f"{oid}\n" for oid in ids).encode(), text=False)
        if done.returncode != 0:
            raise self.failed("cat-file", last_line(done.stderr.decode("utf-8", "replace")))
        out, at, found = done.stdout, 0, {}
        for _ in ids:  # "ID TYPE SIZE\nCONTENT\n" each, or "NAME missing\n"
            end = out.find(b"\n", at)
            if end < 0:  # cut short: what is left is missing
                break
            header = out[at:end].split()
            at = end + 1
            if len(header) == 3:
                size = int(header[2])
                found[header[0].decode()] = out[at:at + size]
                at += size + 1
        return found

    def _spawn(self, args: tuple[str, ...], timeout: float, stdin: str | bytes | None,
               text: bool) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(
                [self.exe, "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", *args],
                cwd=self.work_tree, env=self.env, input=stdin, capture_output=True, text=text,
                timeout=timeout, errors="replace" if text else None)
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took more than {timeout:.0f} s and was stopped; "
                           "nothing local changed, run sync again") from None
        except OSError as exc:
            raise GitError(f"cannot run git ({exc.strerror or exc}); nothing local changed"
                           ) from None

    def out(self, *args: str, timeout: float = LOCAL_TIMEOUT) -> str:
        """Run ``git ARGS`` and return its output; :class:`GitError` if it fails."""
        result = self.run(*args, timeout=timeout)
        if not result.ok:
            raise self.failed(args[0], last_line(result.err or result.out))
        return result.out

    def failed(self, verb: str, said: str) -> GitError:
        """The error for ``git VERB`` failing in this work tree, with what git said."""
        return GitError(f"git {verb} failed in {self.work_tree}: {said}")

    def rev(self, name: str) -> str | None:
        """The commit ``name`` points at, None when it does not exist (an unborn branch)."""
        result = self.run("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
        return result.out.strip() if result.ok else None
