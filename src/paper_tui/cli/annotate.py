"""Annotation verbs: ``tag``, ``untag``, ``status``, ``star``, ``unstar``, ``note``,
``lists``, ``export``, ``tags``, ``orphans``.

Each change goes through the same core calls the TUI makes, then waits until it is on disk
(``flush``) before the command exits: exit status 0 means the change is durable.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from paper_tui.cli.arguments import list_position
from paper_tui.cli.output import check_output, line, print_json, write_output
from paper_tui.cli.terminal import warn
from paper_tui.errors import QueryError, StoreError
from paper_tui.exports import formats as export
from paper_tui.library import Library, ReadingList
from paper_tui.library.context import Context
from paper_tui.trust import atomic
from paper_tui.trust.inert import inert_line, shown_name
from paper_tui.vocabulary import STATUSES, count, mark_words


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tag", help="add tags to a paper")
    p.add_argument("id", metavar="ID", help="a paper id or a unique prefix of one")
    p.add_argument("tags", nargs="+", metavar="TAG",
                   help="a tag to add (quote one with spaces: \"to cite\")")
    p.set_defaults(handler=cmd_tag)

    p = sub.add_parser("untag", help="remove tags from a paper")
    p.add_argument("id", metavar="ID", help="a paper id or a unique prefix of one")
    p.add_argument("tags", nargs="+", metavar="TAG", help="a tag to remove (any case)")
    p.set_defaults(handler=cmd_untag)

    p = sub.add_parser("status", help="set the triage status of papers")
    p.add_argument("ids", nargs="+", metavar="ID", help="paper ids or unique prefixes of them")
    p.add_argument("status", choices=STATUSES, metavar="STATUS",
                   help="new, to-read, read or skipped")
    p.set_defaults(handler=cmd_status)

    for name, starred in (("star", True), ("unstar", False)):
        p = sub.add_parser(name, help=f"{name} papers")
        p.add_argument("ids", nargs="+", metavar="ID", help="paper ids or unique prefixes of them")
        p.set_defaults(handler=cmd_star, starred=starred)

    p = sub.add_parser("note", help="set, extend or edit ($EDITOR) a paper's note")
    p.add_argument("id", metavar="ID", help="a paper id or a unique prefix of one")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--set", metavar="TEXT", help="replace the note (\"\" clears it)")
    how.add_argument("--append", metavar="TEXT", help="add a line to the note")
    p.set_defaults(handler=cmd_note)

    p = sub.add_parser("lists", help="reading lists: all of them, or show/add/remove/…")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of the lists: name, description, count, ids")
    p.set_defaults(handler=cmd_lists)
    verbs = p.add_subparsers(dest="verb", metavar="VERB",
                             help="what to do with a list (none: list them all)")
    a_list = {"metavar": "LIST", "help": "a reading list's name (any case)"}
    q = verbs.add_parser("show", help="the papers of a list, in order")
    q.add_argument("name", **a_list)
    q.add_argument("--json", action="store_true",
                   help="print a JSON object: name, description, ids in order")
    q = verbs.add_parser("create", help="create a list")
    q.add_argument("name", metavar="NAME", help="the new list's name")
    q.add_argument("--description", "-d", default="", metavar="TEXT",
                   help="what the list is for")
    q = verbs.add_parser("add", help="add papers to a list (creating it if needed)")
    q.add_argument("name", **a_list)
    q.add_argument("ids", nargs="+", metavar="ID", help="paper ids or unique prefixes of them")
    q = verbs.add_parser("remove", help="remove papers from a list")
    q.add_argument("name", **a_list)
    q.add_argument("ids", nargs="+", metavar="ID", help="paper ids or unique prefixes of them")
    q = verbs.add_parser("rename", help="rename a list")
    q.add_argument("name", **a_list)
    q.add_argument("new_name", metavar="NEW_NAME", help="the list's new name")
    q = verbs.add_parser("delete", help="delete a list (its papers stay in the library)")
    q.add_argument("name", **a_list)
    q = verbs.add_parser("describe", help="set a list's description")
    q.add_argument("name", **a_list)
    q.add_argument("text", metavar="TEXT", help="the new description (\"\" clears it)")
    q = verbs.add_parser("move", help="move a paper to a position (1 = first) in a list")
    q.add_argument("name", **a_list)
    q.add_argument("id", metavar="ID", help="a paper id or a unique prefix of one")
    q.add_argument("position", type=list_position, metavar="POS",
                   help="its new position: 1 is first, past the end is last")
    q = verbs.add_parser(
        "bib", help="keep a .bib file up to date with a list (no LIST: every link)",
        description="Link a reading list to a .bib file: paper-tui rewrites it (atomically, "
                    "entries by key, keys that never change) whenever the list changes, from "
                    "the app, a command or a sync. Without arguments: every link.")
    q.add_argument("name", nargs="?", metavar="LIST",
                   help="a reading list's name (any case); alone: the file it keeps")
    q.add_argument("file", nargs="?", type=Path, metavar="FILE",
                   help="the .bib file to keep up to date (created or replaced now)")
    q.add_argument("--unlink", action="store_true",
                   help="stop keeping the list's file up to date (the file stays)")

    p = sub.add_parser("export", help="export a reading list or a query's results")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--list", metavar="LIST", help="a reading list, in its order")
    which.add_argument("--query", metavar="Q", help="a search query (\"\" for every paper)")
    p.add_argument("--format", "-f", choices=export.FORMATS, default="markdown",
                   help="the file format (default: markdown)")
    p.add_argument("--output", "-o", metavar="FILE", type=Path,
                   help="write to FILE (atomically) instead of stdout")
    p.add_argument("--utf8", action="store_true",
                   help="bibtex: letters as UTF-8 (é), not LaTeX ({\\'e}): for biblatex/biber")
    p.set_defaults(handler=cmd_export)

    p = sub.add_parser("tags", help="every tag with the number of papers carrying it")
    p.add_argument("--json", action="store_true", help="print a JSON object: tag -> count")
    p.set_defaults(handler=cmd_tags)

    p = sub.add_parser("orphans", help="annotated or listed ids no longer in the library")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array: each id with its annotations and lists")
    p.set_defaults(handler=cmd_orphans)


def _done(lib: Library, ids: list[str]) -> int:
    """Wait for the change to be on disk, then say what each paper now carries."""
    lib.flush()
    for paper_id in ids:
        print(inert_line("  ".join([paper_id, *mark_words(lib.annotation(paper_id))])))
    return 0


def _resolve(lib: Library, ids: list[str]) -> list[str]:
    return list(dict.fromkeys(lib.resolve(i) for i in ids))


def cmd_tag(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    ids = _resolve(lib, [args.id])
    lib.add_tags(ids, args.tags)
    return _done(lib, ids)


def cmd_untag(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    ids = _resolve(lib, [args.id])
    lib.remove_tags(ids, args.tags)
    return _done(lib, ids)


def cmd_status(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    ids = _resolve(lib, args.ids)
    lib.set_status(ids, args.status)
    return _done(lib, ids)


def cmd_star(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    ids = _resolve(lib, args.ids)
    lib.set_starred(ids, args.starred)
    return _done(lib, ids)


def cmd_note(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    paper_id = lib.resolve(args.id)
    if args.set is not None:
        lib.set_note(paper_id, args.set)
    elif args.append is not None:
        lib.append_note(paper_id, args.append)
    else:
        if lib.read_only_reason:
            raise StoreError(lib.read_only_reason)
        text = _edit(lib.annotation(paper_id).note)
        if text is None:
            print("paper-tui: note unchanged (the editor failed)", file=sys.stderr)
            return 1
        lib.set_note(paper_id, text)
    lib.flush()
    note = lib.annotation(paper_id).note
    print(note if note else f"{paper_id}: no note")
    return 0


def _edit(text: str) -> str | None:
    """Open $VISUAL / $EDITOR (else vi) on ``text``; the edited text, None on failure."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="paper-tui-note-") as tmp:
        path = Path(tmp) / "note.md"
        path.write_text(text + "\n" if text else "", "utf-8")
        try:
            status = subprocess.call([*shlex.split(editor), str(path)])
        except OSError as exc:
            raise StoreError(f"cannot run the editor {editor!r}: {exc.strerror}") from None
        if status != 0:
            return None
        data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:  # a note is text: keep what was typed, save nothing
        fd, kept = tempfile.mkstemp(prefix="paper-tui-note-", suffix=".md")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise StoreError(f"the note from the editor is not UTF-8 text (line {line}, column "
                         f"{column}): not saved; what you wrote is in {kept}") from None


