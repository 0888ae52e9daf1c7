"""Every result set the app lists is a :class:`~paper_tui.library.Results`: a query's hits
in the index, papers like one, the "for you" order and an opened reading list's papers."""

from __future__ import annotations

from paper_tui.library import FOR_YOU, Library, Results
from paper_tui.tui.screens.lists_screen import ListResults


def test_every_result_set_is_one_kind(library: Library) -> None:
    ids = [paper.id for paper in library.papers()][:3]
    every = {"query": library.results("learning"), "similar": library.similar(ids[0]),
             "for you": library.results("", sort=FOR_YOU),
             "reading list": ListResults(library, [*ids, "gone-2019-abc"])}
    for name, results in every.items():
        assert isinstance(results, Results), name
        first = results.paper(0)
        assert results.ids()[0] == first.id == results.hit(0).paper.id, name
        assert results.index_of(first.id) == 0, name
        assert len(results) == results.total == len(results.ids()), name
        assert (results.sort_label is not None) == (results.sort == FOR_YOU), name
        results.close()
    assert every["reading list"].ids() == ids  # in the list's order, the missing one out
