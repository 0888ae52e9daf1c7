"""``Library.pdf_get`` against real PDFs served on 127.0.0.1 (issue 36): good ones kept
with their pages and text; every hostile answer (an HTML login page sent as a PDF, a 404,
a cut body, an endless stream, an encrypted PDF, no link) one line naming the paper and
why, with nothing half-written left in ``pdfs/``; several hosts at once, one request at a
time per host; a PDF already held not asked for again unless forced."""

from __future__ import annotations

import itertools
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostile_servers import RawServer, drip
from http_replay import ReplayServer, Reply
from paper_tui.config import FetchSettings
from paper_tui.model import Paper
from paper_tui.pdfs.links import pdf_url
from pdf_helpers import ACL, ENCRYPTED, NAACL, PDF_HEADERS, ids_by_title, leftovers, open_with

NAACL_BYTES = NAACL.read_bytes()
ACL_BYTES = ACL.read_bytes()


@pytest.fixture(autouse=True)
def _direct(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the machine's environment (tests must reach 127.0.0.1 directly)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.fixture
def second_server() -> Iterator[ReplayServer]:
    server = ReplayServer()
    yield server
    server.stop()


def test_good_pdfs_are_kept_with_their_pages_and_text(tmp_path: Path,
                                                      http_replay: ReplayServer) -> None:
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    http_replay.route("/acl.pdf", Reply(body=ACL_BYTES, headers=PDF_HEADERS))
    root = tmp_path / "lib"
    with open_with(root, {"Preemptive IE": f"{http_replay.url}/naacl.pdf",
                          "Words with vectors": f"{http_replay.url}/acl.pdf"}) as lib:
        ids = ids_by_title(lib)
        report = lib.pdf_get([ids["Preemptive IE"], ids["Words with vectors"]])
        assert [o.status for o in report.outcomes] == ["fetched", "fetched"]
        held = {h.paper_id: h for h in lib.pdf_list()}
        assert held[ids["Preemptive IE"]].pages == 8
        assert held[ids["Words with vectors"]].pages == 10
        assert held[ids["Preemptive IE"]].bytes == len(NAACL_BYTES)
        assert lib.pdf_path(ids["Preemptive IE"]).read_bytes() == NAACL_BYTES
        assert "hurricanes" in lib.pdf_text(ids["Preemptive IE"])
        assert "paraphrase" in lib.pdf_text(ids["Words with vectors"])
        # Asked once each, with paper-tui's User-Agent and no gzip.
        assert len(http_replay.requests) == 2
        assert all(r.header("User-Agent", ).startswith("paper-tui/")  # type: ignore[union-attr]
                   for r in http_replay.requests)
        assert all(r.header("Accept-Encoding") == "identity" for r in http_replay.requests)

        again = lib.pdf_get([ids["Preemptive IE"]])
        assert [o.status for o in again.outcomes] == ["kept"]
        assert len(http_replay.requests) == 2  # not asked for again
        forced = lib.pdf_get([ids["Preemptive IE"]], force=True)
        assert [o.status for o in forced.outcomes] == ["fetched"]
        assert len(http_replay.requests) == 3
    assert leftovers(root) == []


def test_the_text_cache_is_derived(tmp_path: Path, http_replay: ReplayServer) -> None:
    """Deleted, the text is extracted again from the PDF."""
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    root = tmp_path / "lib"
    with open_with(root, {"Preemptive IE": f"{http_replay.url}/naacl.pdf"}) as lib:
        pid = ids_by_title(lib)["Preemptive IE"]
        lib.pdf_get([pid])
        first = lib.pdf_text(pid)
        for text in (root / "pdfs").glob("*.txt"):
            text.unlink()
        assert lib.pdf_text(pid) == first
        assert list((root / "pdfs").glob("*.txt"))


def _endless(stopped_after: int | None = None) -> RawServer:
    """A server whose PDF never ends: ``%PDF-`` and then zeros, fast."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nConnection: close\r\n\r\n"

    def answer(conn: socket.socket, _: bytes, stopped: threading.Event) -> None:
        conn.sendall(head + b"%PDF-1.5\n")
        chunk = b"\0" * 65536
        while not stopped.is_set():
            conn.sendall(chunk)

    return RawServer(answer)


def _cut_without_length() -> RawServer:
    """Half a PDF, no Content-Length, then the connection closed: looks whole to HTTP."""
    def answer(conn: socket.socket, _: bytes, stopped: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n"
                     b"Connection: close\r\n\r\n" + NAACL_BYTES[:len(NAACL_BYTES) // 2])

    return RawServer(answer)


def test_every_hostile_answer_is_one_line_and_leaves_nothing(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    login = b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>" \
            b"<form>password</form></body></html>"
    http_replay.route("/login.pdf", Reply(body=login, headers=PDF_HEADERS))
    http_replay.route("/cut.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS,
                                        cut_at=50_000))
    http_replay.route("/encrypted.pdf", Reply(body=ENCRYPTED.read_bytes(),
                                              headers=PDF_HEADERS))
    http_replay.route("/words.pdf", Reply(body=b"Hello, this is plain text.\n" * 50,
                                          headers=PDF_HEADERS))
    endless, cut = _endless(), _cut_without_length()
    slow = RawServer(drip(b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n",
                          b"%PDF-1.5\n" + b"\0" * 10_000_000, every=0.05, piece=2048))
    try:
        root = tmp_path / "lib"
        links = {"Login": f"{http_replay.url}/login.pdf",
                 "Missing": f"{http_replay.url}/missing.pdf",
                 "Cut": f"{http_replay.url}/cut.pdf",
                 "Cut quietly": f"{cut.url}/paper.pdf",
                 "Endless": f"{endless.url}/paper.pdf",
                 "Slow": f"{slow.url}/paper.pdf",
                 "Encrypted": f"{http_replay.url}/encrypted.pdf",
                 "Text": f"{http_replay.url}/words.pdf",
                 "No link": None}
        with open_with(root, links, fetch={"deadline_s": 2}, max_mb=1) as lib:
            ids = ids_by_title(lib)
            report = lib.pdf_get(list(ids.values()))
            assert report.fetched == [] and report.kept == []
            said = {next(t for t, i in ids.items() if i == o.paper_id): o.line()
                    for o in report.failed}
            assert len(said) == len(links)
            for title, line in said.items():
                assert "\n" not in line and line.startswith(ids[title] + ": "), line
            why = {title: line.split(": ", 1)[1] for title, line in said.items()}
            assert why["Login"].startswith("an HTML page, not a PDF (a login or error "
                                           "page?)")
            assert why["Missing"].startswith("not found (HTTP 404)")
            assert why["Cut"].startswith("cut off after 50,000 bytes of 193,227")
            assert why["Cut quietly"].startswith("cut short: a PDF without its end")
            assert why["Endless"].startswith("too big (over 1,048,576 bytes); pdf.max_mb "
                                             "is 1")
            assert why["Slow"].startswith("took longer than 2 s (fetch.deadline_s)")
            assert why["Encrypted"].startswith("encrypted: needs a password to open")
            assert why["Text"].startswith("not a PDF (no %PDF- header)")
            assert why["No link"] == "no PDF link in its source"
            for title, link in links.items():
                if link is not None:
                    assert said[title].endswith(f"({link})")
            assert lib.pdf_list() == []
        assert leftovers(root) == []
        assert not list((root / "pdfs").glob("*.pdf"))
    finally:
        for server in (endless, cut, slow):
            server.stop()


def test_hosts_are_asked_at_once_each_one_request_at_a_time(
        tmp_path: Path, http_replay: ReplayServer, second_server: ReplayServer) -> None:
    for n in range(3):
        http_replay.route(f"/{n}.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS,
                                             delay_s=0.4))
    second_server.route("/b.pdf", Reply(body=ACL_BYTES, headers=PDF_HEADERS, delay_s=0.4))
    links = {f"A{n}": f"{http_replay.url}/{n}.pdf" for n in range(3)}
    links["B"] = f"{second_server.url}/b.pdf"
    with open_with(tmp_path / "lib", links) as lib:
        ids = ids_by_title(lib)
        report = lib.pdf_get([ids[title] for title in links])
        assert [o.status for o in report.outcomes] == ["fetched"] * 4
    first = sorted(r.at for r in http_replay.requests)
    assert len(first) == 3
    assert all(b - a >= 0.35 for a, b in itertools.pairwise(first)), first  # one at a time
    other = second_server.requests[0].at
    assert other < first[-1], (other, first)  # the other host while this one was busy


def test_links_come_from_the_source_or_the_id(tmp_path: Path) -> None:
    fetch = FetchSettings(openreview_url="https://api2.openreview.net",
                          openreview_v1_url="", paperlists_url="",
                          arxiv_url="http://127.0.0.1:9", dblp_url="", arxiv_delay_s=0,
                          timeout_s=1, retries=0, retry_delay_s=0, max_wait_s=0,
                          deadline_s=0, min_bytes_per_s=0)

    def paper(**fields: str) -> Paper:
        return Paper(**{"id": "p1", "title": "T", "abstract": "A", **fields})  # type: ignore[arg-type]

    assert pdf_url(paper(pdf="https://example.org/a.pdf"), fetch) == \
        "https://example.org/a.pdf"
    # arXiv: asked of fetch.arxiv_url, as every arXiv request is
    assert pdf_url(paper(pdf="https://arxiv.org/pdf/2401.01234"), fetch) == \
        "http://127.0.0.1:9/pdf/2401.01234"
    assert pdf_url(paper(id="arxiv-2401.01234v2"), fetch) == \
        "http://127.0.0.1:9/pdf/2401.01234v2"
    assert pdf_url(paper(id="arxiv-hep-th-9901001"), fetch) == \
        "http://127.0.0.1:9/pdf/hep-th/9901001"
    assert pdf_url(paper(url="https://openreview.net/forum?id=abc_DEF"), fetch) == \
        "https://openreview.net/pdf?id=abc_DEF"
    assert pdf_url(paper(url="https://example.org/paper.PDF"), fetch) == \
        "https://example.org/paper.PDF"
    assert pdf_url(paper(url="https://example.org/paper.html"), fetch) is None
    assert pdf_url(paper(pdf="javascript:alert(1)"), fetch) is None
    assert pdf_url(paper(), fetch) is None


def test_a_retry_writes_the_pdf_from_its_start(tmp_path: Path,
                                               http_replay: ReplayServer) -> None:
    """The first answer cut short, the retry whole: the PDF kept is the whole one, not the
    cut part with the whole after it."""
    http_replay.route("/naacl.pdf",
                      Reply(body=NAACL_BYTES, headers=PDF_HEADERS, cut_at=60_000),
                      Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    root = tmp_path / "lib"
    with open_with(root, {"Preemptive IE": f"{http_replay.url}/naacl.pdf"}) as lib:
        pid = ids_by_title(lib)["Preemptive IE"]
        assert [o.status for o in lib.pdf_get([pid]).outcomes] == ["fetched"]
        assert lib.pdf_path(pid).read_bytes() == NAACL_BYTES
    assert len(http_replay.requests) == 2
    assert leftovers(root) == []


def test_a_lost_index_is_made_again_from_the_pdfs_there(tmp_path: Path,
                                                         http_replay: ReplayServer) -> None:
    """index.json gone (or a process killed between the rename and its write): the PDFs
    there are counted again; a file there that is no PDF is left alone, not counted."""
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    root = tmp_path / "lib"
    with open_with(root, {"Preemptive IE": f"{http_replay.url}/naacl.pdf"}) as lib:
        pid = ids_by_title(lib)["Preemptive IE"]
        lib.pdf_get([pid])
        (root / "pdfs" / "index.json").unlink()
        (root / "pdfs" / "stray.pdf").write_bytes(b"<html>not a pdf</html>")
        assert [(h.paper_id, h.pages, h.bytes) for h in lib.pdf_list()] == \
            [(pid, 8, len(NAACL_BYTES))]
        assert (root / "pdfs" / "stray.pdf").exists()
