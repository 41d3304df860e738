"""Text builtins: conversions between numbers and text, searching, splitting,
comparing, case, trimming, character classes, base conversion and regular
expressions, with MATLAB's rules for char arrays, cell arrays of character
vectors and string arrays."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.printing import format_text, unescape
from mlang.errors import MatlabError, MatlabSyntaxError, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    CHAR,
    char_codes,
    char_from_codes,
    class_of,
    is_text,
    result,
    scalar_value,
    to_array,
    to_str,
)
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.text import to_string_array

# MATLAB's whitespace for isspace, strtrim, strtok and strsplit's default delimiter.
WHITESPACE = " \t\n\v\f\r"
# strtrim and deblank also drop NUL; the non-breaking spaces are significant and kept.
_TRIM_EXTRA = "\0"
_NON_BREAKING = "\xa0\u2007\u202f"

# =========================================================== helpers


def _is_char(v: object) -> bool:
    return type(v) is np.ndarray and v.dtype.kind == "U"


def _row(text: str) -> np.ndarray:
    """A 1×n char row (1×0 for the empty text, as MATLAB's string functions return)."""
    if not text:
        return np.zeros((1, 0), dtype=CHAR)
    return np.array(list(text), dtype=CHAR).reshape(1, len(text))


def _empty_char() -> np.ndarray:
    return np.zeros((0, 0), dtype=CHAR)


def _rows(a: np.ndarray) -> list[str]:
    """The rows of a char matrix as Python strings."""
    if a.ndim != 2:
        a = a.reshape(a.shape[0], -1, order="F")
    return ["".join(r) for r in a.tolist()]


def _char_matrix(rows: list[str]) -> np.ndarray:
    """Rows padded with blanks to the longest one (how char(...) stacks text)."""
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), " ", dtype=CHAR)
    for i, r in enumerate(rows):
        if r:
            out[i, :len(r)] = list(r)
    return out


def _objects(items: list, shape: tuple[int, ...]) -> np.ndarray:
    """An object array of the given MATLAB shape from items in column-major order."""
    flat = np.empty(len(items), dtype=object)
    for i, x in enumerate(items):
        flat[i] = x
    return flat.reshape(shape, order="F")


def _cell(items: list, shape: tuple[int, ...] | None = None) -> Cell:
    return Cell(_objects(items, shape if shape is not None else (1, len(items))))


def _strings(items: list, shape: tuple[int, ...] | None = None) -> StringArray:
    return StringArray(_objects(items, shape if shape is not None else (1, len(items))))


def _is_text_row(v: object) -> bool:
    return _is_char(v) and (v.size == 0 or (v.ndim == 2 and v.shape[0] == 1))


def _bad_text(fname: str) -> MatlabError:
    return error(f"MATLAB:{fname}:InvalidInput",
                 "Input must be a string array, character vector, or cell array of "
                 "character vectors.")


class Texts:
    """Text input flattened: ``kind`` is 'char' (one character vector), 'cell' or
    'string'; ``items`` are in column-major order (None is a missing string)."""

    __slots__ = ("kind", "shape", "items")

    def __init__(self, kind: str, shape: tuple[int, ...], items: list) -> None:
        self.kind = kind
        self.shape = shape
        self.items = items

    def pack(self, items: list) -> object:
        """New items (str, or None for <missing>) in this input's form."""
        if self.kind == "char":
            return _row(items[0])
        if self.kind == "cell":
            return Cell(_objects([_row(x or "") for x in items], self.shape))
        return StringArray(_objects(items, self.shape))

    def pack_values(self, values: list, scalar: Callable[[list], object]) -> object:
        """Per-item results: one value for a char input, an array otherwise."""
        if self.kind == "char":
            return values[0]
        return scalar(values)


def texts(v: object, fname: str) -> Texts:
    """Read a char row, a cell array of character vectors or a string array."""
    if _is_char(v):
        if not _is_text_row(v):
            raise error(f"MATLAB:{fname}:InvalidInput",
                        "Character array input must be a character vector (a single row).")
        return Texts("char", (1, 1), [to_str(v)])
    if type(v) is Cell:
        items = []
        for x in v.data.ravel(order="F"):
            if not _is_text_row(x):
                raise _bad_text(fname)
            items.append(to_str(x))
        return Texts("cell", v.shape, items)
    if type(v) is StringArray:
        return Texts("string", v.shape, list(v.data.ravel(order="F")))
    raise _bad_text(fname)


def _text_scalar(v: object, fname: str, what: str = "Input") -> str:
    """The text of a character vector or string scalar argument."""
    if _is_text_row(v) or (type(v) is StringArray and v.data.size == 1):
        return to_str(v)
    raise error(f"MATLAB:{fname}:InvalidInput",
                f"{what} must be a character vector or string scalar.")


def _text_list(v: object, fname: str) -> list[str]:
    """One or several texts (a pattern list): char, cellstr or string array."""
    return [x or "" for x in texts(v, fname).items]


def _logical(values: list[bool], shape: tuple[int, ...]) -> object:
    return result(np.array(values, dtype=bool).reshape(shape, order="F"))


def _doubles(values: list[float], shape: tuple[int, ...]) -> object:
    return result(np.array(values, dtype=np.float64).reshape(shape, order="F"))


def _flag(v: object) -> bool:
    """A logical option value (true/false, 1/0)."""
    if _is_char(v):
        raise error("MATLAB:InputParser:ArgumentFailedValidation",
                    "Option value must be a logical scalar.")
    return bool(scalar_value(v))


def whole_number(v: object, fname: str, what: str, low: int = 0) -> int:
    """A real, finite, whole scalar argument of at least ``low`` (counts, widths, bases)."""
    x = scalar_value(v) if type(v) in (float, bool, np.ndarray) and _numel_array(v) == 1 \
        else None
    if isinstance(x, bool):
        x = int(x)
    if not isinstance(x, (int, float)) or not math.isfinite(x) or x != int(x) or x < low:
        raise error(f"MATLAB:{fname}:InvalidInput",
                    f"{what} must be an integer scalar of at least {low}.")
    return int(x)


# Longest text built on request (blanks(n), dec2bin(d, n)): longer requests are
# refused with MATLAB's size error rather than exhausting memory.
MAX_TEXT_LENGTH = 2**31


def _text_length(n: int) -> int:
    if n > MAX_TEXT_LENGTH:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Requested 1x{n} array exceeds maximum array size preference.")
    return n


def _numel_array(v: object) -> int:
    return v.size if type(v) is np.ndarray else 1  # type: ignore[union-attr]


def _options(args: tuple, names: tuple[str, ...], fname: str) -> dict[str, object]:
    """Name-value pairs (names matched case-insensitively)."""
    if len(args) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    found: dict[str, object] = {}
    for k in range(0, len(args), 2):
        name = _text_scalar(args[k], fname, "Parameter name").lower()
        for known in names:
            if known.lower() == name:
                found[known] = args[k + 1]
                break
        else:
            raise error("MATLAB:InputParser:UnmatchedParameter",
                        f"'{to_str(args[k])}' is not a recognized parameter.")
    return found


def _is_space(c: str) -> bool:
    if len(c) != 1:  # NumPy reads a NUL element back as ''
        return False
    return c in WHITESPACE or (c > "\x7f" and c.isspace() and c not in _NON_BREAKING)


def _strip_chars(c: str) -> bool:
    return c in ("", _TRIM_EXTRA) or _is_space(c)


# =========================================================== numbers → text


def _finite_max(a: np.ndarray) -> float:
    finite = a[np.isfinite(a)]
    return float(np.max(np.abs(finite))) if finite.size else 0.0


def _digits(m: float) -> int:
    """Digits left of the decimal point of m >= 0 (at least 1)."""
    return int(math.floor(math.log10(m))) + 1 if m >= 1 else 1


def _trim_columns(rows: list[str]) -> list[str]:
    """Drop leading and trailing columns that are blank in every row (strtrim of a matrix)."""
    if not rows:
        return rows
    lead = min((len(r) - len(r.lstrip(" ")) for r in rows if r.strip(" ")), default=0)
    rows = [r[lead:].rstrip(" ") for r in rows]
    width = max(len(r) for r in rows)
    return [r.ljust(width) for r in rows]


def _format_rows(a: np.ndarray, fmt: str) -> list[str]:
    """Each row of a 2-D array through sprintf with the format repeated per column."""
    rows = a.reshape(a.shape[0], -1, order="F")
    line_fmt = fmt * rows.shape[1]
    return [format_text(line_fmt, [np.ascontiguousarray(r).reshape(1, -1)]) for r in rows]


