"""``config``: where paper-tui reads its settings and keeps its library, and how much
disk each part of the library takes."""

from __future__ import annotations

import argparse

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.cli.output import print_json
from paper_tui.library.context import Context
from paper_tui.library.disk import PARTS, disk_use


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="show the config files in force, the library directory "
                                      "and how much disk each part of it takes")
    p.add_argument("--json", action="store_true",
                   help="print a JSON object of the same paths, every setting in force and "
                        "the bytes on disk of each part of the library")
    p.set_defaults(handler=cmd_config)


def cmd_config(args: argparse.Namespace, ctx: Context) -> int:
    user = paths.user_config_file()
    library = paths.library_dir(ctx.library_dir or ctx.config.settings.library or None)
    read = [str(p) for p in ctx.config.sources]
    disk = disk_use(library)
    info: dict[str, object] = {
        "defaults": str(paths.default_config_file()),
        "user_config": str(user),
        "user_config_exists": user.exists(),
        "read": read,
        "themes": str(paths.user_themes_dir()),
        "library": str(library),
        "problems": ctx.config.problems,
        "settings": config_mod.in_force(ctx.config.settings),
        "disk": disk,
    }
    if args.json:
        print_json(info)
        return 0
    print(f"defaults:     {info['defaults']}")
    print(f"your config:  {user}" + ("" if user.exists() else "  (not created yet)"))
    for path in read:
        print(f"read:         {path}")
    print(f"your themes:  {info['themes']}")
    if not library.is_dir():
        print(f"library:      {library}  (not created yet)")
        return 0
    print(f"library:      {library}")
    print("disk:")
    for part, label in _DISK_LABELS.items():
        print(f"  {label + ':':<18}{shown_bytes(disk[part]):>9}")
    return 0


_DISK_LABELS = {"sources": "sources (copies)", "index": "index", "pdfs": "PDFs",
                "team": "team checkout", "annotations": "annotations", "other": "other",
                "total": "total"}
assert set(_DISK_LABELS) == {*PARTS, "total"}


def shown_bytes(n: int) -> str:
    """``0 B``, ``12 KB``, ``6.1 MB``, ``1.27 GB`` (a KB: 1,024 bytes)."""
    if n < 1 << 10:
        return f"{n} B"
    if n < 1 << 20:
        return f"{n / (1 << 10):.0f} KB"
    if n < 1 << 30:
        return f"{n / (1 << 20):.1f} MB"
    return f"{n / (1 << 30):.2f} GB"
