"""``paper-tui completion bash|zsh|fish``: a shell completion script for the command line.

The script is made from the same argparse parser the commands use (``words.spec``), so a
new option completes without touching it. Reading-list names and tags come from the
library when Tab is pressed, through the hidden ``paper-tui __complete lists|tags``, which
reads the two YAML files and nothing else (no index, no import into a new library);
``__complete styles`` lists the citation styles' ids (file names; no style is read).
This package is imported only when one of those two commands runs.
"""

from __future__ import annotations

import argparse
import importlib
import re

from paper_tui import paths
from paper_tui.library.context import Context

SHELLS = ("bash", "zsh", "fish")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "completion", help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for the shell. Load it in the shell's start-up "
                    "file: bash: eval \"$(paper-tui completion bash)\"; zsh: source "
                    "<(paper-tui completion zsh); fish: paper-tui completion fish | source.")
    p.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")
    p.set_defaults(handler=cmd_completion)

    # Called by the scripts when Tab is pressed, not by people: no help line.
    p = sub.add_parser("__complete")
    p.add_argument("kind", choices=("lists", "tags", "styles", "sources"), metavar="KIND",
                   help="what to print, one a line: reading-list names, tags, citation "
                        "style ids or the library's sources")
    p.set_defaults(handler=cmd_complete_values)


def cmd_completion(args: argparse.Namespace, ctx: Context) -> int:
    from paper_tui.cli import build_parser
    from paper_tui.cli.completion.words import spec

    shell = importlib.import_module(f"paper_tui.cli.completion.{args.shell}")
    print(shell.script(spec(build_parser())), end="")
    return 0


def cmd_complete_values(args: argparse.Namespace, ctx: Context) -> int:
    """The library's reading-list names, tags or sources, one a line (nothing when there is no
    library or file yet: pressing Tab never creates one); or every citation style's id."""
    from paper_tui.library.completion import library_words, style_words

    if args.kind == "styles":
        names = style_words()
    else:
        root = paths.library_dir(ctx.library_dir or ctx.config.settings.library or None)
        names = library_words(root, args.kind)
    for name in names:
        if not _UNPRINTABLE.search(name):  # nothing a shell could take for a key or a break
            print(name)
    return 0
