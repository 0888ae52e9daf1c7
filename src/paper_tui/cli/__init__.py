"""``paper-tui``: the command line. Thin: it parses, calls the core, prints.

Each module in this package adds its own sub-commands via ``register(subparsers)``; a
command's handler takes ``(args, ctx)`` and returns an exit status. A module is imported
only when its command runs (or help lists them all): the app, started with no command,
imports none of them, nor what they need (citations, export, …).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from paper_tui import __version__
from paper_tui.cli.arguments import Parser, path
from paper_tui.cli.streams import OutputError, flush_output, inert_stdio, output_failed
from paper_tui.errors import PaperTuiError
from paper_tui.trust.inert import inert_line

COMMANDS = {
    **dict.fromkeys(("import", "list", "search", "show"), "papers"),
    **dict.fromkeys(("tag", "untag", "status", "star", "unstar", "note", "lists", "export",
                     "tags", "orphans"), "annotate"),
    "cite": "cite",
    "recommend": "recommend",
    "fetch": "fetch",
    "watch": "watch",
    "sources": "sources",
    "pdf": "pdf",
    "config": "settings",
    **dict.fromkeys(("sync", "merge-driver", "team"), "team"),
    **dict.fromkeys(("completion", "__complete"), "completion"),
}
"""Each sub-command and the module of this package that registers it."""
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))
VALUE_OPTIONS = ("--library", "--config")
"""The global options that take a value (the next word is not a command or a path)."""


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``commands`` the global options and just those commands
    (importing only their modules)."""
    parser = Parser(
        prog="paper-tui",
        description="A keyboard-driven terminal reader for research paper lists. "
                    "Without a command, opens the app; `paper-tui PATH...` imports the "
                    "files or directories and opens the app on them.",
    )
    parser.add_argument("--version", action="version", version=f"paper-tui {__version__}")
    parser.add_argument("--library", metavar="DIR", type=path,
                        help="library directory (default: $PAPER_TUI_HOME or the user data dir)")
    parser.add_argument("--config", metavar="FILE", type=Path,
                        help="config file overriding the user's config key by key")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                help="what to do (none: open the app)")
    names = COMMAND_MODULES if commands is None else dict.fromkeys(COMMANDS[c] for c in commands)
    for name in names:
        importlib.import_module(f"paper_tui.cli.{name}").register(sub)
    return parser


def commands_needed(argv: Sequence[str]) -> list[str] | None:
    """The commands whose parsers reading ``argv`` (paths taken out) needs: none for the
    app's options alone, the one named, or None (all) for help or a word argparse must
    report as unknown."""
    tokens = iter(argv)
    for token in tokens:
        if token in VALUE_OPTIONS:
            next(tokens, None)
        elif token in COMMANDS:
            return [token]
        elif token in ("-h", "--help") or not token.startswith("-"):
            return None
    return []


def split_open_paths(argv: list[str], commands: frozenset[str]
                     ) -> tuple[list[str], list[Path]]:
    """``paper-tui [options] PATH...``: take the paths out of ``argv`` (they are not
    commands); a word that is neither a command nor an existing path is left for argparse
    to report."""
    rest: list[str] = []
    paths: list[Path] = []
    tokens = iter(argv)
    for token in tokens:
        if token in VALUE_OPTIONS:
            rest += [token, next(tokens, "")]
        elif token.startswith("-") or token in commands or not Path(token).exists():
            if token in commands:
                rest.append(token)
                rest += list(tokens)
                break
            rest.append(token)
        else:
            paths.append(Path(token))
    return rest, paths


def main(argv: Sequence[str] | None = None) -> int:
    """The command's exit status: 0, 1 for an error the user can fix (one line on stderr)
    or output that could not be written, 70 for a bug (one line, the traceback in a crash
    log). What it prints is inert (``cli/streams.py``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    with inert_stdio():
        try:
            try:
                status = _main(argv)
            finally:
                flush_output()
            return status
        except OutputError as failure:  # a closed pipe, a full disk
            return output_failed(failure)
        except PaperTuiError as exc:  # e.g. a library directory that cannot be made
            return _error_line(f"paper-tui: {inert_line(str(exc))}", 1)
        except Exception as exc:  # a bug: never a traceback on the user's screen
            from paper_tui.crash import INTERNAL_ERROR, internal_error_line, write_crash_log

            log = write_crash_log(exc, ["paper-tui", *argv])
            return _error_line(inert_line(internal_error_line(exc, log)), INTERNAL_ERROR)


def _error_line(line: str, status: int) -> int:
    """Print ``line`` on stderr and return ``status`` (output that fails meanwhile is
    one line, or silence, as any other)."""
    try:
        print(line, file=sys.stderr)
        flush_output()
    except OutputError as failure:
        output_failed(failure)
    return status


OWN_LISTS = frozenset({"import", "fetch", "sync", "watch"})
"""Commands that bring the library's own lists: a new library they open never gets the
bundled list (nor does ``paper-tui PATH...``)."""
QUERY_COMMANDS = frozenset({"search", "recommend"})
"""Commands whose one positional is a QUERY and that have no short option but ``-h``."""
_EXCLUSION = re.compile(r"-[^\s\-]\S+")


def query_exclusions_as_words(argv: list[str]) -> list[str]:
    """``paper-tui search -robots``: a QUERY that is one excluded word is a query, not an
    option argparse does not know. Such a word gets a leading space, which argparse reads
    as a positional argument and the query language ignores."""
    needed = commands_needed(argv)
    if not needed or needed[0] not in QUERY_COMMANDS:
        return argv
    return [f" {token}" if _EXCLUSION.fullmatch(token) else token for token in argv]


def _main(argv: list[str]) -> int:
    argv, open_paths = split_open_paths(argv, frozenset(COMMANDS))
    argv = query_exclusions_as_words(argv)
    args = build_parser(commands_needed(argv)).parse_args(argv)
    from paper_tui.cli.terminal import progress_printer, warn  # after parsing (--help, errors)
    from paper_tui.library.context import Context

    ctx = Context(library_dir=args.library, config_file=args.config,
                  progress=progress_printer, warn=warn,
                  bundled=False if open_paths or args.command in OWN_LISTS else None)
    try:
        status = _run(args, ctx, open_paths)
    finally:
        try:
            ctx.close()
        except PaperTuiError as exc:  # the last save failed: the command did not work
            print(f"paper-tui: {inert_line(str(exc))}", file=sys.stderr)
            status = 1
    return status


def _run(args: argparse.Namespace, ctx, open_paths: list[Path]) -> int:
    try:
        for problem in ctx.config.problems:
            print(f"paper-tui: {inert_line(problem)}", file=sys.stderr)
        if args.command is None:
            from paper_tui.tui import run  # lazy: CLI commands never import textual

            return run(ctx, import_paths=open_paths)
        return int(args.handler(args, ctx) or 0)
    except PaperTuiError as exc:
        print(f"paper-tui: {inert_line(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
