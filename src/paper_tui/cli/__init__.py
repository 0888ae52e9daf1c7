"""``paper-tui``: the command line. Thin: it parses, calls the core, prints.

Each module in this package adds its own sub-commands via ``register(subparsers)``; a
command's handler takes ``(args, ctx)`` and returns an exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from paper_tui import __version__
from paper_tui.cli import annotate, cite, papers, settings
from paper_tui.cli.context import Context
from paper_tui.errors import PaperTuiError

COMMAND_MODULES = (papers, annotate, cite, settings)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paper-tui",
        description="A keyboard-driven terminal reader for research paper lists. "
                    "Without a command, opens the app; `paper-tui PATH...` imports the "
                    "files or directories and opens the app on them.",
    )
    parser.add_argument("--version", action="version", version=f"paper-tui {__version__}")
    parser.add_argument("--library", metavar="DIR",
                        help="library directory (default: $PAPER_TUI_HOME or the user data dir)")
    parser.add_argument("--config", metavar="FILE", type=Path,
                        help="config file overriding the user's config key by key")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    parser.set_defaults(command_names=frozenset(sub.choices))
    return parser


def split_open_paths(argv: list[str], commands: frozenset[str]
                     ) -> tuple[list[str], list[Path]]:
    """``paper-tui [options] PATH...``: take the paths out of ``argv`` (they are not
    commands); a word that is neither a command nor an existing path is left for argparse
    to report."""
    rest: list[str] = []
    paths: list[Path] = []
    tokens = iter(argv)
    for token in tokens:
        if token in ("--library", "--config"):
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
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    argv, open_paths = split_open_paths(argv, parser.get_default("command_names"))
    args = parser.parse_args(argv)
    ctx = Context(library_dir=args.library, config_file=args.config)
    try:
        for problem in ctx.config.problems:
            print(f"paper-tui: {problem}", file=sys.stderr)
        if args.command is None:
            from paper_tui.tui import run  # lazy: CLI commands never import textual

            return run(ctx, import_paths=open_paths)
        return int(args.handler(args, ctx) or 0)
    except PaperTuiError as exc:
        print(f"paper-tui: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `paper-tui list | head`
        sys.stderr.close()
        return 0
    finally:
        ctx.close()
