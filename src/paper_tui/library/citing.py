"""Citing from the library: the citation keys given out (remembered in ``citekeys.yaml``,
never changed once given), a citation in a style (built-in or CSL), and the ``.bib``
files linked to reading lists, kept up to date after each change (and when the library
closes), following their list when it is renamed.

:class:`~paper_tui.library.Library` builds one :class:`Citing` when it opens and hands it
the parts it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from paper_tui.errors import PaperTuiError, StoreError, StyleError
from paper_tui.library.records import Citation
from paper_tui.model import Paper
from paper_tui.store import ReadingList
from paper_tui.store.bib_links import BibLinks
from paper_tui.store.citekeys import CiteKeys
from paper_tui.store.reading_lists import ReadingLists
from paper_tui.trust import atomic
from paper_tui.trust.inert import shown_name


class Citing:
    """The citation keys, citations and linked ``.bib`` files of one library (``root``),
    whose reading lists are ``lists`` and whose papers ``lookup`` finds."""

    def __init__(self, root: Path, lists: ReadingLists,
                 lookup: Callable[[str], Paper | None], style: str) -> None:
        """``style``: the citation style when none is asked for (the setting)."""
        self.lists = lists
        self.lookup = lookup
        self.style = style
        self.citekeys = CiteKeys(root)
        self.bib_links = BibLinks(root)
        self._bib_state: tuple[int, int] | None = None
        self.bib_problems: list[str] = []
        """What the last look at the linked ``.bib`` files could not write (one line each)."""
        self._lists_at_open = self._linked_lists()

    # -- keys and citations ------------------------------------------------------------------
    def citation_keys(self, papers: Sequence[Paper]) -> dict[str, str]:
        """Paper id -> the key each of ``papers`` is cited under, given out now: a key
        once given out is remembered (``citekeys.yaml``) and never changes; a new one
        collides with none given before."""
        from paper_tui import citations  # the LaTeX encoder: only when asked

        batch = list(papers)
        return self.citekeys.give(lambda given: citations.citation_keys(batch, given))

    def cite(self, papers: Sequence[Paper], style: str | None = None, *,
             in_text: bool = False, preview: bool = False) -> Citation:
        """The citations of ``papers`` in ``style`` (default: the ``citation_style``
        setting): a built-in style, a CSL style's id or a ``.csl`` file; one entry per
        paper; ``in_text``: the in-text form. Their keys are given out (see
        :meth:`citation_keys`), unless this is only a ``preview``. StyleError (one line)
        for a style that cannot be used."""
        from paper_tui import citations

        configured = style is None
        style = style or self.style
        try:
            citations.check_style(style)
            given = self.citekeys.given() if preview else self.citation_keys(papers)
            cited = citations.render(papers, style, given=given, in_text=in_text)
        except StyleError as exc:
            if configured:
                raise StyleError(f"{exc} (citation_style in the config)") from None
            raise
        return Citation(cited.text, style,
                        citations.describe(list(cited.keys.values()), style), cited.html)

    @staticmethod
    def styles(words: str = "") -> list[tuple[str, str]]:
        """``(id, title)`` of every citation style whose id or title holds ``words``: the
        built-in ones, then the CSL styles collection's (no library needed)."""
        from paper_tui.citations import styles

        return styles.search(words)

    @staticmethod
    def load_style(style: str) -> None:
        """Parse a CSL style now, so that rendering it later is quick (the app's picker
        does it in a worker); StyleError when it cannot be used."""
        from paper_tui.citations import csl, styles

        csl.load(styles.resolve(style))

    # -- linked .bib files -------------------------------------------------------------------
    def link_bib(self, name: str, file: Path | str) -> Path:
        """Keep ``file`` a ``.bib`` of list ``name`` from now on (written now): returns
        the file as remembered (an absolute path)."""
        found = self.lists.get(name)
        if found is None:
            raise StoreError(f"no reading list named {name!r}")
        path = Path(file).expanduser().resolve()
        if path.is_dir():
            raise StoreError(f"{shown_name(path)}: is a directory; give a .bib file's name")
        try:
            atomic.refuse_special(path)  # nothing read, the link not saved
        except atomic.NotARegularFileError as exc:
            raise StoreError(f"{shown_name(path)}: {exc.strerror}; give a .bib "
                             "file's name") from None
        problem = self._write_bib(found.name, path)
        if problem is not None:
            raise StoreError(problem)
        self.bib_links.link(found.name, path)
        return path

    def unlink_bib(self, name: str) -> Path | None:
        """Stop keeping list ``name``'s ``.bib`` up to date (the file stays); the file it
        had, None when it had none."""
        found = self.lists.get(name)
        return self.bib_links.unlink(found.name if found is not None else name)

    def linked_bibs(self) -> dict[str, Path]:
        """List name -> its linked ``.bib`` file."""
        return self.bib_links.all()

    def rename_list(self, old: str, new: str) -> None:
        """Rename a list (:class:`StoreError` when the new name is taken or empty); its
        linked ``.bib`` file, if any, follows it."""
        found = self.lists.get(old)
        self.lists.rename(old, new)
        renamed = self.lists.get(new)
        linked = self.bib_links.all().get(found.name) if found is not None else None
        if found is not None and renamed is not None and linked is not None:
            self.bib_links.unlink(found.name)
            self.bib_links.link(renamed.name, linked)

    def delete_list(self, name: str) -> None:
        """Delete a list; its papers stay in the library (and its linked ``.bib`` file,
        if any, stays as it was, no longer kept up to date)."""
        found = self.lists.get(name)
        self.lists.delete(name)
        if found is not None:
            self.bib_links.unlink(found.name)

    def update_linked_bibs(self) -> list[str]:
        """Rewrite each linked ``.bib`` file whose list changed (atomically; a file that
        holds its text already is left alone); one line per file that could not be
        written."""
        return list(self._update_bibs().values())

    def close(self) -> None:
        """Bring the linked ``.bib`` files up to date: StoreError naming one that could
        not be, when this session changed its list (a broken link is no failure of a
        ``list`` or a ``search``)."""
        if self.bib_links.all():
            before = self._lists_at_open
            problems = [problem for name, problem in self._update_bibs().items()
                        if self.lists.get(name) != before.get(name)]
            if problems:
                raise StoreError(" · ".join(problems))

    def after_pass(self) -> None:
        """After each pass of the annotation saver (within a second of a change, from
        its thread): rewrite the linked ``.bib`` files if a list, a link or a key
        changed since the last look."""
        self.bib_links.refresh()  # a link made by a command while this library is open
        state = (self.lists.store.version, self.bib_links.version)
        if state == self._bib_state or not self.bib_links.all():
            self._bib_state = state
            return
        self._bib_state = state
        self.bib_problems = self.update_linked_bibs()

    def _update_bibs(self) -> dict[str, str]:
        """:meth:`update_linked_bibs`, by list name."""
        problems = {}
        for name, path in self.bib_links.all().items():
            problem = self._write_bib(name, path)
            if problem is not None:
                problems[name] = problem
        return problems

    def _linked_lists(self) -> dict[str, ReadingList | None]:
        """Each linked list as it is now: what tells :meth:`close` whether this session
        changed it."""
        return {name: self.lists.get(name) for name in self.bib_links.all()}

    def _write_bib(self, name: str, path: Path) -> str | None:
        """Bring list ``name``'s ``.bib`` at ``path`` up to date; why it could not be (one
        line), None when it is (or the list is gone)."""
        from paper_tui.citations import bib_file

        listed = self.lists.get(name)
        if listed is None:
            return None
        papers = [p for p in map(self.lookup, listed.ids) if p is not None]
        missing = [pid for pid in listed.ids if self.lookup(pid) is None]
        try:
            keys = self.citation_keys(papers)
            bib_file.write_if_changed(path, bib_file.bib_text(listed.name, papers, keys,
                                                              missing))
        except OSError as exc:
            return (f"{shown_name(path)}: cannot write the .bib of list {listed.name!r} "
                    f"({exc.strerror or exc})")
        except PaperTuiError as exc:
            return (f"{shown_name(path)}: the .bib of list {listed.name!r} is not up to "
                    f"date: {exc}")
        return None


