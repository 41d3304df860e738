"""How values look in the Command Window: the one display module.

``display(interp, name, value)`` prints ``name = value`` as an unsuppressed
statement does; ``disp_text(interp, value)`` is what ``disp`` prints.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import class_of, to_array
from mlang.values.string import StringArray
from mlang.values.struct import Struct


def _number(x: float) -> str:
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4f}"


def body_text(interp: Any, value: Any) -> str:
    t = type(value)
    if t is float or t is bool:
        return f"   {_number(float(value))}\n"
    if t is np.ndarray:
        if value.dtype.kind == "U":
            rows = ["".join(r) for r in value.reshape(value.shape[0], -1).tolist()]
            return "".join(f"    '{r}'\n" for r in rows)
        a = to_array(value)
        lines = []
        for row in a.reshape(a.shape[0], -1):
            lines.append("".join(f"{_number(float(x)):>10}" for x in row.real))
        return "\n".join(lines) + "\n"
    if t is Cell:
        return f"  {'x'.join(map(str, value.shape))} cell array\n"
    if t is Struct:
        return "".join(f"    {f}: ...\n" for f in value.fields)
    if t is StringArray:
        return "".join(f'    "{s}"\n' for s in value.data.ravel(order="F"))
    return f"  {class_of(value)}\n"


def display(interp: Any, name: str, value: Any) -> None:
    interp.write(f"{name} =\n\n{body_text(interp, value)}\n")


def disp_text(interp: Any, value: Any) -> str:
    t = type(value)
    if t is np.ndarray and value.dtype.kind == "U":
        return "".join("".join(r) + "\n" for r in value.reshape(value.shape[0], -1).tolist()) \
            if value.size else ""
    return body_text(interp, value)
