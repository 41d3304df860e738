"""Validators: validateattributes and the mustBe* functions, with MATLAB's
messages (``arguments`` blocks call the same functions)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_list, text_scalar
from mlang.builtins.language.introspection import is_a
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    NUMERIC_CLASSES,
    char_rows,
    class_of,
    is_text,
    numel,
    size_of,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.string import StringArray


def number_text(x: float) -> str:
    """A number as MATLAB's messages write it (like num2str: up to 4 decimals, no trailing zeros)."""
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (complex, np.complexfloating)):
        z = complex(x)
        sign = "-" if z.imag < 0 or (z.imag == 0 and math.copysign(1, z.imag) < 0) else "+"
        return f"{number_text(z.real)}{sign}{number_text(abs(z.imag))}i"
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.5g}"


def _fail(name: str, message: str) -> MatlabError:
    return error(f"MATLAB:validators:{name}", message)


def _is_numeric(v: Any) -> bool:
    return class_of(v) in NUMERIC_CLASSES


def _numeric_values(v: Any, allow_logical: bool = True) -> np.ndarray:
    """The values of a numeric (or logical) input, as float64/complex128 for comparisons."""
    if not (_is_numeric(v) or allow_logical and class_of(v) == "logical"):
        raise _fail("mustBeNumericOrLogical", "Value must be numeric or logical.")
    a = to_array(v)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _real_values(v: Any) -> np.ndarray:
    a = _numeric_values(v)
    if a.dtype.kind == "c":
        raise _fail("mustBeReal", "Value must be real.")
    return a


def _compare_all(v: Any, test: Any, name: str, message: str) -> None:
    a = _real_values(v)
    with np.errstate(invalid="ignore"):
        if not bool(np.all(test(a))):
            raise _fail(name, message)


@builtin(name="mustBePositive", max_out=0)
def must_be_positive(v: Any) -> None:
    """mustBePositive(value) throws an error unless value > 0."""
    _compare_all(v, lambda a: a > 0, "mustBePositive", "Value must be positive.")


@builtin(name="mustBeNonnegative", max_out=0)
def must_be_nonnegative(v: Any) -> None:
    """mustBeNonnegative(value) throws an error unless value >= 0."""
    _compare_all(v, lambda a: a >= 0, "mustBeNonnegative", "Value must be nonnegative.")


@builtin(name="mustBeNegative", max_out=0)
def must_be_negative(v: Any) -> None:
    """mustBeNegative(value) throws an error unless value < 0."""
    _compare_all(v, lambda a: a < 0, "mustBeNegative", "Value must be negative.")


@builtin(name="mustBeNonpositive", max_out=0)
def must_be_nonpositive(v: Any) -> None:
    """mustBeNonpositive(value) throws an error unless value <= 0."""
    _compare_all(v, lambda a: a <= 0, "mustBeNonpositive", "Value must be nonpositive.")


@builtin(name="mustBeNonzero", max_out=0)
def must_be_nonzero(v: Any) -> None:
    """mustBeNonzero(value) throws an error if any element of value is zero."""
    if np.any(_numeric_values(v) == 0):
        raise _fail("mustBeNonzero", "Value must not be zero.")


@builtin(name="mustBeInteger", max_out=0)
def must_be_integer(v: Any) -> None:
    """mustBeInteger(value) throws an error unless every element is a whole number."""
    a = _numeric_values(v)
    ok = a.dtype.kind != "c" and bool(np.all(np.isfinite(a))) and bool(np.all(a == np.floor(a)))
    if not ok:
        raise _fail("mustBeInteger", "Value must be integer.")


@builtin(name="mustBeNumeric", max_out=0)
def must_be_numeric(v: Any) -> None:
    """mustBeNumeric(value) throws an error unless value is numeric."""
    if not _is_numeric(v):
        raise _fail("mustBeNumeric", "Value must be numeric.")


@builtin(name="mustBeNumericOrLogical", max_out=0)
def must_be_numeric_or_logical(v: Any) -> None:
    """mustBeNumericOrLogical(value) throws an error unless value is numeric or logical."""
    _numeric_values(v)


@builtin(name="mustBeReal", max_out=0)
def must_be_real(v: Any) -> None:
    """mustBeReal(value) throws an error if value has an imaginary part."""
    if not (_is_numeric(v) or class_of(v) in ("logical", "char")) or \
            to_array(v).dtype.kind == "c":
        raise _fail("mustBeReal", "Value must be real.")


