"""The bash completion script: tables of the commands, options and positionals as ``case``
statements (bash 3.2 has no associative arrays), and one function that walks the words
typed so far.

A value spec is either fixed words (``relevance year title``) or one of ``:files``,
``:dirs``, ``:lists``, ``:tags``. Names from the library are matched with ``[[ ]]`` and
never passed through ``compgen -W``, which would expand a ``$(…)`` inside a list name.
"""

from __future__ import annotations

from paper_tui.cli.completion.words import GLOBAL_VALUE_OPTIONS, Completes, Kind, Spec

HEADER = """\
# bash completion for paper-tui (made by `paper-tui completion bash`).
# Load it from ~/.bashrc:   eval "$(paper-tui completion bash)"
# or install it (bash-completion loads it on first use):
#   paper-tui completion bash > ~/.local/share/bash-completion/completions/paper-tui
"""

MAIN = r"""
_paper_tui_dequote() {  # a word as typed -> its value: quotes, backslashes and ~/ undone
    local word=$1
    case $word in
        \'*\') word=${word:1:${#word}-2} ;;
        \"*\") word=${word:1:${#word}-2} ;;
        *) word=${word//\\/} ;;
    esac
    [[ $word == \~/* ]] && word=$HOME/${word#\~/}
    printf '%s' "$word"
}

_paper_tui_values() {  # $1: lists, tags (of the library the command line names) or styles
    local i=1 word
    local -a global=()
    while (( i < COMP_CWORD )); do
        word=${COMP_WORDS[i]}
        case $word in
            GLOBAL_CASE)
                (( i++ ))
                [[ ${COMP_WORDS[i]} == = ]] && (( i++ ))
                global+=("$word" "$(_paper_tui_dequote "${COMP_WORDS[i]}")") ;;
            -*) ;;
            *) break ;;
        esac
        (( i++ ))
    done
    command paper-tui "${global[@]}" __complete "$1" 2>/dev/null
}

_paper_tui_reply() {  # COMPREPLY from a value spec, for the word at the cursor ($cur)
    local name plain
    plain=$(_paper_tui_dequote "$cur")
    plain=${plain#[\"\']}
    COMPREPLY=()
    case $1 in
        :files) compopt -o filenames 2>/dev/null; local IFS=$'\n'
                COMPREPLY=($(compgen -f -- "$cur")) ;;
        :dirs) compopt -o filenames 2>/dev/null; local IFS=$'\n'
               COMPREPLY=($(compgen -d -- "$cur")) ;;
        :lists|:tags|:styles|:sources)
            compopt -o filenames 2>/dev/null  # readline quotes a name with spaces
            while IFS= read -r name; do
                [[ $name == "$plain"* ]] && COMPREPLY+=("$name")
            done < <(_paper_tui_values "${1#:}") ;;
        *) COMPREPLY=($(compgen -W "$1" -- "$cur")) ;;
    esac
}

_paper_tui() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local command="" word spec subs i=1 npos=0 cword=$COMP_CWORD
    # --option=value: bash splits it at the = (COMP_WORDBREAKS)
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = ]] && (( cword > 2 )); then
        prev=${COMP_WORDS[cword-2]}
    fi
    while (( i < cword )); do
        word=${COMP_WORDS[i]}
        if [[ $word == -* ]]; then
            if _paper_tui_value "$command" "$word" >/dev/null; then
                (( i++ ))
                [[ ${COMP_WORDS[i]} == = ]] && (( i++ ))
            fi
        elif (( npos == 0 )) && [[ " $(_paper_tui_commands "$command") " == *" $word "* ]]; then
            command=${command:+$command }$word
        else
            (( npos++ ))
        fi
        (( i++ ))
    done
    if [[ $prev == -* ]] && spec=$(_paper_tui_value "$command" "$prev"); then
        _paper_tui_reply "$spec"
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_paper_tui_options "$command")" -- "$cur"))
        return
    fi
    subs=$(_paper_tui_commands "$command")
    if (( npos == 0 )) && [[ -n $subs ]]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
        # `paper-tui PATH...` opens files: offered when no command matches
        if [[ -z $command ]] && (( ${#COMPREPLY[@]} == 0 )); then
            _paper_tui_reply :files
        fi
        return
    fi
    if [[ -z $command ]]; then
        _paper_tui_reply :files
        return
    fi
    _paper_tui_reply "$(_paper_tui_positional "$command" "$npos")"
}

complete -F _paper_tui paper-tui
"""


def script(root: Spec) -> str:
    specs = root.walk()
    parts = [HEADER]
    parts.append(_function(
        "_paper_tui_commands", "$1: the command so far: its sub-commands",
        [(s.name, " ".join(c.path[-1] for c in s.subcommands)) for s in specs
         if s.subcommands]))
    parts.append(_function(
        "_paper_tui_options", "$1: the command so far: its options",
        [(s.name, " ".join(f for o in s.options for f in o.flags)) for s in specs]))
    parts.append(_value_function(specs))
    parts.append(_positional_function(specs))
    global_case = "|".join(GLOBAL_VALUE_OPTIONS)
    parts.append(MAIN.replace("GLOBAL_CASE", global_case))
    return "\n".join(parts)


def value_spec(value: Completes) -> str:
    if value.kind is Kind.WORDS:
        return " ".join(value.words)
    if value.kind is Kind.NOTHING:
        return ""
    return f":{value.kind.value}"


def _function(name: str, about: str, cases: list[tuple[str, str]]) -> str:
    lines = [f"{name}() {{  # {about}", "    case $1 in"]
    lines += [f"        {_quote(key)}) echo {_quote(value)} ;;" for key, value in cases]
    lines += ["    esac", "}"]
    return "\n".join(lines)


def _value_function(specs: list[Spec]) -> str:
    """``_paper_tui_value COMMAND OPTION``: the option's value spec; status 1 when the
    option takes no value."""
    lines = ["_paper_tui_value() {  # $1: the command so far, $2: an option: its value spec "
             "(status 1: it takes none)",
             '    case "$1 $2" in']
    for s in specs:
        for option in s.options:
            if option.value is None:
                continue
            keys = "|".join(_quote(f"{s.name} {flag}") for flag in option.flags)
            lines.append(f"        {keys}) echo {_quote(value_spec(option.value))} ;;")
    lines += ["        *) return 1 ;;", "    esac", "}"]
    return "\n".join(lines)


def _positional_function(specs: list[Spec]) -> str:
    """``_paper_tui_positional COMMAND N``: the value spec of the N-th positional (from 0)."""
    lines = ["_paper_tui_positional() {  # $1: the command so far, $2: how many positionals "
             "came before: the value spec at the cursor",
             "    case $1 in"]
    for s in specs:
        if not s.path or all(slot.kind is Kind.NOTHING for slot in s.slots):
            continue
        arms = []
        for n, slot in enumerate(s.slots):
            pattern = "*" if n == len(s.slots) - 1 and s.repeats else str(n)
            arms.append(f"{pattern}) echo {_quote(value_spec(slot))} ;;")
        lines.append(f"        {_quote(s.name)}) case $2 in {' '.join(arms)} esac ;;")
    lines += ["    esac", "}"]
    return "\n".join(lines)


def _quote(text: str) -> str:
    """A bash word: single-quoted (the tables hold only our own names and choices)."""
    return "'" + text.replace("'", "'\\''") + "'"
