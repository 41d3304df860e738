"""Variable names for tables read from files: column headers made valid MATLAB names (as
matlab.lang.makeValidName does) and unique (as matlab.lang.makeUniqueStrings does)."""

from __future__ import annotations

import re

from mlang.builtins.language.introspection import KEYWORDS
from mlang.errors import warn
from mlang.evaluation.interpreter import NAME_LENGTH_MAX

MODIFIED_NAMES_ID = "MATLAB:table:ModifiedAndSavedVarnames"
MODIFIED_NAMES = ("Column headers from the file were modified to make them valid MATLAB identifiers "
                  "before creating variable names for the table. The original column headers are "
                  "saved in the VariableDescriptions property.\nSet 'VariableNamingRule' to "
                  "'preserve' to use the original column headers as table variable names.")


def make_valid_name(text: str) -> str:
    """``text`` as a valid MATLAB identifier: whitespace removed (a lowercase letter after
    it capitalised), other invalid characters replaced by '_', an 'x' before a name that
    does not start with a letter or is a keyword, at most namelengthmax characters."""
    text = text.strip()
    text = re.sub(r"\s+(\w?)", lambda m: m.group(1).upper(), text)
    text = re.sub(r"[^A-Za-z0-9_]", "_", text)
    if text in KEYWORDS:
        text = "x" + text[0].upper() + text[1:]
    elif not text or not ("a" <= text[0].lower() <= "z"):
        text = "x" + text
    return text[:NAME_LENGTH_MAX]


def make_unique(names: list[str]) -> list[str]:
    """Names made distinct: a repeated name gets _1, _2... (the first keeps its name)."""
    taken = set(names)
    seen: set[str] = set()
    out = []
    for name in names:
        if name not in seen:
            seen.add(name)
            out.append(name)
            continue
        k = 1
        while f"{name}_{k}" in taken or f"{name}_{k}" in seen:
            k += 1
        candidate = f"{name}_{k}"
        seen.add(candidate)
        out.append(candidate)
    return out


def variable_names(headers: list[str], rule: str) -> list[str]:
    """Table variable names from column headers: an empty header is VarN; with the rule
    'modify' each is made a valid identifier (with MATLAB's warning when one changed)."""
    names = [h.strip() if h.strip() else f"Var{k + 1}" for k, h in enumerate(headers)]
    if rule == "modify":
        valid = [make_valid_name(n) for n in names]
        if valid != names:
            warn(MODIFIED_NAMES_ID, MODIFIED_NAMES)
        names = valid
    return make_unique(names)