@builtin(name="mustBeFinite", max_out=0)
def must_be_finite(v: Any) -> None:
    """mustBeFinite(value) throws an error if value has NaN or Inf elements."""
    if not bool(np.all(np.isfinite(_numeric_values(v)))):
        raise _fail("mustBeFinite", "Value must be finite.")


@builtin(name="mustBeNonNan", max_out=0)
def must_be_non_nan(v: Any) -> None:
    """mustBeNonNan(value) throws an error if value has NaN elements."""
    if bool(np.any(np.isnan(_numeric_values(v)))):
        raise _fail("mustBeNonNan", "Value must not be NaN.")


@builtin(name="mustBeNonempty", max_out=0)
def must_be_nonempty(v: Any) -> None:
    """mustBeNonempty(value) throws an error if value is empty."""
    if numel(v) == 0:
        raise _fail("mustBeNonempty", "Value must not be empty.")


@builtin(name="mustBeScalarOrEmpty", max_out=0)
def must_be_scalar_or_empty(v: Any) -> None:
    """mustBeScalarOrEmpty(value) throws an error unless value is a scalar or empty."""
    if numel(v) > 1:
        raise _fail("mustBeScalarOrEmpty", "Value must be scalar or empty.")


@builtin(name="mustBeVector", max_out=0)
def must_be_vector(v: Any) -> None:
    """mustBeVector(value) throws an error unless value is a 1-by-n or n-by-1 vector."""
    shape = size_of(v)
    if len(shape) != 2 or (shape[0] != 1 and shape[1] != 1):
        raise _fail("mustBeVector", "Value must be a 1-by-n vector or an n-by-1 vector.")


@builtin(name="mustBeRow", max_out=0)
def must_be_row(v: Any) -> None:
    """mustBeRow(value) throws an error unless value is a 1-by-n row vector."""
    shape = size_of(v)
    if len(shape) != 2 or shape[0] != 1:
        raise _fail("mustBeRow", "Value must be a row vector.")


@builtin(name="mustBeColumn", max_out=0)
def must_be_column(v: Any) -> None:
    """mustBeColumn(value) throws an error unless value is an n-by-1 column vector."""
    shape = size_of(v)
    if len(shape) != 2 or shape[1] != 1:
        raise _fail("mustBeColumn", "Value must be a column vector.")


def _bound(v: Any) -> float:
    if class_of(v) not in _NUMERIC_OR_LOGICAL:
        raise error("MATLAB:validators:mustBeNumeric", "Bound must be numeric or logical.")
    a = to_array(v)
    if a.size != 1:
        raise error("MATLAB:validators:mustBeScalar", "Bound must be a scalar.")
    return float(a.reshape(-1)[0].real)


_NUMERIC_OR_LOGICAL = (*NUMERIC_CLASSES, "logical")


def _comparison(name: str, words: str, test: Any) -> Any:
    def check(v: Any, c: Any) -> None:
        bound = _bound(c)
        _compare_all(v, lambda a: test(a, bound), name,
                     f"Value must be {words} {number_text(bound)}.")

    check.__doc__ = f"{name}(value, c) throws an error unless every element of value is {words} c."
    return check


builtin(name="mustBeGreaterThan", max_out=0)(
    _comparison("mustBeGreaterThan", "greater than", lambda a, c: a > c))
builtin(name="mustBeGreaterThanOrEqual", max_out=0)(
    _comparison("mustBeGreaterThanOrEqual", "greater than or equal to", lambda a, c: a >= c))
builtin(name="mustBeLessThan", max_out=0)(
    _comparison("mustBeLessThan", "less than", lambda a, c: a < c))
builtin(name="mustBeLessThanOrEqual", max_out=0)(
    _comparison("mustBeLessThanOrEqual", "less than or equal to", lambda a, c: a <= c))


_RANGE_FLAGS = ("inclusive", "exclusive", "exclude-lower", "exclude-upper")


