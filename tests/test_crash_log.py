"""A bug reaches the user as one line and a crash log, never as a traceback; exit 70."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# A command module the CLI loads like its own (cli.COMMANDS names each command's module),
# whose handler has a bug: what any unexpected exception in a command looks like.
BUGGY = '''
def register(sub):
    sub.add_parser("boom").set_defaults(handler=lambda args, ctx: {}["missing key"])
'''
RUN = """
import sys
from paper_tui import cli
cli.__path__.append(sys.argv[1])
cli.COMMANDS["boom"] = "boom"
raise SystemExit(cli.main(["--library", sys.argv[2], "boom"]))
"""


def test_an_unexpected_error_is_one_line_and_a_crash_log(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text(BUGGY)
    state = tmp_path / "state"
    env = {**os.environ, "XDG_STATE_HOME": str(state), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path), str(tmp_path / "lib")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 70
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("paper-tui: internal error: KeyError: 'missing key' (details in ")
    log = Path(lines[0].rsplit("details in ", 1)[1].rstrip(")"))
    assert log.is_file() and log.is_relative_to(tmp_path)
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "KeyError: 'missing key'" in text
    assert "command: paper-tui --library" in text


def test_a_users_error_stays_one_line_with_exit_1(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "l"),
                           "show", "no-such-paper"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == "paper-tui: no paper with id 'no-such-paper'"


# A command whose handler fails with the text of its argument, a file name that may hold
# any bytes: what a bug looks like when a non-UTF-8 argument reaches its message.
BUGGY_WITH_BYTES = '''
from paper_tui.cli.arguments import path

def register(sub):
    p = sub.add_parser("boom")
    p.add_argument("name", type=path)
    p.set_defaults(handler=lambda args, ctx: int(args.name))
'''
RUN_WITH_BYTES = """
import os, sys
from paper_tui import cli
cli.__path__.append(sys.argv[1])
cli.COMMANDS["boom"] = "boom"
raise SystemExit(cli.main(["--library", sys.argv[2], "boom", sys.argv[3]]))
"""


def test_a_bug_whose_message_holds_undecodable_bytes_is_one_line_and_a_log(
        tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text(BUGGY_WITH_BYTES)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", RUN_WITH_BYTES, str(tmp_path),
                           str(tmp_path / "lib"), b"bad\xff\xfe name"],
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 70
    err = done.stderr.decode("utf-8")  # strict: every byte escaped
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith("paper-tui: internal error: ValueError: invalid literal for "
                               "int() with base 10: 'bad\\udcff\\udcfe name' (details in ")
    log = Path(lines[0].rsplit("details in ", 1)[1].rstrip(")"))
    text = log.read_bytes().decode("utf-8")  # strict
    assert "command: paper-tui --library" in text and "boom bad\\xff\\xfe name" in text
    assert "Traceback (most recent call last)" in text


def test_the_crash_log_and_its_line_take_any_text(tmp_path: Path, monkeypatch) -> None:
    """Lone surrogates (the bytes of a file name, half a pair from a JSON file) in the
    message and the command, a message over several lines, a log dir that is not UTF-8."""
    from paper_tui.crash import internal_error_line, write_crash_log

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / os.fsdecode(b"state\xff")))
    error = RuntimeError("file caf\udce9.csv\nhalf a pair \ud83d")
    log = write_crash_log(error, ["paper-tui", "import", "caf\udce9.csv"])
    assert log is not None and log.is_relative_to(tmp_path)
    text = log.read_bytes().decode("utf-8")
    assert "command: paper-tui import caf\\xe9.csv" in text
    assert "RuntimeError: file caf\\xe9.csv\nhalf a pair \\ud83d" in text
    line = internal_error_line(error, log)
    assert line == (f"paper-tui: internal error: RuntimeError: file caf\\xe9.csv half a pair "
                    f"\\ud83d (details in {tmp_path}/state\\xff/paper-tui/log/{log.name})")
    line.encode("utf-8")  # strict: it can be written anywhere


def test_an_exception_whose_str_fails_is_still_reported() -> None:
    from paper_tui.crash import internal_error_line

    class Broken(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    assert internal_error_line(Broken(), None) == (
        "paper-tui: internal error: Broken (no crash log could be written)")
