"""A paper's PDF: where it comes from, how it is fetched and checked, where it is kept.

- :mod:`~paper_tui.pdfs.links`: the URL of a paper's PDF (its source's ``pdf`` link, or
  one derived from its id where the source says how: arXiv, OpenReview).
- :mod:`~paper_tui.pdfs.shelf`: the library's ``pdfs/`` folder: ``<paper id>.pdf``, its
  text beside it as ``<paper id>.txt`` (derived: deleted, it is extracted again), and
  ``index.json`` (pages, bytes, where from, when fetched and last opened). A PDF is put in
  place by a rename once whole and checked: a download killed half-way leaves a temporary
  ``.…part`` file, never a PDF that counts as one (the next ``get`` removes it).
- :mod:`~paper_tui.pdfs.reader`: "is it a PDF" (the magic bytes, its end, a parse) and
  its text, with pypdfium2 (chosen by ``bench/pdfs.py``), imported only here and only when
  a PDF is read: ``paper-tui list`` never loads it.
- :mod:`~paper_tui.pdfs.download`: many papers' PDFs through the fetch client (its
  User-Agent, arXiv's pace, ``Retry-After``, redirects, deadline and least rate) with
  ``pdf.max_mb`` as the size cap; several hosts at once, one request at a time per host.
- :mod:`~paper_tui.pdfs.viewer`: the program that opens a PDF.

Nothing here knows the library: ``library/pdfs.py`` joins these to the papers and lists.
"""