@builtin(name="mustBeInRange", max_out=0)
def must_be_in_range(v: Any, lower: Any, upper: Any, *flags: Any) -> None:
    """mustBeInRange(value, lower, upper) throws an error unless lower <= value <= upper.

    Flags 'inclusive', 'exclusive', 'exclude-lower' and 'exclude-upper' change the bounds."""
    words = [text_scalar(f).lower() for f in flags]
    for w in words:
        if w not in _RANGE_FLAGS:
            raise error("MATLAB:validators:invalidBoundFlag",
                        f"Invalid bound flag '{w}'.")
    open_low = "exclusive" in words or "exclude-lower" in words
    open_high = "exclusive" in words or "exclude-upper" in words
    lo, hi = _bound(lower), _bound(upper)
    low_text = ("greater than " if open_low else "greater than or equal to ") + number_text(lo)
    high_text = ("less than " if open_high else "less than or equal to ") + number_text(hi)

    def inside(a: np.ndarray) -> np.ndarray:
        above = a > lo if open_low else a >= lo
        below = a < hi if open_high else a <= hi
        return above & below

    _compare_all(v, inside, "mustBeInRange", f"Value must be {low_text}, and {high_text}.")


def _text_elements(v: Any) -> list[str] | None:
    """The pieces of text in a text value (char vector, string array, cellstr); None if not text."""
    t = type(v)
    if t is np.ndarray and v.dtype.kind == "V":
        return [to_str(v)] if v.size == 0 or (v.ndim == 2 and v.shape[0] == 1) else None
    if t is StringArray:
        return ["" if s is None else s for s in v.data.ravel(order="F")]
    if t is Cell:
        pieces = [_text_elements(x) for x in v.values()]
        if any(p is None or type(x) is not np.ndarray for p, x in zip(pieces, v.values(), strict=True)):
            return None
        return [p[0] for p in pieces]  # type: ignore[index]
    return None


_TEXT_MESSAGE = "Value must be a character vector, string array, or cell array of character vectors."


@builtin(name="mustBeText", max_out=0)
def must_be_text(v: Any) -> None:
    """mustBeText(value) throws an error unless value is a char vector, string array or cellstr."""
    if _text_elements(v) is None:
        raise _fail("mustBeText", _TEXT_MESSAGE)


@builtin(name="mustBeTextScalar", max_out=0)
def must_be_text_scalar(v: Any) -> None:
    """mustBeTextScalar(value) throws an error unless value is a char vector or string scalar."""
    if type(v) is Cell or _text_elements(v) is None or \
            (type(v) is StringArray and v.data.size != 1):
        raise _fail("mustBeTextScalar", "Value must be a character vector or string scalar.")


@builtin(name="mustBeNonzeroLengthText", max_out=0)
def must_be_nonzero_length_text(v: Any) -> None:
    """mustBeNonzeroLengthText(value) throws an error unless value is text of one or more characters."""
    pieces = _text_elements(v)
    if pieces is None or not pieces or any(not p for p in pieces):
        raise _fail("mustBeNonzeroLengthText", "Value must be text with one or more characters.")


def _set_item_text(x: Any) -> str:
    if type(x) is str:
        return f"'{x}'"
    return number_text(x)


def _set_items(s: Any) -> list:
    """Elements of mustBeMember's set: strings, or numbers."""
    pieces = _text_elements(s)
    if pieces is not None and type(s) is not np.ndarray:
        return list(pieces)
    if type(s) is np.ndarray and s.dtype.kind == "V":
        return [to_str(s)] if s.shape[0] <= 1 else char_rows(s)
    a = to_array(s)
    return [x.item() for x in a.ravel(order="F")]


@builtin(name="mustBeMember", max_out=0)
def must_be_member(v: Any, s: Any) -> None:
    """mustBeMember(value, S) throws an error unless every element of value is in the set S."""
    items = _set_items(s)
    pieces = _text_elements(v)
    if pieces is not None:
        ok = all(p in items for p in pieces) if all(type(i) is str for i in items) else False
    elif type(v) in (float, bool, complex, np.ndarray):
        numbers = {complex(x) for x in items if type(x) is not str}
        # Characters compare by their codes, as ismember does.
        ok = all(complex(x) in numbers for x in to_double_array(v).ravel(order="F").tolist())
    else:
        ok = False
    if not ok:
        listing = "\n".join("    " + _set_item_text(i) for i in items)
        raise _fail("mustBeMember", f"Value must be a member of this set:\n{listing}")


