"""MATLAB's standard missing value (``missing``) and the test ``ismissing``.

A ``missing`` value turns into the standard missing value of the array it
joins: NaN in a double or single array, <missing> in a string array.  Arrays
of ``missing`` (``[missing missing]``, ``m(3) = missing``) stay of class
``missing`` until they meet values of another class.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.text.forms import is_char
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.concat import concatenate as join_rows
from mlang.values.core import char_codes, char_text, class_of, fix_shape, result, to_array
from mlang.values.indexing import assign, index
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray


class MissingArray(MatlabObject):
    """An array of missing values (class ``missing``): only its size matters."""

    matlab_class = "missing"
    __slots__ = ("dims",)

    def __init__(self, shape: tuple[int, ...] = (1, 1)) -> None:
        self.dims = fix_shape(tuple(shape))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.dims

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> Any:
        return MissingArray(to_array(index(np.zeros(self.dims), args)).shape)

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        deletion = type(rhs) is np.ndarray and rhs.shape == (0, 0) and rhs.dtype == np.float64
        if type(rhs) is MissingArray or deletion:
            return MissingArray(to_array(assign(np.zeros(self.dims), args,
                                                rhs if deletion else 0.0)).shape)
        return assign(standard_missing(self.dims, rhs), args, rhs)

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        if target is None:
            return MissingArray(to_array(assign(None, args, 0.0)).shape)
        return assign(target, args, standard_missing(rhs.dims, target))

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        others = [v for row in rows for v in row if type(v) is not MissingArray]
        if not others:
            shapes = [[np.zeros(v.dims) for v in row] for row in rows]
            return MissingArray(to_array(join_rows(shapes)).shape)
        like = next((v for v in others if type(v) is StringArray), others[0])
        return join_rows([[standard_missing(v.dims, like) if type(v) is MissingArray else v
                           for v in row] for row in rows])

    # -------------------------------------------------------------- display

    def display_body(self, style: Any, array_lines: Any) -> list:
        if self.dims == (1, 1):
            return ["  missing", None, "    <missing>"]
        dims = "\u00d7".join(str(n) for n in self.dims)
        if 0 in self.dims:
            return [f"  {dims} empty missing array"]
        rows = self.dims[0]
        cols = math.prod(self.dims[1:])
        return [f"  {dims} missing array", None,
                *["    " + "    ".join(["<missing>"] * cols) for _ in range(rows)]]

    def __repr__(self) -> str:
        return f"MissingArray({self.dims})"


def standard_missing(shape: tuple[int, ...], like: Any) -> Any:
    """The standard missing value of ``like``'s class, in an array of ``shape``: NaN for
    double and single, <missing> for strings; MATLAB's error for other classes."""
    if type(like) is StringArray:
        data = np.empty(shape, dtype=object)
        data.fill(None)
        return StringArray(data)
    cls = class_of(like)
    if cls in ("double", "single"):
        dtype = np.float32 if cls == "single" else np.float64
        return result(np.full(shape, np.nan, dtype=dtype))
    raise error("MATLAB:invalidConversion",
                f"Conversion to {cls} from missing is not possible.")


@builtin()
def missing() -> Any:
    """m = missing

    The standard missing value, shown as <missing>. Assigned into or joined
    with a double or single array it becomes NaN, with a string array
    <missing>."""
    return MissingArray()


def _standard(a: Any) -> np.ndarray:
    """Where an array holds its class's standard missing value."""
    t = type(a)
    if t is MissingArray:
        return np.ones(a.dims, dtype=bool)
    if t is StringArray:
        return np.vectorize(lambda s: s is None, otypes=[bool])(a.data) if a.data.size \
            else np.zeros(a.shape, dtype=bool)
    if t is Cell:
        if not all(is_char(x) and (x.size == 0 or x.shape[0] == 1) for x in a.data.ravel()):
            raise error("MATLAB:ismissing:CellNotCellstr",
                        "Cell array input must be a cell array of character vectors.")
        return np.vectorize(lambda x: x.size == 0, otypes=[bool])(a.data) if a.data.size \
            else np.zeros(a.shape, dtype=bool)
    if is_char(a):
        return char_codes(a) == 32
    v = to_array(a)
    if v.dtype.kind in "fc":
        return np.isnan(v)
    return np.zeros(v.shape, dtype=bool)


def _indicated(a: Any, indicator: Any) -> np.ndarray:
    """Where an array holds one of the indicator values."""
    t = type(a)
    if t is MissingArray:
        return np.ones(a.dims, dtype=bool)
    if t in (StringArray, Cell) or is_char(a) and text_or_none(indicator) is not None:
        texts = _indicator_texts(indicator)
        if is_char(a):
            codes = char_codes(a)
            wanted = [ord(s) for s in texts if len(s) == 1]
            return np.isin(codes, wanted)
        data = a.data
        if t is Cell:
            items = [x if is_char(x) else None for x in data.ravel(order="F")]
            flat = [char_text(x) if x is not None else None for x in items]
        else:
            flat = list(data.ravel(order="F"))
        hits = [s is not None and s in texts or s is None and None in texts for s in flat]
        return np.array(hits, dtype=bool).reshape(a.shape, order="F")
    if type(indicator) is StringArray or type(indicator) is Cell or is_char(indicator):
        return np.zeros(to_array(a).shape, dtype=bool)  # text indicators never match numbers
    v = to_array(a)
    if is_char(a):
        v = char_codes(a)  # a char array with numeric indicators: by character code
    ind = to_array(indicator).reshape(-1)
    out = np.isin(v, ind[~np.isnan(ind)] if ind.dtype.kind in "fc" else ind)
    if ind.dtype.kind in "fc" and np.isnan(ind).any() and v.dtype.kind in "fc":
        out |= np.isnan(v)
    return out


def _indicator_texts(indicator: Any) -> list:
    if type(indicator) is StringArray:
        return list(indicator.data.ravel(order="F"))
    if type(indicator) is Cell:
        return [text_or_none(x) for x in indicator.data.ravel(order="F")]
    text = text_or_none(indicator)
    if text is None:
        raise error("MATLAB:ismissing:IndicatorsInvalidType",
                    "Missing value indicators must be of the same type as the input data.")
    return [text]


@builtin()
def ismissing(a: Any, indicator: Any = None) -> Any:
    """TF = ismissing(A)
    TF = ismissing(A,indicator)

    Find missing values: NaN in double and single arrays, <missing> in string
    arrays, '' in a cell array of character vectors, ' ' in a char array, and
    every element of a missing array; other classes have none. With
    indicator, the values in indicator are the missing ones instead."""
    found = _standard(a) if indicator is None else _indicated(a, indicator)
    return result(np.asarray(found, dtype=bool).reshape(fix_shape(np.shape(found))))
