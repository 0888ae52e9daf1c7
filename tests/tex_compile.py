"""Compile a ``.bib`` file with the real TeX tools and collect what they complain about.

Two documents cite every entry (``\\nocite{*}``): one with ``plain.bst`` through ``bibtex``,
one with biblatex through ``biber``; both typeset with ``pdflatex`` (T1 fonts, as a LaTeX
user's document has), so an entry LaTeX cannot set is an error here too.

Used by tests/test_bibtex_compiles.py, and by hand on a whole export:

    python tests/tex_compile.py refs.bib      # the counts and each message (1,000 entries
                                              # a document)
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

TOOLS = ("pdflatex", "bibtex", "biber")
_PREAMBLE = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
             "\\usepackage{amsmath,amssymb}\n")
_BIBTEX_DOC = _PREAMBLE + """\\usepackage{url}
\\begin{document}
\\nocite{*}
\\bibliographystyle{plain}
\\bibliography{refs}
\\end{document}
"""
_BIBER_DOC = _PREAMBLE + """\\usepackage[backend=biber]{biblatex}
\\addbibresource{refs.bib}
\\begin{document}
\\nocite{*}
\\printbibliography
\\end{document}
"""


@dataclass
class Report:
    """What each tool said: ``errors``/``warnings`` keyed by tool (``bibtex``,
    ``pdflatex (bibtex)``, ``biber``, ``pdflatex (biber)``)."""

    errors: dict[str, list[str]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)

    def counts(self) -> dict[str, tuple[int, int]]:
        names = list(dict.fromkeys([*self.errors, *self.warnings]))
        return {n: (len(self.errors.get(n, [])), len(self.warnings.get(n, []))) for n in names}


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def _run(args: list[str], cwd: Path, timeout: float) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, timeout=timeout, check=False,
                          stdin=subprocess.DEVNULL)
    return done.stdout.decode("utf-8", "replace")


def _latex_errors(log: Path) -> list[str]:
    """Each ``! …`` error of a LaTeX log, with the line that names where it happened."""
    lines = log.read_text("utf-8", "replace").splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.startswith("! "):
            where = next((x for x in lines[i + 1:i + 4] if x.startswith("l.")), "")
            found.append(f"{line} {where}".strip())
    return found


def _latex(work: Path, timeout: float) -> None:
    _run(["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main.tex"], work,
         timeout)


def compile_bib(bib: Path, work: Path, timeout: float = 600) -> Report:
    """Compile ``bib`` both ways in two directories under ``work``."""
    report = Report()
    for name, doc, tool in (("bibtex", _BIBTEX_DOC, ["bibtex", "main"]),
                            ("biber", _BIBER_DOC, ["biber", "main"])):
        where = work / name
        where.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bib, where / "refs.bib")
        (where / "main.tex").write_text(doc, encoding="utf-8")
        _latex(where, timeout)
        out = _run(tool, where, timeout)
        if name == "bibtex":
            blg = (where / "main.blg").read_text("utf-8", "replace")
            report.errors[name] = _bibtex_errors(blg)
            report.warnings[name] = [x for x in blg.splitlines() if x.startswith("Warning--")]
        else:
            report.errors[name] = [x for x in out.splitlines() if x.startswith("ERROR -")]
            report.warnings[name] = [x for x in out.splitlines() if x.startswith("WARN -")]
        _latex(where, timeout)
        report.errors[f"pdflatex ({name})"] = _latex_errors(where / "main.log")
    return report


def _bibtex_errors(blg: str) -> list[str]:
    """BibTeX's errors: each message with the line after it that says where (``while
    executing---line N of file plain.bst``, ``---line N of file refs.bib``)."""
    lines = blg.splitlines()
    return [f"{lines[i - 1]} {line}" for i, line in enumerate(lines)
            if i and re.search(r"---(line \d+|this can't happen)", line)]


def _chunks(bib: Path, size: int) -> list[str]:
    """The entries of ``bib`` in pieces of ``size``: biblatex runs out of TeX's memory on
    a few thousand entries in one document."""
    entries = re.split(r"\n(?=@)", bib.read_text("utf-8"))
    return ["\n".join(entries[i:i + size]) + "\n" for i in range(0, len(entries), size)]


def main(argv: list[str]) -> int:
    import tempfile

    total = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for n, chunk in enumerate(_chunks(Path(argv[0]), 1000)):
            part = Path(tmp) / f"part{n}.bib"
            part.write_text(chunk, encoding="utf-8")
            report = compile_bib(part, Path(tmp) / f"work{n}")
            for tool, messages in report.errors.items():
                total.errors.setdefault(tool, []).extend(messages)
            for tool, messages in report.warnings.items():
                total.warnings.setdefault(tool, []).extend(messages)
    for tool, (errors, warnings) in total.counts().items():
        print(f"{tool}: {errors} errors, {warnings} warnings")
    for tool, messages in [*total.errors.items(), *total.warnings.items()]:
        for message in messages:
            print(f"  {tool}: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
