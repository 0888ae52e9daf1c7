"""No DTD is ever read (issue 34, 5): an arXiv Atom page or file with an internal DTD subset
is refused, in one line naming it, at the ``<!DOCTYPE``; its entities are never expanded.
The old reader (ElementTree on expat) expanded them up to expat's 100x cap: the 10 MB page
below took 1.2 GB and the fetch exited 0. Here in real processes with their address space
capped, against a real server on 127.0.0.1."""

from __future__ import annotations

import resource
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fetch_routes import config_file
from http_replay import ReplayServer, Reply
from paper_tui.trust import safe_xml

MEMORY = 600 << 20
"""Address space for a command reading the 10 MB hostile page (the old one wanted 1.3 GB)."""
ATOM = "http://www.w3.org/2005/Atom"


def hostile_page(entries: int = 34) -> bytes:
    """About 10 MB of Atom whose titles are 100,000 references to a 290-character entity
    (97x: under expat's amplification cap, 1 GB once expanded)."""
    refs = "&a;" * 100_000
    body = "".join(f"<entry><id>http://arxiv.org/abs/2401.{i:05d}v1</id><title>{refs}</title>"
                   "<summary>s</summary></entry>" for i in range(entries))
    return (f'<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY a "{"x" * 290}">]>\n'
            f'<feed xmlns="{ATOM}">{body}</feed>').encode()


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def paper_tui(root: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(root),
                           "--config", str(config), *args], capture_output=True, text=True,
                          timeout=120, preexec_fn=_limited, stdin=subprocess.DEVNULL)


def test_a_fetched_page_with_a_dtd_is_one_line_and_nothing_expanded(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/api/query", Reply(body=hostile_page()))
    config = config_file(tmp_path / "config", http_replay.url, retries=0)
    done = paper_tui(tmp_path / "lib", config, "fetch", "arxiv:2401.00001")
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("paper-tui: arxiv:2401.00001: ") and "DTD" in line, line
    assert "refused" in line and len(line) < 300
    assert not (tmp_path / "lib" / "fetched").exists() or \
        not any((tmp_path / "lib" / "fetched").iterdir())


def test_an_imported_file_with_a_dtd_is_one_line_naming_it(tmp_path: Path) -> None:
    atom = tmp_path / "hostile.atom"
    atom.write_bytes(hostile_page())
    config = tmp_path / "config.yaml"
    config.write_text("bundled_lists: false\n", "utf-8")
    done = paper_tui(tmp_path / "lib", config, "import", str(atom))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert f"{atom}:2: invalid XML: a DTD (<!DOCTYPE>) is refused" in done.stderr
    listed = paper_tui(tmp_path / "lib", config, "list")
    assert listed.returncode == 0 and "xxxxxxxx" not in listed.stdout


@pytest.mark.parametrize("doctype", [
    b'<!DOCTYPE feed [<!ENTITY a "b">]>',  # an internal subset
    b'<!DOCTYPE feed SYSTEM "file:///etc/passwd">',  # an external DTD (XXE)
    b'<!DOCTYPE feed [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>',
    b"<!DOCTYPE feed>",  # even an empty one: nothing in our lists has one
])
def test_any_doctype_is_refused_where_it_starts(doctype: bytes) -> None:
    with pytest.raises(ET.ParseError) as caught:
        safe_xml.fromstring(b'<?xml version="1.0"?>\n' + doctype
                            + f'\n<feed xmlns="{ATOM}"><title>&amp;</title></feed>'.encode())
    assert caught.value.position[0] == 2
    assert str(caught.value).startswith("a DTD (<!DOCTYPE>) is refused: no entity is ever "
                                        "expanded: line 2, column ")


def test_documents_without_a_dtd_read_as_elementtree_reads_them() -> None:
    text = (f'<feed xmlns="{ATOM}" xmlns:arxiv="http://arxiv.org/schemas/atom">'
            '<entry><title a="1">T &amp; &#233; <i>x</i> y</title>'
            '<arxiv:primary_category term="cs.LG"/></entry></feed>').encode()
    ours, theirs = safe_xml.fromstring(text), ET.fromstring(text)
    assert ET.tostring(ours) == ET.tostring(theirs)
    parser = safe_xml.PullParser()
    parser.feed(text)
    parser.close()
    assert [(event, element.tag) for event, element in parser.read_events()][:3] == [
        ("start", f"{{{ATOM}}}feed"), ("start", f"{{{ATOM}}}entry"),
        ("start", f"{{{ATOM}}}title")]
    with pytest.raises(ET.ParseError) as caught:
        safe_xml.fromstring(b"<feed>&undeclared;</feed>")
    assert caught.value.position == (1, 6)


def test_a_team_mates_atom_file_with_a_dtd_is_one_line_of_the_sync(tmp_path: Path) -> None:
    """The team route: a list a team-mate pushes is imported as any file is; a hostile
    Atom one costs one line of the sync (and is quarantined), in bounded memory."""
    from team_helpers import Member, Teammate, bare_repo

    remote = bare_repo(tmp_path / "team.git")
    alice = Member(tmp_path / "alice", "alice")
    alice.sync(remote)
    before = alice.ids()
    Teammate(remote, tmp_path / "eve").push("arXiv picks",
                                            files={"sources/picks.atom": hostile_page()})
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(alice.root),
                           "sync"], capture_output=True, text=True, timeout=300,
                          preexec_fn=_limited, stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    [line] = [line for line in done.stderr.splitlines() if line]
    assert "sources/picks.atom" in line and "DTD" in line, line
    assert alice.ids() == before
