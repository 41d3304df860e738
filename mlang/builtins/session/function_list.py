"""The list of every function mlang provides, by family: what ``mlang --list-functions``
prints and docs/functions.md holds."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from mlang.builtins.session.helptext import file_help
from mlang.registry import BUILTINS, LIBRARY, load_all


class FunctionEntry(NamedTuple):
    name: str
    family: str  # e.g. "math/linalg", or "stdlib" for a function written in MATLAB
    summary: str


def summary_of(help_text: str) -> str:
    """One line of a help text: the first line of its description, after the syntax
    lines when there are any (``S = sum(A)`` ... then a blank line, then the prose)."""
    paragraphs = [p.strip() for p in help_text.strip().split("\n\n") if p.strip()]
    if not paragraphs:
        return ""
    text = paragraphs[1] if len(paragraphs) > 1 and _all_syntax(paragraphs[0]) else paragraphs[0]
    return " ".join(line.strip() for line in text.splitlines()).split(". ")[0].rstrip(".")


# a line that is only a calling form: "S = sum(A,'all')", "[V,D] = eig(A)", "tic", "pi"
_SYNTAX_LINE = re.compile(r"\s*((\[[^\]]*\]|[\w.]+)\s*=\s*)?[\w.]+(\(.*\))?;?\s*")


def _all_syntax(paragraph: str) -> bool:
    return all(_SYNTAX_LINE.fullmatch(line) for line in paragraph.splitlines())


def _family(module: str) -> str:
    prefix = LIBRARY + "."
    return module[len(prefix):].replace(".", "/") if module.startswith(prefix) else module


def function_table(stdlib: Path) -> list[FunctionEntry]:
    """Every builtin and every function of ``stdlib``, sorted by family and name."""
    load_all()
    entries = [FunctionEntry(name, _family(b.fn.__module__), summary_of(b.help))
               for name, b in BUILTINS.items()]
    for path in sorted(stdlib.glob("*.m")):
        if path.stem not in BUILTINS:
            block = file_help(path)
            first = block[0].strip() if block else ""
            # MATLAB's H1 line: the name in capitals, then its summary
            if first.upper().startswith(path.stem.upper()):
                first = first[len(path.stem):].strip()
            entries.append(FunctionEntry(path.stem, "stdlib", first.rstrip(".")))
    return sorted(entries, key=lambda e: (e.family, e.name.lower()))


def markdown(entries: list[FunctionEntry]) -> str:
    """The table as Markdown, with a count a family."""
    families: dict[str, int] = {}
    for e in entries:
        families[e.family] = families.get(e.family, 0) + 1
    lines = ["# Functions", "",
             f"mlang provides {len(entries)} functions. `help NAME` shows the help of each; "
             "this page is written by `mlang --list-functions`.", "",
             "| family | functions |", "|---|---|"]
    lines += [f"| {family} | {count} |" for family, count in families.items()]
    lines += ["", "| function | family | summary |", "|---|---|---|"]
    lines += [f"| `{e.name}` | {e.family} | {e.summary.replace('|', '&#124;')} |" for e in entries]
    return "\n".join(lines) + "\n"
