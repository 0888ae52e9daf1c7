"""Lists from the network: OpenReview, Paper Copilot, arXiv, DBLP or any URL.

One module per source, one HTTP client (:mod:`.http`) that keeps the sources' etiquette.
What a source downloads becomes a file that goes through ``importers/`` into ``sources/``
like an import. Only ``paper-tui fetch`` (and the app's fetch of the watches) imports this
package: startup and search never do.
"""
