"""Damaged files the library derives or keeps beside the reader's work (``sources/``, the
manifest, the index's word list, the parse caches, the recommender's matrix): one line
naming the file and the way out, and every command that can still work does."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

import pytest

from built_once import built_once
from paper_tui.cli import main

DATA = Path(__file__).parent / "data"


def run(capsys: pytest.CaptureFixture[str], library: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--library", str(library), *args])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the bundled list (38 papers, two sources) and a sample (41), with a
    tag on one paper and the recommender's cache written; copied for each test."""
    def build(folder: Path) -> None:
        root = folder / "lib"
        assert main(["--library", str(root), "sources"]) == 0  # the demo, then a list
        assert main(["--library", str(root), "import",
                     str(DATA / "papers-ml-sample.jsonl")]) == 0
        first = sorted(p.name for p in (root / "sources").glob("*.jsonl.gz"))
        assert len(first) == 3
        ids = sorted(json.loads(line)["id"] for line in  # a paper of the sample, not bundled
                     gzip.decompress((root / "sources" / first[2]).read_bytes()).splitlines())
        assert main(["--library", str(root), "tag", ids[0], "kept"]) == 0
        assert main(["--library", str(root), "recommend"]) == 0
        assert list((root / "cache").glob("recommend-terms-*.npz"))
        (root / "tagged").write_text(ids[0])

    return built_once(tmp_path_factory, "derived-damage", build) / "lib"


