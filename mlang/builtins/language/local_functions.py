"""localfunctions: handles to the local functions of the file that calls it."""

from __future__ import annotations

from typing import Any

from mlang.builtins.language.introspection import caller_frame
from mlang.builtins.text.forms import cell_of
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.handle import FunctionHandle


@builtin(interp=True)
def localfunctions(interp: Any) -> Cell:
    """fcns = localfunctions returns a column cell array of function handles to the local
    functions of the file that calls it (not its main function, not nested functions),
    in the order they appear; at the command line it is a 0-by-1 cell array."""
    unit = caller_frame(interp).unit
    if unit is None:
        return cell_of([], (0, 1))
    functions = list(unit.program.functions)
    if not unit.is_script:
        functions = functions[1:]
    handles = [FunctionHandle(name=fn.name, target=unit.local(fn.name)) for fn in functions]
    return cell_of(handles, (len(handles), 1))
