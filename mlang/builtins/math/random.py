"""Random numbers: rand, randn, randi, randperm and rng.

The generator is MATLAB's default, the Mersenne Twister, with 53-bit
doubles; NumPy's ``RandomState`` implements the same algorithm, so ``rand``
and ``randi`` give MATLAB's numbers for the same seed (MATLAB's seed 0 is the
twister's classic seed 5489), and ``s = rng`` holds MATLAB's 625-word state.

``randn`` transforms one uniform of that stream per value by the inverse
normal CDF (MATLAB's ``'Inversion'`` normal transform), not by MATLAB's
default ziggurat: its values are standard normal but not MATLAB's
``randn`` numbers; they equal MATLAB's ``norminv(rand(...))``.  The
transform keeps no state of its own, so ``rng(s)`` restores every stream
exactly.

The generator belongs to the interpreter (``interp.random``): sessions never
share random state.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import (
    NUMERIC_OR_LOGICAL,
    checked_shape,
    size_arguments,
    sizes_and_class,
    text_option,
    text_or_none,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import (
    DTYPE_OF_CLASS,
    char_row,
    class_of,
    is_text,
    result,
    scalar_value,
    to_array,
    to_str,
)
from mlang.values.struct import Struct

DEFAULT_SEED = 0
# MATLAB's generator names (rng's second input); only the twister is implemented.
GENERATORS = ("twister", "simdTwister", "combRecursive", "multFibonacci", "philox",
              "threefry", "v4", "v5uniform", "v5normal")
FLOAT_TYPES = ("double", "single")
RANDI_TYPES = ("double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32",
               "logical")
STATE_WORDS = 624  # the twister's key; MATLAB's State adds the position as word 625


def _twister_seed(seed: int) -> int:
    return 5489 if seed == 0 else seed


def generator(interp: Any) -> np.random.RandomState:
    if interp.random is None:
        interp.random = np.random.RandomState(_twister_seed(DEFAULT_SEED))
        interp.random_seed = DEFAULT_SEED
    return interp.random


def _like_complex(args: tuple) -> bool:
    """Whether the prototype of a trailing ``'like', p`` is complex."""
    if len(args) >= 2 and text_option(args[-2]) == "like" and not is_text(args[-1]):
        return class_of(args[-1]) in NUMERIC_OR_LOGICAL and np.iscomplexobj(to_array(args[-1]))
    return False


def _size_and_class(args: tuple, allowed: tuple[str, ...] = FLOAT_TYPES
                    ) -> tuple[tuple[int, ...], str, bool]:
    """rand(n), rand(m,n,...), rand([m n]), with an optional class name or 'like', p:
    the size, the class and whether the result is complex (a complex prototype)."""
    complex_ = _like_complex(args)
    sizes, cls = sizes_and_class(args, allowed)
    if cls == "logical" and complex_:
        complex_ = False
    return size_arguments(sizes, cls), cls, complex_


def _whole_scalar(v: Any) -> int | None:
    """The value of a real numeric scalar holding a whole number, else None."""
    if is_text(v) or class_of(v) not in NUMERIC_OR_LOGICAL or to_array(v).size != 1:
        return None
    x = scalar_value(v)
    if isinstance(x, complex) or np.iscomplexobj(x):
        return None
    x = float(x)
    if not math.isfinite(x) or x != math.floor(x):
        return None
    return int(x)


def _draw(interp: Any, n: int) -> np.ndarray:
    """The next n uniform (0,1) doubles of the stream."""
    try:
        return generator(interp).random_sample(n)
    except MemoryError:
        raise _out_of_memory() from None


def _uniform(interp: Any, shape: tuple[int, ...], complex_: bool = False) -> np.ndarray:
    """Uniform (0,1) values filling ``shape`` in MATLAB's column-major order (complex:
    real and imaginary part of each element in turn)."""
    n = math.prod(shape)
    if complex_:
        pairs = _draw(interp, 2 * n)
        return (pairs[0::2] + 1j * pairs[1::2]).reshape(shape, order="F")
    return _draw(interp, n).reshape(shape, order="F")


def _ndtri() -> Callable:
    """SciPy's inverse normal CDF.  SciPy is imported on first use (it is slow to load and
    start-up stays fast); once loaded, the module table gives it without the import
    machinery, which costs more than drawing a few numbers."""
    special = sys.modules.get("scipy.special")
    if special is None:
        from scipy.special import ndtri  # first use: see above

        return ndtri
    return special.ndtri


def _normal(interp: Any, n: int) -> np.ndarray:
    """n standard normal values, one uniform each, by the inverse normal CDF."""
    u = _draw(interp, n)
    # the twister's doubles are multiples of 2^-53 in [0, 1): 0 alone has no finite quantile
    if np.count_nonzero(u) != n:
        u[u == 0.0] = 2.0 ** -54
    return _ndtri()(u)


def _normal_scalar(interp: Any) -> float:
    """One standard normal value, as _normal makes it (ndtri of a scalar is its value
    in an array)."""
    u = generator(interp).random_sample()
    return float(_ndtri()(u if u != 0.0 else 2.0 ** -54))


_PLAIN_MAX = 2 ** 20  # (elements: requests this small are never refused by the array size limit)


def _plain_shape(args: tuple) -> tuple[int, int] | None:
    """The shape of rand(), rand(n) or rand(m, n) with whole double sizes, as _size_and_class
    makes it, when it has at most _PLAIN_MAX elements; None for any other arguments."""
    if not args:
        return (1, 1)
    if len(args) > 2:
        return None
    m, n = args[0], args[-1]
    if type(m) is not float or type(n) is not float or m != m // 1 or n != n // 1:
        return None  # (a fraction, NaN or Inf too: the general path's error)
    rows, cols = max(int(m), 0), max(int(n), 0)  # (negative sizes are 0)
    if rows > _PLAIN_MAX or cols > _PLAIN_MAX or rows * cols > _PLAIN_MAX:
        return None
    return rows, cols


def _out_of_memory() -> Exception:
    return error("MATLAB:nomem", "Out of memory.")


def _as(values: np.ndarray, cls: str) -> Any:
    if cls == "double":
        return result(values)
    if cls == "single":
        return result(values.astype(np.complex64 if values.dtype.kind == "c" else np.float32))
    return result(values.astype(DTYPE_OF_CLASS[cls]))


LEGACY_OPTIONS = ("twister", "state", "seed")


def _legacy_seeding(interp: Any, args: tuple) -> tuple[bool, Any]:
    """rand('twister', s), rand('state', s), rand('seed', s) (and randn's): the discouraged
    seeding forms, s a seed or a saved 625-word twister state; rand('twister') returns
    that state.  (handled, value)."""
    if not args or text_option(args[0]) not in LEGACY_OPTIONS:
        return False, None
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if len(args) == 1:
        return True, _settings(interp).element(0)["State"]
    given = args[1]
    if class_of(given) in NUMERIC_OR_LOGICAL and to_array(given).size == STATE_WORDS + 1:
        generator(interp)
        _restore_words(interp, to_array(given).ravel(order="F"), interp.random_seed)
        return True, None
    seed = _whole_scalar(given)
    if seed is None or not 0 <= seed < 2 ** 32:
        raise error("MATLAB:rng:badSeed",
                    "The seed must be a nonnegative integer less than 2^32.")
    interp.random = np.random.RandomState(_twister_seed(seed))
    interp.random_seed = seed
    return True, None


@builtin(interp=True)
def rand(interp: Any, *args: Any) -> Any:
    """X = rand returns a random number uniformly distributed in (0,1).
    X = rand(n), rand(sz1,...,szN), rand(sz) return arrays of them;
    rand(___, 'single') or 'double' sets the class; rand(___, 'like', p) takes
    p's class and complexity (complex: real and imaginary parts uniform).

    rand gives MATLAB's numbers for the same rng seed (the twister's 53-bit
    doubles, column-major). The discouraged rand('twister', s) seeds as
    rng(s, 'twister') does and rand('twister') returns the state;
    rand('state', s) and rand('seed', s) seed the same twister (MATLAB's old
    v4/v5 generators are not reproduced)."""
    plain = _plain_shape(args)
    if plain is not None:  # rand, rand(n), rand(m, n): the values _uniform gives, as doubles
        if plain == (1, 1):
            return generator(interp).random_sample()  # (the next double, as a Python float)
        return _draw(interp, plain[0] * plain[1]).reshape(plain, order="F")
    handled, state = _legacy_seeding(interp, args)
    if handled:
        return state
    shape, cls, complex_ = _size_and_class(args)
    return _as(_uniform(interp, shape, complex_), cls)


@builtin(interp=True)
def randn(interp: Any, *args: Any) -> Any:
    """X = randn returns a random number from the standard normal distribution.
    X = randn(n), randn(sz1,...,szN), randn(sz); randn(___, 'single') or
    'double'; randn(___, 'like', p) takes p's class and complexity (complex:
    real and imaginary parts each of variance 1/2).

    Each value is the inverse normal CDF of one uniform of rand's stream
    (MATLAB's 'Inversion' transform), so after the same rng seed randn equals
    MATLAB's norminv(rand(...)), not MATLAB's randn (whose default ziggurat
    transform is not reproduced). randn('state', s) and the other
    discouraged seeding forms act as for rand."""
    plain = _plain_shape(args)
    if plain is not None:  # randn, randn(n), randn(m, n): doubles, as below
        if plain == (1, 1):
            return _normal_scalar(interp)
        return _normal(interp, plain[0] * plain[1]).reshape(plain, order="F")
    handled, state = _legacy_seeding(interp, args)
    if handled:
        return state
    shape, cls, complex_ = _size_and_class(args)
    n = math.prod(shape)
    if complex_:
        pairs = _normal(interp, 2 * n) * math.sqrt(0.5)
        values = (pairs[0::2] + 1j * pairs[1::2]).reshape(shape, order="F")
    else:
        values = _normal(interp, n).reshape(shape, order="F")
    return _as(values, cls)


@builtin(interp=True)
def randi(interp: Any, limits: Any, *args: Any) -> Any:
    """X = randi(imax) returns a random integer from 1 to imax.
    X = randi(imax, n), randi(imax, sz1,...,szN), randi(imax, sz),
    randi([imin imax], ___); randi(___, typename) with typename 'double',
    'single', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32' or
    'logical'; randi(___, 'like', p).

    randi uses one uniform of rand's stream per integer, as MATLAB does, and
    gives MATLAB's numbers for the same rng seed."""
    bounds = _limits(limits)
    low, high = (1, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1]) if bounds else (1, 0)
    if high < low:
        raise error("MATLAB:randi:invalidLimits",
                    "The first input must be a positive scalar integer value IMAX, or two "
                    "integer values [IMIN IMAX] with IMIN less than or equal to IMAX.")
    shape, cls, complex_ = _size_and_class(args, RANDI_TYPES)
    _check_class_range(low, high, cls)
    if complex_:
        values = _complex_integers(interp, shape, low, high)
    else:
        values = low - 1 + np.ceil(_uniform(interp, shape) * (high - low + 1))
    return _as(values, cls)


