"""Whoosh's private parts are used from one module, which refuses a Whoosh it was not
written for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import whoosh

from paper_tui.index import whoosh_internals
from paper_tui.index.whoosh_internals import WhooshVersionError, check_version

INDEX = Path(whoosh_internals.__file__).parent


def private_uses(path: Path) -> list[str]:
    """``name._private`` on anything but ``self``/``cls``, and ``_private`` names imported
    from whoosh, in one module (dunders are not private)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("whoosh"):
            found += [f"{path.name}:{node.lineno}: import {alias.name}"
                      for alias in node.names if alias.name.startswith("_")]
    return found


def test_no_module_but_whoosh_internals_touches_private_parts() -> None:
    modules = [p for p in sorted(INDEX.glob("*.py")) if p.name != "whoosh_internals.py"]
    assert len(modules) > 5
    assert [use for path in modules for use in private_uses(path)] == []
    # and the check sees them where they are
    assert any("._postfile" in use for use in private_uses(INDEX / "whoosh_internals.py"))


def test_the_installed_whoosh_is_the_one_it_was_written_for() -> None:
    check_version(whoosh.__version__)  # importing the module did the same


@pytest.mark.parametrize("installed", [(2, 8, 0), (3, 0), (2, 6, 9)])
def test_another_whoosh_is_refused_in_one_line(installed: tuple[int, ...]) -> None:
    with pytest.raises(WhooshVersionError) as raised:
        check_version(installed)
    message = str(raised.value)
    assert "\n" not in message
    assert ".".join(map(str, installed)) in message and "2.7" in message
    assert "pip install 'whoosh-reloaded>=2.7.5,<2.8'" in message


def test_the_cli_says_so_in_one_line_on_another_whoosh(tmp_path: Path) -> None:
    """A real process, with Whoosh reporting another version before paper-tui loads it."""
    script = ("import sys, whoosh; whoosh.__version__ = (2, 8, 0); "
              "from paper_tui.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", script, "--library", str(tmp_path / "lib"),
                           "list"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "paper-tui: paper-tui needs whoosh-reloaded 2.7.x (it reads and writes Whoosh's index "
        "internals), but 2.8.0 is installed: run pip install 'whoosh-reloaded>=2.7.5,<2.8'"]
    assert not (tmp_path / "lib").exists() or not any((tmp_path / "lib").rglob("*.toc"))


def test_the_compact_term_table_writes_whooshs_bytes() -> None:
    """A term table whose buckets are :class:`_Pairs` (12 bytes a term) writes the same
    file as Whoosh's lists of tuples."""
    import io

    from whoosh.filedb.filetables import OrderedHashWriter
    from whoosh.filedb.structfile import StructFile

    from paper_tui.index.whoosh_internals import _Pairs

    written: list[bytes] = []

    class Kept(io.BytesIO):
        def close(self) -> None:
            written.append(self.getvalue())
            super().close()

    for compact in (False, True):
        table = OrderedHashWriter(StructFile(Kept()))
        if compact:
            table.buckets = [_Pairs() for _ in range(256)]
        for i in range(20_000):
            table.add(b"title_exact:%08d" % i, b"info %d" % (i * 7919))
        table.close()
    assert written[0] == written[1] and len(written[0]) > 20_000 * 12


def test_a_text_column_read_in_one_go_is_the_column(tmp_path: Path) -> None:
    """The id column read at once and split gives what Whoosh's reader gives one document
    at a time (non-ASCII ids, two segments, a deleted document)."""
    from whoosh import index as windex

    from paper_tui.index import PaperIndex
    from test_index_writer import papers

    index = PaperIndex(tmp_path / "index")
    index.open()
    index.add(papers(40))
    index.add([p.__class__(**{**p.to_dict(), "id": f"Rodolà-{p.id}"}) for p in papers(3)])
    index.delete(["p7"])
    index.close()
    reader = windex.open_dir(str(tmp_path / "index")).reader()
    leaves = [leaf for leaf, _ in reader.leaf_readers()]
    for leaf in leaves:
        assert whoosh_internals.text_column_values(leaf, "id") == list(leaf.column_reader("id"))
        for keys in ("sortkey", "versionkey"):  # bytes columns, raw
            assert whoosh_internals.bytes_column_values(leaf, keys) == \
                list(leaf.column_reader(keys)) and any(leaf.column_reader(keys))
    assert any("Rodolà-p1" in whoosh_internals.text_column_values(leaf, "id")
               for leaf in leaves)
