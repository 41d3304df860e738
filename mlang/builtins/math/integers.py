"""Integer functions: the bitwise functions (bitand, bitor, bitxor, bitshift,
bitcmp) and number theory (factorial, nchoosek, primes, isprime, factor,
gcd, lcm).

Double inputs of the bitwise functions must hold integer values of the
assumed integer type ('uint64' unless given).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.math.elementwise import (
    ARITHMETIC,
    FLINTMAX,
    bad_type,
    binary_operands,
    check_expansion,
    numeric,
    require_real,
)
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values import operators
from mlang.values.cell import Cell
from mlang.values.core import class_of, result, to_array, to_double_array
from mlang.values.integer_arithmetic import NARROW_INT_LIMITS
from mlang.values.limits import check_array_size
from mlang.values.operators import INT_LIMITS, align, to_class

# ------------------------------------------------------------------- bitwise


_BIT_TYPES = ("uint64", "uint32", "uint16", "uint8", "int64", "int32", "int16", "int8")


def _assumed_type(arg: object | None) -> str:
    if arg is None:
        return "uint64"
    name = text_or_none(arg) or ""
    if name not in _BIT_TYPES:
        raise error("MATLAB:bitfun:InvalidAssumedType",
                    "ASSUMEDTYPE must be an integer type name.")
    return name


def _bit_operands(name: str, a: object, b: object, assumed: object | None
                  ) -> tuple[np.ndarray, np.ndarray, str, str]:
    """Operands as integer arrays of one type, the type computed in and the result class."""
    for v in (a, b):
        if class_of(v) not in ARITHMETIC:
            raise bad_type(name)
    cls = operators.result_class(a, b, name)
    if cls == "single":
        cls = "double"
    kind = cls if cls in INT_LIMITS else _assumed_type(assumed)
    x, y = align(_bit_values(a, kind), _bit_values(b, kind))
    check_expansion(x, y)
    return x, y, kind, cls


def _bit_values(v: object, kind: str) -> np.ndarray:
    a = to_array(v)
    if class_of(v) == kind:
        return a
    d = to_double_array(a)
    require_real("bitfun", d)
    lo, hi = INT_LIMITS[kind]
    if ((d != np.trunc(d)) | (d < lo) | (d > min(hi, FLINTMAX))).any():
        raise error("MATLAB:bitfun:InvalidDoubleInput" if class_of(v) != "single" else
                    "MATLAB:bitfun:InvalidSingleInput",
                    "Double inputs must have integer values in the range of ASSUMEDTYPE.")
    return d.astype(np.dtype(kind))


def _bit_result(values: np.ndarray, cls: str) -> object:
    if cls in INT_LIMITS:
        return result(values)
    return result(values.astype(np.float64))


def _bitwise(name: str, fn: Callable, a: object, b: object, assumed: object | None) -> object:
    if type(a) is float and type(b) is float and assumed is None and \
            _small_natural(a) and _small_natural(b):
        return float(fn(int(a), int(b)))
    if assumed is None:
        quick = _narrow_bits(fn, a, b)
        if quick is not None:
            return quick
    x, y, _, cls = _bit_operands(name, a, b, assumed)
    return _bit_result(fn(x, y), cls)


def _narrow_bits(fn: Callable, a: object, b: object) -> np.ndarray | None:
    """A bit function of a 2-D array of an integer class of at most 32 bits with a whole
    double scalar within the class's limits (either way round; NumPy keeps the class) or with
    an array of its class and size; None for anything else."""
    ta, tb = type(a), type(b)
    if ta is np.ndarray and a.ndim == 2 and a.dtype in NARROW_INT_LIMITS:
        if tb is np.ndarray:
            return fn(a, b) if b.dtype is a.dtype and b.shape == a.shape else None
        if tb is float and b.is_integer():
            lo, hi = NARROW_INT_LIMITS[a.dtype]
            return fn(a, int(b)) if lo <= b <= hi else None
    elif ta is float and tb is np.ndarray and b.ndim == 2 and b.dtype in NARROW_INT_LIMITS and a.is_integer():
        lo, hi = NARROW_INT_LIMITS[b.dtype]
        return fn(int(a), b) if lo <= a <= hi else None
    return None


def _small_natural(v: float) -> bool:
    """A double that bit functions take as it is: a non-negative integer up to flintmax."""
    return 0 <= v <= FLINTMAX and v.is_integer()


@builtin()
def bitand(a: object, b: object, assumedtype: object = None) -> object:
    """C = bitand(A, B)  bit-wise AND of non-negative integer values
    C = bitand(A, B, ASSUMEDTYPE)  treat double inputs as that integer type"""
    return _bitwise("bitand", np.bitwise_and, a, b, assumedtype)


@builtin()
def bitor(a: object, b: object, assumedtype: object = None) -> object:
    """C = bitor(A, B)  bit-wise OR
    C = bitor(A, B, ASSUMEDTYPE)"""
    return _bitwise("bitor", np.bitwise_or, a, b, assumedtype)


@builtin()
def bitxor(a: object, b: object, assumedtype: object = None) -> object:
    """C = bitxor(A, B)  bit-wise exclusive OR
    C = bitxor(A, B, ASSUMEDTYPE)"""
    return _bitwise("bitxor", np.bitwise_xor, a, b, assumedtype)


@builtin()
def bitshift(a: object, k: object, assumedtype: object = None) -> object:
    """C = bitshift(A, K)  shift the bits of A left by K (right for negative K);
    bits shifted past the left end of the type are lost
    C = bitshift(A, K, ASSUMEDTYPE)"""
    if type(a) is float and type(k) is float and assumedtype is None and _small_natural(a) \
            and k.is_integer() and abs(k) < 64:
        n = int(k)
        return float((int(a) << n) & 0xFFFFFFFFFFFFFFFF if n >= 0 else int(a) >> -n)
    if type(k) is float and assumedtype is None and type(a) is np.ndarray and a.ndim == 2 \
            and a.dtype in NARROW_INT_LIMITS and (a.shape[0] == 1 or a.shape[1] == 1) and k.is_integer():
        bits = a.dtype.itemsize * 8
        if -bits < k < bits:  # an integer row, column or scalar by a whole shift within its width
            n = a.dtype.type(abs(k))
            return np.left_shift(a, n) if k >= 0 else np.right_shift(a, n)
    if class_of(k) not in ARITHMETIC:
        raise bad_type("bitshift")
    cls = class_of(a)
    if cls not in ARITHMETIC:
        raise bad_type("bitshift")
    kind = cls if cls in INT_LIMITS else _assumed_type(assumedtype)
    x = _bit_values(a, kind)
    shift = to_double_array(k)
    require_real("bitshift", shift)
    if (shift != np.trunc(shift)).any():
        raise error("MATLAB:bitshift:NonIntegerShift", "Shift value must be an integer.")
    x, shift = align(x, shift)
    check_expansion(x, shift)
    x, shift = np.broadcast_arrays(x, shift)
    bits = x.dtype.itemsize * 8
    # NumPy (like C) leaves shifts by the type's width or more undefined: clamp them.
    left = np.clip(shift, 0, bits - 1).astype(x.dtype)
    right = np.clip(-shift, 0, bits - 1).astype(x.dtype)
    out = np.where(shift >= 0, np.left_shift(x, left), np.right_shift(x, right))
    out = np.where(shift >= bits, 0, out)
    fill = np.where(x < 0, -1, 0) if x.dtype.kind == "i" else 0
    out = np.where(-shift >= bits, fill, out).astype(x.dtype)
    return _bit_result(out, "double" if cls not in INT_LIMITS else cls)


@builtin()
def bitcmp(a: object, assumedtype: object = None) -> object:
    """C = bitcmp(A)  bit-wise complement of A
    C = bitcmp(A, ASSUMEDTYPE)  complement within that integer type (double input)"""
    cls = class_of(a)
    if cls not in ARITHMETIC:
        raise bad_type("bitcmp")
    kind = cls if cls in INT_LIMITS else _assumed_type(assumedtype)
    x = _bit_values(a, kind)
    return _bit_result(np.invert(x), "double" if cls not in INT_LIMITS else cls)


# ------------------------------------------------------------- number theory


def _integer_values(name: str, x: object, message: str, ident: str,
                    allow_negative: bool = False) -> tuple[np.ndarray, str]:
    a, cls = numeric(name, x)
    if a.dtype.kind == "c":
        raise error(ident, message)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.trunc(a))
        if not allow_negative:
            bad |= a < 0
        if bad.any():
            raise error(ident, message)
    elif not allow_negative and (a < 0).any():
        raise error(ident, message)
    return a, cls


def _from_ints(values: list | np.ndarray, shape: tuple[int, ...], cls: str) -> object:
    """Python integers (or floats) in column-major order, shaped and converted to ``cls``."""
    flat = np.asarray(values, dtype=object).reshape(-1)
    if cls in INT_LIMITS:
        return result(to_class(flat.reshape(shape, order="F"), cls))
    floats = np.array([_as_float(x) for x in flat], dtype=np.float64).reshape(shape, order="F")
    return result(floats.astype(np.dtype(cls)))


def _as_float(x: object) -> float:
    """A Python number as a float; integers too large for a double become Inf."""
    try:
        return float(x)  # type: ignore[arg-type]
    except OverflowError:
        return math.inf if x > 0 else -math.inf  # type: ignore[operator]


@builtin()
def factorial(n: object) -> object:
    """f = factorial(n)  product of 1..n for each non-negative integer element"""
    a, cls = _integer_values("factorial", n, "N must be a matrix of non-negative integers.",
                             "MATLAB:factorial:NNegativeInt")
    limit = 170 if cls != "single" else 34  # beyond these the value overflows to Inf

    def fact(k: object) -> object:
        k = int(k)
        if cls in INT_LIMITS:
            return math.factorial(min(k, 25))  # 25! already exceeds every integer type
        return float(math.factorial(k)) if k <= limit else math.inf

    return _from_ints([fact(k) for k in a.ravel(order="F")], a.shape, cls)


@builtin()
def nchoosek(v: object, k: object) -> object:
    """b = nchoosek(n,k)
    C = nchoosek(v,k)

    Binomial coefficient or all combinations: b is the number of combinations of n items
    taken k at a time (with a warning beyond flintmax); C has one row per combination of
    the elements of vector v (numeric, logical, char or a cell array) taken k at a time,
    in the order of v's positions."""
    kv, kcls = _integer_values("nchoosek", k, "K must be an integer between 0 and N.",
                            "MATLAB:nchoosek:InvalidArg2")
    if kv.size != 1:
        raise error("MATLAB:nchoosek:InvalidArg2", "K must be an integer between 0 and N.")
    kk = int(kv.reshape(-1)[0])
    if type(v) is Cell:
        return _cell_combinations(v, kk)
    arr = to_array(v) if class_of(v) in ARITHMETIC else None
    if arr is None:
        raise bad_type("nchoosek")
    if arr.size == 1:
        nv, cls = _integer_values("nchoosek", v, "N must be a non-negative integer.",
                                  "MATLAB:nchoosek:InvalidArg1")
        nn = int(nv.reshape(-1)[0])
        if cls != kcls and "double" not in (cls, kcls):
            raise error("MATLAB:mixedClasses",
                        "Integers can only be combined with integers of the same class, or "
                        "scalar doubles.")
        if kcls in INT_LIMITS and cls not in INT_LIMITS:
            cls = kcls  # an integer k gives its class to the coefficient
        if kk > nn:
            raise error("MATLAB:nchoosek:KOutOfRange", "K must be an integer between 0 and N.")
        if min(kk, nn - kk) > 1100:  # C(n,k) >= C(2200,1100) > realmax: skip the huge product
            return result(to_class(np.array([[math.inf]]), cls))
        value = math.comb(nn, kk)
        limit = 2.0 ** 24 if cls == "single" else FLINTMAX
        if cls not in INT_LIMITS and value > limit:
            warn("MATLAB:nchoosek:LargeCoefficient",
                 f"Result may not be exact. Coefficient is greater than {limit:e} and is "
                 f"only accurate to {math.floor(math.log10(limit))} digits")
        return _from_ints([value], (1, 1), cls)
    if arr.ndim != 2 or min(arr.shape) != 1:
        raise error("MATLAB:nchoosek:InvalidArg1", "The first input must be a vector.")
    items = arr.ravel(order="F")
    count = math.comb(items.size, kk) if kk <= items.size else 0
    if kk > 2**48 or count * kk > _MAX_SIEVE:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")
    rows = list(itertools.combinations(range(items.size), kk)) if count else []
    if kk == 0:
        return result(np.zeros((1, 0), dtype=arr.dtype))
    out = np.empty((len(rows), kk), dtype=arr.dtype)
    for r, picks in enumerate(rows):
        out[r] = items[list(picks)]
    return result(out)


