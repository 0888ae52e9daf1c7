"""Citations: every paper cites as BibTeX that bibtexparser reads back faithfully.

``tests/data/papers-ml-1000.jsonl.gz`` is a fixed sample of the shared corpus, made with::

    lines = [l for l in gzip.decompress(corpus).split(b"\\n") if l.strip()]
    picked = sorted(random.Random(7).sample(range(len(lines)), 1000))
    gzip.compress(b"\\n".join(lines[i] for i in picked) + b"\\n", 9, mtime=0)
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.bparser import BibTexParser
from bibtexparser.customization import splitname
from pylatexenc.latex2text import LatexNodes2Text

from paper_tui import citations
from paper_tui.errors import ConfigError
from paper_tui.importers import import_file
from paper_tui.importers.common import make_paper
from paper_tui.library import Library
from paper_tui.model import Paper

SAMPLE = Path(__file__).parent / "data" / "papers-ml-1000.jsonl.gz"


def parse(text: str) -> list[dict]:
    return bibtexparser.loads(text, parser=BibTexParser(common_strings=True)).entries


_LATEX = LatexNodes2Text(math_mode="text")


def decode(latex: str) -> str:
    """BibTeX field -> text, by a reader independent of ours (pylatexenc)."""
    return _LATEX.latex_to_text(latex) if re.search(r"[\\{}$~]", latex) else latex


def letters(text: str) -> str:
    """Case-, accent- and markup-blind comparison form (``ı́`` and ``í`` agree)."""
    text = unicodedata.normalize("NFKD", text).replace("ı", "i")
    return "".join(ch for ch in text.casefold()
                   if ch.isalnum() and unicodedata.category(ch) != "Lm")  # ``ˆ`` of ``^``


def names(entry: dict) -> list[str]:
    """The entry's authors as ``First von Last Jr`` strings, decoded."""
    if "author" not in entry:
        return []
    out = []
    for name in re.split(r"\s+and\s+", entry["author"].replace("\n", " "), flags=re.I):
        parts = splitname(name.strip(), strict_mode=False)
        out.append(decode(" ".join(parts["first"] + parts["von"] + parts["last"]
                                   + parts["jr"])))
    return out


def last_words(authors: list[str]) -> list[str]:
    return [letters(a.split(",")[0].split()[-1] if "," in a else a.split()[-1])
            for a in authors]


def check_round_trip(papers: list[Paper]) -> dict[str, dict]:
    """Cite ``papers`` as one BibTeX text; each entry must read back as its paper."""
    papers = citations.unique_papers(papers)  # a record listed twice is one paper
    text = citations.cite(papers, "bibtex")
    entries = parse(text)
    keys = citations.citation_keys(papers)
    assert len(entries) == len(papers)
    assert len({e["ID"].lower() for e in entries}) == len(entries)
    by_key = {e["ID"]: e for e in entries}
    for paper in papers:
        entry = by_key[keys[paper.id]]
        expected = citations.author_names(paper.authors)
        # one layout for every entry: title and names from the record, accent-blind (a
        # letter T1 cannot set keeps the accent it can: ``ậ`` -> ``â``)
        assert letters(decode(entry["title"])) == letters(paper.display_title), paper.id
        assert [letters(n) for n in names(entry)] == [letters(a) for a in expected], paper.id
        assert entry.get("year") == (str(paper.year) if paper.year else None), paper.id
    return by_key


def test_every_bundled_paper_cites_as_bibtex(library: Library) -> None:
    papers = list(library.papers())
    assert len(papers) == 38
    by_key = check_round_trip(papers)
    for entry in by_key.values():
        assert entry["ENTRYTYPE"] == "inproceedings"
        assert entry["booktitle"] == "Advances in Neural Information Processing Systems"
        assert "author" not in entry
        assert entry["note"].startswith("Authors")
        assert "not given in the source list (NeurIPS 2026)" in entry["note"]


