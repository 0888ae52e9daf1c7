"""End to end (part 2): the installed ``paper-tui`` in tmux: tag with ``t``, write a note
with ``n``, add to a new reading list with ``a``, quit, and read the YAML on disk."""

from __future__ import annotations

from pathlib import Path

import yaml
from test_tmux_triage_e2e import Tmux, pytestmark  # noqa: F401  (same skip rule: tmux needed)


def test_tag_note_and_new_list_from_the_keyboard(tmp_path: Path):
    library = tmp_path / "library"
    tmux = Tmux.start_paper_tui(tmp_path, library)
    try:
        tmux.wait_for(" hits")
        tmux.keys("t")
        tmux.wait_for("Tags of")
        tmux.run("send-keys", "-t", tmux.name, "-l", "e2e-tag")
        tmux.keys("Enter")
        tmux.wait_for("Tagged e2e-tag", gone="Tags of")
        tmux.keys("n")
        tmux.wait_for("Note on")
        tmux.run("send-keys", "-t", tmux.name, "-l", "Read: section 3 #later")
        tmux.keys("C-s")
        tmux.wait_for("note saved", gone="Note on")
        tmux.keys("a")
        tmux.wait_for("to a reading list")
        tmux.run("send-keys", "-t", tmux.name, "-l", "weekend")
        tmux.wait_for("new list")
        tmux.keys("Enter")
        tmux.wait_for("to 'weekend'")
        tmux.quit_app()
    finally:
        tmux.run("kill-session", "-t", tmux.name)
    papers = yaml.safe_load((library / "annotations.yaml").read_text())["papers"]
    assert len(papers) == 1
    (paper_id, record), = papers.items()
    assert record["tags"] == ["e2e-tag"]
    assert record["note"] == "Read: section 3 #later"
    lists = yaml.safe_load((library / "reading-lists.yaml").read_text())["lists"]
    assert lists["weekend"]["papers"] == [paper_id]
