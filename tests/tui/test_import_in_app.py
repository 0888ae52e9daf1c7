"""Pilot tests: `paper-tui PATH` imports in a worker; a failed import is shown, never
swallowed."""

from __future__ import annotations

import json


def messages(app) -> list[str]:
    """What the app said: confirmations (status line) and toasts (errors, other screens)."""
    return [*app.said, *(n.message for n in app._notifications)]


async def test_a_failed_import_is_shown(make_app, settle, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    app = make_app()
    app.import_paths = [bad]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert any("error" in m and "bad.jsonl" in m for m in messages(app))


async def test_an_import_runs_in_a_worker_and_adds_the_papers(make_app, settle, tmp_path):
    source = tmp_path / "extra.jsonl"
    source.write_text("\n".join(json.dumps({
        "title": f"Imported paper number {i}", "abstract": f"Abstract {i} about graphs.",
        "venue": "icml", "year": 2020, "authors": ["A. Author"]}) for i in range(3)) + "\n")
    app = make_app()
    app.import_paths = [source]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert any("imported 3 papers (3 new)" in m for m in messages(app))
        assert app.library.count() == 41
        assert not app.query("#import")  # the progress bar is gone
        assert app.query_one("#search").value == "source:extra-jsonl"
        await settle(pilot)
        assert len(app.results_screen.results_list.results) == 3
