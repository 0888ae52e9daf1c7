"""``config``: where paper-tui reads its settings and keeps its library."""

from __future__ import annotations

import argparse

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.cli.output import print_json
from paper_tui.library.context import Context


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="show the config files in force and the library directory")
    p.add_argument("--json", action="store_true",
                   help="print a JSON object of the same paths and every setting in force")
    p.set_defaults(handler=cmd_config)


def cmd_config(args: argparse.Namespace, ctx: Context) -> int:
    user = paths.user_config_file()
    library = paths.library_dir(ctx.library_dir or ctx.config.settings.library or None)
    read = [str(p) for p in ctx.config.sources]
    info: dict[str, object] = {
        "defaults": str(paths.default_config_file()),
        "user_config": str(user),
        "user_config_exists": user.exists(),
        "read": read,
        "themes": str(paths.user_themes_dir()),
        "library": str(library),
        "problems": ctx.config.problems,
        "settings": config_mod.in_force(ctx.config.settings),
    }
    if args.json:
        print_json(info)
        return 0
    print(f"defaults:     {info['defaults']}")
    print(f"your config:  {user}" + ("" if user.exists() else "  (not created yet)"))
    for path in read:
        print(f"read:         {path}")
    print(f"your themes:  {info['themes']}")
    print(f"library:      {library}")
    return 0
