"""Is it a PDF, and what does it say: with pypdfium2 (PDFium, Apache-2.0 / BSD-3), which
``bench/pdfs.py`` chose over pypdf and pdfminer.six (``bench/results/pdfs.md``).

A file is a PDF when its first KiB holds ``%PDF-``, its last KiBs ``%%EOF`` (a body cut
short has none) and PDFium opens it without a password; anything else is
:class:`NotAPdf` with why in a few words (an HTML page, a cut body, encrypted, …). The
Content-Type a server sent says nothing: login pages are sent as ``application/pdf``.

PDFium is not thread-safe: every call into it holds :data:`_LOCK`. pypdfium2 is imported
in the functions, never at the top: only the ``pdf`` commands load it.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()
HEAD = 1024
"""Where ``%PDF-`` must start (readers allow junk before it, up to this many bytes)."""
TAIL = 4096
"""Where the last ``%%EOF`` must be (some writers put a little after it)."""
PAGE_BREAK = "\f"
"""Between two pages' text, as ``pdftotext`` puts it."""
_HTML = re.compile(rb"^\s*(<!doctype\s+html|<html|<head|<body|<\?xml|<!--|<script|<meta)",
                   re.IGNORECASE)


class NotAPdf(Exception):
    """A file that is no readable PDF; ``str()`` says why in a few words."""


def sniff(path: Path) -> None:
    """:class:`NotAPdf` unless ``path`` starts and ends as a PDF does (no parse)."""
    with path.open("rb") as file:
        head = file.read(HEAD)
        size = file.seek(0, 2)
        file.seek(max(0, size - TAIL))
        tail = file.read(TAIL)
    if not head:
        raise NotAPdf("an empty file, not a PDF")
    if b"%PDF-" not in head:
        if _HTML.match(head):
            raise NotAPdf("an HTML page, not a PDF (a login or error page?)")
        raise NotAPdf("not a PDF (no %PDF- header)")
    if b"%%EOF" not in tail:
        raise NotAPdf(f"cut short: a PDF without its end ({size:,} bytes, no %%EOF)")


def pages(path: Path) -> int:
    """How many pages the PDF at ``path`` has: :class:`NotAPdf` when it is none, is
    encrypted or cannot be parsed (``sniff`` it first for the plainer reasons)."""
    with _LOCK:
        document = _open(path)
        try:
            count = len(document)
        finally:
            document.close()
    if count < 1:
        raise NotAPdf("a PDF of no pages")
    return count


def check(path: Path) -> int:
    """The page count of ``path`` if it is a whole, readable PDF; else :class:`NotAPdf`."""
    sniff(path)
    return pages(path)


def text(path: Path) -> tuple[int, str]:
    """``(pages, text)``: each page's text, pages apart by :data:`PAGE_BREAK`, lines by
    ``\\n``, a word broken across lines by a hyphen joined again. :class:`NotAPdf` as
    :func:`pages`."""
    with _LOCK:
        document = _open(path)
        try:
            found = []
            for index in range(len(document)):
                page = document[index]
                try:
                    textpage = page.get_textpage()
                    try:
                        found.append(_clean(textpage.get_text_range()))
                    finally:
                        textpage.close()
                finally:
                    page.close()
        finally:
            document.close()
    return len(found), PAGE_BREAK.join(found)


def _clean(raw: str) -> str:
    # PDFium marks a hyphen that breaks a word at a line's end with U+FFFE.
    joined = raw.replace("\ufffe\r\n", "").replace("\ufffe\n", "").replace("\ufffe", "")
    return joined.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def _open(path: Path) -> Any:  # pypdfium2's PdfDocument
    import pypdfium2

    try:
        return pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError as exc:
        said = str(exc)
        if "password" in said.lower():
            raise NotAPdf("encrypted: needs a password to open") from None
        reason = said.split("(PDFium: ", 1)[-1].rstrip(").")
        raise NotAPdf(f"not a readable PDF ({reason.lower()})") from None
