"""The tests that take seconds (many processes, git, tmux, a big library), longest first.

``tests/conftest.py`` marks them ``slow`` at collection and runs them first, in this order:
with the suite spread over every core, the long ones start at once instead of leaving one
worker running them alone at the end. ``pytest -m "not slow"`` leaves them out for a quick
loop. They are named here rather than in each file so one list says where the time goes
(``tests/test_slow_tests.py`` checks that every name still exists).
"""

from __future__ import annotations

SLOW = (
    # a module (path under tests/), or one test in it (path::function)
    "tui/test_key_storms.py::test_storms_of_random_keys_crash_nothing",
    "tui/test_quit_while_searching.py",
    "test_concurrent_commands.py",
    "tui/test_large_library.py",
    "test_team_sync.py",
    "test_team_lab.py",
    "test_team_faults.py",
    "tui/test_cli_while_open.py",
    "tui/test_team_sync_key.py",
    "tui/test_team_screen.py",
    "test_cli_annotate.py",
    "test_cli_recommend.py",
    "tui/test_editor_reuse.py::test_a_long_query_scrolls_the_search_box",
    "test_search_cli.py",
    "test_venue_end_to_end.py",
    "test_index_import.py::test_parallel_import_gives_the_same_library",
    "test_store_processes.py",
    "tui/test_tmux_editing_e2e.py",
    "tui/test_tmux_triage_e2e.py",
    "tui/test_tmux_crash.py",
    "test_cli_completion.py::test_zsh_completes_by_tab_in_a_terminal",
    "test_citations.py::test_thousand_corpus_papers_cite_as_bibtex",
    "test_index_writer.py::test_segments_are_whooshs_byte_for_byte",
    "test_import_progress.py",
    "test_index.py::test_two_processes_writing_and_reading_never_corrupt_the_index",
    "test_bib_file.py",
    "test_citekeys.py",
    "test_citation_styles.py",
    "test_no_process_outlives.py",
    "test_xml_no_dtd.py::test_a_team_mates_atom_file_with_a_dtd_is_one_line_of_the_sync",
    "test_bibtex_compiles.py",
)
