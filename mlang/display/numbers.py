"""How the numbers of a numeric array are written: the common format of an array under
the current ``format`` (integers, fixed decimals, a scale factor, exponents...), and
the rows of short arrays written at once."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import numpy as np

from mlang.display.style import BLANK, Line, Style
from mlang.values.layout import column_blocks

# ---------------------------------------------------------------- numbers


@dataclass(frozen=True, slots=True)
class _Num:
    """How the elements of one real array are written.

    ``kind`` is 'int' (integers), 'fixed' (``digits`` decimals, exact zeros
    bare), 'exp', 'g', 'eng', 'bank', 'hex', 'rat' or 'plus'.  ``width`` is
    the right-aligned field of each element; with ``scale`` the elements are
    shown divided by 10**scale under a ``1.0e+NN *`` line.
    """

    kind: str
    digits: int = 4
    width: int = 6
    scale: int = 0
    single: bool = False

    def text(self, x: float) -> str:
        kind = self.kind
        if kind == "hex":
            return _hex(x, self.single)
        if kind == "plus":
            return "+" if x > 0 else "-" if x < 0 else " "
        if x != x:
            return "NaN"
        if x in (math.inf, -math.inf):
            return "Inf" if x > 0 else "-Inf"
        if kind == "int":
            return str(int(x))
        if kind == "fixed":
            return "0" if x == 0 else f"{_scaled(x, self.scale):.{self.digits}f}"
        if kind == "exp":
            return f"{x:.{self.digits}e}"
        if kind == "g":
            return f"{x:.{self.digits}g}"
        if kind == "eng":
            return _eng(x, self.digits)
        if kind == "bank":
            return f"{x:.2f}"
        return _rat(x)


def _real_num(values: np.ndarray, single: bool, style: Style, scalar: bool) -> _Num:
    """The common format of a real array under the current ``format`` style."""
    fmt = style.format
    if fmt == "hex":
        return _Num("hex", width=(8 if single else 16) + 3, single=single)
    if fmt == "+":
        return _Num("plus", width=1)
    if fmt == "bank":
        return _Num("bank", width=14)
    if fmt == "rat":
        return _Num("rat", width=max(len(_rat(x)) for x in values.reshape(-1).tolist()) + 3)
    if values.size <= _FEW:  # a few numbers: looked at in Python, without NumPy's calls
        finite = [x for x in values.reshape(-1).tolist() if math.isfinite(x)]
        top = max(map(abs, finite), default=0.0)
        return _num_for(top, all(x.is_integer() for x in finite), single, fmt, scalar)
    finite = values[np.isfinite(values)]
    top = float(np.abs(finite).max()) if finite.size else 0.0
    return _num_for(top, bool(np.all(finite == np.round(finite))), single, fmt, scalar)


_FEW = 32


def _num_for(top: float, whole: bool, single: bool, fmt: str, scalar: bool) -> _Num:
    """``_real_num`` given the largest finite magnitude and whether every finite element is
    a whole number (the styles hex, +, bank and rat aside)."""
    if whole and top < 1e9:
        return _Num("int", width=6 if top < 1000 else 12)
    long = fmt.startswith("long")
    digits = (7 if single else 15) if long else 4
    exp_width = (16 if single else 26) if long else 13
    if fmt in ("shortE", "longE"):
        return _Num("exp", digits, exp_width)
    if fmt in ("shortG", "longG"):
        significant = (7 if single else 15) if long else 5
        return _Num("g", significant, significant + 8)
    if fmt in ("shortEng", "longEng"):
        return _Num("eng", digits, 25 if long else 16)
    # short and long: fixed decimals while the largest magnitude allows, else a
    # scale factor (arrays) or exponent notation (scalars).
    upper = 100.0 if long else 1000.0
    fixed_width = (12 if single else 20) if long else 10
    if 0.001 < top < upper:
        return _Num("fixed", digits, fixed_width)
    if scalar:
        return _Num("exp", digits, exp_width)
    return _Num("fixed", digits, fixed_width, scale=_exponent(top))


def _exponent(top: float) -> int:
    """The scale factor's power of ten: log10 of the largest magnitude, truncated toward zero."""
    return int(math.log10(top))


