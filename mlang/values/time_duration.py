"""MATLAB's duration: lengths of time in fixed-length units, held as milliseconds.

Arithmetic follows MATLAB: durations add and subtract, a number added to a
duration counts as fixed-length days, durations scale by numbers, and a
duration divided by a duration is a plain number.  ``"text" + d`` appends the
duration's display text to the string.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.values.core import char_row, class_of, is_text, to_str
from mlang.values.operators import binary
from mlang.values.string import StringArray
from mlang.values.text import string_binary
from mlang.values.time_base import TimeArray, as_matrix
from mlang.values.time_calendar import (
    DEFAULT_DURATION_FORMAT,
    MS_PER_DAY,
    check_duration_format,
    format_durations,
)
from mlang.values.time_parse import parse_duration

NUMERIC_CLASSES = ("double", "single", "logical", "int8", "int16", "int32", "int64",
                   "uint8", "uint16", "uint32", "uint64")
COMPARISONS = ("==", "~=", "<", "<=", ">", ">=")
OPERATOR_NAMES = {"+": "plus", "-": "minus", ".*": "times", "*": "mtimes", "./": "rdivide",
                  "/": "mrdivide", ".\\": "ldivide", "\\": "mldivide", ".^": "power",
                  "^": "mpower", "&": "and", "|": "or", "==": "eq", "~=": "ne", "<": "lt",
                  "<=": "le", ">": "gt", ">=": "ge"}


def is_number(v: object) -> bool:
    """A real number or array of one (complex ones are refused, arrays as scalars are)."""
    return type(v) in (float, bool, np.ndarray) and not is_text(v) and class_of(v) in NUMERIC_CLASSES \
        and not (type(v) is np.ndarray and v.dtype.kind == "c")


def numbers(v: object) -> np.ndarray:
    return as_matrix(np.asarray(v, dtype=np.float64))


def undefined_operator(symbol: str, a: object, b: object) -> Exception:
    name = OPERATOR_NAMES.get(symbol, symbol)
    return error("MATLAB:UndefinedFunction",
                 f"Undefined function '{name}' for input arguments of type "
                 f"'{class_of(a) if type(a) not in (float, bool, np.ndarray) else class_of(b)}'.")


def _invalid_assignment(value: object) -> Exception:
    return error("MATLAB:duration:InvalidAssignment",
                 f"Unable to assign {class_of(value)} values into a duration array.")


class DurationArray(TimeArray):
    """A duration array: ``data`` is milliseconds, ``fmt`` the display format."""

    matlab_class = "duration"
    __slots__ = ()

    def __init__(self, data: np.ndarray, fmt: str = DEFAULT_DURATION_FORMAT) -> None:
        super().__init__(data, fmt)

    def like(self, data: np.ndarray) -> DurationArray:
        return DurationArray(data, self.fmt)

    def differences(self, steps: np.ndarray) -> DurationArray:
        return self.like(steps)

    def coerce(self, value: object, what: str) -> DurationArray:
        """MATLAB's rules (duration's parenAssign and isequalUtil): text is read as a
        duration, a number counts as fixed-length days; anything else, or text that is
        not a duration, is MATLAB:duration:InvalidAssignment when assigning and
        MATLAB:duration:InvalidComparison otherwise (compareUtil compares numbers as days)."""
        if type(value) is DurationArray:
            return value
        if is_text(value) or type(value) is StringArray:
            strings = type(value) is StringArray
            texts = [t or "" for t in value.data.reshape(-1, order="F")] if strings else [to_str(value)]
            shape = value.data.shape if strings else (1, 1)
            try:
                ms = np.array([parse_duration(t) for t in texts], dtype=np.float64)
            except MatlabError:
                if what != "assign":
                    raise
                raise _invalid_assignment(value) from None
            return self.like(ms.reshape(shape, order="F"))
        if is_number(value):
            return self.like(numbers(value) * MS_PER_DAY)
        if what == "assign":
            raise _invalid_assignment(value)
        if what == "compare":
            raise error("MATLAB:duration:InvalidComparison",
                        f"Comparison is not defined between duration and {class_of(value)} arrays.")
        raise error("MATLAB:duration:InvalidComparison",
                    f"Comparison is not defined between {class_of(value)} and duration arrays.")

    def element_texts(self) -> list[str]:
        return format_durations(self.data, self.fmt)

    # ------------------------------------------------------- properties

    def property_names(self) -> list[str]:
        return ["Format"]

    def get_property(self, name: str) -> Any:
        if name == "Format":
            return char_row(self.fmt)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> DurationArray:
        if name == "Format":
            fmt = to_str(value) if is_text(value) or type(value) is StringArray else None
            if fmt is None:
                raise error("MATLAB:duration:InvalidFormat",
                            "Format must be a character vector or string scalar.")
            check_duration_format(fmt)
            return DurationArray(self.data, fmt)
        return super().set_property(name, value)

    # ------------------------------------------------------- operators

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        ta, tb = type(a), type(b)
        if (ta is StringArray or tb is StringArray) and symbol == "+":
            # "Elapsed: " + d appends the duration's text, as string(d) would write it
            return string_binary(symbol, a if ta is StringArray else StringArray(a.text_elements()),
                                 b if tb is StringArray else StringArray(b.text_elements()))
        if ta is not DurationArray and tb is not DurationArray:
            return NotImplemented
        other = b if ta is DurationArray else a
        if type(other) is not DurationArray and not is_number(other) and not is_text(other):
            return NotImplemented  # a datetime's own rules, or no rule at all
        like = a if ta is DurationArray else b
        if symbol in COMPARISONS:
            x = like.coerce(a, "compare").data
            y = like.coerce(b, "compare").data
            return binary(symbol, x, y)
        if is_text(a) or is_text(b):
            raise undefined_operator(symbol, a, b)
        both = ta is DurationArray and tb is DurationArray
        if symbol in ("+", "-"):
            x = a.data if ta is DurationArray else numbers(a) * MS_PER_DAY
            y = b.data if tb is DurationArray else numbers(b) * MS_PER_DAY
            return like.like(as_matrix(binary(symbol, x, y)))
        if symbol in (".*", "*"):
            if both:
                raise error("MATLAB:duration:DurationMultiplicationNotDefined",
                            "Multiplication is not defined between two duration arrays.")
            x = a.data if ta is DurationArray else numbers(a)
            y = b.data if tb is DurationArray else numbers(b)
            return like.like(as_matrix(binary(symbol, x, y)))
        if symbol in ("./", "/", ".\\", "\\"):
            left = symbol in (".\\", "\\")
            num, den = (b, a) if left else (a, b)
            if type(num) is not DurationArray:
                raise error("MATLAB:duration:DurationDivisionNotDefined" if both else
                            "MATLAB:duration:NumericDividedByDuration",
                            "Division of a numeric value by a duration is not defined.")
            plain = symbol.replace("\\", "/") if left else symbol
            if type(den) is DurationArray:
                return binary(plain, num.data, den.data)
            return like.like(as_matrix(binary(plain, num.data, numbers(den))))
        raise undefined_operator(symbol, a, b)

    def unary_operator(self, symbol: str) -> Any:
        if symbol == "-":
            return self.like(-self.data)
        if symbol == "+":
            return self
        if symbol == "~":
            raise undefined_operator("not", self, self)
        return super().unary_operator(symbol)

    def truth(self) -> bool:
        raise error("MATLAB:invalidConversion", "Conversion to logical from duration is not possible.")

    def __repr__(self) -> str:
        return f"DurationArray({self.data.tolist()}, {self.fmt!r})"


def duration_of(ms: Any, fmt: str = DEFAULT_DURATION_FORMAT) -> DurationArray:
    """A duration array of milliseconds."""
    return DurationArray(as_matrix(ms), fmt)

