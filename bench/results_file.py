"""Shared by the bench scripts: keep one JSON file per benchmark, a result per library."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def save(name: str, key: str, result: dict[str, Any]) -> Path:
    """Store ``result`` under ``key`` in ``results/<name>.json``, keeping the other keys."""
    path = RESULTS_DIR / f"{name}.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[key] = result
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def run_header(script: str, argv: list[str]) -> dict[str, Any]:
    """What every result says of its run: the command, when, on what, under what load."""
    import os
    import platform
    import time

    return {"command": f"python bench/{script} " + " ".join(argv),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                       f"Python {platform.python_version()}",
            "load_average_at_end": os.getloadavg()}