def _complex_integers(interp: Any, shape: tuple[int, ...], low: int, high: int) -> np.ndarray:
    u = _uniform(interp, shape, True)
    span = high - low + 1
    return (low - 1 + np.ceil(u.real * span)) + 1j * (low - 1 + np.ceil(u.imag * span))


def _check_class_range(low: int, high: int, cls: str) -> None:
    """randi's limits must be values of the output class (whole numbers of it)."""
    if cls == "logical":
        lo, hi = 0, 1
    elif cls in FLOAT_TYPES:
        hi = 2 ** 24 if cls == "single" else 2 ** 53
        lo = -hi
    else:
        info = np.iinfo(DTYPE_OF_CLASS[cls])
        lo, hi = int(info.min), int(info.max)
    if low < lo or high > hi:
        raise error("MATLAB:randi:invalidLimits",
                    f"IMIN and IMAX must be integers representable in class {cls}.")


def _limits(limits: Any) -> list[int]:
    """The integers of randi's IMAX or [IMIN IMAX] (an empty list when they are not whole)."""
    if is_text(limits) or class_of(limits) not in NUMERIC_OR_LOGICAL:
        return []
    a = to_array(limits)
    if a.size not in (1, 2) or np.iscomplexobj(a):
        return []
    values = a.astype(np.float64).ravel(order="F")
    if not np.isfinite(values).all() or (values != np.floor(values)).any():
        return []
    return [int(x) for x in values]