def _cell_combinations(v: Cell, k: int) -> Cell:
    if len(v.shape) != 2 or min(v.shape) != 1 and v.data.size:
        raise error("MATLAB:nchoosek:InvalidArg1", "The first input must be a vector.")
    items = v.data.ravel(order="F")
    picks = list(itertools.combinations(range(items.size), k)) if k <= items.size else []
    out = np.empty((len(picks) if k else 1, k), dtype=object)
    for r, chosen in enumerate(picks):
        for c, i in enumerate(chosen):
            out[r, c] = items[i]
    return Cell(out)


# Largest prime sieve (one byte per number) or combination table built.
_MAX_SIEVE = 2**34


def _odd_sieve(n: int) -> np.ndarray:
    """Boolean table over the odd numbers: table[i] tells whether 2*i + 1 <= n is prime
    (half the memory of a table of every number)."""
    table = np.ones((n + 1) // 2, dtype=bool)
    if table.size:
        table[0] = False  # 1 is not prime
    for i in range(1, (math.isqrt(n) - 1) // 2 + 1):
        if table[i]:
            p = 2 * i + 1
            table[p * p // 2::p] = False
    return table


def _primes_upto(n: int) -> np.ndarray:
    """The primes <= n in ascending order."""
    if n < 2:
        return np.zeros(0, dtype=np.int64)
    odd = np.flatnonzero(_odd_sieve(n)) * 2 + 1
    return np.concatenate([[2], odd]).astype(np.int64)


@builtin()
def primes(n: object) -> object:
    """p = primes(n)  row vector of the prime numbers less than or equal to n"""
    a, cls = numeric("primes", n)
    if a.size != 1 or a.dtype.kind == "c":
        raise error("MATLAB:primes:InputNotScalar", "Input must be a real scalar.")
    limit = float(a.reshape(-1)[0])
    if not np.isfinite(limit):
        raise error("MATLAB:primes:InputNotFinite", "Input must be finite.")
    top = int(math.floor(limit))
    if top > _MAX_SIEVE:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")
    if top >= 2:
        # the sieve (a byte per number) and the result (about n/log(n) primes) must fit
        check_array_size(((top + 1) // 2,), np.bool_)
        check_array_size((1, int(1.26 * top / math.log(top)) + 1))
    found = _primes_upto(top)
    return _from_ints(found.tolist(), (1, found.size), cls)


# Deterministic Miller-Rabin witnesses for every n < 3.3e24 (beyond uint64).
_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _is_prime(k: int) -> bool:
    if k < 2:
        return False
    for p in _WITNESSES:
        if k % p == 0:
            return k == p
    d, r = k - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in _WITNESSES:
        x = pow(a, d, k)
        if x in (1, k - 1):
            continue
        for _ in range(r - 1):
            x = x * x % k
            if x == k - 1:
                break
        else:
            return False
    return True


def _split(k: int) -> int:
    """A nontrivial factor of an odd composite k (Pollard's rho, Brent's variant)."""
    for c in itertools.count(1):
        y, m, g, r, q = 2, 128, 1, 1, 1
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % k
            j = 0
            while j < r and g == 1:
                ys = y
                for _ in range(min(m, r - j)):
                    y = (y * y + c) % k
                    q = q * abs(x - y) % k
                g = math.gcd(q, k)
                j += m
            r *= 2
        if g == k:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % k
                g = math.gcd(abs(x - ys), k)
        if g != k:
            return g
    raise AssertionError("unreachable")


def _prime_factors(k: int) -> list[int]:
    """The prime factors of k >= 2 in ascending order, with multiplicity."""
    factors: list[int] = []
    for p in (2, 3, 5):
        while k % p == 0:
            factors.append(p)
            k //= p
    f = 7
    while k > 1 and f * f <= k and f < 10_000:
        while k % f == 0:
            factors.append(f)
            k //= f
        f += 2
    pending = [k] if k > 1 else []
    while pending:
        m = pending.pop()
        if _is_prime(m):
            factors.append(m)
        else:
            d = _split(m)
            pending += [d, m // d]
    return sorted(factors)


@builtin()
def isprime(x: object) -> object:
    """TF = isprime(X)  true where the elements of X are prime numbers"""
    a, _ = _integer_values("isprime", x, "All entries must be non-negative integers.",
                           "MATLAB:isprime:InputNotPosInt")
    if a.size == 0:
        return result(np.zeros(a.shape, dtype=bool))
    top = int(np.max(a.astype(np.float64))) if a.dtype.kind != "u" else int(np.max(a))
    if top <= 10_000_000:
        table = _odd_sieve(top)
        k = a.astype(np.int64)
        flags = (k == 2) | ((k % 2 == 1) & table[np.minimum(k // 2, max(table.size - 1, 0))]) \
            if table.size else k == 2
        return result(np.asarray(flags, dtype=bool))
    flags = [_is_prime(int(k)) for k in a.ravel(order="F")]
    return result(np.array(flags, dtype=bool).reshape(a.shape, order="F"))


@builtin()
def factor(n: object) -> object:
    """f = factor(n)  row vector of the prime factors of n (in ascending order)"""
    a, cls = _integer_values("factor", n, "N must be a real non-negative integer scalar.",
                             "MATLAB:factor:InputNotPosInt")
    if a.size != 1:
        raise error("MATLAB:factor:NonScalarInput", "N must be a scalar.")
    k = int(a.reshape(-1)[0])
    if cls not in INT_LIMITS and k > (FLINTMAX if cls == "double" else 2 ** 24):
        raise error("MATLAB:factor:InputOutOfRange",
                    "The maximum value of N allowed is flintmax.")
    factors = [k] if k < 4 else _prime_factors(k)
    return _from_ints(factors, (1, len(factors)), cls)


def _gcd_operands(name: str, a: object, b: object) -> tuple[np.ndarray, np.ndarray, str]:
    x, y, cls = binary_operands(name, a, b)
    for arr in (x, y):
        if arr.dtype.kind == "c" or (arr.dtype.kind == "f" and (
                ~np.isfinite(arr) | (arr != np.trunc(arr))).any()):
            raise error(f"MATLAB:{name}:NonIntInputs", "Input arguments must contain only integers.")
    x, y = np.broadcast_arrays(x, y)
    return x, y, cls


def _extended_gcd(p: int, q: int) -> tuple[int, int, int]:
    """g, u, v with g = p*u + q*v and g >= 0."""
    old_r, r, old_s, s, old_t, t = p, q, 1, 0, 0, 1
    while r:
        quotient = old_r // r
        old_r, r = r, old_r - quotient * r
        old_s, s = s, old_s - quotient * s
        old_t, t = t, old_t - quotient * t
    if old_r < 0:
        old_r, old_s, old_t = -old_r, -old_s, -old_t
    return old_r, old_s, old_t


@builtin(max_out=3, nargout=True)
def gcd(a: object, b: object, *, nargout: int = 1) -> object:
    """G = gcd(A, B)  greatest common divisor of corresponding elements (non-negative)
    [G, U, V] = gcd(A, B)  also Bezout coefficients: G = A.*U + B.*V"""
    if nargout <= 1 and type(a) is float and type(b) is float and a.is_integer() and b.is_integer():
        return float(math.gcd(int(a), int(b)))  # two whole double scalars
    x, y, cls = _gcd_operands("gcd", a, b)
    pairs = [(int(p), int(q)) for p, q in zip(x.ravel(order="F"), y.ravel(order="F"), strict=True)]
    triples = [_extended_gcd(p, q) for p, q in pairs]
    outs = [_from_ints([t[i] for t in triples], x.shape, cls) for i in range(min(nargout, 3) or 1)]
    return tuple(outs) if len(outs) > 1 else outs[0]


@builtin()
def lcm(a: object, b: object) -> object:
    """L = lcm(A, B)  least common multiple of corresponding positive integers"""
    if type(a) is float and type(b) is float and a >= 1.0 and b >= 1.0 and a.is_integer() \
            and b.is_integer():  # two positive whole double scalars
        return _as_float(math.lcm(int(a), int(b)))
    x, y, cls = _gcd_operands("lcm", a, b)
    if (x < 1).any() or (y < 1).any():
        raise error("MATLAB:lcm:InputNotPosInt", "Input arguments must contain positive integers.")
    values = [math.lcm(int(p), int(q)) for p, q in zip(x.ravel(order="F"), y.ravel(order="F"),
                                                         strict=True)]
    return _from_ints(values, x.shape, cls)