def _scaled(x: float, scale: int) -> float:
    # Multiplying by an exact power of ten keeps 2.0408e-4 * 1e3 from gaining noise digits.
    if scale >= 0:
        return x / 10.0 ** scale
    if scale < -300:  # subnormal magnitudes: 10**310 itself would overflow
        x, scale = x * 1e300, scale + 300
    return x * 10.0 ** -scale


def _scale_lines(scale: int) -> list[Line]:
    return [f"   1.0e{scale:+03d} *", BLANK] if scale else []


def _double_scalar_lines(x: float, style: Style) -> list[Line] | None:
    """The body of a double scalar, as ``_array_body`` makes it (None for the formats whose
    width depends on more than the number: hex, +, bank, rat)."""
    fmt = style.format
    if fmt in _WHOLE_ARRAY_FORMATS:
        return None
    if math.isfinite(x):
        num = _num_for(abs(x), x.is_integer(), False, fmt, True)
    else:
        num = _num_for(0.0, True, False, fmt, True)
    return [num.text(x).rjust(num.width)]


_WHOLE_ARRAY_FORMATS = ("hex", "+", "bank", "rat")


_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)


def _short_real_lines(a: np.ndarray, single: bool, style: Style) -> list[Line] | None:
    """The body (without a class header) of a nonempty 2-D double or single array of at most
    _SHORT elements, as _array_body makes it, from a list of its rows (whole rows written by
    one %-template where the format allows); None for the others, for the formats hex, +,
    bank and rat, and for elements wider than their field."""
    fmt = style.format
    if not 0 < a.size <= _SHORT or fmt in _WHOLE_ARRAY_FORMATS:
        return None
    rows = a.tolist()
    flat = rows[0] if len(rows) == 1 else [x for row in rows for x in row]
    # (a finite sum: every element finite; x - x is NaN for NaN and Inf)
    finite = flat if math.isfinite(sum(flat)) else [x for x in flat if x - x == 0.0]
    if finite:
        top, low = max(finite), -min(finite)
        if low > top:
            top = low
    else:
        top = 0.0
    whole = all(map(float.is_integer, finite))
    template = None
    # The commonest forms of _num_for, with no _Num made; no element is wider than its field
    # (below 1e9 an integer has at most 10 characters; below 1000 fixed decimals at most 10,
    # '-1000.0000' after rounding; below 100 long decimals at most 20 or, single, 12).
    if len(finite) == a.size:
        if whole and top < 1e9:
            width, template = (6, "%6d") if top < 1000 else (12, "%12d")  # (%d: -0 as 0)
        elif (fmt == "short" and 0.001 < top < 1000.0 or fmt == "long" and 0.001 < top < 100.0) \
                and 0.0 not in finite:  # (exact zeros are written bare: '0')
            width, template = (10, "%10.4f") if fmt == "short" else (12, "%12.7f") if single \
                else (20, "%20.15f")
    columns = a.shape[1]
    if template is not None:
        full = width * columns
        template *= columns
        lines = [template % tuple(rows[0])] if len(rows) == 1 else [template % tuple(row) for row in rows]
        scale = 0
    else:
        num = _num_for(top, whole, single, fmt, a.size == 1)
        text, width, scale = num.text, num.width, num.scale
        lines = ["".join([text(x).rjust(width) for x in row]) for row in rows]
        full = width * columns
        if any(len(line) != full for line in lines):
            return None  # a text wider than its field: the general path
    if full > style.width:  # Columns blocks, from the cells (each exactly `width` long)
        cells = [[line[k:k + width] for k in range(0, full, width)] for line in lines]
        lines = column_blocks(cells, style.width)  # type: ignore[assignment]
    return [*_scale_lines(scale), *lines] if scale else lines


_SHORT = 1000  # (elements: larger arrays are written as their Columns blocks are read, in NumPy)


def _real_grid(a: np.ndarray, single: bool, style: Style) -> tuple[list[list[str]], list[Line]]:
    num = _real_num(a, single, style, a.size == 1)
    rows = [[num.text(x).rjust(num.width) for x in row] for row in a.tolist()]
    return rows, _scale_lines(num.scale)