def _complex_text(z: complex, fmt: str) -> str:
    re_part = format_text(fmt, [z.real]).strip()
    im = z.imag
    sign = "-" if im < 0 or (im == 0 and math.copysign(1, im) < 0) else "+"
    im_part = format_text(fmt, [abs(im)]).strip()
    return f"{re_part}{sign}{im_part}i"


def _num2str_complex(a: np.ndarray, prec: int | None) -> np.ndarray:
    integral = np.all(np.isfinite(a)) and np.all(a.real == np.round(a.real)) \
        and np.all(a.imag == np.round(a.imag))
    if prec is not None:
        fmt = f"%.{prec}g"
    elif integral:
        fmt = "%d"
    else:
        m = max(_finite_max(a.real), _finite_max(a.imag))
        fmt = f"%.{min(max(_digits(m) + 4, 5), 16)}g"
    rows = a.reshape(a.shape[0], -1, order="F")
    return _char_matrix(["  ".join(_complex_text(complex(z), fmt) for z in r) for r in rows])


def _num2str_format(a: np.ndarray, whole: bool = False) -> str:
    """The format num2str chooses from the values: whole numbers (below 2^53, or any
    size when ``whole``) exactly, others with 4 digits after the leading one;
    columns at least two spaces apart."""
    if a.dtype.kind in "iub":
        return f"%{_digits(float(np.max(np.abs(a.astype(np.float64))))) + 2}d"
    m = _finite_max(a)
    finite = a[np.isfinite(a)]
    if whole or (np.all(finite == np.round(finite)) and m <= 2.0 ** 53):
        if finite.size < a.size:
            m = max(m, 100.0)  # Inf and NaN take three characters
        return f"%{_digits(m) + 2}d"
    sig = min(max(int(math.floor(math.log10(m))) + 5 if m > 0 else 5, 5), 16)
    return f"%{sig + 7}.{sig}g"


@builtin(dl="data")
def num2str(x: Any, arg: Any = None) -> Any:
    """s = num2str(A) converts numbers to text (about 4 decimals; integers exactly).
    s = num2str(A, precision) uses at most precision significant digits.
    s = num2str(A, format) formats each row of A with sprintf's format."""
    if _is_char(x):
        return x
    if type(x) not in (float, bool, complex, np.ndarray):
        raise error("MATLAB:num2str:nonNumericInput", "Input to num2str must be numeric.")
    a = to_array(x)
    if a.size == 0:
        return _empty_char()
    if a.ndim > 2:
        a = a.reshape(a.shape[0], -1, order="F")
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    if arg is not None and is_text(arg):
        if a.dtype.kind == "c":
            a = a.real
        # each \n the format writes starts a new row of the result
        lines = "\n".join(_format_rows(a, to_str(arg))).split("\n")
        return _char_matrix(_trim_columns([x for x in lines if x] or [""]))
    prec = None
    if arg is not None:
        prec = whole_number(arg, "num2str", "Precision")
    if a.dtype.kind == "c":
        return _num2str_complex(a, prec)
    if prec is not None:
        fmt = f"%{prec + 7}.{prec}g" if a.dtype.kind == "f" else "%d"
    else:
        fmt = _num2str_format(a)
    rows = _format_rows(a, fmt)
    if fmt == "%d":
        rows = ["  ".join(r.split()) for r in rows]
    return _char_matrix(_trim_columns(rows))


def _round_away(a: np.ndarray) -> np.ndarray:
    return np.where(a >= 0, np.floor(a + 0.5), np.ceil(a - 0.5))


@builtin(dl="data")
def int2str(x: Any) -> Any:
    """s = int2str(N) rounds N to integers (halves away from zero) and converts them to text."""
    if type(x) not in (float, bool, np.ndarray):
        if type(x) is complex:
            x = x.real
        else:
            raise error("MATLAB:int2str:nonNumericInput", "Input must be numeric.")
    a = to_array(x)
    if a.size == 0:
        return _empty_char()
    if a.dtype.kind == "U":
        a = char_codes(a).astype(np.float64)
    if a.dtype.kind == "c":
        a = a.real
    if a.dtype.kind == "f":
        a = _round_away(a.astype(np.float64))
    if a.ndim > 2:
        a = a.reshape(a.shape[0], -1, order="F")
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    return _char_matrix(_trim_columns(_format_rows(a, _num2str_format(a, whole=True))))


def _g(x: float, prec: int) -> str:
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if x == 0:
        return "0"
    # A double's exact decimal expansion has under 800 significant digits, so a
    # larger precision prints the same text (and Python refuses huge ones).
    return f"{x:.{min(prec, 800)}g}"


def _mat2str_element(x: Any, kind: str, prec: tuple[int, int]) -> str:
    if kind == "b":
        return "true" if x else "false"
    if kind in "iu":
        return str(int(x))
    if kind == "c":
        z = complex(x)
        im = _g(z.imag, prec[1])
        sign = "" if im.startswith("-") else "+"
        return f"{_g(z.real, prec[0])}{sign}{im}i"
    return _g(float(x), prec[0])


@builtin(dl="data")
def mat2str(x: Any, *args: Any) -> Any:
    """s = mat2str(A) is text that evaluates back to the matrix A (15 significant digits).
    s = mat2str(A, n) uses n digits; mat2str(A, 'class') includes the class name."""
    want_class = False
    prec: tuple[int, int] | None = None
    for a in args:
        if is_text(a):
            if to_str(a).lower() != "class":
                raise error("MATLAB:mat2str:InvalidOptionString",
                            "Invalid option. The only valid option is 'class'.")
            want_class = True
        else:
            p = to_array(a) if type(a) in (float, bool, np.ndarray) else np.zeros(0)
            if p.size not in (1, 2):
                raise error("MATLAB:mat2str:InvalidInput",
                            "Precision must be a scalar or a two-element vector.")
            flat = p.ravel()
            prec = (whole_number(flat[:1].reshape(1, 1), "mat2str", "Precision", 1),
                    whole_number(flat[-1:].reshape(1, 1), "mat2str", "Precision", 1))
    if type(x) is StringArray:
        return _row(_mat2str_strings(x))
    if _is_char(x):
        return _row(_mat2str_char(x))
    if type(x) not in (float, bool, complex, np.ndarray):
        raise error("MATLAB:mat2str:NumericInput", "Input must be a numeric, logical, or char array.")
    a = to_array(x)
    if a.ndim > 2:
        raise error("MATLAB:mat2str:TwoDInput", "Input matrix must be 2-D.")
    cls = class_of(x)
    if prec is None:
        prec = (7, 7) if cls == "single" else (15, 15)
    if a.size == 0:
        text = f"zeros({a.shape[0]},{a.shape[1]})"
    else:
        kind = a.dtype.kind
        rows = [" ".join(_mat2str_element(v, kind, prec) for v in r) for r in a.tolist()]
        text = ";".join(rows)
        if a.size > 1:
            text = f"[{text}]"
    if want_class and cls not in ("logical", "char"):
        text = f"{cls}({text})"
    return _row(text)


def _mat2str_char(x: np.ndarray) -> str:
    rows = _rows(x) if x.size else [""]
    quoted = ["'" + r.replace("'", "''") + "'" for r in rows]
    return quoted[0] if len(quoted) == 1 else "[" + ";".join(quoted) + "]"


def _mat2str_strings(x: StringArray) -> str:
    def q(s: str | None) -> str:
        return "<missing>" if s is None else '"' + s.replace('"', '""') + '"'

    rows = [" ".join(q(s) for s in r) for r in x.data.tolist()]
    text = ";".join(rows)
    return text if x.data.size == 1 else f"[{text}]"


# =========================================================== text → numbers

_NUMBER = r"(?:(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?|inf(?:inity)?|nan)"
_COMPLEX_RE = re.compile(
    rf"^\s*(?:([+-]?)\s*({_NUMBER})\s*)??(?:([+-]?)\s*({_NUMBER})?\s*\*?\s*([ij]))?\s*$",
    re.IGNORECASE)


def _number_value(text: str) -> float:
    low = text.lower()
    if low.startswith("inf"):
        return math.inf
    if low == "nan":
        return math.nan
    return float(text.replace(",", "").replace("d", "e").replace("D", "e"))


def parse_double(text: str) -> float | complex:
    """MATLAB's str2double of one text: a real or complex number, else NaN."""
    m = _COMPLEX_RE.match(text)
    if not m or not text.strip():
        return math.nan
    re_sign, re_num, im_sign, im_num, unit = m.groups()
    if unit is None:
        if re_num is None:
            return math.nan
        value = _number_value(re_num)
        return -value if re_sign == "-" else value
    if re_num is not None and not im_sign:
        return math.nan  # "2 3i": the imaginary part needs its sign
    real = 0.0
    if re_num is not None:
        real = _number_value(re_num) * (-1 if re_sign == "-" else 1)
    imag = _number_value(im_num) if im_num is not None else 1.0
    if im_sign == "-":
        imag = -imag
    return complex(real, imag)


