"""Papers out of the library: an id (or a unique prefix of one) resolved, a search's page
and its lazily loaded results in the sort asked for (the index's own sorts, "for-you" from
the reader's recommender, "team" from the team's work), every version of a paper or one
as the ``search.all_versions`` setting says.

:class:`~paper_tui.library.Library` builds one :class:`Finding` when it opens and hands
it the parts it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from paper_tui.config import SearchSettings
from paper_tui.errors import UnknownPaperError
from paper_tui.index import PaperIndex, Results, SearchPage, page_of
from paper_tui.model import Paper
from paper_tui.team.coverage import Lab
from paper_tui.vocabulary import FOR_YOU, RATING_CHANGE, SORTS, TEAM_SORT

if TYPE_CHECKING:
    from paper_tui.recommend import Recommender


class Finding:
    """Look-up and search over ``index``; ``lab()``: the team's work (the "team" sort);
    ``recommender()``: the reader's (the "for-you" sort)."""

    def __init__(self, index: PaperIndex, settings: SearchSettings, lab: Callable[[], Lab],
                 recommender: Callable[[], Recommender]) -> None:
        self.index = index
        self.settings = settings
        self.lab = lab
        self.recommender = recommender

    def resolve(self, id_or_prefix: str) -> str:
        """The full id for an id or a unique prefix of one (:class:`UnknownPaperError`
        for none or several)."""
        key = id_or_prefix.strip()
        if not key:
            raise UnknownPaperError("empty paper id")
        if self.index.get(key) is not None:
            return key
        matches = self.index.ids_with_prefix(key, limit=3)
        if not matches:
            raise UnknownPaperError(f"no paper with id {key!r}")
        if len(matches) > 1:
            raise UnknownPaperError(f"id prefix {key!r} is ambiguous: {', '.join(matches)}, …")
        return matches[0]

    def paper(self, id_or_prefix: str) -> Paper:
        """The paper with this id or unique id prefix (:class:`UnknownPaperError` if none)."""
        paper = self.index.get(self.resolve(id_or_prefix))
        assert paper is not None
        return paper

    def search(self, query: str = "", *, sort: str = "relevance", limit: int | None = 50,
               offset: int = 0, all_versions: bool | None = None) -> SearchPage:
        """A page of ``query``'s hits; ``all_versions``: list every version of a paper
        from two sources (default: the ``search.all_versions`` setting)."""
        if sort not in (FOR_YOU, TEAM_SORT):
            return self.index.search(query, sort=sort, limit=limit, offset=offset,
                                     all_versions=self._all_versions(all_versions))
        return page_of(self.results(query, sort=sort, all_versions=all_versions), limit,
                       offset)

    def sorts(self) -> tuple[str, ...]:
        """The sorts the app offers (its picker, ``ctrl+s``): every one of
        :data:`~paper_tui.vocabulary.SORTS`, but ``rating-change`` only once a paper has
        a rating change (two points of history: a venue fetched again after its ratings
        moved), as a sort that orders nothing would be a step for nothing."""
        if self.index.has_rating_changes():
            return SORTS
        return tuple(sort for sort in SORTS if sort != RATING_CHANGE)

    def _all_versions(self, asked: bool | None) -> bool:
        return self.settings.all_versions if asked is None else asked

    def results(self, query: str = "", *, sort: str = "relevance",
                all_versions: bool | None = None) -> Results:
        """All hits of ``query``, loaded lazily (for the app's results list), in one of
        :data:`~paper_tui.vocabulary.SORTS` ("for-you": what this reader is likeliest to
        want first).

        A query error does not raise: it is in the results' ``error``, with no hits."""
        every = self._all_versions(all_versions)
        if sort == TEAM_SORT:
            from paper_tui.team.sort import TeamOrder

            return TeamOrder(self.index.results(query, all_versions=every), self.lab())
        if sort != FOR_YOU:
            return self.index.results(query, sort=sort, all_versions=every)
        from paper_tui.recommend.for_you import ForYouResults  # scipy: only for this sort

        rec = self.recommender()
        rec.refresh()
        return ForYouResults(self.index.results(query, sort="relevance", all_versions=every),
                             rec)