def _complex_grid(a: np.ndarray, single: bool, style: Style) -> tuple[list[list[str]], list[Line]]:
    """Complex elements as ``re + imi``: fixed decimals below 100, else exponents or a scale."""
    digits = (7 if single else 15) if style.format.startswith("long") else 4
    if a.size <= _FEW:  # a few numbers: looked at in Python, without NumPy's calls
        numbers = a.reshape(-1).tolist()
        finite = [x for z in numbers for x in (z.real, z.imag) if x - x == 0.0]  # (NaN for NaN, Inf)
        top = max(map(abs, finite), default=0.0)
    else:
        parts = np.concatenate([a.real.reshape(-1), a.imag.reshape(-1)]).astype(np.float64)
        finite = parts[np.isfinite(parts)]
        top = float(np.abs(finite).max()) if finite.size else 0.0
    fixed = top < 100 and not 0 < top <= 0.001
    scale = 0
    if a.size == 1 and not fixed:
        rows = [[_complex_exp(complex(a.reshape(-1)[0]), digits)]]
        return rows, []
    if not fixed:
        scale = _exponent(top)
    rows = [[_complex_fixed(complex(z), digits, scale) for z in row] for row in a.tolist()]
    return rows, _scale_lines(scale)


def _part(x: float, digits: int, scale: int) -> str:
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Inf" if x > 0 else "-Inf"
    return f"{_scaled(x, scale):.{digits}f}"


def _complex_fixed(z: complex, digits: int, scale: int) -> str:
    # The imaginary field is one wider than '4.0000': '13.0000' uses the sign's space.
    sign = "-" if math.copysign(1.0, z.imag) < 0 and z.imag == z.imag else "+"
    re = _part(z.real, digits, scale).rjust(digits + 5)
    im = _part(abs(z.imag), digits, scale).rjust(digits + 3)
    return f"{re} {sign}{im}i"


def _complex_exp(z: complex, digits: int) -> str:
    sign = "-" if math.copysign(1.0, z.imag) < 0 and z.imag == z.imag else "+"
    re = f"{z.real:.{digits}e}".rjust(digits + 9)
    return f"{re} {sign} {abs(z.imag):.{digits}e}i"


def _int_grid(a: np.ndarray, style: Style) -> list[list[str]]:
    """Integer classes: every element in the width of the longest plus three spaces."""
    if style.format == "hex":
        bits = a.dtype.itemsize * 8
        texts = [[f"{x % (1 << bits):0{bits // 4}x}" for x in row] for row in a.tolist()]
    else:
        texts = [[str(x) for x in row] for row in a.tolist()]
    width = max(len(t) for row in texts for t in row) + 3
    return [[t.rjust(width) for t in row] for row in texts]


def _hex(x: float, single: bool) -> str:
    return struct.pack(">f" if single else ">d", x).hex()


def _eng(x: float, digits: int) -> str:
    """Engineering notation: a power of ten that is a multiple of three (shortEng/longEng)."""
    if x == 0:
        power = 0
    else:
        power = 3 * math.floor(math.log10(abs(x)) / 3)
    from decimal import Decimal  # on first use: rarely needed, spared at start-up

    mantissa = float(Decimal(x).scaleb(-power))  # 10.0 ** power underflows near 1e-324
    if digits == 4:
        text = f"{mantissa:.4f}"
    else:  # longEng: 15 significant digits in all
        whole = len(str(int(abs(mantissa))))
        text = f"{mantissa:.{15 - whole}f}"
    return f"{text}e{power:+04d}"


def _rat(x: float) -> str:
    """A ratio of small integers within 1e-6 relative error (format rat).

    Continued fractions with nearest-integer terms, as MATLAB's ``rat``.
    """
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Inf" if x > 0 else "-Inf"
    if x == round(x):
        return str(int(x))
    tol = 1e-6 * abs(x)
    h, h_prev, k, k_prev = round(x), 1, 1, 0
    rest = x - round(x)
    for _ in range(20):
        if rest == 0 or abs(x - h / k) <= tol:
            break
        y = 1 / rest
        if not math.isfinite(y):  # a subnormal remainder: nothing more to represent
            break
        term = round(y)
        rest = y - term
        h, h_prev = term * h + h_prev, h
        k, k_prev = term * k + k_prev, k
    if k < 0:
        h, k = -h, -k
    return str(h) if k == 1 else f"{h}/{k}"