@builtin()
def str2double(s: Any) -> Any:
    """X = str2double(str) converts text to a double (NaN where it is not a number).
    Cell arrays and string arrays give an array of the same size."""
    if _is_char(s):
        if s.size == 0:
            return math.nan
        rows = _rows(s)
        if len(rows) == 1:
            return parse_double(rows[0])
        return result(np.array([parse_double(r) for r in rows]).reshape(-1, 1))
    if type(s) is Cell:
        values = [parse_double(to_str(x)) if _is_text_row(x) else math.nan
                  for x in s.data.ravel(order="F")]
        return result(np.array(values, dtype=np.complex128 if any(
            isinstance(v, complex) for v in values) else np.float64).reshape(s.shape, order="F"))
    if type(s) is StringArray:
        values = [math.nan if x is None else parse_double(x) for x in s.data.ravel(order="F")]
        return result(np.array(values).reshape(s.shape, order="F"))
    return math.nan


@builtin(interp=True, max_out=2, nargout=True)
def str2num(interp: Any, s: Any, *, nargout: int = 1) -> Any:
    """[X, tf] = str2num(txt) evaluates txt as a matrix expression ([] and false on failure)."""
    from mlang.evaluation.frame import Frame

    if type(s) is StringArray:
        s = _row(to_str(s))
    if not _is_char(s):
        raise error("MATLAB:str2num:InvalidArgument",
                    "Input must be a character vector or string scalar.")
    text = "\n".join(_rows(s)) if s.size else ""
    frame = Frame(interp)
    name = "str2num_value__"
    try:
        interp.eval(f"{name} = [{text}\n];", frame)
        value = frame.vars.get(name, np.zeros((0, 0)))
        ok = True
    except (MatlabError, MatlabSyntaxError):
        value, ok = np.zeros((0, 0)), False
    return (value, ok) if nargout > 1 else value


# =========================================================== char, cellstr, string


def _arg_rows(v: object) -> list[str]:
    """The rows an argument of char(...) contributes (an empty one gives a blank row)."""
    if _is_char(v):
        return _rows(v) if v.size else [""]
    if type(v) is Cell:
        out: list[str] = []
        for x in v.data.ravel(order="F"):
            if not _is_char(x):
                raise error("MATLAB:char:CellsMustContainText",
                            "Cell elements must be character arrays.")
            out.extend(_arg_rows(x))
        return out
    if type(v) is StringArray:
        return [x or "" for x in v.data.ravel(order="F")]
    if type(v) in (float, bool, np.ndarray):
        return _rows(_codes_to_char(to_array(v)))
    raise error("MATLAB:char:invalidInputType",
                f"Conversion to char from {class_of(v)} is not possible.")


def _codes_to_char(a: np.ndarray) -> np.ndarray:
    codes = a.real if a.dtype.kind == "c" else a
    codes = _round_away(codes.astype(np.float64))
    return char_from_codes(np.clip(np.nan_to_num(codes), 0, 0x10FFFF).astype(np.uint32))


@builtin()
def char(*args: Any) -> Any:
    """C = char(A) converts numbers (character codes), strings or a cell array to char.
    C = char(A1, ..., An) stacks the texts as rows padded with blanks."""
    if not args:
        return _empty_char()
    if len(args) == 1:
        x = args[0]
        if _is_char(x):
            return x
        if type(x) in (float, bool, np.ndarray):
            return _codes_to_char(to_array(x))
        if type(x) is StringArray and x.data.size == 1:
            text = x.data.reshape(-1)[0]
            return _row(text) if text else _empty_char()
    rows: list[str] = []
    for a in args:
        rows.extend(_arg_rows(a))
    return _char_matrix(rows)


def _deblank(text: str) -> str:
    end = len(text)
    while end and _strip_chars(text[end - 1]):
        end -= 1
    return text[:end]


@builtin()
def cellstr(x: Any) -> Any:
    """C = cellstr(A) converts a char array (one cell per row, trailing blanks removed)
    or a string array to a cell array of character vectors."""
    if _is_char(x):
        if x.size == 0 and x.shape[0] == 0:
            return _cell([_empty_char()], (1, 1))
        rows = _rows(x)
        return _cell([_row(_deblank(r)) if _deblank(r) else _empty_char() for r in rows],
                     (len(rows), 1))
    if type(x) is Cell:
        if not all(_is_text_row(v) for v in x.data.ravel()):
            raise error("MATLAB:cellstr:MustContainText",
                        "Cell array must contain only character vectors.")
        return x
    if type(x) is StringArray:
        return Cell(_objects([_row(s or "") for s in x.data.ravel(order="F")], x.shape))
    raise error("MATLAB:cellstr:InputClass",
                "Input must be a string, character array, or cell array of character vectors.")


@builtin(dl="native")
def iscellstr(x: Any) -> Any:
    """tf = iscellstr(C) is true when C is a cell array whose elements are all char arrays."""
    return type(x) is Cell and all(_is_char(v) for v in x.data.ravel())


@builtin(dl="native")
def ischar(x: Any) -> Any:
    """tf = ischar(A) is true for a char array."""
    return _is_char(x)


@builtin(dl="native")
def isstring(x: Any) -> Any:
    """tf = isstring(A) is true for a string array."""
    return type(x) is StringArray


@builtin()
def string(*args: Any) -> Any:
    """str = string(A) converts text, numbers, logicals or a cell array to a string array."""
    if not args:
        return StringArray.scalar("")
    if len(args) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return to_string_array(args[0])


@builtin()
def strlength(s: Any) -> Any:
    """L = strlength(str) is the number of characters of each text (NaN for <missing>)."""
    t = texts(s, "strlength")
    return t.pack_values([math.nan if x is None else float(len(x)) for x in t.items],
                         lambda v: _doubles(v, t.shape))


@builtin()
def newline() -> Any:
    """c = newline is the newline character, char(10)."""
    return _row("\n")


@builtin()
def blanks(n: Any) -> Any:
    """b = blanks(n) is a 1-by-n character vector of spaces."""
    return _row(" " * _text_length(whole_number(n, "blanks", "N")))


# =========================================================== case and trimming


def _map_text(x: object, fname: str, fn: Callable[[str], str]) -> object:
    t = texts(x, fname)
    return t.pack([None if s is None else fn(s) for s in t.items])


def _case(x: object, fname: str, convert: Callable[[str], str]) -> object:
    def one(c: str) -> str:
        changed = convert(c)
        return changed if len(changed) == 1 else c  # keep one character per element

    if _is_char(x):
        return np.vectorize(one, otypes=[CHAR])(x) if x.size else x
    if type(x) in (Cell, StringArray):
        return _map_text(x, fname, lambda s: "".join(one(c) for c in s))
    return x  # numbers are returned unchanged


@builtin()
def upper(x: Any) -> Any:
    """U = upper(str) converts letters to uppercase (char, cell or string arrays)."""
    return _case(x, "upper", str.upper)


@builtin()
def lower(x: Any) -> Any:
    """L = lower(str) converts letters to lowercase (char, cell or string arrays)."""
    return _case(x, "lower", str.lower)


def _strtrim_text(text: str) -> str:
    start, end = 0, len(text)
    while start < end and _strip_chars(text[start]):
        start += 1
    while end > start and _strip_chars(text[end - 1]):
        end -= 1
    return text[start:end]


def _blank_columns(a: np.ndarray) -> np.ndarray:
    strip = np.vectorize(_strip_chars, otypes=[bool])(a)
    return strip.all(axis=0)


@builtin()
def strtrim(x: Any) -> Any:
    """S = strtrim(str) removes leading and trailing whitespace (and NUL characters)."""
    if _is_char(x) and x.ndim == 2 and x.shape[0] > 1:
        blank = _blank_columns(x)
        keep = np.flatnonzero(~blank)
        return x[:, keep[0]:keep[-1] + 1] if keep.size else x[:, :0]
    if _is_char(x) and x.size == 0:
        return x
    if type(x) in (float, np.ndarray) and not _is_char(x):
        raise error("MATLAB:strtrim:InputClass",
                    "Input should be a string, character array, or cell array of "
                    "character vectors.")
    return _map_text(x, "strtrim", _strtrim_text)


@builtin()
def deblank(x: Any) -> Any:
    """S = deblank(str) removes trailing whitespace and NUL characters."""
    if _is_char(x) and x.size == 0:
        return x
    if _is_char(x) and x.ndim == 2 and x.shape[0] > 1:
        keep = np.flatnonzero(~_blank_columns(x))
        return x[:, :keep[-1] + 1] if keep.size else x[:, :0]
    return _map_text(x, "deblank", _deblank)


# =========================================================== find, replace, tokens


