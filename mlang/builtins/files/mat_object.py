"""matfile: a MAT-file opened for reading, whose properties are the file's variables.

``m = matfile('f.mat'); x = m.x; m.x(2,:)`` read a variable (the whole variable is read,
then indexed); ``m.Properties.Source`` is the file's full path.  mlang's matfile objects are read-only.
"""

from __future__ import annotations

import os
from typing import Any

from mlang.builtins.coerce import text_scalar
from mlang.builtins.files.mat_load_save import locate, mat_kind, names_in_file, read_variables
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row
from mlang.values.objects import DisplayText, MatlabObject
from mlang.values.struct import Struct


class MatFile(MatlabObject):
    """A MAT-file opened by matfile."""

    matlab_class = "matlab.io.MatFile"
    display_name = "matlab.io.MatFile"
    __slots__ = ("path", "kind")

    def __init__(self, path: str, kind: str) -> None:
        self.path = path
        self.kind = kind

    def variable_names(self) -> list[str]:
        return names_in_file(self.path, self.kind, self.path)

    def property_names(self) -> list[str]:
        return ["Properties", *self.variable_names()]

    def get_property(self, name: str) -> Any:
        if name == "Properties":
            return Struct.scalar({"Source": char_row(self.path), "Writable": False})
        if name not in self.variable_names():
            raise error("MATLAB:MatFile:VariableNotInFile",
                        f"Variable '{name}' does not exist in '{self.path}'.")
        values = read_variables(self.path, self.kind, self.path, [name])
        if name not in values:
            raise error("MATLAB:MatFile:VariableNotInFile",
                        f"Cannot read variable '{name}' of '{self.path}'.")
        return values[name]

    def set_property(self, name: str, value: Any) -> Any:
        raise error("MATLAB:MatFile:WritableFalse",
                    "Cannot write to the MAT-file because the Writable property is false.")

    def display_properties(self) -> list[tuple[str, Any]]:
        rows: list[tuple[str, Any]] = [("Properties.Source", char_row(self.path)),
                                       ("Properties.Writable", DisplayText("false"))]
        values = read_variables(self.path, self.kind, self.path)
        return rows + list(values.items())


@builtin(interp=True)
def matfile(interp: Any, filename: Any, *options: Any) -> MatFile:
    """matfile  Access the variables of a MAT-file without loading them all.

    m = matfile(filename) reads the MAT-file's variables as properties of m:
    x = m.x, or part of one, m.x(2,:).  m.Properties.Source is the file's full
    path.  In mlang, matfile objects are read-only ('Writable' must be false)."""
    name = text_scalar(filename, "File name")
    for k in range(0, len(options) - 1, 2):
        option = text_scalar(options[k], "Option name").lower()
        if option == "writable" and options[k + 1] not in (False, 0.0):
            raise error("MATLAB:MatFile:WritableNotSupported",
                        "mlang opens MAT-files with matfile for reading only.")
    if not os.path.splitext(name)[1]:
        name += ".mat"
    path = locate(interp, name)
    kind = mat_kind(path)
    if kind is None:
        raise error("MATLAB:MatFile:NotAMatFile", f"'{name}' is not a MAT-file.")
    return MatFile(os.path.abspath(path), kind)
