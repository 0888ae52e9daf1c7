"""SOURCE arguments read one canonical way, anything else one line listing the forms; the
file name a source's list is stored under (it names the library source)."""

from __future__ import annotations

import pytest

from paper_tui.errors import FetchError
from paper_tui.fetch.listing import file_name
from paper_tui.fetch.spec import parse


@pytest.mark.parametrize(("text", "canonical", "kind"), [
    ("openreview:ICLR.cc/2025/Conference", "openreview:ICLR.cc/2025/Conference", "openreview"),
    (" OpenReview:NeurIPS.cc/2024/Conference/ ", "openreview:NeurIPS.cc/2024/Conference",
     "openreview"),
    ("paperlists:ICLR2025", "paperlists:iclr2025", "paperlists"),
    ("paperlists:nips2018.json", "paperlists:nips2018", "paperlists"),
    ("arxiv:cs.LG", "arxiv:cs.LG", "arxiv"),
    ("arxiv:hep-th", "arxiv:hep-th", "arxiv"),
    ("arxiv:astro-ph.CO", "arxiv:astro-ph.CO", "arxiv"),
    ("arxiv:2401.01234v3", "arxiv:2401.01234", "arxiv-ids"),
    ("arxiv:2401.01234, 2312.00001,2401.01234", "arxiv:2401.01234,2312.00001", "arxiv-ids"),
    ("arxiv:hep-th/9901001v2", "arxiv:hep-th/9901001", "arxiv-ids"),
    ("dblp:conf/nips/neurips2024", "dblp:conf/nips/neurips2024", "dblp"),
    ("dblp:conf/nips/2024", "dblp:conf/nips/neurips2024", "dblp"),
    ("dblp:conf/nips/2019", "dblp:conf/nips/nips2019", "dblp"),
    ("dblp:conf/iclr/2024", "dblp:conf/iclr/iclr2024", "dblp"),
    ("dblp:db/conf/icml/icml2023.bht", "dblp:conf/icml/icml2023", "dblp"),
    ("dblp:journals/jmlr/jmlr25", "dblp:journals/jmlr/jmlr25", "dblp"),
    ("https://example.org/lists/nips2018.json", "https://example.org/lists/nips2018.json",
     "url"),
])
def test_sources_read_canonically(text: str, canonical: str, kind: str) -> None:
    spec = parse(text)
    assert (spec.text, spec.kind) == (canonical, kind)
    assert parse(spec.text) == spec  # the canonical form reads back as itself


@pytest.mark.parametrize("text", [
    "", "iclr2025", "semantic:1234", "openreview:", "openreview:ICLR cc/2025",
    "paperlists:iclr", "paperlists:2025", "arxiv:", "arxiv:2401.01234,cs.LG", "arxiv:cs LG",
    "dblp:nips2024", "dblp:conf/nips", "ftp://example.org/x.json", "https://",
    "https://exa mple.org/x.json",
])
def test_anything_else_is_one_line_listing_the_forms(text: str) -> None:
    with pytest.raises(FetchError) as caught:
        parse(text)
    line = str(caught.value)
    assert "\n" not in line and "not a source: use openreview:VENUE_ID" in line
    assert "dblp:KEY" in line and "http(s)://" in line


@pytest.mark.parametrize(("text", "name"), [
    ("openreview:ICLR.cc/2025/Conference", "openreview-iclr-cc-2025-conference.json"),
    ("paperlists:iclr2025", "iclr2025.paperlists.json"),  # the importer reads NAMEYEAR
    ("arxiv:cs.LG", "arxiv-cs-lg.atom"),
    ("arxiv:2401.01234,2312.00001", "arxiv-2401-01234-2312-00001.atom"),
    ("dblp:conf/nips/2024", "dblp-conf-nips-neurips2024.jsonl"),
    ("https://example.org/lists/nips2018.json?raw=1", "nips2018.example-org.json"),
    ("https://example.org/data/iclr2024.jsonl.gz", "iclr2024.example-org.jsonl.gz"),
    ("https://example.org/", "example-org"),
])
def test_the_stored_file_is_named_from_the_source(text: str, name: str) -> None:
    assert file_name(parse(text)) == name


@pytest.mark.parametrize(("url", "named"), [
    ("https://raw.githubusercontent.com/papercopilot/paperlists/main/iclr/iclr2018.json",
     "paperlists:iclr2018"),
    ("https://github.com/papercopilot/paperlists/blob/main/nips/nips2018.json",
     "paperlists:nips2018"),
    ("HTTPS://Raw.GitHubUserContent.com/papercopilot/paperlists/main/iclr/iclr2018.json",
     "paperlists:iclr2018"),
    ("https://api2.openreview.net/notes?content.venueid=ICLR.cc/2018/Conference",
     "openreview:ICLR.cc/2018/Conference"),
    ("https://dblp.org/db/conf/iclr/iclr2018.html", "dblp:conf/iclr/iclr2018"),
    # not the list a source fetches: itself
    ("https://raw.githubusercontent.com/papercopilot/paperlists/main/iclr/nips2018.json", None),
    ("https://api2.openreview.net/notes?content.venueid=X&offset=1000", None),
    ("https://example.org/iclr/iclr2018.json", None),
])
def test_a_url_of_a_source_s_list_is_that_source(url: str, named: str | None) -> None:
    from paper_tui import config
    from paper_tui.fetch.spec import canonical

    settings = config.load().settings.fetch
    assert canonical(parse(url), settings).text == (named or url)
