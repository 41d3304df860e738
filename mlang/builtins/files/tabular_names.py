"""Variable names for tables read from files: column headers made valid MATLAB names (as
matlab.lang.makeValidName does) and unique (as matlab.lang.makeUniqueStrings does)."""

from __future__ import annotations

from mlang.builtins.text.identifiers import make_unique, make_valid_name
from mlang.errors import warn

MODIFIED_NAMES_ID = "MATLAB:table:ModifiedAndSavedVarnames"
MODIFIED_NAMES = ("Column headers from the file were modified to make them valid MATLAB identifiers "
                  "before creating variable names for the table. The original column headers are "
                  "saved in the VariableDescriptions property.\nSet 'VariableNamingRule' to "
                  "'preserve' to use the original column headers as table variable names.")


def variable_names(headers: list[str], rule: str, quiet: bool = False) -> list[str]:
    """Table variable names from column headers: an empty header is VarN; with the rule
    'modify' each is made a valid identifier (with MATLAB's warning when one changed, unless
    ``quiet``: detectImportOptions does not warn)."""
    names = [h.strip() if h.strip() else f"Var{k + 1}" for k, h in enumerate(headers)]
    if rule == "modify":
        valid = [make_valid_name(n) for n in names]
        if valid != names and not quiet:
            warn(MODIFIED_NAMES_ID, MODIFIED_NAMES)
        names = valid
    return make_unique(names)
