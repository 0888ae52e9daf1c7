"""The zsh completion script: one ``_arguments`` function per command, with every option's
help shown beside it, and ``_describe`` for the commands and the verbs of ``lists``."""

from __future__ import annotations

from paper_tui.cli.completion.words import GLOBAL_VALUE_OPTIONS, Completes, Kind, Option, Spec

HEADER = """\
#compdef paper-tui
# zsh completion for paper-tui (made by `paper-tui completion zsh`).
# Load it from ~/.zshrc (after compinit):   source <(paper-tui completion zsh)
# or install it as _paper-tui in a directory of $fpath.
"""

VALUES = """
_paper_tui_values() {  # $1: lists, tags (of the library the command line names) or styles
  local -a names global expl
  local option
  for option in GLOBAL_OPTIONS; do
    [[ -n ${_paper_tui_global[$option]} ]] && global+=($option ${~_paper_tui_global[$option]})
  done
  names=(${(f)"$(_call_program $1 command paper-tui ${(q)global} __complete $1 2>/dev/null)"})
  _wanted $1 expl ${${1%s}/list/reading list} compadd -a names
}
"""

FOOTER = """
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _paper_tui "$@"
else
  compdef _paper_tui paper-tui
fi
"""


def script(root: Spec) -> str:
    parts = [HEADER,
             VALUES.replace("GLOBAL_OPTIONS", " ".join(GLOBAL_VALUE_OPTIONS))]
    parts += [_function(spec) for spec in root.walk()]
    parts.append(FOOTER)
    return "\n".join(parts)


def _name(spec: Spec) -> str:
    return "_paper_tui" + "".join(f"__{part.replace('-', '_')}" for part in spec.path)


def _function(spec: Spec) -> str:
    lines = [f"{_name(spec)}() {{"]
    specs = [_option(option) for option in spec.options]
    if not spec.path:
        # what the sub-commands' value lookups need: the global options typed before them
        lines += ["  local curcontext=$curcontext state state_descr line ret=1",
                  "  local -A opt_args",
                  "  local -A _paper_tui_global"]
    elif spec.subcommands:
        lines += ["  local curcontext=$curcontext state state_descr line ret=1",
                  "  local -A opt_args"]
    if spec.subcommands:
        specs += ["': :->command'", "'*:: :->args'"]
        lines.append("  _arguments -C -S \\")
        lines += [f"    {s} \\" for s in specs[:-1]] + [f"    {specs[-1]} && ret=0"]
        if not spec.path:
            lines += [f"  _paper_tui_global[{option}]=${{(Q)opt_args[{option}]}}"
                      for option in GLOBAL_VALUE_OPTIONS]
        lines += ["  case $state in", "    command)",
                  "      local -a commands=("]
        lines += [f"        {_single(_described(sub.path[-1], sub.help))}"
                  for sub in spec.subcommands]
        lines.append("      )")
        what = "paper-tui command" if not spec.path else f"{spec.name} verb"
        describe = f"_describe -t commands {_single(what)} commands && ret=0"
        if spec.path:
            lines.append(f"      {describe} ;;")
        else:  # `paper-tui PATH...` opens files: offered when no command matches
            lines.append(f"      {describe} || {{ _files && ret=0 }} ;;")
        lines += ["    args)",
                  "      curcontext=${curcontext%:*:*}:paper-tui-$words[1]:",
                  "      case $words[1] in"]
        lines += [f"        {sub.path[-1]}) {_name(sub)} && ret=0 ;;"
                  for sub in spec.subcommands]
        if not spec.path:
            lines.append("        *) _files && ret=0 ;;")
        lines += ["      esac ;;", "  esac", "  return ret"]
    else:
        specs += _positionals(spec)
        lines.append("  _arguments -S \\")
        lines += [f"    {s} \\" for s in specs[:-1]] + [f"    {specs[-1]}"]
    lines.append("}")
    return "\n".join(lines)


def _option(option: Option) -> str:
    """``'(-f --format)'{-f+,--format=}'[help]:STYLE:(bibtex plain)'`` and the like."""
    value = option.value
    flags = [flag + ("" if value is None else "+" if not flag.startswith("--") else "=")
             for flag in option.flags]
    if option.flags in (("-h", "--help"), ("--version",)):
        exclusion = "'(- *)'"
    elif len(flags) > 1:
        exclusion = _single("(" + " ".join(option.flags) + ")")
    else:
        exclusion = ""
    names = flags[0] if len(flags) == 1 else "{" + ",".join(flags) + "}"
    text = exclusion + names + _single(f"[{_bracketed(option.help)}]"
                                       + ("" if value is None else _value(value)))
    return text


def _positionals(spec: Spec) -> list[str]:
    found = []
    for n, slot in enumerate(spec.slots):
        position = "*" if n == len(spec.slots) - 1 and spec.repeats else str(n + 1)
        found.append(_single(f"{position}{_value(slot, positional=True)}"))
    return found


def _value(value: Completes, positional: bool = False) -> str:
    """``:MESSAGE:ACTION`` for an option's or positional's value. A positional with nothing
    to offer (an id, a query) says ``_nothing``: a message there would stop zsh inserting a
    unique option (``--so`` Tab would list ``--sort`` instead of completing it)."""
    message = value.metavar.replace(":", "\\:")
    action = {
        Kind.NOTHING: "_nothing" if positional else " ",
        Kind.WORDS: "(" + " ".join(value.words) + ")",
        Kind.FILES: "_files",
        Kind.DIRS: "_files -/",
        # a leading space: called as written, without compadd's options before "lists"
        Kind.LISTS: " _paper_tui_values lists",
        Kind.TAGS: " _paper_tui_values tags",
        Kind.STYLES: " _paper_tui_values styles",
        Kind.SOURCES: " _paper_tui_values sources",
    }[value.kind]
    return f":{message}:{action}"


def _described(name: str, help: str) -> str:
    """A ``_describe`` entry: ``name:help`` (a colon in the name escaped)."""
    return name.replace(":", "\\:") + ":" + help


def _bracketed(help: str) -> str:
    """Help text inside ``[…]``: its own brackets escaped."""
    return help.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _single(text: str) -> str:
    """A zsh word in single quotes."""
    return "'" + text.replace("'", "'\\''") + "'"