def test_thousand_corpus_papers_cite_as_bibtex() -> None:
    _source, _fmt, records = import_file(SAMPLE)
    papers = [r for r in records if isinstance(r, Paper)]
    assert len(papers) == 1000
    by_key = check_round_trip(papers)
    # One key scheme and one layout, whatever the source's entry: ASCII keys, and the
    # source's fields (pages, publisher …) read into our layout.
    assert all(re.fullmatch(r"[a-z0-9]+", key) for key in by_key)
    with_source = [p for p in papers if citations.source_entry(p) is not None]
    assert len(with_source) > 100
    keys = citations.citation_keys(papers)
    for p in with_source:
        own = citations.source_entry(p)
        assert own is not None
        assert keys[p.id] != own.key or own.key.isalnum()
        assert citations.bibtex(p, keys[p.id]) != p.bibtex
        if re.search(r"\d", own.fields.get("pages", "")):
            assert by_key[keys[p.id]]["pages"].replace("--", "-") == \
                re.sub(r"\s*-+\s*", "-", own.fields["pages"].strip()), p.id


@pytest.mark.parametrize("name", ["acl2022-sample.json", "iclr2018-sample.json",
                                  "icml2019-sample.json", "nips2017-sample.json",
                                  "nips2018-sample.json", "sample.bib"])
def test_imported_samples_cite_as_bibtex(name: str) -> None:
    _source, _fmt, records = import_file(SAMPLE.parent / name)
    papers = [r for r in records if isinstance(r, Paper)]
    assert papers
    check_round_trip(papers)


def paper(title: str = "Deep Learning", authors: tuple[str, ...] = ("Ada Lovelace",),
          venue: str = "NeurIPS", year: int | None = 2020, **extra: str) -> Paper:
    return make_paper(source="test", title=title, abstract="An abstract.", authors=authors,
                      venue=venue, year=year, url=extra.pop("url", "https://example.org/p"),
                      **extra)


def test_latex_specials_survive() -> None:
    title = "Q&A: 100% of #1 costs $5 for a_b, naïve Fréchet Schütze Vulić — «ok»"
    entry = parse(citations.cite([paper(title)], "bibtex"))[0]
    assert decode(entry["title"]) == paper(title).display_title
    for escaped in (r"\&", r"\%", r"\#", r"\$", r"\_", r"Fr{\'e}chet"):
        assert escaped in entry["title"]
    # A character LaTeX (T1) cannot set is left out for BibTeX; kept with utf8 (biblatex)
    assert citations.bibtex_title("Deep 中文 Nets") == "Deep Nets"
    assert citations.bibtex_title("Deep 中文 Fréchet", utf8=True) == "Deep 中文 Fréchet"
    # In a raw title ~ ^ \ { } are LaTeX (the display renders them); in text they are escaped,
    # literal braces without a brace BibTeX would count.
    assert citations.latex_escape("a~b^c\\d{e}") == (
        r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}d\textbraceleft{}e"
        r"\textbraceright{}")


def test_inline_math_is_kept_as_written() -> None:
    raw = r"Sparse $\ell_1$ Recovery and $\widetilde{\mathcal{O}}(\sqrt{T})$ Regret"
    entry = parse(citations.cite([paper(raw)], "bibtex"))[0]
    assert r"{$\ell_1$}" in entry["title"]
    assert r"{$\widetilde{\mathcal{O}}(\sqrt{T})$}" in entry["title"]
    # LaTeX outside math (invalid as written) is rendered, then encoded.
    text_mode = parse(citations.cite([paper(r"Sparsistency of \ell_1-Regularized")],
                                     "bibtex"))[0]
    assert "\\ell_1" not in text_mode["title"]
    assert decode(text_mode["title"]).startswith("Sparsistency of ℓ")
    # Math inside a macro argument: the whole title is rendered (never a stray brace).
    assert citations.bibtex_title(r"\textbf{$x$ model} test") == "x model test"