def cmd_lists(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    verb = args.verb
    if verb is None:
        everything = lib.reading_lists()
        if args.json:
            print_json([{"name": rl.name, "description": rl.description, "count": len(rl.ids),
                         "ids": list(rl.ids)} for rl in everything])
        elif not everything:
            print("no reading lists yet: paper-tui lists create NAME", file=sys.stderr)
        for rl in [] if args.json else everything:
            about = rl.description.split("\n", 1)[0]
            print(inert_line(f"{rl.name}  ({count(len(rl.ids), 'paper')})"
                             + (f"  {about}" if about else "")))
        return 0
    if verb == "show":
        return _show_list(lib, args.name, args.json)
    if verb == "create":
        rl = lib.create_list(args.name, args.description)
        lib.flush()
        print(f"created list “{rl.name}”")
    elif verb == "add":
        ids = _resolve(lib, args.ids)
        if lib.reading_list(args.name) is None:
            lib.create_list(args.name)
            print(f"created list “{args.name.strip()}”", file=sys.stderr)
        added = lib.add_to_list(args.name, ids)
        lib.flush()
        print(f"added {added} of {len(ids)} to “{_existing(lib, args.name).name}”")
    elif verb == "remove":
        ids = [_resolve_member(lib, args.name, i) for i in args.ids]
        removed = lib.remove_from_list(args.name, ids)
        lib.flush()
        print(f"removed {removed} from “{_existing(lib, args.name).name}”")
    elif verb == "rename":
        lib.rename_list(args.name, args.new_name)
        lib.flush()
        print(f"renamed to “{_existing(lib, args.new_name).name}”")
    elif verb == "delete":
        lib.delete_list(args.name)
        lib.flush()
        print(f"deleted list “{args.name}”")
    elif verb == "describe":
        lib.describe_list(args.name, args.text)
        lib.flush()
    elif verb == "bib":
        return _bib(lib, args.name, args.file, args.unlink)
    elif verb == "move":
        lib.move_in_list(args.name, _resolve_member(lib, args.name, args.id), args.position - 1)
        lib.flush()
        return _show_list(lib, args.name, False)
    return 0


def _bib(lib: Library, name: str | None, file: Path | None, unlink: bool) -> int:
    links = lib.linked_bibs()
    if name is None:
        if not links:
            print("no list is linked to a .bib file: paper-tui lists bib NAME FILE",
                  file=sys.stderr)
        for listed, path in links.items():
            print(f"{listed}  {_bib_target(path)}")
        return 0
    listed = _existing(lib, name).name
    if unlink:
        had = lib.unlink_bib(listed)
        if had is None:
            raise StoreError(f"list “{listed}” is not linked to a .bib file")
        print(f"“{listed}” no longer keeps {shown_name(had)} up to date (the file stays)")
    elif file is None:
        if listed not in links:
            raise StoreError(f"list “{listed}” is not linked to a .bib file")
        print(f"{listed}  {_bib_target(links[listed])}")
    else:
        path = lib.link_bib(listed, file)
        print(f"“{listed}” keeps {shown_name(path)} up to date")
    return 0


def _bib_target(path: Path) -> str:
    """A linked file's name, and why it cannot be written when it is no regular file."""
    try:
        atomic.refuse_special(path)
    except OSError as exc:
        return f"{shown_name(path)}  (cannot be written: {exc.strerror or exc})"
    return shown_name(path)


def _existing(lib: Library, name: str) -> ReadingList:
    """The list of that name (:class:`StoreError` when there is none)."""
    rl = lib.reading_list(name)
    if rl is None:
        raise StoreError(f"no reading list named {name!r}")
    return rl


def _resolve_member(lib: Library, name: str, key: str) -> str:
    """A list member by id or prefix, even when the paper has left the library."""
    rl = lib.reading_list(name)
    if rl is not None and key in rl.ids:
        return key
    matches = [pid for pid in rl.ids if pid.startswith(key)] if rl else []
    return matches[0] if len(matches) == 1 else lib.resolve(key)


def _show_list(lib: Library, name: str, as_json: bool) -> int:
    rl = _existing(lib, name)
    if as_json:
        print_json({"name": rl.name, "description": rl.description, "ids": list(rl.ids)})
        return 0
    print(inert_line(f"{rl.name}  ({count(len(rl.ids), 'paper')})"))
    if rl.description:
        print(rl.description)
    for number, paper_id in enumerate(rl.ids, 1):
        paper = lib.lookup(paper_id)
        print(f"{number:>3}. " + (line(paper) if paper else f"{paper_id}  (not in the library)"))
    return 0


def cmd_export(args: argparse.Namespace, ctx: Context) -> int:
    check_output(args.output)
    lib = ctx.library
    title = description = ""
    if args.list is not None:
        rl = _existing(lib, args.list)
        papers = []
        for paper_id in rl.ids:
            paper = lib.lookup(paper_id)
            if paper is None:
                warn(f"{paper_id} is in “{rl.name}” but not in the library; left out")
            else:
                papers.append(paper)
        title, description = rl.name, rl.description
    else:
        page = lib.search(args.query, limit=None)
        if page.error:  # before anything is written: -o keeps the file it would replace
            raise QueryError(page.error)
        papers = [hit.paper for hit in page.hits]
        title = f"Search: {args.query}" if args.query.strip() else "All papers"
    text = lib.export(papers, args.format, title=title, description=description,
                      utf8=args.utf8)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    output = write_output(args.output, text)
    print(f"wrote {count(len(papers), 'paper')} to {output}", file=sys.stderr)
    return 0


def cmd_tags(args: argparse.Namespace, ctx: Context) -> int:
    counts = ctx.library.tag_counts()
    if args.json:
        print_json(counts)
        return 0
    for tag, n in counts.items():
        print(f"{n:>6}  {inert_line(tag)}")
    if not counts:
        print("no tags yet: paper-tui tag ID TAG", file=sys.stderr)
    return 0


def cmd_orphans(args: argparse.Namespace, ctx: Context) -> int:
    lib = ctx.library
    orphans = lib.orphans()
    if args.json:
        print_json([{"id": pid, **lib.detail(pid).as_json()} for pid in orphans])
        return 0
    for pid in orphans:
        detail = lib.detail(pid)
        print(inert_line("  ".join([pid, *mark_words(detail.annotation, detail.lists)])))
    print(f"{count(len(orphans), 'annotated or listed id')} "
          "not in the library (kept; they come back with their papers)", file=sys.stderr)
    return 0
