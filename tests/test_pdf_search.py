"""The text of a paper's PDF in search (issue 36), with real PDFs served on 127.0.0.1:
words only the body has find the paper first once ``pdf get`` brought it; a title or
abstract match ranks above a body-only match of the same words; ``has:pdf`` and
``fulltext:``; ``search --json`` says where a hit matched and gives a snippet of the
text, ``show --json`` the PDF's path and pages; ``pdf remove`` and ``prune`` take the text
out; a rebuild of the index reads the cached text and never loads the PDF reader. And the
rule for links: a link-local host is never asked, a loopback or private one only when
``pdf.private_hosts`` (or a configured source) allows it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from http_replay import ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.config import FetchSettings
from paper_tui.fetch import addresses
from paper_tui.index import SCHEMA_VERSION
from paper_tui.library import Library
from paper_tui.pdfs import download
from paper_tui.pdfs.download import allowed_kinds, refusal
from pdf_helpers import ACL, NAACL, PDF_HEADERS, ids_by_title, open_with, write_config

NAACL_BYTES = NAACL.read_bytes()
ACL_BYTES = ACL.read_bytes()
SAMPLE = Path(__file__).parent / "data" / "papers-ml-sample.jsonl"
"""Real papers' records (titles and abstracts) around the two with a PDF."""
BODY_ONLY = "hurricanes murders"
"""Words of the NAACL paper's text that no title or abstract of the library holds."""


