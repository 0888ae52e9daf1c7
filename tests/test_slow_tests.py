"""Every test ``slow_tests.SLOW`` names still exists (a renamed one would silently lose its
mark and its early start), and the named tests are marked and collected first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slow_tests import SLOW

TESTS = Path(__file__).parent


@pytest.mark.parametrize("name", SLOW)
def test_each_slow_name_is_a_test_module_or_function(name: str) -> None:
    module, _, function = name.partition("::")
    path = TESTS / module
    assert path.is_file() and path.name.startswith("test_"), name
    if function:
        assert re.search(rf"^(async )?def {re.escape(function)}\(", path.read_text("utf-8"),
                         re.M), name


def test_the_named_tests_are_marked_slow_and_collected_first(
        request: pytest.FixtureRequest) -> None:
    items = request.session.items  # the whole collection, in running order
    slow = [item.get_closest_marker("slow") is not None for item in items]
    assert slow == sorted(slow, reverse=True)  # every slow test before the others
    assert request.node.get_closest_marker("slow") is None
    whole = not (request.config.getoption("markexpr") or request.config.getoption("keyword"))
    if whole and len(items) > 100:  # the whole suite: every name reached a test
        marked = {item.path.relative_to(TESTS).as_posix()
                  for item, is_slow in zip(items, slow, strict=True) if is_slow}
        assert {name.partition("::")[0] for name in SLOW} <= marked
