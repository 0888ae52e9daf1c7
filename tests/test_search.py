"""The query language on a small real library: every operator, folding, fuzzy, suggestions,
facets, more-like-this, highlights and sorting."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.index import fragments
from paper_tui.library import Library

PAPERS = [
    {"title": "Running Robots on Rough Terrain", "authors": ["Emanuele Rodolà", "Ann Lee"],
     "abstract": "We study legged robots that run over rough ground using model predictive "
                 "control.", "venue": "icra", "year": 2021},
    {"title": "MemR$^3$: Memory Retrieval with Reflection",
     "authors": ["Bo Chen"], "abstract": "A backend-agnostic memory agent for long "
     "conversations.", "venue": "nips", "year": 2025},
    {"title": "L$^2$EAP: Lean Environment Agentic Proving", "authors": ["Cara Diaz"],
     "abstract": "Agents that write Lean proofs with feedback from the environment.",
     "venue": "iclr", "year": 2024},
    {"title": "Graph Neural Networks for Molecules", "authors": ["Dan Evans"],
     "abstract": "Message passing graph networks predict molecular properties.",
     "venue": "icml", "year": 2019},
    {"title": "Attention Is Not All You Need for Graphs", "authors": ["Eve Fox"],
     "abstract": "Transformers on graph data need positional encodings; we compare with "
                 "message passing networks.", "venue": "nips", "year": 2023},
    {"title": "Learning to Rank with Transformers", "authors": ["Fay Gray"],
     "abstract": "A neural ranking model for search engines trained with pairwise losses.",
     "venue": "sigir", "year": 2022},
    {"title": "Rough Sets in Data Mining", "authors": ["Gus Hall"],
     "abstract": "Classic rough set theory applied to tabular data.", "venue": "kdd",
     "year": 2008},
]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def lib(tmp_path: Path) -> Iterator[Library]:
    library = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    report = library.import_paths([write_jsonl(tmp_path / "in" / "papers.jsonl", PAPERS)])
    assert report.added == len(PAPERS)
    yield library
    library.close()


def titles(lib: Library, query: str, **kw) -> list[str]:
    page = lib.search(query, **kw)
    assert page.error is None, page.error
    return [hit.paper.display_title for hit in page.hits]


def first_words(lib: Library, query: str, **kw) -> set[str]:
    return {t.split()[0].rstrip(":") for t in titles(lib, query, **kw)}


def test_snowball_stemming_matches_word_forms(lib: Library) -> None:
    # Whoosh's Porter stemmer makes "running" "runn"; Snowball makes it "run".
    assert first_words(lib, "runs") == {"Running"}
    assert first_words(lib, "running") == {"Running"}
    assert first_words(lib, "ranking") == {"Learning"}


def test_all_words_first_then_partial_matches(lib: Library) -> None:
    found = titles(lib, "graph message molecules")
    assert found[0] == "Graph Neural Networks for Molecules"
    assert "Attention Is Not All You Need for Graphs" in found[1:]  # partial: listed below


def test_phrase(lib: Library) -> None:
    assert first_words(lib, '"message passing graph"') == {"Graph"}
    assert first_words(lib, '"graph message passing"') == set()
    assert first_words(lib, '"learning to rank"') == {"Learning"}  # stop words skipped alike
    assert first_words(lib, 'title:"neural networks"') == {"Graph"}


def test_boolean_operators_and_parentheses(lib: Library) -> None:
    assert first_words(lib, "rough AND robots") == {"Running"}
    assert first_words(lib, "memory OR lean") == {"MemR³", "L²EAP"}
    assert first_words(lib, "rough NOT robots") == {"Rough"}
    assert first_words(lib, "rough -robots") == {"Rough"}
    # exclusions alone: every paper but those (they found nothing)
    assert len(lib.results("-robots")) == len(lib.results("NOT robots")) == len(PAPERS) - 1
    assert len(lib.results("-robots -graph")) == len(lib.results("NOT robots NOT graph"))
    assert len(lib.results("-robots -graph")) < len(PAPERS) - 1
    assert first_words(lib, "(memory OR lean) AND proofs") == {"L²EAP"}
    assert first_words(lib, "graph AND xyzzy") == set()  # a word no paper has
    assert first_words(lib, "graph xyzzy") == {"Graph", "Attention"}  # …listed as partial


def test_fields(lib: Library) -> None:
    assert first_words(lib, "title:graph") == {"Graph", "Attention"}
    assert first_words(lib, "abstract:transformers") == {"Attention"}
    assert first_words(lib, "author:rodola") == {"Running"}
    assert first_words(lib, "venue:neurips") == {"MemR³", "Attention"}
    assert first_words(lib, "year:2019") == {"Graph"}
    assert first_words(lib, "year:2021..2023") == {"Running", "Attention", "Learning"}
    assert first_words(lib, "year:>=2024") == {"MemR³", "L²EAP"}
    assert first_words(lib, "year:2024..") == {"MemR³", "L²EAP"}  # open ranges, both ends
    assert first_words(lib, "year:..2018") == first_words(lib, "year:<2019") == {"Rough"}
    assert first_words(lib, "year:<2019") == {"Rough"}
    assert first_words(lib, "graph year:>2019") == {"Attention"}


def test_accent_and_latex_folding(lib: Library) -> None:
    assert first_words(lib, "author:Rodolà") == first_words(lib, "author:RODOLA") == {"Running"}
    for query in ("MemR$^3$", "MemR3", "memr³"):
        assert first_words(lib, query) == {"MemR³"}, query
    for query in ("L$^2$EAP", "L2EAP", "l²eap"):
        assert first_words(lib, query) == {"L²EAP"}, query


def test_prefix_and_fuzzy(lib: Library) -> None:
    assert first_words(lib, "transform*") == {"Attention", "Learning"}
    assert first_words(lib, "molecul*") == {"Graph"}
    assert first_words(lib, "moleclues~2") == {"Graph"}
    assert first_words(lib, "robts~2") == {"Running"}


def test_empty_query_lists_everything_by_venue_year_title(lib: Library) -> None:
    page = lib.search("", limit=None)
    assert page.total == len(PAPERS)
    keys = [(p.venue, -(p.year or 0), p.display_title.lower()) for p in
            (h.paper for h in page.hits)]
    assert keys == sorted(keys)


def test_sort_by_year_and_title(lib: Library) -> None:
    years = [h.paper.year for h in lib.search("", sort="year", limit=None).hits]
    assert years == sorted(years, reverse=True)
    found = titles(lib, "graph OR rough", sort="title")
    assert found == sorted(found, key=str.lower)


@pytest.mark.parametrize("query", ['"unclosed phrase', "(graph", "graph)", "year:twenty",
                                   "year:2023..2019", "colour:red", "graph AND", "OR graph",
                                   "starred:maybe", "title:"])
def test_invalid_query_is_a_clear_error_not_an_exception(lib: Library, query: str) -> None:
    page = lib.search(query)
    assert page.error and page.hits == [] and page.total == 0
    results = lib.results(query)
    assert results.error == page.error and len(results) == 0


def test_no_hits_suggests_a_spelling(lib: Library) -> None:
    page = lib.search("moleclues")
    assert page.total == 0
    assert page.suggestion == "molecules"
    assert lib.results("graf moleclues").suggestion == "graph molecules"
    assert lib.search("graph").suggestion is None
    assert lib.search("the").suggestion is None  # a stop word is not a misspelling


def test_letters_with_a_stroke_fold_to_their_letter(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        lib.import_paths([write_jsonl(tmp_path / "in" / "names.jsonl", [
            {"title": "Attention for the Encyclopædia", "abstract": "Sequence models.",
             "authors": ["Łukasz Kaiser", "Anne Jørgensen", "Đorđe Miladinović"]}])])
        for query in ("author:lukasz", "author:Łukasz", "author:jorgensen", "author:dorde",
                      "encyclopaedia", "Encyclopædia"):
            assert lib.search(query).total == 1, query


def test_a_swapped_pair_of_letters_is_the_closest_spelling(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        lib.import_paths([write_jsonl(tmp_path / "in" / "near.jsonl", [
            {"title": "Neural fields for graph search", "abstract": "A neural method."},
            {"title": "Proofs in Nuprl", "abstract": "Nuprl and a grape of tactics."}])])
        # "nuprl" and "grape" share a longer start with the misspellings, but one swap of
        # two letters ("ue" for "eu") is the likelier slip than two letters changed
        assert lib.search("nueral grpah").suggestion == "neural graph"
        assert lib.search("nuprk").suggestion == "nuprl"


def test_highlights_are_spans_of_display_text(lib: Library) -> None:
    hit = lib.search("graph passing").hits[0]
    paper = hit.paper
    assert [paper.display_title[s:e] for s, e in hit.highlights["title"]] == ["Graph"]
    assert [paper.display_abstract[s:e] for s, e in hit.highlights["abstract"]] == \
        ["passing", "graph"]
    hit = lib.search("memr3").hits[0]
    assert [hit.paper.display_title[s:e] for s, e in hit.highlights["title"]] == ["MemR³"]
    results = lib.results("title:robots")
    assert results.highlights(0) == {"title": [(8, 14)]}  # "Robots"; abstract not asked
    assert hit.score is not None and hit.score > 0
    text = paper.display_abstract
    assert fragments(text, hit.highlights.get("abstract", [])) == ""
    assert "«graph»" in fragments(text, [(s, e) for s, e in [(text.index("graph"),
                                                               text.index("graph") + 5)]])


def test_facets(lib: Library) -> None:
    facets = lib.facets("graph")
    assert facets["venue"] == {"ICML": 1, "NeurIPS": 1}
    assert facets["year"] == {"2023": 1, "2019": 1}
    everything = lib.facets("")
    assert sum(everything["venue"].values()) == len(PAPERS)
    assert lib.facets("(broken") == {}


def test_more_like_this(lib: Library) -> None:
    graph = lib.search("title:molecules").hits[0].paper
    similar = lib.similar(graph.id)
    assert similar.error is None
    assert similar.paper(0).display_title == "Attention Is Not All You Need for Graphs"
    assert graph.id not in {similar.paper(i).id for i in range(len(similar))}


def test_result_set_is_lazy_and_indexable(lib: Library) -> None:
    results = lib.results("")
    assert len(results) == results.total == len(PAPERS)
    target = lib.search("memr3").hits[0].paper
    i = results.index_of(target.id)
    assert i is not None and results.paper(i).id == target.id
    assert results.score(0) is None
    ranked = lib.results("graph OR rough OR memory")
    assert [ranked.paper(i).id for i in range(len(ranked))] == \
        [h.paper.id for h in lib.search("graph OR rough OR memory").hits]
    with pytest.raises(IndexError):
        ranked.paper(len(ranked))


def test_annotation_fields_are_searchable_right_after_a_change(lib: Library) -> None:
    paper = lib.search("memr3").hits[0].paper
    notes = lib.annotations
    notes.set_status([paper.id], "to-read")
    notes.set_starred([paper.id], True)
    notes.add_tags([paper.id], ["to-cite", "Memory"])
    notes.set_note(paper.id, "Compare with retrieval baselines")
    lib.create_list("Reading group")
    lib.add_to_list("reading group", [paper.id])
    # no flush, no save: the next search sees the change (the overlay is memory)
    assert first_words(lib, "tag:to-cite") == {"MemR³"}
    assert first_words(lib, "tag:memory") == {"MemR³"}
    assert first_words(lib, "tag:to-*") == {"MemR³"}
    assert first_words(lib, "status:to-read") == {"MemR³"}
    assert first_words(lib, "starred:yes") == {"MemR³"}
    assert first_words(lib, "list:\"reading group\"") == {"MemR³"}
    assert first_words(lib, "note:baseline") == {"MemR³"}
    assert first_words(lib, 'note:"retrieval baselines"') == {"MemR³"}
    assert first_words(lib, 'note:"baselines retrieval"') == set()
    assert first_words(lib, "tag:to-cite AND memory") == {"MemR³"}
    assert first_words(lib, "tag:to-cite AND graph") == set()
    assert len(lib.results("starred:no")) == len(PAPERS) - 1
    assert len(lib.results("NOT tag:to-cite")) == len(PAPERS) - 1
    assert len(lib.results("-tag:to-cite graph")) == len(lib.results("graph"))
    assert len(lib.results("-tag:to-cite")) == len(PAPERS) - 1
    assert lib.facets("")["tag"] == {"memory": 1, "to-cite": 1}
    assert lib.facets("graph")["tag"] == {}
    notes.remove_tags([paper.id], ["to-cite", "memory"])
    assert first_words(lib, "tag:to-cite") == set()
    assert first_words(lib, "memr3") == {"MemR³"}  # the paper itself is still there


def test_title_words_as_typed_rank_first(tmp_path: Path) -> None:
    papers = [
        {"title": "Dynamics modeling of structure-varying chains for free-flying robots",
         "abstract": "Kinematic chains in orbit.", "venue": "icra", "year": 2008},
        {"title": "Dynamic modeling of a hybrid structure robot",
         "abstract": "An eel-like swimming machine.", "venue": "icra", "year": 2007},
    ]
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        lib.import_paths([write_jsonl(tmp_path / "p.jsonl", papers)])
        assert titles(lib, "robot structure dynamic")[0].startswith("Dynamic modeling")
        assert titles(lib, "robots structure dynamics")[0].startswith("Dynamics modeling")


def test_status_new_is_every_paper_without_a_triage_status(lib: Library) -> None:
    paper = lib.search("memr3").hits[0].paper
    lib.annotations.set_status([paper.id], "read")
    assert len(lib.results("status:new")) == len(PAPERS) - 1
    assert first_words(lib, "-status:new") == {"MemR³"}
    assert first_words(lib, "NOT status:new") == {"MemR³"}
    assert first_words(lib, "memory status:new") == set()
    assert lib.facets("")["status"] == {"new": len(PAPERS) - 1, "read": 1}


def test_source_field_finds_one_imported_file(lib: Library, tmp_path: Path) -> None:
    lib.import_paths([write_jsonl(tmp_path / "in" / "extra.jsonl", [
        {"title": "An Extra Paper", "abstract": "Nothing else mentions this.", "year": 2020}])])
    assert first_words(lib, "source:extra-jsonl") == {"An"}
    assert len(lib.results("source:papers-jsonl")) == len(PAPERS)


def test_result_ids_without_loading_papers(lib: Library) -> None:
    for query in ("", "graph", "rough OR memory"):
        results = lib.results(query)
        assert results.ids() == [results.paper(i).id for i in range(len(results))]