def _find_all(text: str, pattern: str) -> list[int]:
    """Start offsets of every (possibly overlapping) occurrence."""
    out = []
    k = text.find(pattern)
    while k >= 0:
        out.append(k)
        k = text.find(pattern, k + 1)
    return out


def _index_row(positions: list[int], empty_pattern: bool = False) -> object:
    if not positions:
        return np.zeros((0, 0) if empty_pattern else (1, 0))
    return result(np.array([[p + 1 for p in positions]], dtype=np.float64))


@builtin()
def strfind(text: Any, pattern: Any, *opts: Any) -> Any:
    """k = strfind(str, pat) is the starting index of each occurrence of pat in str
    (overlapping occurrences included). A cell array str gives a cell array."""
    pat = _text_scalar(pattern, "strfind", "Pattern")
    force = bool(opts) and _flag(_options(opts, ("ForceCellOutput",), "strfind")
                                 .get("ForceCellOutput", False))
    t = texts(text, "strfind")
    found = [_index_row(_find_all(s or "", pat) if pat else [], not pat) for s in t.items]
    if t.kind == "char" or (t.kind == "string" and len(found) == 1):
        return _cell(found, (1, 1)) if force else found[0]
    return Cell(_objects(found, t.shape))


def _strrep_text(text: str, old: str, new: str) -> str:
    """Replace every occurrence, overlapping ones included (each gets its own copy)."""
    if not old:
        return text
    starts = _find_all(text, old)
    if not starts:
        return text
    out = []
    covered = 0  # text before this offset has been emitted or replaced
    for k in starts:
        if k > covered:
            out.append(text[covered:k])
        out.append(new)
        covered = k + len(old)
    out.append(text[covered:])
    return "".join(out)


def _elementwise_texts(values: list, fname: str) -> tuple[Texts, list[list]]:
    """Inputs that may each be one text or an array of texts, expanded to a common size."""
    parsed = [texts(v, fname) for v in values]
    sizes = {len(t.items) for t in parsed if len(t.items) != 1}
    if len(sizes) > 1:
        raise error(f"MATLAB:{fname}:SizeMismatch", "Inputs must be the same size or scalars.")
    n = sizes.pop() if sizes else 1
    lead = next((t for t in parsed if t.kind == "string"), None) or \
        next((t for t in parsed if len(t.items) == n and t.kind != "char"), parsed[0])
    if lead.kind == "string" and len(lead.items) != n:
        shape = next(t.shape for t in parsed if len(t.items) == n)
        lead = Texts("string", shape, [None] * n)
    return lead, [t.items * n if len(t.items) == 1 else t.items for t in parsed]


@builtin()
def strrep(s: Any, old: Any, new: Any) -> Any:
    """newStr = strrep(str, old, new) replaces every occurrence of old with new."""
    lead, (ss, olds, news) = _elementwise_texts([s, old, new], "strrep")
    out = [None if a is None else _strrep_text(a, b or "", c or "")
           for a, b, c in zip(ss, olds, news, strict=True)]
    return lead.pack(out)


def _strtok_text(text: str, delims: str) -> tuple[str, str]:
    i = 0
    while i < len(text) and text[i] in delims:
        i += 1
    j = i
    while j < len(text) and text[j] not in delims:
        j += 1
    return text[i:j], text[j:]


@builtin(max_out=2, nargout=True)
def strtok(s: Any, delimiters: Any = None, *, nargout: int = 1) -> Any:
    """[token, remain] = strtok(str, delimiters) is the first token of str after leading
    delimiters (whitespace by default); remain starts at the delimiter that ended it."""
    delims = WHITESPACE if delimiters is None else \
        "".join(_rows(delimiters)) if _is_char(delimiters) else \
        _text_scalar(delimiters, "strtok", "Delimiters")
    if _is_char(s) and s.size == 0:
        return (s, s) if nargout > 1 else s
    t = texts(s, "strtok")
    pairs = [_strtok_text(x or "", delims) for x in t.items]
    token = t.pack([p[0] for p in pairs])
    remain = t.pack([p[1] for p in pairs])
    return (token, remain) if nargout > 1 else token


# =========================================================== concatenation


def _strcat_char_rows(v: object) -> list[str]:
    if _is_char(v):
        return [_rstrip_ascii(r) for r in _rows(v)] if v.size else []
    if type(v) in (float, bool, np.ndarray):
        return [_rstrip_ascii(r) for r in _rows(_codes_to_char(to_array(v)))]
    raise error("MATLAB:strcat:InvalidInputType",
                "Inputs must be character arrays, cell arrays of character vectors, "
                "or string arrays.")


def _rstrip_ascii(text: str) -> str:
    return text.rstrip(WHITESPACE)


def _strcat_items(v: object, trim: bool) -> list:
    """Texts of one strcat argument in cell or string mode. Only char arguments lose
    trailing whitespace, and only next to cells (string arrays keep everything)."""
    if type(v) is Cell or type(v) is StringArray:
        return texts(v, "strcat").items
    if not _is_char(v):
        v = _codes_to_char(to_array(v))
    text = "".join(_rows(v)) if v.size else ""
    return [_rstrip_ascii(text) if trim else text]


