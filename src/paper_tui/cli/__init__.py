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
from paper_tui.cli import papers
from paper_tui.cli.context import Context
from paper_tui.errors import PaperTuiError

COMMAND_MODULES = (papers,)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paper-tui",
        description="A keyboard-driven terminal reader for research paper lists. "
                    "Without a command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"paper-tui {__version__}")
    parser.add_argument("--library", metavar="DIR",
                        help="library directory (default: $PAPER_TUI_HOME or the user data dir)")
    parser.add_argument("--config", metavar="FILE", type=Path,
                        help="config file overriding the user's config key by key")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    ctx = Context(library_dir=args.library, config_file=args.config)
    try:
        for problem in ctx.config.problems:
            print(f"paper-tui: {problem}", file=sys.stderr)
        if args.command is None:
            from paper_tui.tui import run  # lazy: CLI commands never import textual

            return run(ctx)
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
