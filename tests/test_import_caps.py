"""The caps on a list's size (``import.max_unpacked_gb``, the gzip ratio, a list read whole)
let a list of several GB in, and a list stopped by any of them imports nothing: the
library is left as it was (same sources, same copies, same index), and the one line says
which cap and how to raise it."""

from __future__ import annotations

import gzip
import random
import zlib
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.cli import main
from paper_tui.errors import TooBig
from paper_tui.importers import common, registry
from paper_tui.library import Library

DATA = Path(__file__).parent / "data"
THOUSAND = gzip.decompress((DATA / "papers-ml-1000.jsonl.gz").read_bytes())  # 1,000 papers


def settings(tmp_path: Path, gb: float) -> config_mod.Config:
    user = tmp_path / "config.yaml"
    user.write_text(f"import: {{max_unpacked_gb: {gb!r}}}\n")
    cfg = config_mod.load(user_file=user)
    assert cfg.problems == [] and cfg.settings.import_.max_unpacked_gb == gb
    return cfg


def state(lib: Library) -> tuple[dict[str, int], dict[str, bytes], int]:
    """What a failed import must not change: the manifest's sources and counts, the
    copies' bytes, the index's papers."""
    return ({sid: info.count for sid, info in lib.sources.manifest.items()},
            {f.name: f.read_bytes() for f in sorted(lib.sources.root.glob("*.jsonl.gz"))},
            lib.index.count())


def half_of_the_thousand() -> float:
    """A cap in GB that stops the 1,000-paper list about half way."""
    return len(THOUSAND) / 2 / (1 << 30)


def test_the_setting_and_its_default() -> None:
    assert config_mod.defaults().settings.import_.max_unpacked_gb == common.MAX_LIST_GB
    assert common.limits().max_unpacked == common.MAX_LIST_GB << 30 >= 4 << 30  # arXiv's


