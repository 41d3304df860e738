"""MATLAB values: representation (core), containers, operators and indexing."""

from mlang.values.cell import Cell
from mlang.values.core import class_of, result, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray
from mlang.values.struct import Struct

__all__ = ["Cell", "FunctionHandle", "StringArray", "Struct", "class_of", "result", "to_array"]
