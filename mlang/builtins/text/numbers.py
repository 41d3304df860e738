"""Numbers and text: num2str, int2str and mat2str (numbers to text), str2double
and str2num (text to numbers), and base conversion (dec2bin, dec2hex,
dec2base, bin2dec, hex2dec, base2dec)."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import options, text_array, text_option
from mlang.builtins.math.rounding import round_half_away
from mlang.builtins.text.forms import (
    empty_char,
    is_char,
    is_space,
    row,
    text_length,
    whole_number,
)
from mlang.builtins.text.printing import format_text
from mlang.errors import MatlabError, MatlabSyntaxError, error
from mlang.evaluation.frame import Frame
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    char_codes,
    char_matrix,
    char_rows,
    char_text,
    class_of,
    is_text,
    result,
    to_array,
    to_str,
)
from mlang.values.string import StringArray


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
    return char_matrix(["  ".join(_complex_text(complex(z), fmt) for z in r) for r in rows])


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
    if is_char(x):
        return x
    if type(x) not in (float, bool, complex, np.ndarray):
        raise error("MATLAB:num2str:nonNumericInput", "Input to num2str must be numeric.")
    a = to_array(x)
    if a.size == 0:
        return empty_char()
    if a.ndim > 2:
        a = a.reshape(a.shape[0], -1, order="F")
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    if arg is not None and is_text(arg):
        if a.dtype.kind == "c":
            a = a.real
        # each \n the format writes starts a new row of the result
        lines = "\n".join(_format_rows(a, to_str(arg))).split("\n")
        return char_matrix(_trim_columns([x for x in lines if x] or [""]))
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
    return char_matrix(_trim_columns(rows))


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
        return empty_char()
    if a.dtype.kind == "V":
        a = char_codes(a).astype(np.float64)
    if a.dtype.kind == "c":
        a = a.real
    if a.dtype.kind == "f":
        a = round_half_away(a.astype(np.float64))
    if a.ndim > 2:
        a = a.reshape(a.shape[0], -1, order="F")
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    return char_matrix(_trim_columns(_format_rows(a, _num2str_format(a, whole=True))))


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
            if text_option(a) != "class":
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
        return row(_mat2str_strings(x))
    if is_char(x):
        return row(_mat2str_char(x))
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
    return row(text)


def _mat2str_char(x: np.ndarray) -> str:
    rows = char_rows(x) if x.size else [""]
    quoted = ["'" + r.replace("'", "''") + "'" for r in rows]
    return quoted[0] if len(quoted) == 1 else "[" + ";".join(quoted) + "]"


def _mat2str_strings(x: StringArray) -> str:
    def q(s: str | None) -> str:
        return "<missing>" if s is None else '"' + s.replace('"', '""') + '"'

    rows = [" ".join(q(s) for s in r) for r in x.data.tolist()]
    text = ";".join(rows)
    return text if x.data.size == 1 else f"[{text}]"


# ------------------------------------------------------------ text to numbers

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


# A plain decimal number, which Python's float reads exactly as the general pattern does.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?").fullmatch


def parse_double(text: str) -> float | complex:
    """MATLAB's str2double of one text: a real or complex number, else NaN."""
    if _PLAIN_NUMBER(text):
        return float(text)
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
    if is_char(s):
        if s.size == 0:
            return math.nan
        rows = char_rows(s)
        if len(rows) == 1:
            return parse_double(rows[0])
        return result(np.array([parse_double(r) for r in rows]).reshape(-1, 1))
    if type(s) is Cell:
        values = []
        for x in s.data.ravel(order="F").tolist():
            # is_char_row and to_str, inline: cells of many short texts are the common input
            if type(x) is np.ndarray and x.dtype.kind == "V" and (x.size == 0 or (
                    x.ndim == 2 and x.shape[0] == 1)):
                text = char_text(x)
                values.append(float(text) if _PLAIN_NUMBER(text) else parse_double(text))
            else:
                values.append(math.nan)
        return result(np.array(values, dtype=np.complex128 if any(
            isinstance(v, complex) for v in values) else np.float64).reshape(s.shape, order="F"))
    if type(s) is StringArray:
        values = [math.nan if x is None else parse_double(x) for x in s.data.ravel(order="F")]
        return result(np.array(values).reshape(s.shape, order="F"))
    return math.nan


# What Evaluation="restricted" lets str2num evaluate: numbers, operators and these names.
_RESTRICTED_NAMES = frozenset({
    "i", "j", "pi", "Inf", "inf", "NaN", "nan", "true", "false", "eps", "exp", "log",
    "log2", "log10", "sqrt", "abs", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
    "cosh", "tanh", "floor", "ceil", "round", "fix", "mod", "rem", "power", "realmax",
    "realmin", "intmax", "intmin", "flintmax"})
_NAME_RE = re.compile(r"(?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?[ij]?|[A-Za-z_]\w*")
_RESTRICTED_CHARS = frozenset(".+-*/\\^()[],; \t\n\r")