@pytest.fixture
def lib(built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "lib"
    shutil.copytree(built, root)
    capsys.readouterr()
    return root


def listed(capsys: pytest.CaptureFixture[str], lib: Path) -> tuple[list[str], str]:
    status, out, err = run(capsys, lib, "list", "--json")
    assert status == 0, err
    return [p["id"] for p in json.loads(out)], err


def tag_kept(capsys: pytest.CaptureFixture[str], lib: Path) -> None:
    """The annotation made before the damage is still there."""
    paper = (lib / "tagged").read_text()
    status, out, _ = run(capsys, lib, "show", paper, "--json")
    assert status == 0 and json.loads(out)["tags"] == ["kept"]


def bundled_source(lib: Path) -> Path:
    return sorted((lib / "sources").glob("000-*.jsonl.gz"))[0]


@pytest.mark.parametrize("damage", ["garbled", "truncated", "bad record", "missing"])
def test_a_damaged_source_is_named_and_the_rest_is_listed(
        capsys: pytest.CaptureFixture[str], lib: Path, damage: str) -> None:
    source = bundled_source(lib)
    packed = source.read_bytes()
    if damage == "garbled":  # zlib.error on reading it
        source.write_bytes(packed[:12] + bytes(range(256)) * 4)
    elif damage == "truncated":
        source.write_bytes(packed[: len(packed) // 2])
    elif damage == "bad record":
        lines = gzip.decompress(packed).splitlines(keepends=True)
        source.write_bytes(gzip.compress(b"".join(lines[:5]) + b'{"id": 5}\n'
                                         + b"".join(lines[5:])))
    else:
        source.unlink()
    shutil.rmtree(lib / "index")  # the index is rebuilt from the sources
    ids, err = listed(capsys, lib)
    original = json.loads((lib / "sources" / "manifest.json").read_text())["sources"][
        source.name.removesuffix(".jsonl.gz")]["path"]
    line, = [x for x in err.splitlines() if str(source) in x]
    assert line.startswith(f"paper-tui: {source}")
    assert line.endswith(f"re-import it: paper-tui import --force {original}")
    assert "Traceback" not in err and "internal error" not in err
    assert len(ids) >= 41 + 1  # the sample and the other bundled chunk are all there
    if damage == "bad record":
        assert line.startswith(f"paper-tui: {source}:6: bad record")
        assert len(ids) == 41 + 38 - (len(lines) - 5)  # those before it are listed
    run(capsys, lib, "search", "learning")
    tag_kept(capsys, lib)
    # The way out works: a forced re-import of the original restores the source.
    status, _, _ = run(capsys, lib, "import", "--force", original)
    assert status == 0
    assert len(listed(capsys, lib)[0]) == 41 + 38


@pytest.mark.parametrize("damage", ['{"version": 1, "sour', '[1, 2]',
                                    '{"version": 1, "sources": {"x": {"count": "many"}}}'])
def test_a_damaged_manifest_is_rebuilt_from_the_sources(capsys: pytest.CaptureFixture[str],
                                                        lib: Path, damage: str) -> None:
    manifest = lib / "sources" / "manifest.json"
    before = json.loads(manifest.read_text())["sources"]
    manifest.write_text(damage)
    ids, err = listed(capsys, lib)
    assert len(ids) == 41 + 38
    assert err.count("\n") == 1
    assert err.startswith(f"paper-tui: {manifest}: damaged (")
    assert "rebuilt from the 3 paper list(s)" in err
    assert (lib / "sources" / "manifest.json.damaged").read_text() == damage
    after = json.loads(manifest.read_text())["sources"]
    assert {sid: (info["checksum"], info["count"]) for sid, info in after.items()} == \
        {sid: (info["checksum"], info["count"]) for sid, info in before.items()}
    assert listed(capsys, lib)[1] == ""  # said once
    # A re-import of an unchanged list is recognised (the index's checksums were kept).
    status, out, _ = run(capsys, lib, "import", str(DATA / "papers-ml-sample.jsonl"))
    assert status == 0 and "0 new, 41 already in the library" in out
    tag_kept(capsys, lib)


def test_a_gzip_bomb_in_sources_fails_fast(capsys: pytest.CaptureFixture[str],
                                           lib: Path) -> None:
    source = bundled_source(lib)
    source.write_bytes(gzip.compress(b"\n" * (200 << 20), compresslevel=9))  # ~200 KB
    shutil.rmtree(lib / "index")
    ids, err = listed(capsys, lib)
    assert f"paper-tui: {source}:" in err and "100 times its size" in err
    counts = json.loads((lib / "sources" / "manifest.json").read_text())["sources"]
    assert len(ids) == 41 + 38 - counts[source.name.removesuffix(".jsonl.gz")]["count"]


def test_a_damaged_recommender_cache_is_rebuilt(capsys: pytest.CaptureFixture[str],
                                                lib: Path) -> None:
    cache = next((lib / "cache").glob("recommend-terms-*.npz"))
    cache.write_bytes(cache.read_bytes()[:100])  # BadZipFile on np.load
    status, out, err = run(capsys, lib, "recommend")
    assert status == 0, err
    assert err == "20 of 78 new papers, learned from 1 kept, 0 skipped\n"
    assert len(out.splitlines()) == 20
    assert cache.stat().st_size > 100


def test_a_damaged_word_list_costs_no_import(capsys: pytest.CaptureFixture[str],
                                             lib: Path) -> None:
    (lib / "index" / "vocabulary.txt").write_bytes(b"\x80\xff garbage\n")
    status, out, err = run(capsys, lib, "import",
                           str(DATA / "formats" / "manubot-bibliography.json"))
    assert (status, err) == (0, "")
    assert "3 new" in out
    status, out, _ = run(capsys, lib, "search", "pseudopotentiel~")
    assert status == 0 and "Fermi Pseudopotential" in out


@pytest.mark.parametrize("byte", [60, 90, 120, 150, 180, 200])
def test_a_damaged_parse_cache_is_not_believed(capsys: pytest.CaptureFixture[str], lib: Path,
                                               byte: int) -> None:
    """The cache has no check of its own in marshal: a flipped byte in it used to read back
    as another tag (``fo¢``), or as no tags at all."""
    cache = lib / ".annotations.yaml.cache"
    data = bytearray(cache.read_bytes())
    data[min(byte, len(data) - 1)] ^= 0x20
    cache.write_bytes(bytes(data))
    tag_kept(capsys, lib)


def test_a_file_name_that_is_not_utf8_is_kept_in_the_manifest(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Linux file names are bytes: the manifest keeps such a name (JSON-escaped) and
    reads it back (it was an encoding error writing the manifest)."""
    folder = tmp_path / "in"
    folder.mkdir()
    name = os.fsdecode(b"papers-\xff.jsonl")
    shutil.copy(DATA / "papers-ml-sample.jsonl", folder / name)
    library = tmp_path / "lib"
    status, out, _ = run(capsys, library, "import", str(folder / name))
    assert status == 0 and "41 new" in out
    manifest = json.loads((library / "sources" / "manifest.json").read_text("ascii"))
    paths = [info["path"] for info in manifest["sources"].values()]
    assert str((folder / name).resolve()) in paths
    status, out, _ = run(capsys, library, "import", str(folder / name))
    assert status == 0 and "0 new, 41 already in the library" in out
