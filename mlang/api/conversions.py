"""How values cross between Python and a Session: the conversions table of the README.

``to_matlab`` makes the MATLAB value for a Python value; ``from_matlab`` makes the Python
value for a MATLAB value.  Both keep NumPy dtypes and shapes (a MATLAB array is at least
2-D: a 1-D NumPy array becomes a 1-by-N row, as in MATLAB's Engine for Python).  A
value with no Python counterpart (a datetime, a network, a graphics handle...) comes back
as the mlang value itself, and goes back into MATLAB unchanged.
"""

from __future__ import annotations

import importlib.util
import numbers
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError as _RaisedError
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.containers_map import MapObject
from mlang.values.core import EMPTY, char_codes, char_from_codes, char_row, to_str
from mlang.values.handle import FunctionHandle
from mlang.values.objects import OBJECT_KINDS, MatlabObject
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table import Table

# NumPy dtypes MATLAB has a class for (anything else is converted to double).
NUMERIC_KINDS = "biufc"
PYTHON_ERROR = "mlang:python:error"


def is_matlab_value(value: Any) -> bool:
    """Whether ``value`` is already an mlang value (passed through unchanged)."""
    return type(value) in (Cell, Struct, StringArray) or type(value) in OBJECT_KINDS


# ---------------------------------------------------------------- Python -> MATLAB


def to_matlab(value: Any, session: Any = None) -> Any:
    """The MATLAB value for a Python value (the README's conversions table, left to right)."""
    if value is None:
        return EMPTY
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, np.generic):  # a NumPy scalar keeps its class (np.int8(3): int8)
        return _array_to_matlab(np.asarray(value))
    if isinstance(value, numbers.Integral) or isinstance(value, float):
        return float(value)
    if isinstance(value, complex):
        return value
    if isinstance(value, str):
        return char_row(value)
    if isinstance(value, np.ndarray):
        return _array_to_matlab(value)
    if isinstance(value, MatlabFunction):
        return value.handle
    if is_matlab_value(value) or type(value) is np.ndarray:
        return value
    if isinstance(value, Mapping):
        return _mapping_to_matlab(value, session)
    if isinstance(value, (list, tuple)):
        return _sequence_to_matlab(value, session)
    if _is_data_frame(value):
        return _frame_to_table(value, session)
    if callable(value):
        return PythonFunction(value, session)
    raise TypeError(f"cannot convert a Python {type(value).__name__} to a MATLAB value")


def _array_to_matlab(a: np.ndarray) -> Any:
    if a.dtype.kind == "U":
        if a.ndim >= 1 and a.dtype.itemsize == 4:  # one character an element: a char array
            a = a.reshape(1, -1) if a.ndim == 1 else a
            return char_from_codes(np.ascontiguousarray(a).view(np.uint32))
        return StringArray(_at_least_2d(a).astype(object))
    if a.dtype.kind == "O":
        a = _at_least_2d(a)
        items = a.ravel()
        if items.size and all(isinstance(x, str) for x in items):
            return StringArray(a.copy())
        out = np.empty(a.shape, dtype=object)
        flat = out.reshape(-1)
        for i, x in enumerate(items):
            flat[i] = to_matlab(x)
        return Cell(out)
    if a.dtype.kind not in NUMERIC_KINDS:
        raise TypeError(f"cannot convert a NumPy array of dtype {a.dtype} to a MATLAB value")
    if a.dtype.kind == "c" and a.dtype not in (np.complex64, np.complex128):
        a = a.astype(np.complex128)
    elif a.dtype.kind == "f" and a.dtype not in (np.float32, np.float64):
        a = a.astype(np.float64)
    a = _at_least_2d(a)
    a = np.array(a, copy=True)  # MATLAB values never alias the caller's memory
    if a.size == 1 and a.ndim == 2:
        if a.dtype == np.float64:
            return float(a[0, 0])
        if a.dtype == np.bool_:
            return bool(a[0, 0])
        if a.dtype == np.complex128:
            return complex(a[0, 0])
    return a


def _at_least_2d(a: np.ndarray) -> np.ndarray:
    """MATLAB's shape: a 0-d array is 1-by-1, a 1-D one a 1-by-N row; trailing singleton
    dimensions beyond the second are dropped."""
    if a.ndim == 0:
        return a.reshape(1, 1)
    if a.ndim == 1:
        return a.reshape(1, -1)
    while a.ndim > 2 and a.shape[-1] == 1:
        a = a.reshape(a.shape[:-1])
    return a