@pytest.fixture(autouse=True)
def _direct(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the machine's environment (tests must reach 127.0.0.1 directly)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.fixture
def served(http_replay: ReplayServer) -> ReplayServer:
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    http_replay.route("/acl.pdf", Reply(body=ACL_BYTES, headers=PDF_HEADERS))
    return http_replay


@pytest.fixture
def lib(tmp_path: Path, served: ReplayServer) -> Iterator[Library]:
    """The sample's papers, and two whose PDFs are served: "Preemptive IE" (its text says
    hurricanes) and "Words with vectors" (its text says paraphrase); a third paper has
    "paraphrase" in its title, a fourth "hurricanes" in its abstract."""
    library = open_with(tmp_path / "lib", {
        "Preemptive IE": f"{served.url}/naacl.pdf",
        "Words with vectors": f"{served.url}/acl.pdf",
        "Paraphrase generation at scale": None})
    records = [{"title": "Storm season forecasting",
                "abstract": "We forecast hurricanes and murders of crows.", "year": 2024}]
    extra = tmp_path / "extra.jsonl"
    extra.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    library.import_paths([SAMPLE, extra])
    yield library
    library.close()


def _titles(lib: Library, query: str) -> list[str]:
    return [hit.paper.title for hit in lib.search(query, limit=None).hits]


def test_words_only_the_body_has_find_the_paper_first(lib: Library) -> None:
    ids = ids_by_title(lib)
    assert lib.search("murders").total == 1  # only the abstract of "Storm season…"
    assert lib.search("has:pdf").total == 0
    report = lib.pdf_get([ids["Preemptive IE"], ids["Words with vectors"]])
    assert [o.status for o in report.outcomes] == ["fetched", "fetched"]
    # Words of the text alone: no record of the library holds "shinyama" or "sekine".
    page = lib.search("shinyama sekine")
    assert [h.paper.title for h in page.hits][:1] == ["Preemptive IE"]
    assert page.hits[0].matched_in == ("body",)
    snippet = page.hits[0].snippet()
    assert snippet is not None and ("«Shinyama»" in snippet or "«Sekine»" in snippet)
    # has:pdf, fulltext: (the body only), and a NOT of them
    assert sorted(_titles(lib, "has:pdf")) == ["Preemptive IE", "Words with vectors"]
    assert _titles(lib, "fulltext:hurricanes") == ["Preemptive IE"]
    assert _titles(lib, "fulltext:paraphrase") == ["Words with vectors"]
    assert _titles(lib, "fulltext:hurricanes AND fulltext:paraphrase") == []
    assert _titles(lib, 'fulltext:"unrestricted relation discovery"') == ["Preemptive IE"]
    assert "Preemptive IE" not in _titles(lib, "-has:pdf")
    assert _titles(lib, "has:pdf -fulltext:hurricanes") == ["Words with vectors"]


def test_a_record_match_outranks_a_body_only_match(lib: Library) -> None:
    ids = ids_by_title(lib)
    lib.pdf_get([ids["Preemptive IE"], ids["Words with vectors"]])
    # "paraphrase": in one title (and its abstract), in the other's PDF text only
    hits = lib.search("paraphrase").hits
    assert [h.paper.title for h in hits] == ["Paraphrase generation at scale",
                                             "Words with vectors"]
    assert hits[0].matched_in == ("title", "abstract") and hits[1].matched_in == ("body",)
    assert hits[0].score is not None and hits[1].score is not None
    assert hits[0].score > hits[1].score
    # both words: one abstract holds them, one PDF's text says them many times
    hits = lib.search(BODY_ONLY).hits
    assert [h.paper.title for h in hits] == ["Storm season forecasting", "Preemptive IE"]
    assert hits[0].matched_in == ("abstract",) and hits[0].snippet() is None
    assert hits[1].matched_in == ("body",)


def test_search_and_show_json_say_where_and_which_file(tmp_path: Path,
                                                       served: ReplayServer) -> None:
    lib = open_with(tmp_path / "lib", {"Preemptive IE": f"{served.url}/naacl.pdf",
                                       "Hurricanes of the world": None})
    ids = ids_by_title(lib)
    lib.pdf_get([ids["Preemptive IE"]])
    lib.close()
    config = write_config(tmp_path / "lib-config")

    def run(*args: str) -> str:
        done = forked_cli.run(["paper-tui", "--library", str(tmp_path / "lib"), "--config",
                               str(config), *args], capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout

    hits = json.loads(run("search", "--json", "hurricanes"))
    assert [(h["title"], h["matched_in"]) for h in hits] == [
        ("Hurricanes of the world", ["title", "abstract"]), ("Preemptive IE", ["body"])]
    assert hits[0]["snippet"] is None
    snippet = hits[1]["snippet"]
    assert "«hurricanes»" in snippet and len(snippet) < 3 * (2 * 80 + 40)
    assert snippet.isprintable()  # one inert line
    shown = json.loads(run("show", "--json", ids["Preemptive IE"]))
    assert shown["pdf_path"] == str(tmp_path / "lib" / "pdfs" / f"{ids['Preemptive IE']}.pdf")
    assert shown["pdf_pages"] == 8
    assert shown["pdf"] == f"{served.url}/naacl.pdf"  # the source's link, as before
    other = json.loads(run("show", "--json", ids["Hurricanes of the world"]))
    assert other["pdf_path"] is None and other["pdf_pages"] is None
    assert f"File:    {shown['pdf_path']} (8 pages)" in run("show", ids["Preemptive IE"])


def test_remove_and_prune_take_the_text_out(lib: Library) -> None:
    ids = ids_by_title(lib)
    lib.pdf_get([ids["Preemptive IE"], ids["Words with vectors"]])
    assert "Preemptive IE" in _titles(lib, "hurricanes")
    assert lib.pdf_remove([ids["Preemptive IE"]]) == [ids["Preemptive IE"]]
    assert "Preemptive IE" not in _titles(lib, "hurricanes")
    assert _titles(lib, "fulltext:hurricanes") == []
    assert _titles(lib, "has:pdf") == ["Words with vectors"]
    pruned = lib.pdf_prune(0)
    assert [h.paper_id for h in pruned.removed] == [ids["Words with vectors"]]
    assert _titles(lib, "has:pdf") == [] and _titles(lib, "fulltext:paraphrase") == []
    # `pdf add` puts a text in as `get` does
    lib.pdf_add(ids["Preemptive IE"], NAACL)
    assert _titles(lib, "fulltext:hurricanes") == ["Preemptive IE"]


_REBUILD = """
import json, sys
from pathlib import Path
from paper_tui import config
from paper_tui.library import Library
warned = []
lib = Library.open(Path(sys.argv[1]), config=config.load(Path(sys.argv[2])), bundled=False,
                   warn=warned.append)
hits = lib.search("fulltext:hurricanes").hits
print(json.dumps({"titles": [h.paper.title for h in hits], "warned": warned,
                  "snippet": hits[0].snippet() if hits else None,
                  "pdf": lib.search("has:pdf").total,
                  "pypdfium2": "pypdfium2" in sys.modules}))
lib.close()
"""


@pytest.mark.parametrize("how", ["deleted", "older"])
def test_a_rebuild_reads_the_cached_text_and_never_the_pdf(tmp_path: Path,
                                                           served: ReplayServer,
                                                           how: str) -> None:
    """The index deleted, or written by an older paper-tui (rebuilt once, said): the text
    comes back from ``pdfs/<id>.txt``, untouched, and pypdfium2 is never imported."""
    root = tmp_path / "lib"
    lib = open_with(root, {"Preemptive IE": f"{served.url}/naacl.pdf"})
    lib.pdf_get(list(ids_by_title(lib).values()))
    lib.close()
    text = next((root / "pdfs").glob("*.txt"))
    before = text.stat().st_mtime_ns
    if how == "deleted":
        for path in sorted((root / "index").rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    else:
        meta = root / "index" / "paper-tui-index.json"
        old = json.loads(meta.read_text())
        old["schema"] = SCHEMA_VERSION - 1
        meta.write_text(json.dumps(old))
    config = write_config(tmp_path / "lib-config")
    done = subprocess.run([sys.executable, "-c", _REBUILD, str(root), str(config)],
                          capture_output=True, text=True, timeout=120, check=True)
    out = json.loads(done.stdout)
    assert out["titles"] == ["Preemptive IE"] and out["pdf"] == 1
    assert "«hurricanes»" in out["snippet"]
    assert out["pypdfium2"] is False
    assert text.stat().st_mtime_ns == before  # read, not extracted again
    if how == "older":
        assert len(out["warned"]) == 1 and "another version" in out["warned"][0]


# -- where a link may lead ---------------------------------------------------------------
@pytest.mark.parametrize("link", ["http://169.254.169.254/latest/meta-data/paper.pdf",
                                  "http://[fe80::1]:8080/paper.pdf",
                                  "http://[::ffff:169.254.169.254]/paper.pdf"])
def test_a_link_local_link_is_never_asked(tmp_path: Path, link: str) -> None:
    """Not even with ``pdf.private_hosts`` (the helpers set it true)."""
    with open_with(tmp_path / "lib", {"Metadata": link}) as lib:
        report = lib.pdf_get(list(ids_by_title(lib).values()))
        (failed,) = report.failed
        assert failed.why.startswith("refused: the link is to a link-local address (")
        assert failed.line() == f"{failed.paper_id}: {failed.why} ({link})"
        assert lib.pdf_list() == []


def test_a_loopback_link_needs_the_setting(tmp_path: Path, served: ReplayServer) -> None:
    with open_with(tmp_path / "lib", {"Preemptive IE": f"{served.url}/naacl.pdf"},
                   private_hosts=False) as lib:
        report = lib.pdf_get(list(ids_by_title(lib).values()))
        (failed,) = report.failed
        assert failed.why == ("refused: the link is to a loopback address (127.0.0.1); "
                              "`pdf.private_hosts: true` allows links to this machine and "
                              "private networks")
        assert served.requests == []  # never asked
        assert lib.search("has:pdf").total == 0


def test_the_address_connected_to_is_checked_too(tmp_path: Path, served: ReplayServer,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A name that resolved to a public address when the link was checked and to this
    machine when connecting (DNS rebinding) is refused by the client before it asks."""
    monkeypatch.setattr(download, "refusal", lambda url, allowed: None)  # "it was public"
    with open_with(tmp_path / "lib", {"Preemptive IE": f"{served.url}/naacl.pdf"},
                   private_hosts=False) as lib:
        (failed,) = lib.pdf_get(list(ids_by_title(lib).values())).failed
        assert failed.why.endswith("connected: a loopback address (127.0.0.1), refused")
        assert served.requests == [] and lib.pdf_list() == []


def test_a_configured_source_on_this_machine_allows_its_kind(tmp_path: Path,
                                                            served: ReplayServer) -> None:
    """A reader whose arXiv mirror is on 127.0.0.1 fetches PDFs from there too."""
    with open_with(tmp_path / "lib", {"Preemptive IE": f"{served.url}/naacl.pdf"},
                   fetch={"arxiv_url": served.url}, private_hosts=False) as lib:
        report = lib.pdf_get(list(ids_by_title(lib).values()))
        assert [o.status for o in report.outcomes] == ["fetched"]


def test_which_kinds_are_allowed() -> None:
    public = {addresses.PUBLIC}
    assert allowed_kinds(FetchSettings(), False) == public
    assert allowed_kinds(FetchSettings(), True) == public | {addresses.LOOPBACK,
                                                             addresses.PRIVATE}
    assert allowed_kinds(FetchSettings(dblp_url="http://localhost:8000"), False) == \
        public | {addresses.LOOPBACK}
    assert allowed_kinds(FetchSettings(arxiv_url="http://10.1.2.3"), False) == \
        public | {addresses.PRIVATE}
    # a link-local source does not make link-local links allowed
    assert allowed_kinds(FetchSettings(arxiv_url="http://169.254.169.254"), True) == \
        public | {addresses.LOOPBACK, addresses.PRIVATE}
    assert refusal("http://10.1.2.3/a.pdf", public) == (
        "refused: the link is to a private address (10.1.2.3); `pdf.private_hosts: true` "
        "allows links to this machine and private networks")
    assert refusal("http://192.168.1.1/a.pdf", allowed_kinds(FetchSettings(), True)) is None
    assert refusal("http://169.254.169.254/a.pdf", allowed_kinds(FetchSettings(), True)) \
        .startswith("refused: the link is to a link-local address (169.254.169.254)")


def test_the_cli_says_a_refused_link_in_one_line(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    link = "http://169.254.169.254/latest/meta-data/iam.pdf"
    open_with(root, {"Metadata": link}).close()
    config = write_config(tmp_path / "lib-config")
    assert config_mod.load(config).settings.pdf.private_hosts is True
    done = forked_cli.run(["paper-tui", "--library", str(root), "--config", str(config),
                           "pdf", "get", "--query", ""], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert line.startswith("paper-tui: ") and line.endswith(f"never asked ({link})")
    assert "link-local address (169.254.169.254)" in line
