"""MATLAB values: representation (core), containers, operators and indexing.

Importing the package defines every object kind of this layer (``objects``).
"""

from mlang.values.cell import Cell
from mlang.values.containers_map import MapObject
from mlang.values.core import class_of, result, to_array
from mlang.values.exception import ExceptionObject
from mlang.values.handle import FunctionHandle
from mlang.values.objects import MatlabObject, kind_of
from mlang.values.string import StringArray
from mlang.values.struct import Struct

__all__ = ["Cell", "ExceptionObject", "FunctionHandle", "MapObject", "MatlabObject", "StringArray",
           "Struct", "class_of", "kind_of", "result", "to_array"]