@builtin(name="mustBeA", max_out=0)
def must_be_a(v: Any, classes: Any) -> None:
    """mustBeA(value, classNames) throws an error unless value is of one of the named classes."""
    names = text_list(classes)
    if not names:
        raise error("MATLAB:validators:mustBeA",
                    "Class names must be a nonempty list of class names.")
    if class_of(v) in names:
        return
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        listing = quoted[0]
    elif len(quoted) == 2:
        listing = f"{quoted[0]} or {quoted[1]}"
    else:
        listing = ", ".join(quoted[:-1]) + ", or " + quoted[-1]
    raise _fail("mustBeA", f"Value must be of the following types: {listing}.")


@builtin(name="mustBeNonsparse", max_out=0)
def must_be_nonsparse(v: Any) -> None:
    """mustBeNonsparse(value) throws an error if value is sparse (mlang has no sparse arrays)."""
    return None


# validateattributes --------------------------------------------------------


def _arg_index(v: Any) -> int:
    """validateattributes' argIndex: a positive whole number."""
    if class_of(v) in _NUMERIC_OR_LOGICAL and numel(v) == 1:
        x = to_double_array(v).reshape(-1)[0]
        if not np.iscomplexobj(x) and math.isfinite(x) and x == math.floor(x) and x >= 1:
            return int(x)
    raise error("MATLAB:validateattributes:badArgPosition",
                "Input argument position must be a positive integer.")


def _described(func: str, var: str, index: int | None) -> str:
    """How validateattributes names the input: 'input', 'X', 'input number 2, X,'."""
    if index is not None:
        return f"input number {index}, {var}," if var else f"input number {index}"
    return var or "input"


@builtin(max_out=0)
def validateattributes(value: Any, classes: Any, attributes: Any, *where: Any) -> None:
    """validateattributes(A, classes, attributes) checks A's class and attributes.

    validateattributes(A, classes, attributes, funcName, varName, argIndex)
    names the function and input in the message. Classes may include
    'numeric'; attributes include 'scalar', 'vector', 'row', 'column',
    'nonempty', '2d', 'square', 'real', 'finite', 'nonnan', 'integer',
    'positive', 'nonnegative', 'nonzero', 'binary', 'even', 'odd',
    'increasing', 'decreasing', 'nondecreasing', 'nonincreasing',
    '>', '>=', '<', '<=' (each with a value), 'size', 'numel', 'nrows',
    'ncols', 'ndims'."""
    func, var, index = "", "", None
    rest = list(where)
    if rest and not is_text(rest[0]):
        index = _arg_index(rest.pop(0))
    else:
        if rest:
            func = text_scalar(rest.pop(0))
        if rest:
            var = text_scalar(rest.pop(0))
        if rest:
            index = _arg_index(rest.pop(0))
    who = _described(func, var, index)

    def fail(suffix: str, message: str) -> MatlabError:
        exc = error(f"MATLAB:{func + ':' if func else ''}{suffix}", message)
        if func:
            exc.exc.name_caller(func)
        return exc

    names = text_list(classes) if not (type(classes) is Cell and classes.data.size == 0) else []
    if names and not any(is_a(value, n) for n in names):
        raise fail("invalidType", f"Expected {who} to be one of these types:\n\n"
                                  f"{', '.join(names)}\n\nInstead its type was {class_of(value)}.")
    items = attributes.values() if type(attributes) is Cell else []
    i = 0
    while i < len(items):
        attr = text_scalar(items[i]).lower()
        needs_value = attr in _ATTRIBUTES_WITH_VALUE
        argument = items[i + 1] if needs_value and i + 1 < len(items) else None
        _check_attribute(value, attr, argument, who, fail)
        i += 2 if needs_value else 1


_ATTRIBUTES_WITH_VALUE = (">", ">=", "<", "<=", "size", "numel", "nrows", "ncols", "ndims")


