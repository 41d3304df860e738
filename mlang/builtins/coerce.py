"""Argument coercers: the kinds of argument many builtins share, each read in
one place and refused with one error.

* text scalar (a char row, '' or a string scalar): ``text_scalar``;
  ``text_or_none`` and ``text_option`` (lowercased) read one without raising.
  ``MATLAB:invalidInput`` "<what> must be a character vector or string scalar."
* list of texts (a text scalar, a cell array of character vectors, a string
  array): ``text_list`` (plain texts), ``text_array`` (kept in its form).
  ``MATLAB:invalidInput`` "<what> must be a string array, character vector,
  or cell array of character vectors."
* dimension: ``dim_argument`` (one), ``dims_argument`` (a vector of them).
  ``MATLAB:getdimarg:invalidDim`` "Dimension argument must be a positive
  integer scalar within indexing range." / "... or a vector of (unique)
  positive integers."
* name=value options: ``options``, ``split_options`` (positional arguments,
  then options), ``option_flag`` (a logical value).
  ``MATLAB:InputParser:ParamMissingValue`` "Parameter names must be followed
  by values.", ``MATLAB:InputParser:UnmatchedParameter`` "'<name>' is not a
  recognized parameter.", ``MATLAB:InputParser:ArgumentFailedValidation``
  "<name> must be a logical scalar."
* size inputs (zeros(2,3), zeros([2 3])): ``size_arguments``, ``size_value``,
  ``sizes_and_class`` (with a class name or 'like', p), ``checked_shape``.
  ``MATLAB:NonNumericInput``, ``MATLAB:NonScalarInput``,
  ``MATLAB:NonVectorInput``, ``MATLAB:NonIntegerInput``,
  ``MATLAB:invalidClassName``, ``MATLAB:array:SizeLimitExceeded``.

The messages name the argument (``what``: "Pattern", "Field names", ...)
where the caller gives one.  ``integer_scalar`` reads an integer scalar with
the caller's own identifier and message.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.text.forms import (
    TextArray,
    is_char,
    is_char_row,
)
from mlang.errors import MatlabError, error
from mlang.values.cell import Cell
from mlang.values.core import (
    DTYPE_OF_CLASS,
    NUMERIC_CLASSES,
    char_rows,
    char_text,
    class_of,
    fix_shape,
    is_true,
    numel,
    to_double_array,
    to_str,
)
from mlang.values.limits import MAX_ELEMENTS, check_array_size, too_many_elements
from mlang.values.string import StringArray

# The classes whose values are numbers: size inputs, option flags.
NUMERIC_OR_LOGICAL = (*NUMERIC_CLASSES, "logical")

# ---------------------------------------------------------------------- texts

TEXT_ID = "MATLAB:invalidInput"


def text_or_none(v: object) -> str | None:
    """The text of a text scalar (a char row, '' or a string scalar); None for anything else."""
    if type(v) is np.ndarray:
        return char_text(v) if is_char_row(v) else None
    if type(v) is StringArray and v.data.size == 1:
        return v.scalar_text()
    return None


def text_scalar(v: object, what: str = "Input") -> str:
    """The text of a text scalar argument (a char row, '' or a string scalar)."""
    text = text_or_none(v)
    if text is None:
        raise error(TEXT_ID, f"{what} must be a character vector or string scalar.")
    return text


def text_option(v: object) -> str | None:
    """The lowercased text of an option word (a text scalar); None for anything else."""
    text = text_or_none(v)
    return None if text is None else text.lower()


def _not_texts(what: str) -> MatlabError:
    return error(TEXT_ID, f"{what} must be a string array, character vector, or cell array of "
                          "character vectors.")


def text_array(v: object, what: str = "Input") -> TextArray:
    """A text array argument kept in its form: a character vector, a cell array of
    character vectors or a string array (its missing elements are None)."""
    if is_char(v):
        if not is_char_row(v):
            raise _not_texts(what)
        return TextArray("char", (1, 1), [to_str(v)])
    if type(v) is Cell:
        items = []
        for x in v.data.ravel(order="F"):
            if not is_char_row(x):
                raise _not_texts(what)
            items.append(to_str(x))
        return TextArray("cell", v.shape, items)
    if type(v) is StringArray:
        return TextArray("string", v.shape, list(v.data.ravel(order="F")))
    raise _not_texts(what)


def text_list(v: object, what: str = "Input", char_rows_allowed: bool = False) -> list[str]:
    """The texts of a list argument: a text scalar, a cell array of character vectors or a
    string array (missing strings read as ''); with ``char_rows_allowed``, also a char
    matrix, one text per row without its trailing blanks."""
    text = text_or_none(v)
    if text is not None:
        return [text]
    if is_char(v) and char_rows_allowed:
        return [r.rstrip() for r in char_rows(v)]
    if type(v) is StringArray:
        return ["" if s is None else s for s in v.data.ravel(order="F")]
    return [x or "" for x in text_array(v, what).items]


# ------------------------------------------------------------------- numbers


def integer_scalar(v: object, message: str, identifier: str = "MATLAB:badArgument") -> int:
    """A real integer-valued scalar argument as a Python int (the caller's error otherwise)."""
    try:
        a = to_double_array(v)
    except MatlabError:
        raise error(identifier, message) from None
    if a.size != 1 or a.dtype.kind == "c":
        raise error(identifier, message)
    x = float(a.reshape(-1)[0])
    if not math.isfinite(x) or x != math.floor(x):
        raise error(identifier, message)
    return int(x)


# ---------------------------------------------------------------- dimensions

DIM_ID = "MATLAB:getdimarg:invalidDim"
_DIM_SCALAR = "Dimension argument must be a positive integer scalar within indexing range."
_DIMS_UNIQUE = ("Dimension argument must be a positive integer scalar or a vector of unique "
                "positive integers.")
_DIMS_REPEATED = ("Dimension argument must be a positive integer scalar or a vector of positive "
                  "integers.")


def dim_argument(v: object) -> int:
    """A dimension argument (a positive integer scalar) as a 0-based axis."""
    d = integer_scalar(v, _DIM_SCALAR, DIM_ID)
    if d < 1 or d > 2**48:
        raise error(DIM_ID, _DIM_SCALAR)
    return d - 1


def dims_argument(v: object, repeats: bool = False) -> list[int]:
    """A dimension or a vector of dimensions as 0-based axes, in the order given; unless
    ``repeats`` (size(A, [1 1])), each dimension at most once."""
    message = _DIMS_REPEATED if repeats else _DIMS_UNIQUE
    try:
        a = to_double_array(v).reshape(-1)
    except MatlabError:
        raise error(DIM_ID, message) from None
    if a.size == 0 or a.dtype.kind == "c":
        raise error(DIM_ID, message)
    dims = []
    for x in a:
        if not math.isfinite(x) or x < 1 or x != math.floor(x):
            raise error(DIM_ID, message)
        dims.append(int(x) - 1)
    if not repeats and len(set(dims)) != len(dims):
        raise error(DIM_ID, message)
    return dims


# ------------------------------------------------------------ name=value options


def _option_name(v: object, names: tuple[str, ...], partial: bool) -> str | None:
    """Which of ``names`` a text argument names (case ignored; with ``partial``, a
    leading part of a name is enough), or None."""
    text = text_option(v)
    if not text:
        return None
    for name in names:
        if name.lower() == text or partial and name.lower().startswith(text):
            return name
    return None


def options(args: tuple | list, names: tuple[str, ...], partial: bool = False) -> dict[str, Any]:
    """Name-value pairs, each name one of ``names`` (case ignored; with ``partial``, a
    leading part of a name is enough); a name given twice keeps its last value."""
    if len(args) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    found: dict[str, Any] = {}
    for k in range(0, len(args), 2):
        text = text_scalar(args[k], "Parameter name")
        name = _option_name(args[k], names, partial)
        if name is None:
            raise error("MATLAB:InputParser:UnmatchedParameter",
                        f"'{text}' is not a recognized parameter.")
        found[name] = args[k + 1]
    return found


def split_options(args: tuple | list, names: tuple[str, ...], partial: bool = False,
                  start: int = 0) -> tuple[list, dict[str, Any]]:
    """Positional arguments, then name-value pairs: the options start at the first
    argument from ``start`` on that names one of ``names``."""
    k = start
    while k < len(args) and _option_name(args[k], names, partial) is None:
        k += 1
    return list(args[:k]), options(args[k:], names, partial)


def option_flag(v: object, what: str = "Option value") -> bool:
    """A logical option value: a numeric or logical scalar (true/false, 1/0)."""
    if class_of(v) not in NUMERIC_OR_LOGICAL or numel(v) != 1:
        raise error("MATLAB:InputParser:ArgumentFailedValidation",
                    f"{what} must be a logical scalar.")
    return is_true(v)


# ---------------------------------------------------------------------- sizes

# NumPy's limit on the number of dimensions of an array.
MAX_DIMS = 64


def checked_shape(shape: tuple[int, ...], cls: str | None = None) -> tuple[int, ...]:
    """``shape`` if an array of that size can be created, else MATLAB's size error.  With
    the class being made (``cls``), its bytes are checked against the session's maximum
    array size (values/limits.py); without, only the number of elements."""
    if len(shape) > MAX_DIMS:
        shape = fix_shape(shape)  # trailing singleton dimensions are no dimensions
    if len(shape) > MAX_DIMS:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Arrays with more than {MAX_DIMS} dimensions are not supported.")
    if any(n > MAX_ELEMENTS for n in shape):  # even with another dimension 0: NumPy cannot
        dims = "x".join(str(n) for n in shape)
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Requested {dims} array exceeds maximum array size preference.")
    if cls is None and math.prod(shape) > MAX_ELEMENTS:
        raise too_many_elements()
    if cls is not None:
        check_array_size(shape, DTYPE_OF_CLASS.get(cls, np.dtype(object)))
    return shape


def size_value(x: Any) -> int:
    """One size: a whole number (its real part), negative sizes counting as 0."""
    if isinstance(x, complex) or np.iscomplexobj(x):
        x = x.real
    x = float(x)
    if not math.isfinite(x) or x != math.floor(x):
        raise error("MATLAB:NonIntegerInput", "Size inputs must be integers.")
    return max(int(x), 0)


def size_arguments(args: list | tuple, cls: str = "double") -> tuple[int, ...]:
    """Dimensions from MATLAB's size inputs: () is 1×1, (n) n×n, (m, n, ...) or
    ([m n ...]); [] is 0×0.  Checked against the largest array of class ``cls`` (a cell:
    "cell") that can be made."""
    return checked_shape(_size_dims(args), cls)


def _size_dims(args: list | tuple) -> tuple[int, ...]:
    if not args:
        return (1, 1)
    if all(type(v) is float and v == v // 1 for v in args):  # the common case: plain counts
        dims = tuple(max(int(v), 0) for v in args)
        return dims if len(dims) > 1 else dims * 2
    for v in args:
        if class_of(v) not in NUMERIC_OR_LOGICAL:
            raise error("MATLAB:NonNumericInput", "Size inputs must be numeric.")
    if len(args) == 1:
        a = to_double_array(args[0])
        if a.size == 1:
            n = size_value(a.reshape(-1)[0])
            return (n, n)
        if a.size == 0:
            return (0, 0)
        if a.ndim != 2 or min(a.shape) != 1:
            raise error("MATLAB:NonVectorInput", "Size vector must be a row vector with real elements.")
        return tuple(size_value(x) for x in a.reshape(-1))
    dims = []
    for v in args:
        a = to_double_array(v)
        if a.size != 1:
            raise error("MATLAB:NonScalarInput", "Size inputs must be scalar.")
        dims.append(size_value(a.reshape(-1)[0]))
    return tuple(dims)


def _class_names(allowed: tuple[str, ...]) -> str:
    quoted = [f"'{c}'" for c in allowed]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def sizes_and_class(args: list | tuple, allowed: tuple[str, ...],
                    default: str = "double") -> tuple[list, str]:
    """Size arguments and the class of the result, from trailing class arguments: a class
    name (``zeros(2, 'int8')``) or ``'like', p`` (p's class; a char prototype is double)."""
    items = list(args)
    cls = default
    if len(items) >= 2 and text_option(items[-2]) == "like":
        cls = class_of(items[-1])
        if cls == "char":
            cls = "double"
        items = items[:-2]
    elif items and text_option(items[-1]) is not None:
        cls = text_option(items[-1])  # type: ignore[assignment]
        items = items[:-1]
    if cls not in allowed:
        raise error("MATLAB:invalidClassName", f"Class name must be {_class_names(allowed)}.")
    return items, cls


def read_size(v: object, function: str, infinite_rows: str) -> tuple[int | None, int | None, bool]:
    """The size argument of the reading functions (sscanf, fscanf, fread): (count or rows,
    columns, whether a matrix shape was asked for), None standing for Inf.
    ``infinite_rows`` is the function's message for [Inf n]."""
    a = to_double_array(v).ravel() if class_of(v) in NUMERIC_OR_LOGICAL else None
    bad = error(f"MATLAB:{function}:InvalidSize", "Size must be a scalar or a two-element vector.")
    if a is None or a.size not in (1, 2) or np.iscomplexobj(a) or np.isnan(a).any() or (a < 0).any():
        raise bad

    def count(x: float) -> int | None:
        if math.isinf(x):
            return None
        if x != math.floor(x):
            raise bad
        return int(x)

    if a.size == 1:
        return count(float(a[0])), None, False
    if math.isinf(a[0]):
        raise error(f"MATLAB:{function}:InvalidSize", infinite_rows)
    return count(float(a[0])), count(float(a[1])), True
