"""What datetime and duration arrays share: an N-D float64 array of milliseconds with a
display format, indexed, assigned, concatenated and shown as MATLAB does.

Indexing and indexed assignment reuse the plain-array machinery on ``data``
(so every subscript form, ``end``, deletion with ``[]`` and growth behave as
for numbers); a subclass says how another value converts to it (``coerce``)
and what fills the gaps of a grown array (NaT for datetime, 0 for duration).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from mlang.errors import error
from mlang.values.concat import cat
from mlang.values.core import class_of, result
from mlang.values.indexing import assign, index
from mlang.values.layout import column_blocks, paged_lines
from mlang.values.objects import MatlabObject

TIMES = "\u00d7"
ELEMENT_GAP = "   "  # MATLAB's blanks before and between the elements of a date/time display


def as_matrix(value: object) -> np.ndarray:
    """A float64 array of at least two dimensions (what ``index``/``assign`` return)."""
    a = np.asarray(value, dtype=np.float64)
    return a.reshape(1, 1) if a.ndim == 0 else a


def is_plain_empty(v: object) -> bool:
    """``[]`` (or any empty numeric array): deletion on assignment, ignored in concatenation."""
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fiub"


class TimeArray(MatlabObject):
    """An array of datetimes or durations: ``data`` holds milliseconds (NaN: missing)."""

    __slots__ = ("data", "fmt")
    gap_fill: ClassVar[float] = 0.0

    def __init__(self, data: np.ndarray, fmt: str) -> None:
        self.data = data
        self.fmt = fmt

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    def like(self, data: np.ndarray) -> TimeArray:
        """A value of this class with the same format (and zone) holding ``data``."""
        raise NotImplementedError

    def coerce(self, value: object, what: str) -> TimeArray:
        """``value`` as a value of this class (or MATLAB's error for it)."""
        raise NotImplementedError

    def element_texts(self) -> list[str]:
        """Each element's display text, column-major."""
        raise NotImplementedError

    def differences(self, steps: np.ndarray) -> TimeArray:
        """``diff`` of this array's milliseconds as a value: a duration array."""
        raise NotImplementedError

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        return time_call(builtin, interp, args, nargout)

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> TimeArray:
        return self.like(as_matrix(index(self.data, args)))

    def subsasgn_paren(self, args: list, rhs: Any) -> TimeArray:
        if is_plain_empty(rhs):
            return self.like(as_matrix(assign(self.data.copy(), args, np.zeros((0, 0)))))
        values = self.coerce(rhs, "assign").data
        grown = as_matrix(assign(self.data.copy(), args, result(values.copy())))
        if grown.size > self.data.size and self.gap_fill != 0.0:
            # elements a growing assignment creates without giving them a value are gaps
            known = as_matrix(assign(np.ones(self.data.shape), args, 1.0))
            grown = np.where(known == 0, self.gap_fill, grown)
        return self.like(grown)

    @classmethod
    def assign_into(cls, target: Any, args: list, rhs: Any) -> Any:
        if target is None or is_plain_empty(target):
            empty = rhs.like(np.zeros((0, 0)))
            return empty.subsasgn_paren(args, rhs)
        raise error("MATLAB:invalidConversion",
                    f"Conversion to {class_of(target)} from {rhs.matlab_class} is not possible.")

    @classmethod
    def concatenate(cls, rows: list[list]) -> Any:
        first = next((v for row in rows for v in row if type(v) is cls), None)
        if first is None:
            return NotImplemented
        joined = []
        for row in rows:
            items = [v.data if type(v) is cls else
                     v if is_plain_empty(v) else first.coerce(v, "concatenate").data
                     for v in row]
            joined.append(cat(items, 1) if items else np.zeros((0, 0)))
        return first.like(as_matrix(cat(joined, 0) if len(joined) > 1 else joined[0]))

    # ------------------------------------------------------------ operators

    def unary_operator(self, symbol: str) -> Any:
        if symbol in (".'", "'"):
            if self.data.ndim > 2:
                raise error("MATLAB:transpose:NDArray",
                            "Transpose on ND array is not defined. Use PERMUTE instead.")
            return self.like(self.data.T.copy())
        return NotImplemented

    # ------------------------------------------------------------ text

    def text_elements(self) -> np.ndarray:
        """The element texts as an object array of this array's shape (for string/char)."""
        return np.array(self.element_texts(), dtype=object).reshape(self.data.shape, order="F")

    # ------------------------------------------------------------ display

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list:
        """``  datetime`` or ``  1×3 datetime array``, a blank line, then the elements."""
        shape = self.data.shape
        dims = TIMES.join(str(n) for n in shape)
        if self.data.size == 0:
            return [f"  {dims} empty {self.matlab_class} array"]
        head = f"  {self.matlab_class}" if self.data.size == 1 else f"  {dims} {self.matlab_class} array"
        return [head, None, *self.grid_lines(getattr(style, "width", 80))]

    def disp_body(self, style: Any, array_lines: Callable[[Any], list]) -> list:
        """What ``disp(x)`` prints: the elements without the class header (nothing for an
        empty array).  The display module calls it once it asks objects for a disp form."""
        return self.grid_lines(getattr(style, "width", 80)) if self.data.size else []

    def grid_lines(self, width: int = 80) -> list:
        """The elements in aligned columns (split into ``Columns`` blocks when the rows are
        wider than the window); each 2-D page of an N-D array under its ``(:,:,k) =``."""
        texts = np.array(self.element_texts(), dtype=object).reshape(self.data.shape, order="F")
        return paged_lines(texts, lambda page: _grid(page, width))


def _grid(texts: np.ndarray, width: int) -> list:
    # every element takes the width of the widest, as MATLAB pads them (NaT included)
    common = max(len(t) for t in texts.reshape(-1))
    widths = [common] * texts.shape[1]
    cells = [[ELEMENT_GAP + texts[i, j].rjust(widths[j]) for j in range(texts.shape[1])]
             for i in range(texts.shape[0])]
    return column_blocks(cells, width)


# ------------------------------------------------------------ library functions
# Sorting, extrema, sums, reshaping and the like mean the same for times as for their
# milliseconds, so a builtin called with a datetime or duration argument runs on the
# milliseconds and its first output becomes a value of the argument's class again (a
# second output, such as sort's permutation or max's index, stays numeric).  A builtin
# not named here gets the values as they are and decides itself (size, class, isempty...).

# Functions whose first output is a time of the argument's class (the others plain).
SAME_CLASS = frozenset({
    "sort", "min", "max", "unique", "reshape", "repmat", "permute", "ipermute", "squeeze",
    "flip", "fliplr", "flipud", "circshift", "rot90", "median", "mode", "cummin", "cummax",
    "sortrows", "bounds",
})
# Functions that take a time as their second argument too (max(5, hours(1)) is a duration).
TWO_TIMES = frozenset({"min", "max"})
# Only durations: their sums, means and magnitudes are durations too.
DURATION_ONLY = frozenset({"sum", "cumsum", "mean", "abs", "std", "round", "floor", "ceil", "fix"})
# Functions of the milliseconds giving plain (numeric or logical) results.
PLAIN = frozenset({"isnan", "isinf", "isfinite", "issorted", "ismember", "nnz", "find", "isequal",
                   "isequaln", "any", "all", "sign"})


def time_call(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
    """``builtin(args...)`` where an argument is a datetime or duration array."""
    name = builtin.name
    first = next(a for a in args if isinstance(a, TimeArray))
    is_duration = first.matlab_class == "duration"
    if name == "diff":
        return _diff(builtin, interp, args, nargout, first)
    if name == "mean" and not is_duration:
        return _wrapped(builtin, interp, args, nargout, first)  # the mean moment
    if name in SAME_CLASS or (is_duration and name in DURATION_ONLY):
        if args[0] is not first and name not in TWO_TIMES:
            return NotImplemented  # a time only as a size, count or option: the builtin decides
        return _wrapped(builtin, interp, args, nargout, first)
    if name in PLAIN:
        return builtin.invoke(interp, _milliseconds(args, first), nargout)
    if name in DURATION_ONLY:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{class_of(first)}'.")
    return NotImplemented


def _milliseconds(args: list, first: Any) -> list:
    """The arguments with every time (and text or number meant as one) as milliseconds."""
    out = []
    for a in args:
        if type(a) is type(first):
            out.append(a.data)
        elif isinstance(a, TimeArray):
            raise error("MATLAB:datetime:IncompatibleTypes" if first.matlab_class == "datetime"
                        else "MATLAB:duration:IncompatibleTypes",
                        f"Arguments must be all {first.matlab_class} values.")
        else:
            out.append(a)
    return out


def _wrapped(builtin: Any, interp: Any, args: list, nargout: int, first: Any) -> list:
    outputs = builtin.invoke(interp, _milliseconds(args, first), nargout)
    if outputs and type(outputs[0]) in (np.ndarray, float):
        outputs[0] = first.like(np.atleast_2d(np.asarray(outputs[0], dtype=np.float64)))
        if builtin.name == "bounds" and len(outputs) > 1:
            outputs[1] = first.like(np.atleast_2d(np.asarray(outputs[1], dtype=np.float64)))
    return outputs


def _diff(builtin: Any, interp: Any, args: list, nargout: int, first: Any) -> list:
    """Differences of times are durations (of durations: durations, keeping the format)."""
    outputs = builtin.invoke(interp, _milliseconds(args, first), nargout)
    steps = np.atleast_2d(np.asarray(outputs[0], dtype=np.float64))
    outputs[0] = first.differences(steps)
    return outputs