@pytest.mark.parametrize("worker", [False, True], ids=["in-process", "worker"])
def test_a_list_over_the_cap_imports_nothing(tmp_path: Path, worker: bool,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the papers read before the cap stayed as the source, with "1 error(s)"."""
    monkeypatch.setattr(registry, "PARALLEL_BYTES", 0 if worker else 1 << 40)
    big = tmp_path / "big.jsonl.gz"
    big.write_bytes(gzip.compress(THOUSAND))
    cfg = settings(tmp_path, half_of_the_thousand())
    with Library.open(tmp_path / "lib", config=cfg, bundled=False) as lib:
        lib.import_paths([DATA / "papers-ml-sample.jsonl"])
        before = state(lib)
        report = lib.import_paths([big])
        assert state(lib) == before
        assert lib.search("").total == before[2]
    assert report.added == report.papers == 0 and report.sources == []
    [error] = report.errors
    assert isinstance(error, TooBig)
    text = str(error)
    assert text.startswith(f"{big}:")
    cap = common.limits_of(half_of_the_thousand()).max_unpacked / (1 << 20)
    assert f": unpacks to more than {cap:g} MiB: too big for a paper list (the cap " \
        f"import.max_unpacked_gb is {half_of_the_thousand():g}; set it higher in your " \
        "config file (`paper-tui config` names it) to import this list); nothing of it was " \
        "imported (not the " in text
    assert text.endswith(" papers read before it)") and "\n" not in text


def test_a_grown_list_over_the_cap_keeps_the_source_it_replaces(tmp_path: Path) -> None:
    """Re-importing a list that grew past the cap: the old copy, its papers and its index
    entries stay, whole."""
    path = tmp_path / "list.jsonl.gz"
    lines = THOUSAND.splitlines(keepends=True)
    path.write_bytes(gzip.compress(b"".join(lines[:100])))
    cfg = settings(tmp_path, half_of_the_thousand())
    with Library.open(tmp_path / "lib", config=cfg, bundled=False) as lib:
        assert lib.import_paths([path]).added == 100
        before = state(lib)
        path.write_bytes(gzip.compress(THOUSAND))
        report = lib.import_paths([path])
        assert len(report.errors) == 1 and "import.max_unpacked_gb" in str(report.errors[0])
        assert state(lib) == before and before[0] == {"list-jsonl": 100}
    with Library.open(tmp_path / "lib", config=cfg) as lib:  # and nothing to redo on opening
        assert state(lib) == before


def test_a_plain_list_over_the_cap_is_refused_unread(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    """Through the command line: one line, which cap, how to raise it; exit 1."""
    path = tmp_path / "big.jsonl"
    path.write_bytes(THOUSAND)
    user = tmp_path / "config.yaml"
    user.write_text("import:\n  max_unpacked_gb: 0.001\n")
    library = tmp_path / "lib"
    status = main(["--library", str(library), "--config", str(user), "import", str(path)])
    err = capsys.readouterr().err
    assert status == 1
    assert err == (f"paper-tui: {path}: is more than 1.024 MiB: too big for a paper list (the "
                   "cap import.max_unpacked_gb is 0.001; set it higher in your config file "
                   "(`paper-tui config` names it) to import this list)\n")
    with Library.open(library, config=config_mod.defaults()) as lib:
        assert lib.sources.manifest == {} and lib.index.count() == 0
    user.write_text("import:\n  max_unpacked_gb: 1\n")  # raised: it imports
    assert main(["--library", str(library), "--config", str(user), "import", str(path)]) == 0


def test_a_list_read_whole_is_held_to_the_setting_too(tmp_path: Path) -> None:
    path = tmp_path / "papers.json.gz"  # a JSON array: read whole
    path.write_bytes(gzip.compress(b"[" + b",".join(THOUSAND.splitlines()) + b"]"))
    cfg = settings(tmp_path, half_of_the_thousand())
    with Library.open(tmp_path / "lib", config=cfg, bundled=False) as lib:
        report = lib.import_paths([path])
        assert lib.index.count() == 0 and lib.sources.manifest == {}
    [error] = report.errors
    assert isinstance(error, TooBig) and "the cap import.max_unpacked_gb is" in str(error)


def test_a_bomb_after_real_papers_is_stopped_by_the_ratio_and_imports_nothing(
        tmp_path: Path) -> None:
    """A cap raised far (1,000 GB) lets no bomb in: the ratio stops it, and the papers
    before it are not imported either."""
    path = tmp_path / "papers.jsonl.gz"
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    newlines = packer.compress(b"\n" * (16 << 20)) + packer.flush()  # 16 MiB in ~16 KB
    path.write_bytes(gzip.compress(THOUSAND) + newlines * 640)  # 10 GiB of blank lines
    cfg = settings(tmp_path, 1000.0)
    with Library.open(tmp_path / "lib", config=cfg, bundled=False) as lib:
        lib.import_paths([DATA / "papers-ml-sample.jsonl"])
        before = state(lib)
        report = lib.import_paths([path])
        assert state(lib) == before
    [error] = report.errors
    assert isinstance(error, TooBig)
    assert str(error).endswith("unpacks to more than 100 times its size: not a paper list "
                               "(a gzip bomb?); nothing of it was imported (not the 1,000 "
                               "papers read before it)")


def test_the_library_reads_its_own_copies_past_the_cap(tmp_path: Path) -> None:
    """A copy that came in under a higher cap reads back after the cap was lowered."""
    path = tmp_path / "list.jsonl"
    path.write_bytes(THOUSAND)
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        assert lib.import_paths([path]).added == 1000
    cfg = settings(tmp_path, 0.0001)
    with Library.open(tmp_path / "lib", config=cfg) as lib:
        assert sum(1 for _ in lib.sources.papers("list-jsonl")) == 1000


def test_past_one_gib_is_read_as_it_goes(tmp_path: Path) -> None:
    """The cap that stopped a 1,000,000-paper list (1 GiB) stops a stream no more: 1.1 GiB
    that packs 40 times (under the ratio's 100) read through under the default limits, in
    a file of 29 MB (one 16 MiB member, repeated)."""
    rng = random.Random(1)
    piece = b"".join(rng.randbytes(200) + b"x" * 9000 for _ in range((16 << 20) // 9200 + 1))
    member = gzip.compress(piece[:16 << 20])
    assert 20 < (16 << 20) / len(member) < 100
    path = tmp_path / "big.jsonl.gz"
    path.write_bytes(member * 70)
    read = 0
    with common.open_stream(path) as stream:
        while chunk := stream.read(8 << 20):
            read += len(chunk)
    assert read == 70 * (16 << 20) > 1 << 30