class CitingDoor:
    """The part of the library's door that hands citations, keys, linked ``.bib`` files and
    the renames and deletions they follow to :class:`Citing` (:class:`~paper_tui.library.
    Library` is one; it sets ``_citing``)."""

    _citing: Citing

    def rename_list(self, old: str, new: str) -> None:
        """Rename a list (StoreError when the name is taken or empty); its ``.bib`` follows."""
        self._citing.rename_list(old, new)

    def delete_list(self, name: str) -> None:
        """Delete a list; its papers stay (its linked ``.bib`` stays, no longer updated)."""
        self._citing.delete_list(name)

    def citation_keys(self, papers: Sequence[Paper]) -> dict[str, str]:
        """Paper id -> its citation key, given out now and never changed after."""
        return self._citing.citation_keys(papers)

    def cite(self, papers: Sequence[Paper], style: str | None = None, *,
             in_text: bool = False, preview: bool = False) -> Citation:
        """The citations of ``papers`` in ``style`` (default: the setting); StyleError."""
        return self._citing.cite(papers, style, in_text=in_text, preview=preview)

    @staticmethod
    def citation_styles(words: str = "") -> list[tuple[str, str]]:
        """``(id, title)`` of every citation style whose id or title holds ``words``."""
        return Citing.styles(words)

    @staticmethod
    def load_citation_style(style: str) -> None:
        """Parse a CSL style now (the app's picker, in a worker); StyleError."""
        Citing.load_style(style)

    @property
    def bib_problems(self) -> list[str]:
        """What the last look at the linked ``.bib`` files could not write (one line each)."""
        return self._citing.bib_problems

    def link_bib(self, name: str, file: Path | str) -> Path:
        """Keep ``file`` a ``.bib`` of list ``name`` from now on; the file, absolute."""
        return self._citing.link_bib(name, file)

    def unlink_bib(self, name: str) -> Path | None:
        """Stop keeping list ``name``'s ``.bib`` up to date; the file it had, or None."""
        return self._citing.unlink_bib(name)

    def linked_bibs(self) -> dict[str, Path]:
        """List name -> its linked ``.bib`` file."""
        return self._citing.linked_bibs()

    def update_linked_bibs(self) -> list[str]:
        """Rewrite each linked ``.bib`` whose list changed; one line per failure."""
        return self._citing.update_linked_bibs()