def _mapping_to_matlab(value: Mapping, session: Any) -> Any:
    """A dict whose keys are all MATLAB names becomes a struct; any other dict (keys that
    are numbers, or text that is not a name) a containers.Map."""
    if all(isinstance(k, str) and k.isidentifier() and k.isascii() and not k.startswith("_")
           for k in value):
        return Struct.scalar({k: to_matlab(x, session) for k, x in value.items()})
    if all(isinstance(k, str) for k in value):
        out = MapObject("char", "any")
        out.entries = {k: to_matlab(x, session) for k, x in value.items()}
        return out
    if all(isinstance(k, numbers.Real) and not isinstance(k, bool) for k in value):
        out = MapObject("double", "any")
        out.entries = {float(k): to_matlab(x, session) for k, x in value.items()}  # type: ignore[arg-type]
        return out
    raise TypeError("cannot convert a dict with mixed key types to a MATLAB value")


def _sequence_to_matlab(value: list | tuple, session: Any) -> Any:
    """A list of real numbers is a double row, of bools a logical row, of dicts with the
    same keys a 1-by-N struct array; any other list a 1-by-N cell array."""
    items = list(value)
    if items and all(isinstance(x, (bool, np.bool_)) for x in items):
        return np.array([items], dtype=bool)
    if items and all(isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))
                     and not isinstance(x, np.generic) for x in items):
        return _array_to_matlab(np.array([items], dtype=np.float64))
    if items and all(isinstance(x, Mapping) for x in items) \
            and all(list(x) == list(items[0]) for x in items) \
            and type(to_matlab(items[0], session)) is Struct:
        elems = np.empty((1, len(items)), dtype=object)
        for i, x in enumerate(items):
            elems[0, i] = {k: to_matlab(v, session) for k, v in x.items()}
        return Struct(list(items[0]), elems)
    return Cell.row([to_matlab(x, session) for x in items])


def _is_data_frame(value: Any) -> bool:
    return type(value).__name__ == "DataFrame" and type(value).__module__.startswith("pandas")


def _frame_to_table(frame: Any, session: Any) -> Table:
    variables = []
    for name in frame.columns:
        column = frame[name].to_numpy()
        if column.dtype.kind == "O" and all(isinstance(x, str) for x in column):
            cells = np.empty((len(column), 1), dtype=object)
            for i, text in enumerate(column):
                cells[i, 0] = char_row(text)
            variables.append(Cell(cells))
        else:
            variables.append(_array_to_matlab(column.reshape(-1, 1)))
    index = frame.index
    row_names = [str(x) for x in index] if index.dtype.kind == "O" else None
    return Table(variables, [str(c) for c in frame.columns], row_names, nrows=len(frame))


# ---------------------------------------------------------------- MATLAB -> Python


def from_matlab(value: Any, session: Any = None) -> Any:
    """The Python value for a MATLAB value (the README's conversions table, right to left)."""
    t = type(value)
    if t is float or t is bool or t is complex:
        return value
    if t is np.ndarray:
        return _array_from_matlab(value)
    if t is Cell:
        if value.data.ndim == 2 and min(value.data.shape) <= 1:
            return [from_matlab(x, session) for x in value.values()]
        out = np.empty(value.data.shape, dtype=object)
        for index, x in np.ndenumerate(value.data):
            out[index] = from_matlab(x, session)
        return out
    if t is Struct:
        return _struct_from_matlab(value, session)
    if t is StringArray:
        if value.data.size == 1:
            return value.data.reshape(-1)[0]
        return value.data.copy()
    if t is DlArray:
        return _array_from_matlab(value.data)
    if t is FunctionHandle or (t in OBJECT_KINDS and hasattr(value, "call_as_function")
                               and t is not PythonFunction
                               and OBJECT_KINDS[t].call_as_function is not MatlabObject.call_as_function):
        return MatlabFunction(value, session)
    if t is PythonFunction:
        return value.function
    if t is MapObject:
        return {_map_key(value, k): from_matlab(x, session) for k, x in value.entries.items()}
    if t is Table and importlib.util.find_spec("pandas") is not None:
        return _table_to_frame(value, session)
    return value


