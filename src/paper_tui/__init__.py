"""paper-tui: a keyboard-driven terminal reader for research paper lists.

Everything outside :mod:`paper_tui.tui` is the core: it never imports Textual, so the
command line and the app call the very same functions.
"""

__version__ = "0.1.0"