def _restricted_ok(text: str) -> bool:
    """Whether text is a basic math expression (Evaluation="restricted")."""
    for m in _NAME_RE.finditer(text):
        word = m.group()
        if not word[0].isdigit() and word[0] != "." and word not in _RESTRICTED_NAMES:
            return False
    return all(c in _RESTRICTED_CHARS for c in _NAME_RE.sub(" ", text))


@builtin(interp=True, max_out=2, nargout=True)
def str2num(interp: Any, s: Any, *args: Any, nargout: int = 1) -> Any:
    """X = str2num(txt) evaluates txt as a matrix expression ([] on failure).
    X = str2num(txt, Evaluation=method): "all" (default) evaluates anything; "restricted"
    only basic math expressions such as 200, 200+2i or exp(2).
    [X, tf] = str2num(___) also returns whether the conversion succeeded."""
    # (no options, the usual call: the default method, without making and reading its text)
    method = text_option(options(args, ("Evaluation",)).get("Evaluation", row("all"))) if args else "all"
    if method not in ("all", "restricted"):
        raise error("MATLAB:str2num:InvalidEvaluation",
                    "Evaluation must be \"all\" or \"restricted\".")
    if type(s) is StringArray:
        s = row(to_str(s))
    if not is_char(s):
        raise error("MATLAB:str2num:InvalidArgument",
                    "Input must be a character vector or string scalar.")
    text = "\n".join(char_rows(s)) if s.size else ""
    if method == "restricted" and not _restricted_ok(text):
        value, ok = np.zeros((0, 0)), False
        return (value, ok) if nargout > 1 else value
    frame = Frame(interp)
    name = "str2num_value__"
    try:
        interp.eval(f"{name} = [{text}\n];", frame)
        value = frame.vars.get(name, np.zeros((0, 0)))
        ok = True
    except (MatlabError, MatlabSyntaxError):
        value, ok = np.zeros((0, 0)), False
    return (value, ok) if nargout > 1 else value


# ------------------------------------------------------------ base conversion

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _integer_values(d: Any, fname: str) -> tuple[list[int], int | None]:
    """Values to convert and, for integer classes, their bit width (for negative numbers)."""
    if type(d) not in (float, bool, np.ndarray):
        raise error(f"MATLAB:{fname}:InvalidInput", "D must be numeric.")
    a = to_array(d)
    if a.dtype.kind == "V":
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
        # Below intmin('int64') there is no two's complement: the caller refuses it.
        bits = next((b for b in (8, 16, 32, 64) if x >= -(1 << (b - 1))), None)
        if bits is None:
            return x
    return x + (1 << bits)


def _to_base(d: Any, base: int, symbols: str, min_digits: Any, fname: str) -> Any:
    values, bits = _integer_values(d, fname)
    if not values:
        return empty_char()
    width = 0 if min_digits is None else text_length(
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
    return char_matrix([s.rjust(width, symbols[0]) for s in texts_out])


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
    if is_char(base):
        symbols = to_str(base)
        if len(symbols) < 2 or len(set(symbols)) != len(symbols) or any(is_space(c) for c in symbols):
            raise error(f"MATLAB:{fname}:SymbolsNotUnique",
                        "Symbols must be unique and not whitespace.")
        return symbols
    b = whole_number(base, fname, "Base", 2)
    if b > 36:
        raise error(f"MATLAB:{fname}:InvalidBase", "Base must be an integer between 2 and 36.")
    return _DIGITS[:b]


_SUFFIX_RE = re.compile(r"^(.*?)([su])(8|16|32|64)$", re.IGNORECASE)


def _from_base(s: Any, symbols: str, fname: str, prefix: str, message: str) -> Any:
    shape = None
    if is_char(s):
        items = char_rows(s) if s.size else []
    elif type(s) in (Cell, StringArray):
        items = [x or "" for x in text_array(s).items]
        if type(s) is StringArray:
            shape = s.shape  # a string array gives an array of its size
    else:
        raise error(f"MATLAB:{fname}:InvalidInput",
                    "Input must be a character vector, cell array of character vectors, "
                    "or string array.")
    lookup = {c: k for k, c in enumerate(symbols)}
    if symbols == _DIGITS[:len(symbols)]:
        lookup.update({c.lower(): k for k, c in enumerate(symbols)})
    values = []
    for text in items:
        text = "".join(c for c in text if not is_space(c))
        bits = None
        if prefix:
            if text[:2].lower() == prefix:
                text = text[2:]
            # the suffixes of binary and hexadecimal literals: s8 reads two's complement
            m = _SUFFIX_RE.match(text)
            if m and m.group(1):
                text, bits = m.group(1), (m.group(2).lower(), int(m.group(3)))
        total = 0
        for c in text:
            if c not in lookup:
                raise error(f"MATLAB:{fname}:IllegalInput", message)
            total = total * len(symbols) + lookup[c]
        if bits is not None:
            if total >= 1 << bits[1]:
                raise error(f"MATLAB:{fname}:IllegalInput",
                            "Value does not fit in the type given by its suffix.")
            if bits[0] == "s" and total >= 1 << (bits[1] - 1):
                total -= 1 << bits[1]
        values.append(float(total) if total.bit_length() <= 1024 else math.inf)
    if shape is not None:
        return result(np.array(values, dtype=np.float64).reshape(shape, order="F"))
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