def _array_from_matlab(a: np.ndarray) -> Any:
    if a.dtype.kind == "V":  # char
        if a.ndim == 2 and a.shape[0] <= 1:
            return to_str(a)
        return char_codes(a).astype(np.uint32).view("<U1")  # a char matrix: one-character strings
    if a.size == 1 and a.ndim == 2:  # a scalar of another class: its NumPy scalar
        return a.reshape(-1)[0]
    return a


def _struct_from_matlab(value: Struct, session: Any) -> Any:
    def element(fields: dict) -> dict:
        return {k: from_matlab(x, session) for k, x in fields.items()}

    if value.elems.size == 1:
        return element(value.element(0))
    if value.elems.ndim == 2 and min(value.elems.shape) <= 1:
        return [element(d) for d in value.elems.ravel(order="F")]
    out = np.empty(value.elems.shape, dtype=object)
    for index, d in np.ndenumerate(value.elems):
        out[index] = element(d)
    return out


def _map_key(value: MapObject, key: Any) -> Any:
    return key if value.key_type == "char" else float(key) if value.key_type in ("double", "single") \
        else int(key)


def _table_to_frame(table: Table, session: Any) -> Any:
    import pandas  # only when a table is converted: pandas is optional and slow to import

    columns = {}
    for name, variable in zip(table.names, table.variables, strict=True):
        column = from_matlab(variable, session)
        if isinstance(column, np.ndarray) and column.ndim == 2 and column.shape[1] == 1:
            column = column[:, 0]
        elif not isinstance(column, (np.ndarray, list)):
            column = [column]
        columns[name] = column
    return pandas.DataFrame(columns, index=table.row_names)


# ---------------------------------------------------------------- functions


class PythonFunction(MatlabObject):
    """A Python callable as a MATLAB value: called wherever MATLAB calls a function handle
    (``f(x)``, feval, cellfun, arrayfun, fzero...).  Its arguments arrive converted to
    Python and its result is converted back; several outputs come from a returned tuple.
    A Python exception raised in it becomes the MATLAB error ``mlang:python:error``."""

    matlab_class = "function_handle"
    __slots__ = ("function", "session")

    def __init__(self, function: Callable[..., Any], session: Any = None) -> None:
        self.function = function
        self.session = session

    def call_as_function(self, interp: Any, args: list, nargout: int) -> list:
        values = [from_matlab(a, self.session) for a in args]
        try:
            out = self.function(*values)
        except _RaisedError:
            raise  # a MATLAB error (from a call back into MATLAB) passes through as it is
        except Exception as exc:
            raise error(PYTHON_ERROR, f"Python function '{self.name}' failed: "
                                      f"{type(exc).__name__}: {exc}") from exc
        if out is None:
            if nargout > 0:
                raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
            return []
        outputs = list(out) if isinstance(out, tuple) and nargout > 1 else [out]
        if nargout > len(outputs):
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        return [to_matlab(x, self.session) for x in outputs]

    @property
    def name(self) -> str:
        return getattr(self.function, "__name__", type(self.function).__name__)

    @property
    def text(self) -> str:
        """How MATLAB shows it: ``@py.`` and the Python function's name."""
        return f"@py.{getattr(self.function, '__qualname__', self.name)}"

    def text_elements(self) -> Any:
        out = np.empty((1, 1), dtype=object)
        out[0, 0] = self.text
        return out

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        return ["  function_handle with value:", None, f"    {self.text}"]  # None: a blank line

    def disp_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        return [f"    {self.text}"]

    def __repr__(self) -> str:
        return f"PythonFunction({self.function!r})"


class MatlabFunction:
    """A MATLAB function handle seen from Python: call it with Python values.

    ``f(x, y)`` gives its first output; ``f(x, nargout=2)`` a tuple of two.  It runs in
    the session it came from, and goes back into MATLAB as the same handle.
    """

    __slots__ = ("handle", "session")

    def __init__(self, handle: Any, session: Any) -> None:
        self.handle = handle
        self.session = session

    def __call__(self, *args: Any, nargout: int = 1) -> Any:
        return self.session.call(self, *args, nargout=nargout)

    def __repr__(self) -> str:
        handle = self.handle
        if type(handle) is not FunctionHandle:
            return f"<MATLAB {getattr(handle, 'matlab_class', 'function')}>"
        try:
            text = self.session.call("func2str", handle)
        except Exception:  # a description must never fail
            text = handle.text or f"@{handle.name}"
        return f"<MATLAB function {text}>"
