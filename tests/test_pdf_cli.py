"""``paper-tui pdf …`` (issue 36) against real PDFs served on 127.0.0.1: what each verb
prints and its exit status; a download killed with SIGKILL half-way leaves nothing that
counts as a PDF; ``prune`` spares the papers of reading lists; ``open`` runs the viewer
with the path; pypdfium2 is loaded by the ``pdf`` commands only."""

from __future__ import annotations

import ast
import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import forked_cli
import paper_tui
from hostile_servers import RawServer
from http_replay import ReplayServer, Reply
from pdf_helpers import (
    ACL,
    ENCRYPTED,
    NAACL,
    PDF_HEADERS,
    leftovers,
    write_config,
    write_list,
)

NAACL_BYTES = NAACL.read_bytes()
ACL_BYTES = ACL.read_bytes()
MEMORY_CAP = 4 << 30
"""A process of these tests may not grow past this (RLIMIT_AS): a runaway is an error."""


@pytest.fixture(autouse=True)
def _direct(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


class Lib:
    """A library directory and its config, and paper-tui commands run on it."""

    def __init__(self, tmp_path: Path, links: dict[str, str | None], **pdf: object) -> None:
        self.root = tmp_path / "lib"
        self.config = write_config(tmp_path / "config", **pdf)
        self.ok("import", write_list(tmp_path / "list.jsonl", links))
        papers = json.loads(self.ok("list", "--json"))
        self.ids = {p["title"]: p["id"] for p in papers}

    def run(self, *args: str | Path, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
        command = ["paper-tui", "--library", str(self.root), "--config", str(self.config),
                   *map(str, args)]
        return forked_cli.run(command, capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL, env=env)

    def ok(self, *args: str | Path, env: dict[str, str] | None = None) -> str:
        done = self.run(*args, env=env)
        assert done.returncode == 0, (done.stdout, done.stderr)
        assert done.stderr == "", done.stderr
        return done.stdout


def test_get_prints_a_line_per_pdf_and_per_failure(tmp_path: Path,
                                                   http_replay: ReplayServer) -> None:
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    http_replay.route("/enc.pdf", Reply(body=ENCRYPTED.read_bytes(), headers=PDF_HEADERS))
    lib = Lib(tmp_path, {"Preemptive IE": f"{http_replay.url}/naacl.pdf",
                         "Locked": f"{http_replay.url}/enc.pdf",
                         "Gone": f"{http_replay.url}/gone.pdf"})
    ids = lib.ids
    done = lib.run("pdf", "get", "--query", "")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [f"{ids['Preemptive IE']}: 8 pages, 0.2 MB",
                                        "3 PDFs: 1 fetched, 2 failed"]
    assert sorted(done.stderr.splitlines()) == sorted([
        f"paper-tui: {ids['Locked']}: encrypted: needs a password to open "
        f"({http_replay.url}/enc.pdf)",
        f"paper-tui: {ids['Gone']}: not found (HTTP 404): not found "
        f"({http_replay.url}/gone.pdf)"])
    again = lib.run("pdf", "get", ids["Preemptive IE"])
    assert again.returncode == 0
    assert again.stdout == "1 PDF: 0 fetched, 1 already here\n"
    # The others were kept: path, text, list.
    path = Path(lib.ok("pdf", "path", ids["Preemptive IE"]).strip())
    assert path == lib.root / "pdfs" / f"{ids['Preemptive IE']}.pdf"
    assert path.read_bytes() == NAACL_BYTES
    text = lib.ok("pdf", "text", ids["Preemptive IE"][:12])
    assert "hurricanes" in text and "\f" not in text and "\x1b" not in text
    listed = json.loads(lib.ok("pdf", "list", "--json"))
    assert [(p["paper_id"], p["pages"], p["bytes"]) for p in listed] == \
        [(ids["Preemptive IE"], 8, len(NAACL_BYTES))]
    assert lib.ok("pdf", "list").splitlines()[-1] == "1 PDF, 0.2 MB"
    missing = lib.run("pdf", "path", ids["Gone"])
    assert missing.returncode == 1
    assert missing.stderr == f"paper-tui: no PDF of {ids['Gone']}: `paper-tui pdf get " \
                             f"{ids['Gone']}` fetches it\n"
    nothing = lib.run("pdf", "get")
    assert nothing.returncode == 1
    assert nothing.stderr == "paper-tui: name papers: IDs, --query QUERY or --list NAME\n"


def test_add_copies_or_links_and_remove_keeps_the_readers_file(tmp_path: Path) -> None:
    lib = Lib(tmp_path, {"Mine": None, "Linked": None})
    own = tmp_path / "own.pdf"
    own.write_bytes(ACL_BYTES)
    assert lib.ok("pdf", "add", lib.ids["Mine"], own) == \
        f"{lib.ids['Mine']}: added (10 pages, 0.2 MB)\n"
    assert lib.ok("pdf", "add", "--link", lib.ids["Linked"], own) == \
        f"{lib.ids['Linked']}: linked (10 pages, 0.2 MB)\n"
    linked = Path(lib.ok("pdf", "path", lib.ids["Linked"]).strip())
    assert linked.is_symlink() and linked.resolve() == own.resolve()
    assert "paraphrase" in lib.ok("pdf", "text", lib.ids["Linked"])
    assert lib.ok("pdf", "remove", lib.ids["Mine"], lib.ids["Linked"]).splitlines() == [
        f"{lib.ids['Mine']}: removed", f"{lib.ids['Linked']}: removed"]
    assert own.read_bytes() == ACL_BYTES  # the reader's own file stays
    assert lib.ok("pdf", "list").startswith("no PDFs")
    bad = lib.run("pdf", "add", lib.ids["Mine"], ENCRYPTED)
    assert bad.returncode == 1
    assert bad.stderr == f"paper-tui: {ENCRYPTED}: encrypted: needs a password to open\n"
    assert leftovers(lib.root) == []


def test_open_runs_the_viewer_with_the_path_or_prints_it(tmp_path: Path) -> None:
    stand_in = tmp_path / "viewer.sh"
    record = tmp_path / "opened.txt"
    stand_in.write_text(f"#!/bin/sh\nprintf '%s' \"$1\" > '{record}'\n", "utf-8")
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    lib = Lib(tmp_path, {"Mine": None}, viewer=str(stand_in))
    lib.ok("pdf", "add", lib.ids["Mine"], NAACL)
    assert lib.ok("pdf", "open", lib.ids["Mine"]) == ""
    deadline = time.monotonic() + 30
    while not record.exists() or not record.read_text("utf-8"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert record.read_text("utf-8") == str(lib.root / "pdfs" / f"{lib.ids['Mine']}.pdf")
    assert json.loads(lib.ok("pdf", "list", "--json"))[0]["opened"] is not None

    # No viewer anywhere (no pdf.viewer, no $PDF_VIEWER, no xdg-open or open): the path.
    lib.config = write_config(tmp_path / "config-bare")
    env = {k: v for k, v in os.environ.items() if k != "PDF_VIEWER"}
    env["PATH"] = str(tmp_path / "empty-bin")
    shown = lib.ok("pdf", "open", lib.ids["Mine"], env=env)
    assert shown == f"{lib.root / 'pdfs' / lib.ids['Mine']}.pdf\n"


def test_the_desktop_opener_only_with_a_display_and_never_linux_s_open(
        tmp_path: Path) -> None:
    """Over SSH (no DISPLAY) xdg-open is not run and the path is printed; ``open`` off macOS
    is openvt and is never run (it was the fallback after xdg-open)."""
    record = tmp_path / "opened.txt"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("xdg-open", "open"):
        tool = bin_dir / name
        tool.write_text(f"#!/bin/sh\nprintf '%s %s' '{name}' \"$1\" > '{record}'\n", "utf-8")
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    lib = Lib(tmp_path, {"Mine": None})
    lib.ok("pdf", "add", lib.ids["Mine"], NAACL)
    pdf = lib.root / "pdfs" / f"{lib.ids['Mine']}.pdf"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PDF_VIEWER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PATH"] = str(bin_dir)  # the stand-ins alone
    assert lib.ok("pdf", "open", lib.ids["Mine"], env=env) == f"{pdf}\n"
    time.sleep(0.5)
    assert not record.exists()
    (bin_dir / "xdg-open").unlink()  # a display but no xdg-open: still never `open`
    assert lib.ok("pdf", "open", lib.ids["Mine"], env={**env, "DISPLAY": ":99"}) == f"{pdf}\n"
    time.sleep(0.5)
    assert not record.exists()


def test_prune_removes_the_least_recently_opened_sparing_reading_lists(
        tmp_path: Path) -> None:
    lib = Lib(tmp_path, {"Opened": None, "Listed": None, "Plain": None})
    for title, pdf in (("Opened", NAACL), ("Listed", ACL), ("Plain", NAACL)):
        lib.ok("pdf", "add", lib.ids[title], pdf)
    assert lib.run("lists", "add", "keep", lib.ids["Listed"]).returncode == 0
    lib.config = write_config(tmp_path / "config-cat", viewer="true")
    lib.ok("pdf", "open", lib.ids["Opened"])
    out = lib.ok("pdf", "prune", "--max-mb", "0.25")
    assert out.splitlines() == [
        f"{lib.ids['Plain']}: removed (0.2 MB)", f"{lib.ids['Opened']}: removed (0.2 MB)",
        "2 PDFs removed; 0.2 MB left; 1 PDF of papers in reading lists kept (--all removes "
        "those too)"]
    held = [p["paper_id"] for p in json.loads(lib.ok("pdf", "list", "--json"))]
    assert held == [lib.ids["Listed"]]
    short = lib.run("pdf", "prune", "--max-mb", "0")
    assert short.returncode == 1  # the listed one stays: still over
    assert lib.ok("pdf", "prune", "--max-mb", "0", "--all").splitlines()[0] == \
        f"{lib.ids['Listed']}: removed (0.2 MB)"
    assert leftovers(lib.root) == []


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def test_a_download_killed_half_way_leaves_no_pdf(tmp_path: Path) -> None:
    """kill -9 mid-body: a ``.part`` file, never a PDF; ``pdf list`` holds none, the next
    ``get`` removes the part and fetches it whole."""
    whole = threading.Event()
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(NAACL_BYTES)).encode() + b"\r\n\r\n")

    def answer(conn: socket.socket, _: bytes, stopped: threading.Event) -> None:
        if whole.is_set():
            conn.sendall(head + NAACL_BYTES)
            return
        conn.sendall(head + NAACL_BYTES[:100_000])
        stopped.wait(60)  # and never the rest

    server = RawServer(answer)
    try:
        lib = Lib(tmp_path, {"Paper": f"{server.url}/paper.pdf"})
        folder = lib.root / "pdfs"
        process = subprocess.Popen(
            [sys.executable, "-m", "paper_tui", "--library", str(lib.root), "--config",
             str(lib.config), "pdf", "get", lib.ids["Paper"]],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=_capped)
        try:
            deadline = time.monotonic() + 60
            while not any(p.stat().st_size >= 100_000 for p in folder.glob(".*.part")):
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.02)
            os.kill(process.pid, signal.SIGKILL)
            assert process.wait(timeout=30) == -signal.SIGKILL
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
        assert not list(folder.glob("*.pdf"))
        assert lib.ok("pdf", "list").startswith("no PDFs")
        assert lib.run("pdf", "path", lib.ids["Paper"]).returncode == 1
        assert leftovers(lib.root) != []  # the part, until the next get

        whole.set()
        assert lib.ok("pdf", "get", lib.ids["Paper"]).splitlines()[-1] == \
            "1 PDF: 1 fetched"
        assert leftovers(lib.root) == []
        assert (folder / f"{lib.ids['Paper']}.pdf").read_bytes() == NAACL_BYTES
    finally:
        server.stop()


def test_list_never_loads_pypdfium2(tmp_path: Path) -> None:
    lib = Lib(tmp_path, {"Mine": None})
    lib.ok("pdf", "add", lib.ids["Mine"], NAACL)
    code = ("import sys\nfrom paper_tui.cli import main\n"
            f"status = main(['--library', {str(lib.root)!r}, '--config', "
            f"{str(lib.config)!r}, 'list'])\n"
            "print(status, 'pypdfium2' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, preexec_fn=_capped)
    assert out.stderr.strip().splitlines()[-1] == "0 False"


def test_only_the_pdf_reader_imports_pypdfium2() -> None:
    package = Path(paper_tui.__file__).parent
    importers = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(name.split(".")[0] == "pypdfium2" for name in names):
                importers.append(path.relative_to(package).as_posix())
    assert sorted(set(importers)) == ["pdfs/reader.py"]