@builtin()
def strcat(*args: Any) -> Any:
    """s = strcat(s1, ..., sN) concatenates texts horizontally. Char arguments lose their
    trailing whitespace; cell and string arguments are joined element by element."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    arrays = [a for a in args if type(a) in (Cell, StringArray)]
    if arrays:
        is_string = any(type(a) is StringArray for a in args)
        parts = [_strcat_items(a, not is_string) for a in args]
        n = max(len(p) for p in parts)
        if any(len(p) not in (1, n) for p in parts):
            raise error("MATLAB:strcat:InvalidInputSize",
                        "All the inputs must be the same size or scalars.")
        shape = next(a.shape for a in arrays if _numel(a) == n) if n != 1 else (1, 1)
        joined: list = []
        for k in range(n):
            pieces = [p[k if len(p) > 1 else 0] for p in parts]
            joined.append(None if any(x is None for x in pieces) else "".join(pieces))
        return Texts("string" if is_string else "cell", shape, joined).pack(joined)
    rows_per_arg = [_strcat_char_rows(a) for a in args]
    height = max((len(r) for r in rows_per_arg), default=0)
    if any(len(r) not in (0, 1, height) for r in rows_per_arg):
        raise error("MATLAB:strcat:NumberOfInputRows",
                    "All the character arrays must have the same number of rows.")
    if height == 0:
        return _empty_char()
    lines = ["".join(r[k if len(r) > 1 else 0] for r in rows_per_arg if r) for k in range(height)]
    return _char_matrix(lines) if height > 1 else _row(lines[0])


# =========================================================== comparison


def _cmp_items(v: object) -> tuple[tuple[int, ...], list] | None:
    """Comparison operands: (shape, keys) for arrays of texts, None for a single value.
    A key is the text of a char row or string (None for anything that is not text)."""
    if type(v) is Cell:
        return v.shape, [_cmp_key(x) for x in v.data.ravel(order="F")]
    if type(v) is StringArray and v.data.size != 1:
        return v.shape, list(v.data.ravel(order="F"))
    return None


def _cmp_key(v: object) -> Any:
    if _is_char(v):
        if v.size == 0:
            return ""
        return to_str(v) if v.shape[0] == 1 and v.ndim == 2 else ("matrix", v.shape, to_str(v))
    if type(v) is StringArray and v.data.size == 1:
        return v.data.reshape(-1)[0]
    return None


def _compare(a: object, b: object, same: Callable[[str, str], bool], fname: str) -> object:
    ia, ib = _cmp_items(a), _cmp_items(b)

    def test(x: Any, y: Any) -> bool:
        if x is None or y is None:
            return False
        if isinstance(x, tuple) or isinstance(y, tuple):
            return isinstance(x, tuple) and isinstance(y, tuple) and x[1] == y[1] and \
                same(x[2], y[2])
        return same(x, y)

    if ia is None and ib is None:
        return test(_cmp_key(a), _cmp_key(b))
    if ia is None or ib is None:
        shape, keys = ia or ib  # type: ignore[misc]
        other = _cmp_key(b if ib is None else a)
        return _logical([test(k, other) for k in keys], shape)
    if len(ia[1]) == 1 or len(ib[1]) == 1:
        single = ia if len(ia[1]) == 1 else ib
        many = ib if single is ia else ia
        return _logical([test(k, single[1][0]) for k in many[1]], many[0])
    if ia[0] != ib[0]:
        raise error(f"MATLAB:{fname}:InputsSizeMismatch",
                    "Inputs must be the same size or either one can be a scalar.")
    return _logical([test(x, y) for x, y in zip(ia[1], ib[1], strict=True)], ia[0])


def _count(n: Any, fname: str) -> int:
    return whole_number(n, fname, "N")


@builtin()
def strcmp(a: Any, b: Any) -> Any:
    """tf = strcmp(s1, s2) is true when the texts are identical (elementwise for cell
    and string arrays; false for anything that is not text)."""
    return _compare(a, b, lambda x, y: x == y, "strcmp")


@builtin()
def strcmpi(a: Any, b: Any) -> Any:
    """tf = strcmpi(s1, s2) compares texts ignoring case."""
    return _compare(a, b, lambda x, y: x.lower() == y.lower(), "strcmpi")


@builtin()
def strncmp(a: Any, b: Any, n: Any) -> Any:
    """tf = strncmp(s1, s2, n) compares the first n characters."""
    k = _count(n, "strncmp")
    return _compare(a, b, lambda x, y: x[:k] == y[:k], "strncmp")


@builtin()
def strncmpi(a: Any, b: Any, n: Any) -> Any:
    """tf = strncmpi(s1, s2, n) compares the first n characters ignoring case."""
    k = _count(n, "strncmpi")
    return _compare(a, b, lambda x, y: x[:k].lower() == y[:k].lower(), "strncmpi")


def _pattern_test(s: Any, pattern: Any, opts: tuple, fname: str,
                  test: Callable[[str, str], bool]) -> object:
    ignore = _flag(_options(opts, ("IgnoreCase",), fname).get("IgnoreCase", False))
    t = texts(s, fname)
    pats = _text_list(pattern, fname)
    if ignore:
        pats = [p.lower() for p in pats]
    values = []
    for x in t.items:
        if x is None:
            values.append(False)
            continue
        x = x.lower() if ignore else x
        values.append(any(test(x, p) for p in pats))
    return t.pack_values(values, lambda v: _logical(v, t.shape))


@builtin()
def startsWith(s: Any, pattern: Any, *opts: Any) -> Any:
    """tf = startsWith(str, pat) is true where str starts with pat (any of several patterns).
    startsWith(..., 'IgnoreCase', true) ignores case."""
    return _pattern_test(s, pattern, opts, "startsWith", str.startswith)


@builtin()
def endsWith(s: Any, pattern: Any, *opts: Any) -> Any:
    """tf = endsWith(str, pat) is true where str ends with pat."""
    return _pattern_test(s, pattern, opts, "endsWith", str.endswith)


@builtin()
def contains(s: Any, pattern: Any, *opts: Any) -> Any:
    """tf = contains(str, pat) is true where str contains pat."""
    return _pattern_test(s, pattern, opts, "contains", lambda x, p: p in x)


# =========================================================== split and join


def _split_regex(delims: list[str], collapse: bool, regex: bool = False) -> re.Pattern:
    parts = [d if regex else re.escape(d) for d in sorted(delims, key=len, reverse=True)]
    body = "|".join(parts)
    return re.compile(f"(?:{body})+" if collapse else f"(?:{body})")


def _split_text(text: str, pattern: re.Pattern) -> tuple[list[str], list[str]]:
    pieces, matches = [], []
    pos = 0
    for m in pattern.finditer(text):
        if m.end() == m.start():
            continue
        pieces.append(text[pos:m.start()])
        matches.append(m.group())
        pos = m.end()
    pieces.append(text[pos:])
    return pieces, matches


@builtin(max_out=2, nargout=True)
def strsplit(s: Any, *args: Any, nargout: int = 1) -> Any:
    """C = strsplit(str) splits str at whitespace; strsplit(str, delimiter) at delimiter
    (a text or a cell array of texts; escape sequences such as \\t are understood).
    Options: 'CollapseDelimiters' (default true), 'DelimiterType' ('Simple' or
    'RegularExpression'). [C, matches] = strsplit(...) also returns the delimiters found."""
    text = _text_scalar(s, "strsplit", "First input")
    names = ("CollapseDelimiters", "DelimiterType")
    delimiter = None
    if args and (len(args) % 2 == 1 or not (is_text(args[0]) and to_str(args[0]).lower()
                                             in {n.lower() for n in names})):
        delimiter, args = args[0], args[1:]
    opts = _options(args, names, "strsplit")
    collapse = _flag(opts.get("CollapseDelimiters", True))
    kind = to_str(opts.get("DelimiterType", _row("Simple"))).lower()
    if kind not in ("simple", "regularexpression"):
        raise error("MATLAB:strsplit:InvalidDelimiterType",
                    "DelimiterType must be 'Simple' or 'RegularExpression'.")
    if delimiter is None:
        delims = list(WHITESPACE)
    else:
        delims = _text_list(delimiter, "strsplit")
        if kind == "simple":
            delims = [unescape(d) for d in delims]
    if kind == "regularexpression":
        delims = [translate_regex(d, False) for d in delims]
    pieces, matches = _split_text(text, _split_regex(delims, collapse, kind != "simple"))
    make = _strings if type(s) is StringArray else (lambda xs: _cell([_row(x) for x in xs]))
    out = make(pieces)
    return (out, make(matches)) if nargout > 1 else out


@builtin()
def strjoin(c: Any, delimiter: Any = None) -> Any:
    """str = strjoin(C) joins the texts of C with spaces; strjoin(C, delimiter) with
    delimiter (escape sequences understood), or with each element of a cell delimiter."""
    items = [x or "" for x in texts(c, "strjoin").items]
    if type(c) is not Cell and type(c) is not StringArray:
        raise error("MATLAB:strjoin:InvalidCellType",
                    "First input must be a 1-by-N cell array of character vectors or string array.")
    if delimiter is None:
        seps = [" "] * max(len(items) - 1, 0)
    elif type(delimiter) in (Cell, StringArray) and _numel(delimiter) != 1:
        seps = _text_list(delimiter, "strjoin")
        if len(seps) != max(len(items) - 1, 0):
            raise error("MATLAB:strjoin:WrongNumberOfDelimiterElements",
                        "The number of delimiters must be one less than the number of "
                        "elements to join.")
    else:
        seps = [unescape(_text_list(delimiter, "strjoin")[0])] * max(len(items) - 1, 0)
    out = items[0] if items else ""
    for sep, item in zip(seps, items[1:], strict=True):
        out += sep + item
    if type(c) is StringArray:
        return StringArray.scalar(out)
    return _row(out)


def _numel(v: object) -> int:
    return int(np.prod(v.shape))  # type: ignore[attr-defined]


@builtin()
def split(s: Any, delimiter: Any = None, *opts: Any) -> Any:
    """newStr = split(str) splits text at whitespace into a column; split(str, delimiter)
    at any of the delimiters. 'CollapseDelimiters' defaults to true."""
    if delimiter is not None and is_text(delimiter) and not opts and \
            to_str(delimiter).lower() == "collapsedelimiters":
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    collapse = _flag(_options(opts, ("CollapseDelimiters",), "split")
                     .get("CollapseDelimiters", True))
    delims = list(WHITESPACE) if delimiter is None else _text_list(delimiter, "split")
    pattern = _split_regex(delims, collapse)
    t = texts(s, "split")
    pieces = [_split_text(x or "", pattern)[0] for x in t.items]
    counts = {len(p) for p in pieces}
    if len(counts) != 1:
        raise error("MATLAB:split:InconsistentPieces",
                    "Unable to split. Each element must split into the same number of pieces.")
    n = counts.pop()
    if len(pieces) == 1:
        shape: tuple[int, ...] = (n, 1)
        flat = pieces[0]
    elif len(t.shape) == 2 and t.shape[1] == 1:
        shape = (len(pieces), n)
        flat = [pieces[r][k] for k in range(n) for r in range(len(pieces))]
    else:
        shape = (*t.shape, n)
        flat = [p[k] for k in range(n) for p in pieces]
    if t.kind == "string":
        return _strings(flat, shape)
    return _cell([_row(x) for x in flat], shape)


@builtin()
def join(s: Any, delimiter: Any = None, dim: Any = None) -> Any:
    """newStr = join(str) joins the elements of a string array or cell array with spaces
    along its last dimension that is not 1; join(str, delimiter, dim) chooses both."""
    t = texts(s, "join")
    if t.kind == "char":
        t = Texts("cell", (1, 1), t.items)
    data = _objects(t.items, t.shape)
    if dim is None:
        axis = max((k for k, d in enumerate(t.shape) if d != 1), default=1)
    else:
        axis = whole_number(dim, "join", "Dimension", 1) - 1
    n = data.shape[axis] if axis < data.ndim else 1
    seps = [" "] * max(n - 1, 0) if delimiter is None else _text_list(delimiter, "join")
    if len(seps) == 1:
        seps = seps * max(n - 1, 0)
    if len(seps) != max(n - 1, 0):
        raise error("MATLAB:join:WrongNumberOfDelimiterElements",
                    "The number of delimiters must be one less than the number of elements.")
    moved = np.moveaxis(data, axis, -1) if axis < data.ndim else data[..., None]
    out = np.empty(moved.shape[:-1], dtype=object)
    for idx in np.ndindex(out.shape):
        row = moved[idx]
        if any(x is None for x in row):
            out[idx] = None
            continue
        text = row[0] if n else ""
        for sep, item in zip(seps, row[1:], strict=True):
            text += sep + item
        out[idx] = text
    shape = list(t.shape)
    if axis < len(shape):
        shape[axis] = 1
    out = out.reshape([d for k, d in enumerate(shape) if k != axis] or [1])
    out = np.expand_dims(out, axis) if axis < len(shape) else out
    joined = list(out.ravel(order="F"))
    return Texts(t.kind, tuple(shape), joined).pack(joined)


def _replace_text(text: str, olds: list[str], news: list[str]) -> str:
    pairs = [(o, n) for o, n in zip(olds, news, strict=True) if o]
    if not pairs:
        return text
    lookup = dict(reversed(pairs))  # the first pair wins for repeated old values
    pattern = re.compile("|".join(re.escape(o) for o, _ in pairs))
    return pattern.sub(lambda m: lookup[m.group()], text)


@builtin()
def replace(s: Any, old: Any, new: Any) -> Any:
    """newStr = replace(str, old, new) replaces every non-overlapping occurrence of old
    (any of several texts) with new (one text, or one per element of old)."""
    t = texts(s, "replace")
    olds = _text_list(old, "replace")
    news = _text_list(new, "replace")
    if len(news) == 1:
        news = news * len(olds)
    if len(news) != len(olds):
        raise error("MATLAB:replace:SizeMismatch",
                    "The replacement must be a single text or have one element per old text.")
    return t.pack([None if x is None else _replace_text(x, olds, news) for x in t.items])


# =========================================================== base conversion

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _integer_values(d: Any, fname: str) -> tuple[list[int], int | None]:
    """Values to convert and, for integer classes, their bit width (for negative numbers)."""
    if type(d) not in (float, bool, np.ndarray):
        raise error(f"MATLAB:{fname}:InvalidInput", "D must be numeric.")
    a = to_array(d)
    if a.dtype.kind == "U":
        a = char_codes(a)
    flat = a.ravel(order="F")
    if a.dtype.kind in "iu":
        return [int(x) for x in flat], a.dtype.itemsize * 8
    values = []
    for x in flat.astype(np.float64):
        if not math.isfinite(x):
            raise error(f"MATLAB:{fname}:InvalidInput", "D must contain finite values.")
        values.append(int(math.floor(x)) if x >= 0 else int(math.ceil(x)))
    return values, None


def _twos_complement(x: int, bits: int | None) -> int:
    if x >= 0:
        return x
    if bits is None:
        bits = next(b for b in (8, 16, 32, 64) if x >= -(1 << (b - 1)))
    return x + (1 << bits)


def _to_base(d: Any, base: int, symbols: str, min_digits: Any, fname: str) -> Any:
    values, bits = _integer_values(d, fname)
    if not values:
        return _empty_char()
    width = 0 if min_digits is None else _text_length(
        whole_number(min_digits, fname, "Number of digits"))
    texts_out = []
    for x in values:
        x = _twos_complement(x, bits) if base in (2, 16) else x
        if x < 0:
            raise error(f"MATLAB:{fname}:NegativeInput", "D must be nonnegative.")
        digits = []
        while True:
            x, r = divmod(x, base)
            digits.append(symbols[r])
            if x == 0:
                break
        texts_out.append("".join(reversed(digits)))
    width = max(width, *(len(s) for s in texts_out))
    return _char_matrix([s.rjust(width, symbols[0]) for s in texts_out])


@builtin()
def dec2bin(d: Any, n: Any = None) -> Any:
    """binStr = dec2bin(D) is the binary text of nonnegative integers D (one row each);
    dec2bin(D, n) uses at least n digits. Negative values use two's complement."""
    return _to_base(d, 2, "01", n, "dec2bin")


