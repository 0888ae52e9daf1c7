"""Team members as real `paper-tui` processes on real libraries, syncing through real git."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import forked_cli

TEST_DATA = Path(__file__).parent / "data"


def bare_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


_TEMPLATE: list[Path] = []


def _new_library(root: Path) -> None:
    """Make ``root`` the library a first ``paper-tui`` command makes (the bundled list
    imported): a copy of one made so once per test process, as ``tests/conftest.py``'s
    ``lib_dir`` is (each first command spent 0.3 s of CPU importing the same list)."""
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="paper-tui-member-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library",
                               str(folder / "library"), "list"], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        _TEMPLATE.append(folder / "library")
    shutil.copytree(_TEMPLATE[0], root)


class Member:
    """One person on one machine: a library directory, used through the CLI. A library
    that does not exist yet starts as a first command would make it."""

    def __init__(self, root: Path, name: str, env: dict[str, str] | None = None) -> None:
        self.root = root
        self.name = name
        self.env = env
        if not root.exists():
            _new_library(root)

    @property
    def team(self) -> Path:
        return self.root / "team"

    def run(self, *args: str, check: bool = True, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess:
        done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(self.root),
                               *args], capture_output=True, text=True, timeout=300,
                              env=env or self.env)
        if check:
            assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done

    def sync(self, remote: Path | str | None = None, check: bool = True
             ) -> subprocess.CompletedProcess:
        extra = ["--remote", str(remote), "--as", self.name] if remote is not None else []
        return self.run("sync", *extra, check=check)

    def ids(self) -> list[str]:
        return [line.split()[0] for line in self.run("list").stdout.splitlines()]

    def show(self, pid: str) -> dict:
        return json.loads(self.run("show", pid, "--json").stdout)

    def lists(self) -> dict:
        return {lst["name"]: lst["ids"] for lst in
                json.loads(self.run("lists", "--json").stdout)}


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    if check:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def no_conflict_markers(tree: Path) -> bool:
    for path in tree.rglob("*"):
        if ".git" in path.parts or not path.is_file():
            continue
        text = path.read_bytes()
        if b"<<<<<<<" in text or b">>>>>>>" in text or b"\n=======\n" in text:
            return False
    return True


class Teammate:
    """A team-mate with plain git on a clone of the team remote: commits whatever files
    and links they like (what no paper-tui writes) and pushes them."""

    def __init__(self, remote: Path, path: Path) -> None:
        self.path = path
        git(path.parent, "clone", "-q", str(remote), str(path))
        git(path, "config", "core.symlinks", "true")

    def push(self, message: str, files: dict[str, str | bytes] | None = None,
             links: dict[str, str] | None = None, remove: tuple[str, ...] = ()) -> None:
        git(self.path, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
        for rel, content in (files or {}).items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink():
                target.unlink()
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, "utf-8")
        for rel, to in (links or {}).items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.exists():
                target.unlink()
            os.symlink(to, target)
        for rel in remove:
            git(self.path, "rm", "-q", "--", rel)
        git(self.path, "add", "-A")
        git(self.path, "commit", "-qm", message)
        git(self.path, "push", "-q", "origin", "HEAD:main")
