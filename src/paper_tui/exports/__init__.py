"""Papers written out for other tools: Markdown, CSV, YAML, JSON, BibTeX
(through :mod:`paper_tui.citations`), CSL-JSON, RIS and Org."""