def _check_attribute(value: Any, attr: str, argument: Any, who: str, fail: Any) -> None:
    shape = size_of(value)
    n = numel(value)
    shape_checks = {
        "scalar": (n == 1, "expectedScalar", "a scalar"),
        "vector": (len(shape) == 2 and (shape[0] == 1 or shape[1] == 1), "expectedVector",
                   "a vector"),
        "row": (len(shape) == 2 and shape[0] == 1, "expectedRow", "a row vector"),
        "column": (len(shape) == 2 and shape[1] == 1, "expectedColumn", "a column vector"),
        "nonempty": (n > 0, "expectedNonempty", "nonempty"),
        "2d": (len(shape) == 2, "expected2D", "two-dimensional"),
        "square": (len(shape) == 2 and shape[0] == shape[1], "expectedSquare", "a square matrix"),
        "nonsparse": (True, "", ""),
    }
    if attr in shape_checks:
        ok, suffix, words = shape_checks[attr]
        if not ok:
            raise fail(suffix, f"Expected {who} to be {words}.")
        return
    if attr in ("size", "numel", "nrows", "ncols", "ndims"):
        _check_count(shape, attr, argument, who, fail)
        return
    a = to_array(value) if type(value) in (float, bool, complex, np.ndarray) else None
    if a is None:
        raise fail("invalidType", f"Expected {who} to be numeric.")
    if a.dtype.kind == "V":
        a = a.view(np.uint32).astype(np.float64) if a.size else np.zeros(a.shape)
    real = a.real.astype(np.float64)
    value_checks = {
        "real": (a.dtype.kind != "c", "expectedReal", "real"),
        "finite": (bool(np.all(np.isfinite(a))), "expectedFinite", "finite"),
        "nonnan": (not bool(np.any(np.isnan(a))), "expectedNonNaN", "non-NaN"),
        "integer": (bool(np.all(np.isfinite(real) & (real == np.round(real)))), "expectedInteger",
                    "integer-valued"),
        "positive": (bool(np.all(real > 0)), "expectedPositive", "positive"),
        "nonnegative": (bool(np.all(real >= 0)), "expectedNonnegative", "nonnegative"),
        "nonzero": (bool(np.all(a != 0)), "expectedNonZero", "nonzero"),
        "binary": (bool(np.all((real == 0) | (real == 1))), "expectedBinary", "binary"),
        "even": (bool(np.all(np.mod(real, 2) == 0)), "expectedEven", "even"),
        "odd": (bool(np.all(np.mod(real, 2) == 1)), "expectedOdd", "odd"),
        "increasing": (bool(np.all(np.diff(real.ravel(order="F")) > 0)), "expectedIncreasing",
                       "strictly increasing"),
        "decreasing": (bool(np.all(np.diff(real.ravel(order="F")) < 0)), "expectedDecreasing",
                       "strictly decreasing"),
        "nondecreasing": (bool(np.all(np.diff(real.ravel(order="F")) >= 0)),
                          "expectedNondecreasing", "nondecreasing"),
        "nonincreasing": (bool(np.all(np.diff(real.ravel(order="F")) <= 0)),
                          "expectedNonincreasing", "nonincreasing"),
    }
    if attr in value_checks:
        ok, suffix, words = value_checks[attr]
        if not ok:
            raise fail(suffix, f"Expected {who} to be {words}.")
        return
    comparisons = {">": (np.greater, "expectedGreater"), ">=": (np.greater_equal, "notGreaterEqual"),
                   "<": (np.less, "expectedLess"), "<=": (np.less_equal, "notLessEqual")}
    if attr in comparisons:
        test, suffix = comparisons[attr]
        bound = _bound(argument)
        if not bool(np.all(test(real, bound))):
            raise fail(suffix, f"Expected {who} to be an array with all of the values "
                               f"{attr} {number_text(bound)}.")
        return
    raise error("MATLAB:validateattributes:badAttribute",
                f"Unrecognized attribute '{attr}'.")


def _check_count(shape: tuple[int, ...], attr: str, argument: Any, who: str, fail: Any) -> None:
    wanted = to_array(argument).ravel(order="F").astype(np.float64)
    if attr == "size":
        dims = list(shape) + [1] * max(0, len(wanted) - len(shape))
        ok = len(dims) == len(wanted) and all(
            math.isnan(w) or d == w for d, w in zip(dims, wanted, strict=True))
        if not ok:
            want = "x".join("N" if math.isnan(w) else str(int(w)) for w in wanted)
            raise fail("incorrectSize", f"Expected {who} to be of size {want} when it is "
                                        f"actually size {'x'.join(map(str, shape))}.")
        return
    actual = {"numel": math.prod(shape), "nrows": shape[0], "ncols": shape[1],
              "ndims": len(shape)}[attr]
    words = {"numel": "number of elements", "nrows": "number of rows",
             "ncols": "number of columns", "ndims": "number of dimensions"}[attr]
    suffix = {"numel": "incorrectNumel", "nrows": "incorrectNumrows", "ncols": "incorrectNumcols",
              "ndims": "incorrectNumdims"}[attr]
    if actual != int(wanted[0]):
        raise fail(suffix, f"Expected {who} to be an array with {words} equal to {int(wanted[0])}.")
