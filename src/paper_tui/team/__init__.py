"""Team triage: members share their triage, reading lists and paper lists through any git
remote. The core of it (never imports textual or whoosh):

- :mod:`.sync`: ``run_sync(library, progress)`` runs one sync, returns its summary line;
- :mod:`.layer`: ``Team(library.root)``, the other members' triage, read-only;
- :mod:`.merge`: the field-by-field merge, also git's merge driver;
- :mod:`.repo`: the team repository's files; :mod:`.git`: running git;
- :mod:`.steps`: the step lines ``sync --steps`` writes and the app reads.

Nothing is imported here, so git's merge driver starts without loading the rest.
"""
