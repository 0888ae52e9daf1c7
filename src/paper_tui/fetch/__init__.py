"""Lists from the network: OpenReview, Paper Copilot, arXiv, DBLP or any URL.

One module per source (:mod:`.openreview`, :mod:`.paperlists`, :mod:`.arxiv`, :mod:`.dblp`,
:mod:`.url`), one HTTP client (:mod:`.http`) that keeps the sources' etiquette. Around
them: :mod:`.spec` reads a SOURCE, :mod:`.pages` keeps each page as it arrives (a cut-off
fetch resumes; a re-fetch asks conditionally), :mod:`.runner` runs one source's fetch,
:mod:`.listing` names the file a list is stored as, :mod:`.report` says what a fetch did.
What a source downloads becomes a file under the library's ``fetched/`` that
``library/fetching.py`` imports like any other. Only ``paper-tui fetch`` (and the watches)
imports this package: startup and search never do.
"""