@builtin()
def dec2hex(d: Any, n: Any = None) -> Any:
    """hexStr = dec2hex(D) is the hexadecimal text of integers D; dec2hex(D, n) pads to n digits."""
    return _to_base(d, 16, _DIGITS[:16], n, "dec2hex")


@builtin()
def dec2base(d: Any, base: Any, n: Any = None) -> Any:
    """str = dec2base(D, base) converts integers to base 2..36 (or to the digits given as
    a character vector base); dec2base(D, base, n) pads to n digits."""
    symbols = _base_symbols(base, "dec2base")
    return _to_base(d, len(symbols), symbols, n, "dec2base")


def _base_symbols(base: Any, fname: str) -> str:
    if _is_char(base):
        symbols = to_str(base)
        if len(symbols) < 2 or len(set(symbols)) != len(symbols) or any(_is_space(c) for c in symbols):
            raise error(f"MATLAB:{fname}:SymbolsNotUnique",
                        "Symbols must be unique and not whitespace.")
        return symbols
    b = whole_number(base, fname, "Base", 2)
    if b > 36:
        raise error(f"MATLAB:{fname}:InvalidBase", "Base must be an integer between 2 and 36.")
    return _DIGITS[:b]


def _from_base(s: Any, symbols: str, fname: str, prefix: str, message: str) -> Any:
    if _is_char(s):
        items = _rows(s) if s.size else []
    elif type(s) in (Cell, StringArray):
        items = [x or "" for x in texts(s, fname).items]
    else:
        raise error(f"MATLAB:{fname}:InvalidInput",
                    "Input must be a character vector, cell array of character vectors, "
                    "or string array.")
    lookup = {c: k for k, c in enumerate(symbols)}
    if symbols == _DIGITS[:len(symbols)]:
        lookup.update({c.lower(): k for k, c in enumerate(symbols)})
    values = []
    for text in items:
        text = "".join(c for c in text if not _is_space(c))
        if prefix and text[:2].lower() == prefix:
            text = text[2:]
        total = 0.0
        for c in text:
            if c not in lookup:
                raise error(f"MATLAB:{fname}:IllegalInput", message)
            total = total * len(symbols) + lookup[c]
        values.append(total)
    if not values:
        return np.zeros((0, 1))
    return result(np.array(values, dtype=np.float64).reshape(-1, 1))


@builtin()
def bin2dec(s: Any) -> Any:
    """D = bin2dec(binStr) converts binary text (one number per row or element) to doubles."""
    return _from_base(s, "01", "bin2dec", "0b",
                      "Binary character vectors must contain only 0s and 1s.")


@builtin()
def hex2dec(s: Any) -> Any:
    """D = hex2dec(hexStr) converts hexadecimal text to doubles."""
    return _from_base(s, _DIGITS[:16], "hex2dec", "0x",
                      "Hexadecimal character vectors must contain only 0-9, A-F, and a-f.")


@builtin()
def base2dec(s: Any, base: Any) -> Any:
    """D = base2dec(str, base) converts text in base 2..36 (or in the given digit
    symbols) to doubles."""
    symbols = _base_symbols(base, "base2dec")
    return _from_base(s, symbols, "base2dec", "",
                      f"Input must contain only digits of base {len(symbols)}.")


# =========================================================== character classes


def _is_punct(c: str) -> bool:
    return unicodedata.category(c)[0] in "PS" if c else False


_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": str.isalpha,
    "alphanum": lambda c: c.isalpha() or c.isdecimal(),
    "digit": str.isdecimal,
    "lower": str.islower,
    "upper": str.isupper,
    "wspace": lambda c: _is_space(c),
    "punct": _is_punct,
    "cntrl": lambda c: c == "" or unicodedata.category(c) == "Cc",
    "graphic": lambda c: c.isprintable() and not c.isspace() and c != "",
    "graph": lambda c: c.isprintable() and not c.isspace() and c != "",
    "print": lambda c: c.isprintable() and c != "",
    "xdigit": lambda c: c != "" and c in "0123456789abcdefABCDEF",
    "ascii": lambda c: ord(c or "\0") < 128,
}


def _char_test(a: np.ndarray, test: Callable[[str], bool]) -> object:
    if a.size == 0:
        return np.zeros(a.shape, dtype=bool)
    return result(np.vectorize(test, otypes=[bool])(a))


def _class_of_chars(x: Any, test: Callable[[str], bool]) -> object:
    if _is_char(x):
        return _char_test(x, test)
    if type(x) in (float, bool, complex, np.ndarray):
        return result(np.zeros(to_array(x).shape, dtype=bool))
    return False


@builtin()
def isletter(x: Any) -> Any:
    """tf = isletter(A) is true for the letters of a char array (false for other classes)."""
    return _class_of_chars(x, str.isalpha)


