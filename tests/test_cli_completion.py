"""``paper-tui completion bash|zsh|fish``: the scripts parse, and they complete for real:
bash through its completion variables, fish through ``complete -C``, zsh by Tab in a tmux
pane. Reading-list names and tags come from the library named on the command line."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import forked_cli
from paper_tui.store.annotations import Annotations

LISTS = ("Reading group", "rl", "$(touch PWNED)")
TAGS = ("to cite", "robotics", "rl-theory")


def _env(home: Path) -> dict[str, str]:
    """This venv's ``paper-tui`` first on PATH; the isolated home."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["HOME"] = str(home)
    return env


def _paper_tui(*args: str) -> subprocess.CompletedProcess[str]:
    return forked_cli.run([sys.executable, "-m", "paper_tui", *args], capture_output=True,
                          text=True, timeout=60)


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The three scripts as ``paper-tui completion SHELL`` prints them."""
    folder = tmp_path_factory.mktemp("completion")
    found = {}
    for shell in ("bash", "zsh", "fish"):
        done = _paper_tui("completion", shell)
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
        found[shell] = folder / f"paper-tui.{shell}"
        found[shell].write_text(done.stdout)
    return found


@pytest.fixture
def annotated(tmp_path: Path) -> Path:
    """A library's two YAML files with three reading lists and three tags (the papers need
    not be imported: completion reads only these files)."""
    root = tmp_path / "my library"
    root.mkdir()
    annotations = Annotations(root)
    for name in LISTS:
        annotations.lists.create(name)
    annotations.add_tags(["neurips2026-0000000001"], TAGS[:2])
    annotations.add_tags(["neurips2026-0000000002"], TAGS[1:])
    annotations.close()
    return root


# -- bash ------------------------------------------------------------------------------------

def bash_complete(script: Path, words: list[str], cwd: Path, home: Path) -> list[str]:
    """What bash's Tab offers after ``words`` (the last is the word being completed), as
    readline would call the function: COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT."""
    line = " ".join(words)
    program = (f"source {shlex.quote(str(script))}\n"
               f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})\n"
               f"COMP_CWORD={len(words) - 1}\n"
               f"COMP_LINE={shlex.quote(line)}; COMP_POINT={len(line)}\n"
               "_paper_tui paper-tui\n"
               "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True,
                          text=True, timeout=60, cwd=cwd, env=_env(home))
    assert done.returncode == 0, done.stderr
    return [w for w in done.stdout.split("\n") if w]


@pytest.mark.parametrize(("words", "expected"), [
    (["paper-tui", "se"], ["search"]),
    (["paper-tui", "lists", ""], ["show", "create", "add", "remove", "rename", "delete",
                                  "describe", "move", "bib"]),
    (["paper-tui", "lists", "re"], ["remove", "rename"]),
    (["paper-tui", "search", "--sort", ""], ["relevance", "year", "title", "rating",
                                              "citations", "consensus", "rating-change",
                                              "team", "for-you"]),
    (["paper-tui", "search", "--sort", "=", "t"], ["title", "team"]),
    (["paper-tui", "search", "--columns", "ra"], ["rating"]),
    (["paper-tui", "list", "--columns", "ad"], ["added"]),
    (["paper-tui", "cite", "-f", "mark"], ["markdown", "marketing-letters"]),
    (["paper-tui", "cite", "-f", "apa-no-"], ["apa-no-ampersand", "apa-no-doi-no-issue",
                                              "apa-no-initials"]),
    (["paper-tui", "export", "--format", "csl"], ["csl-json"]),
    (["paper-tui", "status", "ID1", "ID2", "to"], ["to-read"]),
    (["paper-tui", "completion", ""], ["bash", "zsh", "fish"]),
    (["paper-tui", "search", "--j"], ["--json"]),
    (["paper-tui", "--li"], ["--library"]),
    (["paper-tui", "lists", "add", "--"], ["--help"]),
    (["paper-tui", "tag", ""], []),  # a paper id: nothing to offer
])
def test_bash_completes_commands_options_and_choices(scripts, tmp_path, isolated_home,
                                                      words, expected) -> None:
    assert bash_complete(scripts["bash"], words, tmp_path, isolated_home) == expected


def test_bash_completes_list_names_and_tags_from_the_library_named(
        scripts, annotated: Path, tmp_path: Path, isolated_home: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def complete(*words: str) -> list[str]:
        # the library's path as typed: quoted (it has a space)
        return bash_complete(scripts["bash"], ["paper-tui", "--library", typed, *words],
                             tmp_path, isolated_home)

    typed = shlex.quote(str(annotated))

    assert complete("lists", "add", "") == sorted(LISTS)
    assert complete("lists", "show", "R") == ["Reading group"]
    assert complete("export", "--list", "r") == ["rl"]
    assert complete("lists", "add", "rl", "") == []  # then paper ids
    assert complete("tag", "ID", "") == ["robotics", "rl-theory", "to cite"]  # most used first
    assert complete("untag", "ID", "to", "r") == ["robotics", "rl-theory"]
    assert complete("tag", "ID", "to\\ c") == ["to cite"]  # as typed with a backslash
    # a list name is data: a $(…) in it is offered, never run
    assert complete("lists", "show", "$") == ["$(touch PWNED)"]
    assert not (tmp_path / "PWNED").exists()
    typed = str(annotated).replace(" ", "\\ ")
    assert complete("lists", "show", "R") == ["Reading group"]
    # --library=DIR: bash splits the word at the =
    assert bash_complete(scripts["bash"], ["paper-tui", "--library", "=", typed, "tag", "x", "to"],
                         tmp_path, isolated_home) == ["to cite"]
    # without --library: the default library (none here), then PAPER_TUI_HOME's
    words = ["paper-tui", "lists", "show", "R"]
    assert bash_complete(scripts["bash"], words, tmp_path, isolated_home) == []
    monkeypatch.setenv("PAPER_TUI_HOME", str(annotated))
    assert bash_complete(scripts["bash"], words, tmp_path, isolated_home) == ["Reading group"]


def test_bash_completes_files_to_import_and_to_open(scripts, tmp_path: Path,
                                                    isolated_home: Path) -> None:
    (tmp_path / "nips2018.json").write_text("[]")
    (tmp_path / "notes").mkdir()
    assert bash_complete(scripts["bash"], ["paper-tui", "import", "n"], tmp_path,
                         isolated_home) == ["nips2018.json", "notes"]
    # `paper-tui PATH`: files when no command matches the word
    assert bash_complete(scripts["bash"], ["paper-tui", "nip"], tmp_path,
                         isolated_home) == ["nips2018.json"]
    assert bash_complete(scripts["bash"], ["paper-tui", "--library", "no"], tmp_path,
                         isolated_home) == ["notes"]
    assert bash_complete(scripts["bash"], ["paper-tui", "export", "-o", "ni"], tmp_path,
                         isolated_home) == ["nips2018.json"]


def test_asking_for_names_never_creates_a_library(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    for kind in ("lists", "tags"):
        done = _paper_tui("--library", str(missing), "__complete", kind)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not missing.exists()


def test_names_with_control_characters_are_left_out(annotated: Path) -> None:
    annotations = Annotations(annotated)
    annotations.lists.create("bell\x07list")
    annotations.close()
    assert '"bell\\alist"' in (annotated / "reading-lists.yaml").read_text()  # it is there
    done = _paper_tui("--library", str(annotated), "__complete", "lists")
    assert done.returncode == 0
    assert done.stdout.splitlines() == sorted(LISTS)


def test_other_commands_never_import_the_completion_code() -> None:
    check = ("import sys\n"
             "from paper_tui.cli import build_parser, commands_needed\n"
             "build_parser(commands_needed(['search', 'diffusion']))\n"
             "build_parser(commands_needed(['lists', 'add', 'x', 'y']))\n"
             "print(sorted(m for m in sys.modules if 'completion' in m or 'parser_walk' in m))")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


# -- zsh and fish ----------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh not installed")
def test_the_zsh_script_parses(scripts) -> None:
    done = subprocess.run(["zsh", "-n", str(scripts["zsh"])], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish not installed")
def test_the_fish_script_parses(scripts) -> None:
    done = subprocess.run(["fish", "--no-execute", str(scripts["fish"])], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def fish_complete(script: Path, line: str, cwd: Path, home: Path) -> list[str]:
    """What fish offers for ``line`` (``complete -C``), without the descriptions."""
    program = f"source {script}; complete -C {_fish_quote(line)}"
    done = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True,
                          text=True, timeout=60, cwd=cwd, env=_env(home))
    assert done.returncode == 0, done.stderr
    return [entry.split("\t")[0] for entry in done.stdout.splitlines()]


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish not installed")
def test_fish_completes_for_real(scripts, annotated: Path, tmp_path: Path,
                                 isolated_home: Path) -> None:
    (tmp_path / "nips2018.json").write_text("[]")

    def complete(line: str) -> list[str]:
        return fish_complete(scripts["fish"], line, tmp_path, isolated_home)

    lib = shlex.quote(str(annotated))
    assert complete("paper-tui se") == ["search"]
    assert complete("paper-tui lists re") == ["remove", "rename"]
    assert complete("paper-tui search --sort ") == ["citations", "consensus", "for-you",
                                                    "rating", "rating-change", "relevance",
                                                    "team", "title", "year"]
    assert "--json" in complete("paper-tui search --")
    assert complete("paper-tui cite -f mark") == ["markdown", "marketing-letters"]
    assert complete("paper-tui status ID to") == ["to-read"]
    assert complete("paper-tui tag ") == []  # a paper id
    assert complete(f"paper-tui --library {lib} lists add ") == sorted(LISTS)
    assert complete(f"paper-tui --library {lib} tag ID r") == ["rl-theory", "robotics"]
    assert complete(f"paper-tui --library {lib} export --list R") == ["Reading group"]
    assert complete(f"paper-tui --library={lib} export --list R") == ["Reading group"]
    assert complete("paper-tui import n") == ["nips2018.json"]
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.skipif(shutil.which("zsh") is None or shutil.which("tmux") is None,
                    reason="zsh and tmux not installed")
def test_zsh_completes_by_tab_in_a_terminal(scripts, annotated: Path, tmp_path: Path,
                                            isolated_home: Path) -> None:
    """A real interactive zsh (compinit, the script sourced) in tmux; Tab after each line."""
    zdot = tmp_path / "zdot"
    zdot.mkdir()
    (zdot / ".zshrc").write_text(
        f"autoload -U compinit && compinit -u -d {shlex.quote(str(zdot / 'dump'))}\n"
        f"source {shlex.quote(str(scripts['zsh']))}\n"
        "PS1='zsh> '\n")
    env = {**_env(isolated_home), "ZDOTDIR": str(zdot), "TMUX_TMPDIR": str(tmp_path)}
    env.pop("TMUX", None)
    session = f"zsh-{uuid.uuid4().hex[:8]}"

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=30,
                              env=env, check=False).stdout

    def tab_after(text: str, expected: str) -> None:
        tmux("send-keys", "-t", session, "-l", text)
        tmux("send-keys", "-t", session, "Tab")
        deadline = time.monotonic() + 60  # a shell and its compinit, on a loaded machine
        while expected not in (screen := tmux("capture-pane", "-p", "-t", session)):
            assert time.monotonic() < deadline, f"{expected!r} never shown:\n{screen}"
            time.sleep(0.1)
        # The next line is typed at a cleared, empty prompt. A key zsh reads while it still
        # finishes this completion can be lost: Ctrl-C and Ctrl-L are sent until the
        # screen is clear (both are harmless at an empty prompt).
        cleared_by = time.monotonic() + 30
        while True:
            tmux("send-keys", "-t", session, "C-c")
            tmux("send-keys", "-t", session, "C-l")
            retry = time.monotonic() + 1
            while (screen := tmux("capture-pane", "-p", "-t", session)).strip() != "zsh>" \
                    and time.monotonic() < retry:
                time.sleep(0.05)
            if screen.strip() == "zsh>":
                break
            assert time.monotonic() < cleared_by, f"zsh never cleared the screen:\n{screen}"

    tmux("new-session", "-d", "-s", session, "-x", "150", "-y", "30", "-c", str(tmp_path),
         "zsh -i")
    try:
        deadline = time.monotonic() + 60  # a shell and its compinit, on a loaded machine
        while "zsh>" not in tmux("capture-pane", "-p", "-t", session):
            assert time.monotonic() < deadline, "zsh never showed its prompt"
            time.sleep(0.1)
        lib = shlex.quote(str(annotated))
        tab_after("paper-tui lists sh", "zsh> paper-tui lists show")
        tab_after("paper-tui search --sort ", "for-you")
        tab_after("paper-tui cite --form", "zsh> paper-tui cite --format")
        tab_after(f"paper-tui --library {lib} lists add Rea", "lists add Reading\\ group")
        tab_after(f"paper-tui --library {lib} tag ID to", "tag ID to\\ cite")
        tab_after("paper-tui sy", "zsh> paper-tui sync")
    finally:
        tmux("kill-server")
    assert not (tmp_path / "PWNED").exists()