def test_capitals_are_protected() -> None:
    title = ("BERT and GANs for K-Means in Cross-Domain Q-learning: A Bayesian View of "
             "LLM-Powered Apps")
    field = parse(citations.cite([paper(title)], "bibtex"))[0]["title"]
    for protected in ("{BERT}", "{GANs}", "{K-Means}", "{Q-learning:}", "{LLM-Powered}"):
        assert protected in field
    for plain_word in (" Cross-Domain ", " A ", " Bayesian ", " Apps"):
        assert plain_word in field


def test_authors_last_first() -> None:
    p = paper(authors=("Josef van Genabith", "Martin Luther King Jr.", "Ivan Vulić",
                       "Hinton, Geoffrey", "Plato", "C. Serviere and D. Baudois"))
    entry = parse(citations.cite([p], "bibtex"))[0]
    assert entry["author"] == ("van Genabith, Josef and King, Jr., Martin Luther and "
                               "Vuli{\\'c}, Ivan and Hinton, Geoffrey and Plato and "
                               "Serviere, C. and Baudois, D.")


def test_keys_are_readable_and_unique() -> None:
    a = paper("Attention Is All You Need", ("Ashish Vaswani", "Noam Shazeer"), year=2017)
    b = paper("Attention Is Not Explanation", ("Ashish Vaswani",), year=2017)
    c = paper("Attention, Again", ("Ashish Vaswani",), year=2017)
    assert citations.citation_key(a) == "vaswani2017attention"
    assert citations.cite([a, b, c, a], "key") == \
        "vaswani2017attention,vaswani2017attentiona,vaswani2017attentionb"
    assert [e["ID"] for e in parse(citations.cite([a, b, c], "bibtex"))] == \
        ["vaswani2017attention", "vaswani2017attentiona", "vaswani2017attentionb"]
    named = dataclasses.replace(paper("Long Title", (), year=2026), name="L²EAP")
    assert citations.citation_key(named) == "l2eap2026"
    assert citations.citation_key(paper("The Long Title", (), year=2026)) == "anon2026long"
    assert citations.citation_key(paper("Towards Proper Nouns", ("Émile Zola",))) == \
        "zola2020proper"


def test_source_entry_is_read_for_its_fields_and_written_in_our_layout() -> None:
    own = ("@InProceedings{pmlr-v97-smith19a,\n  title = \t {{Deep} Learning},\n"
           "  author =  {Smith, Jo, and Doe, Ann},\n  booktitle = {Proc. of ICML},\n"
           "  pages = {1--9},\n  month = \t {09--15 Jun},\n  publisher = {PMLR},\n"
           "  pdf = {http://x.org/a.pdf},\n  abstract = {A $\\sqrtT$ & b},\n  year = {2020}\n}")
    first = paper("Deep Learning", ("Jo Smith", "Ann Doe"), bibtex=own)
    second = paper("Deep  Learning", ("Jo Smith", "Ann Doe"), venue="ICML", bibtex=own)
    text = citations.cite([first, second], "bibtex")
    assert text.split("\n\n")[0] == (
        "@inproceedings{smith2020deep,\n  title = {Deep Learning},\n"
        "  author = {Smith, Jo and Doe, Ann},\n  booktitle = {Proc. of ICML},\n"
        "  pages = {1--9},\n  publisher = {PMLR},\n  month = jun,\n  year = {2020},\n"
        "  url = {https://example.org/p}\n}")
    assert [e["ID"] for e in parse(text)] == ["smith2020deep", "smith2020deepa"]
    wrong_paper = paper("Something Else Entirely", ("Jo Smith", "Ann Doe"), bibtex=own)
    assert citations.source_entry(wrong_paper) is None
    assert citations.citation_key(wrong_paper) == "smith2020something"
    broken = paper("Deep Learning", ("Jo Smith", "Ann Doe"), bibtex=own[:-1])
    assert citations.source_entry(broken) is None
    parse(citations.cite([wrong_paper, broken], "bibtex"))