@builtin()
def isspace(x: Any) -> Any:
    """tf = isspace(A) is true for the whitespace characters of a char array."""
    return _class_of_chars(x, _is_space)


@builtin()
def isstrprop(s: Any, category: Any, *opts: Any) -> Any:
    """tf = isstrprop(str, category) tests each character: 'alpha', 'alphanum', 'digit',
    'lower', 'upper', 'wspace', 'punct', 'cntrl', 'graphic', 'print', 'xdigit', 'ascii'.
    A cell array gives a cell array of results."""
    name = _text_scalar(category, "isstrprop", "Category").lower()
    test = _CLASSES.get(name)
    if test is None:
        raise error("MATLAB:isstrprop:InvalidCategory",
                    f"'{name}' is not a valid category.")
    force = _flag(_options(opts, ("ForceCellOutput",), "isstrprop").get("ForceCellOutput", False))
    if type(s) is Cell:
        return Cell(_objects([isstrprop(x, category) for x in s.data.ravel(order="F")], s.shape))
    if type(s) is StringArray:
        if s.data.size == 1:
            value = _char_test(_row(s.scalar_text()), test)
        else:
            return Cell(_objects([_char_test(_row(x or ""), test)
                                  for x in s.data.ravel(order="F")], s.shape))
    elif _is_char(s):
        value = _char_test(s, test)
    elif type(s) in (float, bool, np.ndarray):
        value = _char_test(_codes_to_char(to_array(s)), test)
    else:
        raise error("MATLAB:isstrprop:InvalidInput",
                    "Input must be a character array, cell array, string array, or numeric.")
    return _cell([value], (1, 1)) if force else value


# =========================================================== regular expressions

# MATLAB escapes Python's re does not know, and the ones it spells differently.
_KNOWN_ESCAPES = set("dDwWsSbBnrtfvaAZ0123456789")


def translate_regex(pattern: str, lineanchors: bool) -> str:
    """MATLAB regular-expression syntax in Python's: (?<name>…) groups, \\< and \\>
    word anchors, \\oNNN and \\x{HHHH} character codes, $ as the end of the text."""
    out: list[str] = []
    i, n = 0, len(pattern)
    class_start = -1  # where the open character class began (-1: not in one)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            step, text = _translate_escape(pattern, i, class_start >= 0)
            out.append(text)
            i += step
            continue
        if class_start >= 0:
            if c == "]" and i > class_start + 1 and not (i == class_start + 2 and
                                                         pattern[class_start + 1] == "^"):
                class_start = -1
                out.append(c)
            else:
                # characters Python's re reads as set operations inside a class
                out.append("\\" + c if c in "[&~|" else c)
            i += 1
            continue
        if c == "[":
            class_start = i
            out.append(c)
        elif c == "(" and pattern.startswith("(?<", i) and i + 3 < n and pattern[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        elif c == "$" and not lineanchors:
            out.append(r"\Z")  # MATLAB's $ is the end of the text, not before a final newline
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _translate_escape(pattern: str, i: int, in_class: bool) -> tuple[int, str]:
    d = pattern[i + 1]
    rest = pattern[i + 2:]
    if d == "<" and not in_class:
        return 2, r"\b(?=\w)"
    if d == ">" and not in_class:
        return 2, r"\b(?<=\w)"
    if d == "o":
        m = re.match(r"\{([0-7]+)\}|([0-7]{1,3})", rest)
        if m:
            return 2 + m.end(), re.escape(chr(int(m.group(1) or m.group(2), 8)))
    if d == "x":
        m = re.match(r"\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{1,2})", rest)
        if m:
            return 2 + m.end(), re.escape(chr(int(m.group(1) or m.group(2), 16)))
    if d == "e":
        return 2, r"\x1b"
    if d == "k" and rest.startswith("<"):
        end = rest.find(">")
        if end > 0:
            return 3 + end, f"(?P={rest[1:end]})"
    if d in _KNOWN_ESCAPES or not d.isalnum():
        return 2, "\\" + d
    return 2, re.escape(d)  # an unknown letter escape stands for the letter


class RegexOptions:
    """The option words of regexp/regexprep."""

    __slots__ = ("once", "ignorecase", "emptymatch", "dotall", "lineanchors",
                 "freespacing", "force_cell", "nth", "preservecase")

    def __init__(self) -> None:
        self.once = False
        self.ignorecase = False
        self.emptymatch = False
        self.dotall = True
        self.lineanchors = False
        self.freespacing = False
        self.force_cell = False
        self.nth = 0  # regexprep: replace only this match (0: all)
        self.preservecase = False

    def apply(self, word: str) -> bool:
        """Take an option word; False when it is not one."""
        simple = {
            "once": ("once", True), "ignorecase": ("ignorecase", True),
            "matchcase": ("ignorecase", False), "emptymatch": ("emptymatch", True),
            "noemptymatch": ("emptymatch", False), "dotall": ("dotall", True),
            "dotexceptnewline": ("dotall", False), "lineanchors": ("lineanchors", True),
            "stringanchors": ("lineanchors", False), "freespacing": ("freespacing", True),
            "literalspacing": ("freespacing", False), "forcecelloutput": ("force_cell", True),
            "preservecase": ("preservecase", True),
        }
        if word in simple:
            attr, value = simple[word]
            setattr(self, attr, value)
            return True
        return word == "warnings"

    def compile(self, pattern: str, fname: str) -> re.Pattern:
        flags = 0
        if self.ignorecase or self.preservecase:
            flags |= re.IGNORECASE
        if self.dotall:
            flags |= re.DOTALL
        if self.lineanchors:
            flags |= re.MULTILINE
        if self.freespacing:
            flags |= re.VERBOSE
        try:
            return re.compile(translate_regex(pattern, self.lineanchors), flags)
        except re.error as exc:
            raise error(f"MATLAB:{fname}:InvalidPattern",
                        f"Invalid regular expression: {exc}.") from None


_OUTPUT_KEYS = ("start", "end", "tokenextents", "match", "tokens", "names", "split")


def _matches(rx: re.Pattern, text: str, opts: RegexOptions) -> list[re.Match]:
    """The matches MATLAB reports: zero-length ones only with 'emptymatch'."""
    found = []
    for m in rx.finditer(text):
        if m.end() == m.start() and not opts.emptymatch:
            continue
        found.append(m)
        if opts.once:
            break
    return found


def _token_spans(m: re.Match, rx: re.Pattern) -> list[tuple[int, int, str | None]]:
    """(start, end, text) of each token; without groups the whole match is the token."""
    if rx.groups == 0:
        return [(m.start(), m.end(), m.group())]
    spans = []
    for k in range(1, rx.groups + 1):
        if m.start(k) < 0:
            spans.append((m.start(), m.start(), None))  # the group did not take part
        else:
            spans.append((m.start(k), m.end(k), m.group(k)))
    return spans


class _Regexp:
    """Every output of regexp for one text, computed only when asked for."""

    def __init__(self, rx: re.Pattern, text: str, opts: RegexOptions, as_string: bool) -> None:
        self.rx = rx
        self.text = text
        self.opts = opts
        self.as_string = as_string
        self.found = _matches(rx, text, opts)

    def _text(self, s: str | None) -> object:
        if self.as_string:
            return StringArray.scalar(s or "")
        return _empty_char() if s is None else _row(s)

    def _texts(self, items: list[str]) -> object:
        if self.as_string:
            return _strings(items)
        return _cell([_row(x) for x in items])

    def output(self, key: str) -> object:
        return getattr(self, "out_" + key)()

    def out_start(self) -> object:
        return self._positions([m.start() + 1 for m in self.found])

    def out_end(self) -> object:
        return self._positions([m.end() for m in self.found])

    def _positions(self, values: list[int]) -> object:
        if self.opts.once:
            return float(values[0]) if values else np.zeros((0, 0))
        return _doubles([float(v) for v in values], (1, len(values)))

    def _extents(self, m: re.Match) -> object:
        spans = _token_spans(m, self.rx)
        return result(np.array([[s + 1, e] for s, e, _ in spans], dtype=np.float64)
                      .reshape(len(spans), 2))

    def out_tokenextents(self) -> object:
        if self.opts.once:
            return self._extents(self.found[0]) if self.found else np.zeros((0, 0))
        return _cell([self._extents(m) for m in self.found])

    def out_match(self) -> object:
        if self.opts.once:
            return self._text(self.found[0].group()) if self.found else \
                (StringArray.scalar("") if self.as_string else _empty_char())
        return self._texts([m.group() for m in self.found])

    def _tokens(self, m: re.Match) -> object:
        spans = _token_spans(m, self.rx)
        if self.as_string:
            return _strings([t or "" for _, _, t in spans])
        return _cell([self._text(t) for _, _, t in spans])

    def out_tokens(self) -> object:
        if self.opts.once:
            return self._tokens(self.found[0]) if self.found else Cell.empty((1, 0))
        return _cell([self._tokens(m) for m in self.found])

    def out_names(self) -> object:
        names = sorted(self.rx.groupindex, key=self.rx.groupindex.__getitem__)
        if not names:
            return Struct.scalar({})
        found = self.found[:1] if self.opts.once else self.found
        elems = [{k: self._text(m.group(k)) for k in names} for m in found]
        if not elems:
            return Struct(list(names), np.empty((0, 0), dtype=object))
        shape = (1, 1) if len(elems) == 1 else (1, len(elems))
        return Struct(list(names), _objects(elems, shape))

    def out_split(self) -> object:
        pieces, pos = [], 0
        for m in self.found:
            pieces.append(self.text[pos:m.start()])
            pos = m.end()
        pieces.append(self.text[pos:])
        return self._texts(pieces)


def _regexp_args(args: tuple, fname: str, ignorecase: bool) -> tuple[list[str], RegexOptions]:
    keys: list[str] = []
    opts = RegexOptions()
    opts.ignorecase = ignorecase
    for a in args:
        word = _text_scalar(a, fname, "Option").lower()
        if word in _OUTPUT_KEYS:
            keys.append(word)
        elif not opts.apply(word):
            raise error(f"MATLAB:{fname}:UnknownOption", f"Unknown option '{to_str(a)}'.")
    return keys, opts


def _regexp(s: Any, expr: Any, args: tuple, nargout: int, fname: str,
            ignorecase: bool = False) -> Any:
    keys, opts = _regexp_args(args, fname, ignorecase)
    order = keys + [k for k in _OUTPUT_KEYS if k not in keys]
    wanted = order[:max(nargout, 1)]
    strs, exprs = texts(s, fname), texts(expr, fname)
    if len(strs.items) != 1 and len(exprs.items) != 1 and len(strs.items) != len(exprs.items):
        raise error(f"MATLAB:{fname}:CellArraySizeMismatch",
                    "Cell arrays must be the same size.")
    if len(strs.items) != 1 or len(exprs.items) == 1 and strs.kind == "cell":
        many = strs
    else:
        many = exprs
    if not strs.items or not exprs.items:  # an empty cell array: empty cells out
        empty = [Cell.empty(many.shape) for _ in wanted]
        return tuple(empty) if nargout > 1 else empty[0]
    n = max(len(strs.items), len(exprs.items))
    per_text = []
    for k in range(n):
        text = strs.items[k if len(strs.items) > 1 else 0] or ""
        pattern = exprs.items[k if len(exprs.items) > 1 else 0] or ""
        run = _Regexp(opts.compile(pattern, fname), text, opts,
                      strs.kind == "string" or exprs.kind == "string")
        per_text.append([run.output(key) for key in wanted])
    if strs.kind == "char" and exprs.kind == "char" or \
            (n == 1 and strs.kind != "cell" and exprs.kind != "cell"):
        outs = per_text[0]
        if opts.force_cell:
            outs = [_cell([v], (1, 1)) for v in outs]
    else:
        shape = many.shape
        outs = [Cell(_objects([p[j] for p in per_text], shape)) for j in range(len(wanted))]
    return tuple(outs) if nargout > 1 else outs[0]


@builtin(max_out=7, nargout=True)
def regexp(s: Any, expr: Any, *args: Any, nargout: int = 1) -> Any:
    """[startIndex, endIndex, tokenExtents, match, tokens, names, split] = regexp(str, expr)
    matches a regular expression. Output keywords ('match', 'tokens', 'names', 'split',
    'start', 'end', 'tokenExtents') choose outputs in the order given; options: 'once',
    'ignorecase', 'emptymatch', 'dotexceptnewline', 'lineanchors', 'freespacing'."""
    return _regexp(s, expr, args, nargout, "regexp")


@builtin(max_out=7, nargout=True)
def regexpi(s: Any, expr: Any, *args: Any, nargout: int = 1) -> Any:
    """regexpi(str, expr, ...) is regexp ignoring case."""
    return _regexp(s, expr, args, nargout, "regexpi", ignorecase=True)


_REPLACEMENT_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a",
                        "b": "\b", "\\": "\\", "$": "$", "0": "\0"}