@builtin(interp=True)
def randperm(interp: Any, n: Any, k: Any = None) -> Any:
    """p = randperm(n) is a random permutation of the integers 1 to n.
    p = randperm(n, k) returns k unique integers from 1 to n.

    The permutation is the order that sorts n uniforms of rand's stream: after
    rng('default'), randperm(8) is MATLAB's 6 3 7 8 5 1 2 4; randperm(n, k) is
    the first k of that order (MATLAB draws k < n differently)."""
    if k is None and type(n) is float and 0.0 <= n <= _PLAIN_MAX and n.is_integer():
        order = np.argsort(_draw(interp, int(n)), kind="stable") + 1.0  # randperm(n): as below
        return result(order.reshape(1, order.size))
    count = _whole_scalar(n)
    if count is None or count < 0:
        raise error("MATLAB:randperm:inputType", "N must be a nonnegative integer.")
    take = count if k is None else _whole_scalar(k)
    if take is None or take < 0:
        raise error("MATLAB:randperm:inputType", "K must be a nonnegative integer.")
    if take > count:
        raise error("MATLAB:randperm:inputKTooLarge",
                    "K must be less than or equal to N.")
    checked_shape((1, count))
    order = np.argsort(_uniform(interp, (1, count)).ravel(), kind="stable") + 1.0
    return result(order[:take].reshape(1, take))


