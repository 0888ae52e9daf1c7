"""The fish completion script: one ``complete`` line per command, option and positional,
each guarded by ``__paper_tui_at`` (which command the words typed so far name, and how
many positionals it has)."""

from __future__ import annotations

from paper_tui.cli.completion.words import GLOBAL_VALUE_OPTIONS, Completes, Kind, Option, Spec

HEADER = """\
# fish completion for paper-tui (made by `paper-tui completion fish`).
# Load it from ~/.config/fish/config.fish:   paper-tui completion fish | source
# or install it (fish loads it on first use):
#   paper-tui completion fish > ~/.config/fish/completions/paper-tui.fish
"""

STATE = r"""
# the paper-tui command typed so far, then how many positionals it has
function __paper_tui_state
    set -l tokens (commandline -opc)
    set -l command ''
    set -l npos 0
    set -l skip 0
    for token in $tokens[2..-1]
        if test $skip -eq 1
            set skip 0
        else if string match -q -- '-*' $token
            if not string match -q -- '*=*' $token
                and contains -- $token (__paper_tui_valued $command)
                set skip 1
            end
        else if test $npos -eq 0; and contains -- $token (__paper_tui_commands $command)
            set command (string trim -- "$command $token")
        else
            set npos (math $npos + 1)
        end
    end
    echo $command
    echo $npos
end

# true at COMMAND (and, given TEST_OP N, when `test NPOS TEST_OP N` holds)
function __paper_tui_at --argument-names command test_op n
    set -l state (__paper_tui_state)
    test "$state[1]" = "$command"; or return 1
    test -z "$test_op"; and return 0
    test $state[2] $test_op $n
end

# the reading lists or tags of the library the command line names, or the citation styles
function __paper_tui_values --argument-names kind
    set -l tokens (commandline -opc)
    set -l global
    for i in (seq 2 (count $tokens))
        if contains -- $tokens[$i] GLOBAL_OPTIONS; and test $i -lt (count $tokens)
            set global $global $tokens[$i] $tokens[(math $i + 1)]
        else if string match -qr -- '^(GLOBAL_REGEX)=' $tokens[$i]
            set global $global (string split -m 1 = -- $tokens[$i])
        end
    end
    command paper-tui $global __complete $kind 2>/dev/null
end

complete -c paper-tui -f
"""


def script(root: Spec) -> str:
    specs = root.walk()
    parts = [HEADER, _table("__paper_tui_commands", "the sub-commands of a command",
                            [(s.name, [sub.path[-1] for sub in s.subcommands])
                             for s in specs if s.subcommands])]
    parts.append(_table("__paper_tui_valued", "the options of a command that take a value",
                        [(s.name, [f for o in s.options if o.value is not None
                                   for f in o.flags]) for s in specs]))
    parts.append(STATE.replace("GLOBAL_OPTIONS", " ".join(GLOBAL_VALUE_OPTIONS))
                 .replace("GLOBAL_REGEX", "|".join(GLOBAL_VALUE_OPTIONS)))
    for spec in specs:
        parts.append(f"# paper-tui {spec.name}".rstrip())
        parts += _lines(spec)
    return "\n".join(parts) + "\n"


def _table(name: str, about: str, rows: list[tuple[str, list[str]]]) -> str:
    lines = [f"function {name} --description {_single(about)}", "    switch \"$argv\""]
    for key, words in rows:
        if words:
            lines += [f"        case {_single(key)}",
                      f"            printf '%s\\n' {' '.join(words)}"]
    lines += ["    end", "end"]
    return "\n".join(lines)


def _lines(spec: Spec) -> list[str]:
    at = f"__paper_tui_at {_single(spec.name)}"
    found = []
    if spec.subcommands:
        first = f"{at} -eq 0"
        found += [f"complete -c paper-tui -n {_single(first)} -a {sub.path[-1]}"
                  f" -d {_single(sub.help)}" for sub in spec.subcommands]
        if not spec.path:  # `paper-tui PATH...` opens files
            found.append(f"complete -c paper-tui -n {_single(at)} -F")
    found += [_option(at, option) for option in spec.options]
    for n, slot in enumerate(spec.slots):
        repeats = n == len(spec.slots) - 1 and spec.repeats
        where = f"{at} {'-ge' if repeats else '-eq'} {n}"
        values = _values(slot)
        if values:
            found.append(f"complete -c paper-tui -n {_single(where)} {values}"
                         f" -d {_single(slot.metavar.lower())}")
    return found


def _option(at: str, option: Option) -> str:
    flags = " ".join(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}"
                     for flag in option.flags)
    value = "" if option.value is None else " " + (_values(option.value) or "-x")
    return f"complete -c paper-tui -n {_single(at)} {flags}{value} -d {_single(option.help)}"


def _values(value: Completes) -> str:
    """The ``complete`` switches offering a value's candidates ("" for none)."""
    return {
        Kind.NOTHING: "",
        Kind.WORDS: "-x -a " + _single(" ".join(value.words)),
        Kind.FILES: "-r -F",
        Kind.DIRS: "-x -a '(__fish_complete_directories)'",
        Kind.LISTS: "-x -a '(__paper_tui_values lists)'",
        Kind.TAGS: "-x -a '(__paper_tui_values tags)'",
        Kind.STYLES: "-x -a '(__paper_tui_values styles)'",
        Kind.SOURCES: "-x -a '(__paper_tui_values sources)'",
    }[value.kind]


def _single(text: str) -> str:
    """A fish word in single quotes (only \\ and ' are special there)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