def _parse_replacement(rep: str) -> list:
    """The parts of a replacement: text, token numbers, ('name', n) and ('expr', code)."""
    parts: list = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            parts.append("".join(buf))
            buf.clear()

    i, n = 0, len(rep)
    while i < n:
        c = rep[i]
        if c == "\\" and i + 1 < n:
            buf.append(_REPLACEMENT_ESCAPES.get(rep[i + 1], rep[i + 1]))
            i += 2
        elif c == "$" and i + 1 < n and rep[i + 1].isdigit():
            flush()
            parts.append(int(rep[i + 1]))
            i += 2
        elif c == "$" and rep.startswith("$<", i) and rep.find(">", i) > 0:
            flush()
            end = rep.find(">", i)
            parts.append(("name", rep[i + 2:end]))
            i = end + 1
        elif c == "$" and rep.startswith("${", i) and rep.find("}", i) > 0:
            flush()
            end = rep.find("}", i)
            parts.append(("expr", rep[i + 2:end]))
            i = end + 1
        else:
            buf.append(c)
            i += 1
    flush()
    return parts


def _match_group(m: re.Match, key: int | str) -> str:
    try:
        return m.group(key) or ""
    except (IndexError, re.error):
        return ""


def _dynamic(interp: Any, code: str, m: re.Match) -> str:
    """The text of a ${...} replacement: MATLAB code with $0..$9 standing for the tokens."""
    from mlang.evaluation.frame import Frame

    def token(mm: re.Match) -> str:
        return "'" + _match_group(m, int(mm.group(1))).replace("'", "''") + "'"

    source = re.sub(r"\$(\d)", token, code)
    frame = Frame(interp)
    interp.eval(f"regexprep_value__ = {source};", frame)
    value = frame.vars["regexprep_value__"]
    if is_text(value):
        return to_str(value)
    return to_str(num2str(value))


def _preserve_case(found: str, rep: str) -> str:
    out = []
    for k, c in enumerate(rep):
        if k < len(found) and found[k].isalpha():
            c = c.upper() if found[k].isupper() else c.lower()
        out.append(c)
    return "".join(out)


def _substitute(interp: Any, rx: re.Pattern, text: str, parts: list,
                opts: RegexOptions) -> str:
    found = _matches(rx, text, opts)
    if opts.nth:
        found = found[opts.nth - 1:opts.nth]
    out, pos = [], 0
    for m in found:
        out.append(text[pos:m.start()])
        pieces = []
        for p in parts:
            if isinstance(p, str):
                pieces.append(p)
            elif isinstance(p, int):
                pieces.append(_match_group(m, p))
            elif p[0] == "name":
                pieces.append(_match_group(m, p[1]))
            else:
                pieces.append(_dynamic(interp, p[1], m))
        rep = "".join(pieces)
        out.append(_preserve_case(m.group(), rep) if opts.preservecase else rep)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


@builtin(interp=True)
def regexprep(interp: Any, s: Any, expr: Any, rep: Any, *args: Any) -> Any:
    """newStr = regexprep(str, expr, replace) replaces the matches of expr with replace,
    where $N is the Nth token, $0 the whole match and ${code} the value of MATLAB code.
    Options: 'once', N (only the Nth match), 'ignorecase', 'preservecase', 'emptymatch'.
    Cell arrays of expressions are applied in turn."""
    opts = RegexOptions()
    for a in args:
        if is_text(a):
            word = to_str(a).lower()
            if not opts.apply(word) or word in ("forcecelloutput",):
                raise error("MATLAB:regexprep:UnknownOption", f"Unknown option '{to_str(a)}'.")
        else:
            opts.nth = whole_number(a, "regexprep", "The match number", 1)
    if opts.once:
        opts.once, opts.nth = False, opts.nth or 1
    t = texts(s, "regexprep")
    exprs = _text_list(expr, "regexprep")
    reps = _text_list(rep, "regexprep")
    if len(reps) == 1:
        reps = reps * len(exprs)
    if len(reps) != len(exprs):
        raise error("MATLAB:regexprep:WrongNumberOfReplacements",
                    "The number of replacements must be one or match the number of expressions.")
    compiled = [(opts.compile(e, "regexprep"), _parse_replacement(r))
                for e, r in zip(exprs, reps, strict=True)]
    out = []
    for text in t.items:
        if text is None:
            out.append(None)
            continue
        for rx, parts in compiled:
            text = _substitute(interp, rx, text, parts, opts)
        out.append(text)
    return t.pack(out)