@builtin(interp=True, max_out=1, nargout=True)
def rng(interp: Any, arg: Any = None, kind: Any = None, *, nargout: int = 0) -> Any:
    """rng(seed) seeds the random number generator with a nonnegative integer seed.
    rng(seed, generator) also names the generator ('twister');
    rng(generator) is rng(0, generator); rng('default') restores the startup
    settings (twister, seed 0); rng('shuffle') and rng('shuffle', generator)
    seed from the clock; rng(s) restores the settings s = rng returned (the
    exact stream position). t = rng(___) returns the settings before the change
    as a struct with fields Type, Seed and State (625-by-1 uint32).

    Only the Mersenne Twister is implemented: MATLAB's other generators
    ('simdTwister', 'combRecursive', 'philox', ...) are errors."""
    previous = _settings(interp) if (nargout or arg is None) else None
    if arg is None:
        return previous
    if type(arg) is Struct:
        if kind is not None:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        _restore(interp, arg)
        return previous
    if kind is not None:
        _check_generator(kind)
    option = text_option(arg) if is_text(arg) else None
    if option == "default":
        if kind is not None:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        seed = DEFAULT_SEED
    elif option == "shuffle":
        seed = int(time.time() * 1000) % (2 ** 32)
    elif option is not None:
        if kind is not None or _generator_name(arg) is None:
            raise error("MATLAB:rng:badFirstOpt", f"Unrecognized option '{to_str(arg)}'.")
        _check_generator(arg)
        seed = DEFAULT_SEED
    else:
        seed = _whole_scalar(arg)
        if seed is None or seed < 0 or seed >= 2 ** 32:
            raise error("MATLAB:rng:badSeed",
                        "The seed must be a nonnegative integer less than 2^32.")
    interp.random = np.random.RandomState(_twister_seed(seed))
    interp.random_seed = seed
    return previous


def _generator_name(v: Any) -> str | None:
    """MATLAB's spelling of a generator name (any letter case), None for other text."""
    text = text_or_none(v)
    if text is None:
        return None
    return next((g for g in GENERATORS if g.lower() == text.lower()), None)


def _check_generator(v: Any) -> None:
    """Only the twister is implemented; a name MATLAB knows is still an error here."""
    name = _generator_name(v)
    if name is None:
        shown = text_or_none(v)
        raise error("MATLAB:rng:badSecondOpt",
                    "The generator must be 'twister', 'simdTwister', 'combRecursive', "
                    "'multFibonacci', 'philox', 'threefry', 'v4', 'v5uniform' or 'v5normal'"
                    + (f" (not '{shown}')." if shown is not None else "."))
    if name != "twister":
        raise error("MATLAB:rng:unsupportedGenerator",
                    f"The '{name}' generator is not supported: use 'twister'.")


def _restore(interp: Any, s: Struct) -> None:
    """rng(s): the generator, seed and exact state saved by s = rng."""
    bad = error("MATLAB:rng:badSettings", "Invalid random number generator settings.")
    if s.elems.size != 1 or not {"Type", "Seed", "State"} <= set(s.fields):
        raise bad
    fields = s.element(0)
    if _generator_name(fields["Type"]) is None:
        raise bad
    _check_generator(fields["Type"])
    seed = _whole_scalar(fields["Seed"])
    state = fields["State"]
    if seed is None or not 0 <= seed < 2 ** 32 or class_of(state) not in NUMERIC_OR_LOGICAL:
        raise bad
    _restore_words(interp, to_array(state).ravel(order="F"), seed)


def _restore_words(interp: Any, words: np.ndarray, seed: int) -> None:
    """The twister at a saved state: 624 key words and the position (625 words in all)."""
    bad = error("MATLAB:rng:badSettings", "Invalid random number generator settings.")
    if words.size != STATE_WORDS + 1 or np.iscomplexobj(words):
        raise bad
    words = words.astype(np.float64)
    if not (np.isfinite(words).all() and (words == np.floor(words)).all()
            and (words >= 0).all() and (words < 2 ** 32).all()
            and words[-1] <= STATE_WORDS):
        raise bad
    restored = np.random.RandomState()
    restored.set_state(("MT19937", words[:STATE_WORDS].astype(np.uint32), int(words[-1]), 0, 0.0))
    interp.random = restored
    interp.random_seed = seed


def _settings(interp: Any) -> Struct:
    """s = rng: Type, Seed and State (the twister's key and position, 625-by-1 uint32)."""
    _, key, position, *_ = generator(interp).get_state()
    state = np.append(key.astype(np.uint32), np.uint32(position)).reshape(-1, 1)
    return Struct.scalar({"Type": char_row("twister"),
                          "Seed": float(interp.random_seed), "State": state})
