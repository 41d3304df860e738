"""Random numbers: rand, randn, randi, randperm and rng.

The generator is MATLAB's default, the Mersenne Twister, with 53-bit
doubles; NumPy's ``RandomState`` implements the same algorithm, so ``rand``
and ``randi`` give MATLAB's numbers for the same seed (MATLAB's seed 0 is the
twister's classic seed 5489).  ``randn`` uses NumPy's normal transform, which
is not MATLAB's ziggurat: its values are normal but not MATLAB's.

The generator belongs to the interpreter (``interp.random``): sessions never
share random state.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from mlang.builtins.coerce import (
    NUMERIC_OR_LOGICAL,
    checked_shape,
    size_arguments,
    sizes_and_class,
    text_option,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, is_text, result, scalar_value, to_array, to_str
from mlang.values.struct import Struct

DEFAULT_SEED = 0


def _twister_seed(seed: int) -> int:
    return 5489 if seed == 0 else seed


def generator(interp: Any) -> np.random.RandomState:
    if interp.random is None:
        interp.random = np.random.RandomState(_twister_seed(DEFAULT_SEED))
        interp.random_seed = DEFAULT_SEED
    return interp.random


def _size_and_class(args: tuple) -> tuple[tuple[int, ...], str]:
    """rand(n), rand(m,n,...), rand([m n]), with an optional 'double'/'single' or 'like', p."""
    sizes, cls = sizes_and_class(args, ("double", "single"))
    return size_arguments(sizes, cls), cls


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


def _uniform(interp: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Uniform (0,1) doubles filling ``shape`` in MATLAB's column-major order."""
    n = math.prod(shape)
    try:
        return generator(interp).random_sample(n).reshape(shape, order="F")
    except MemoryError:
        raise _out_of_memory() from None


def _out_of_memory() -> Exception:
    return error("MATLAB:nomem", "Out of memory.")


def _as(values: np.ndarray, cls: str) -> Any:
    return result(values.astype(np.float32) if cls == "single" else values)


@builtin(interp=True)
def rand(interp: Any, *args: Any) -> Any:
    """X = rand returns a random number uniformly distributed in (0,1).
    X = rand(n), rand(sz1,...,szN), rand(sz) return arrays of them;
    rand(___, 'single') returns single precision."""
    shape, cls = _size_and_class(args)
    return _as(_uniform(interp, shape), cls)


@builtin(interp=True)
def randn(interp: Any, *args: Any) -> Any:
    """X = randn returns a random number from the standard normal distribution.
    X = randn(n), randn(sz1,...,szN), randn(sz); randn(___, 'single')."""
    shape, cls = _size_and_class(args)
    try:
        values = generator(interp).standard_normal(math.prod(shape)).reshape(shape, order="F")
    except MemoryError:
        raise _out_of_memory() from None
    return _as(values, cls)


@builtin(interp=True)
def randi(interp: Any, limits: Any, *args: Any) -> Any:
    """X = randi(imax) returns a random integer from 1 to imax.
    X = randi(imax, n), randi(imax, sz1,...,szN), randi([imin imax], ___)."""
    bounds = _limits(limits)
    low, high = (1, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1]) if bounds else (1, 0)
    if high < low:
        raise error("MATLAB:randi:invalidLimits",
                    "The first input must be a positive scalar integer value IMAX, or two "
                    "integer values [IMIN IMAX] with IMIN less than or equal to IMAX.")
    shape, cls = _size_and_class(args)
    values = low - 1 + np.ceil(_uniform(interp, shape) * (high - low + 1))
    return _as(values, cls)


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
    p = randperm(n, k) returns k unique integers from 1 to n."""
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
def rng(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """rng(seed) seeds the random number generator; rng('default') restores the
    startup seed 0; rng('shuffle') seeds from the clock. s = rng returns the
    generator settings (Type, Seed, State)."""
    previous = _settings(interp) if (nargout or not args) else None
    if args:
        first = args[0]
        if type(first) is Struct:
            seed = _whole_scalar(first.element(0).get("Seed", 0.0)) if first.elems.size else None
            if seed is None or not 0 <= seed < 2 ** 32:
                raise error("MATLAB:rng:badSettings", "Invalid random number generator settings.")
        elif is_text(first):
            option = text_option(first)
            if option == "default":
                seed = DEFAULT_SEED
            elif option == "shuffle":
                seed = int(time.time() * 1000) % (2 ** 32)
            else:
                raise error("MATLAB:rng:badFirstOpt", f"Unrecognized option '{to_str(first)}'.")
        else:
            seed = _whole_scalar(first)
            if seed is None or seed < 0 or seed >= 2 ** 32:
                raise error("MATLAB:rng:badSeed",
                            "The seed must be a nonnegative integer less than 2^32.")
        interp.random = np.random.RandomState(_twister_seed(seed))
        interp.random_seed = seed
    return previous


def _settings(interp: Any) -> Struct:
    generator(interp)
    state = interp.random.get_state()[1].astype(np.float64).reshape(-1, 1)
    return Struct.scalar({"Type": char_row("twister"),
                          "Seed": float(interp.random_seed), "State": state})
