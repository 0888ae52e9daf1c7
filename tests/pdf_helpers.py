"""Real PDFs (``tests/data/pdfs``) and a library whose papers link to them on 127.0.0.1,
for the ``pdf`` tests."""

from __future__ import annotations

import json
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library

PDFS = Path(__file__).parent / "data" / "pdfs"
NAACL = PDFS / "naacl06-shinyama.pdf"
"""8 pages; its body (not its title or abstract) says "hurricanes"."""
ACL = PDFS / "P14-1059.pdf"
"""10 pages; its body says "paraphrase"."""
ENCRYPTED = PDFS / "encrypted-rc4-128.pdf"
PDF_HEADERS = {"Content-Type": "application/pdf"}


def write_config(folder: Path, fetch: dict[str, object] | None = None, **pdf: object
                 ) -> Path:
    """A config with quick fetch settings (``fetch`` changes some) and ``pdf:`` keys
    (``private_hosts`` true unless given: the test servers are on 127.0.0.1)."""
    pdf = {"private_hosts": True, **pdf}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.yaml"
    fetch = {"arxiv_delay_s": 0, "retry_delay_s": 0, "retries": 1, "timeout_s": 3,
             "max_wait_s": 2, "deadline_s": 20, **(fetch or {})}
    text = "bundled_lists: false\nfetch:\n" + "".join(
        f"  {key}: {value}\n" for key, value in fetch.items())
    if pdf:
        text += "pdf:\n" + "".join(f"  {key}: {json.dumps(value)}\n"
                                   for key, value in pdf.items())
    path.write_text(text, "utf-8")
    return path


def write_list(path: Path, links: dict[str, str | None]) -> Path:
    """A JSONL list: one paper per title, its ``pdf`` the link given (None: no link)."""
    lines = []
    for title, link in links.items():
        record: dict[str, object] = {"title": title, "abstract": f"About {title}.",
                                     "year": 2024}
        if link is not None:
            record["pdf"] = link
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def open_with(root: Path, links: dict[str, str | None],
              fetch: dict[str, object] | None = None, **pdf: object) -> Library:
    """A new library at ``root`` holding the papers of ``links``."""
    config = config_mod.load(write_config(root.parent / f"{root.name}-config", fetch,
                                          **pdf))
    assert not config.problems, config.problems
    lib = Library.open(root, config=config, bundled=False)
    lib.import_paths([write_list(root.parent / f"{root.name}.jsonl", links)])
    return lib


def ids_by_title(lib: Library) -> dict[str, str]:
    return {paper.title: paper.id for paper in lib.papers()}


def leftovers(root: Path) -> list[str]:
    """What is in ``pdfs/`` besides the index, its lock and whole PDFs and texts."""
    folder = root / "pdfs"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.name not in ("index.json", ".lock") and p.suffix not in (".pdf", ".txt"))