def test_entry_types_and_fields() -> None:
    journal = parse(citations.cite([paper(venue="tmlr")], "bibtex"))[0]
    assert journal["ENTRYTYPE"] == "article"
    assert journal["journal"] == "Transactions on Machine Learning Research"
    misc = parse(citations.cite([paper(venue="", year=None, url="")], "bibtex"))[0]
    assert misc["ENTRYTYPE"] == "misc" and "year" not in misc and "url" not in misc
    acl = parse(citations.cite([paper(venue="acl", url="https://x.org/a_b%20{c}")],
                               "bibtex"))[0]
    assert acl["booktitle"].startswith("Proceedings of the Annual Meeting")
    assert acl["url"] == "https://x.org/a_b%20%7Bc%7D"


def test_plain_markdown_and_key_styles() -> None:
    p = paper("Deep [Nets] *Now*", ("Ada Lovelace", "Alan Turing", "Grace Hopper"))
    assert citations.cite([p], "plain") == (
        "Ada Lovelace, Alan Turing, and Grace Hopper. 2020. Deep [Nets] Now. In Advances in "
        "Neural Information Processing Systems (NeurIPS 2020). https://example.org/p")
    assert citations.cite([p], "markdown") == (
        "[Deep \\[Nets\\] Now](https://example.org/p) — Ada Lovelace, Alan Turing, "
        "Grace Hopper. *NeurIPS* 2020.")
    assert citations.cite([p], "key") == "lovelace2020deep"
    two = citations.cite([p, paper("Other", url="")], "markdown").splitlines()
    assert two[0].startswith("- [Deep") and two[1].startswith("- **Other**")
    assert citations.describe(["lovelace2020deep"], "bibtex") == "BibTeX for lovelace2020deep"
    keys = citations.citation_keys([p, paper("Other")]).values()
    assert citations.describe(list(keys), "plain") == \
        "reference for 2 papers (lovelace2020deep, lovelace2020other)"


def test_unknown_style() -> None:
    with pytest.raises(ConfigError, match="unknown citation style 'apaa'; closest: apa"):
        citations.cite([paper()], "apaa")


def test_names_are_normalized() -> None:
    """No empty name from ``and and``, no trailing comma (both errors in bibtex and biber)."""
    p = paper(authors=("Ondrej Bajgar", "Rudolf Kadlec and and Jan Kleindienst",
                       "Roeder, Geoffrey,", ", ,", "Dalchau, Neil, , Jr"))
    assert parse(citations.cite([p], "bibtex"))[0]["author"] == (
        "Bajgar, Ondrej and Kadlec, Rudolf and Kleindienst, Jan and Roeder, Geoffrey and "
        "Dalchau, Neil, Jr")


def test_letters_latex_can_set() -> None:
    """A letter T1 has no glyph for keeps the accent it can have; ``\\'\\i`` (which biber
    gives back as a dotless i and a combining accent) is written ``\\'{i}``."""
    assert citations.latex_escape("Hồ nhật Agustín Koutnı́k 中") == \
        "H{\\^o} nh{\\^a}t Agust{\\'{i}}n Koutn{\\'{i}}k "
    assert citations.latex_escape("Hồ nhật Koutnı́k ∞", utf8=True) == \
        "Hồ nhật Koutník {\\ensuremath{\\infty}}"


def test_math_latex_can_set() -> None:
    assert citations.bibtex_title(r"Only $\sqrtT$ Regret for $\ell_∞$") == \
        r"Only {$sqrtT$} Regret for {$\ell_{{\ensuremath{\infty}}}$}"


def test_month_is_a_macro() -> None:
    from paper_tui.citations.bibtex import month_macro

    assert [month_macro(m) for m in ("09--15 Jun", "June", "6", "13", "summer", "")] == \
        ["jun", "jun", "jun", "", "", ""]


def test_a_source_entry_without_booktitle_gets_the_venues() -> None:
    own = "@inproceedings{x,\n  title = {Deep Learning},\n  author = {Smith, Jo},\n" \
          "  year = {2020}\n}"
    entry = parse(citations.cite([paper(authors=("Jo Smith",), bibtex=own)], "bibtex"))[0]
    assert entry["booktitle"] == "Advances in Neural Information Processing Systems"
