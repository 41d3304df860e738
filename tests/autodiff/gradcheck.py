"""Gradient checking for mlang's reverse mode: reverse-mode gradients computed by
MATLAB code (dlfeval/dlgradient) against central finite differences of the same
MATLAB code evaluated on plain arrays.

A ``Case`` describes one way of calling a differentiable builtin: a MATLAB
expression in the differentiable arguments ``x1, x2, ...`` (everything else,
dimensions and options, is written into the expression), a strategy for their
shapes, and a strategy for their values away from kinks and poles.  A
``Checker`` owns one interpreter and the small MATLAB helper functions that
return a value together with its gradients.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlang.autodiff.dlarray import DlArray
from mlang.errors import RUNNING
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import result

Shape = tuple[int, ...]

# ------------------------------------------------------------------ shapes


def matlab_shape(shape: Sequence[int]) -> Shape:
    """A shape as MATLAB stores it: at least two dimensions, no trailing singletons."""
    s = list(shape)
    while len(s) > 2 and s[-1] == 1:
        s.pop()
    while len(s) < 2:
        s.append(1)
    return tuple(s)


@st.composite
def matrix_shape(draw: Any, max_rows: int = 4, max_cols: int = 4, min_size: int = 1) -> Shape:
    return (draw(st.integers(min_size, max_rows)), draw(st.integers(min_size, max_cols)))


@st.composite
def array_shape(draw: Any, min_size: int = 1, three_d: bool = True) -> Shape:
    """A small 2-D shape (up to 4x4), or sometimes a 3-D one (up to 3x3x3)."""
    if three_d and draw(st.integers(0, 3)) == 0:
        return (draw(st.integers(min_size, 3)), draw(st.integers(min_size, 3)), draw(st.integers(2, 3)))
    return draw(matrix_shape(min_size=min_size))


def unary(shape: st.SearchStrategy = None) -> st.SearchStrategy:  # type: ignore[assignment]
    return (array_shape() if shape is None else shape).map(lambda s: (s,))


@st.composite
def broadcast_pair(draw: Any, three_d: bool = True) -> tuple[Shape, Shape]:
    """Two shapes compatible under implicit expansion: each dimension either the full
    size or 1 (scalars, rows against columns, 3x1 with 1x4 ...)."""
    full = draw(array_shape(three_d=three_d))
    out = []
    for _ in range(2):
        mode = draw(st.integers(0, 3))
        if mode == 0:
            out.append(full)
        elif mode == 1:
            out.append((1, 1))
        else:
            out.append(matlab_shape(tuple(d if draw(st.booleans()) else 1 for d in full)))
    return out[0], out[1]


def same_pair(shape: st.SearchStrategy = None) -> st.SearchStrategy:  # type: ignore[assignment]
    return (array_shape() if shape is None else shape).map(lambda s: (s, s))


@st.composite
def matmul_pair(draw: Any) -> tuple[Shape, Shape]:
    m, k, n = (draw(st.integers(1, 4)) for _ in range(3))
    return (m, k), (k, n)


def fixed(*shapes: Shape) -> st.SearchStrategy:
    return st.just(tuple(shapes))


# ------------------------------------------------------------------ values
#
# A domain maps a shape to a strategy for an ndarray of that shape.

Domain = Callable[[Shape], st.SearchStrategy]


def uniform(lo: float, hi: float) -> Domain:
    elements = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    return lambda shape: hnp.arrays(np.float64, shape, elements=elements)


def away_from_zero(lo: float, hi: float) -> Domain:
    """Values with lo <= |x| <= hi, either sign."""
    magnitude = uniform(lo, hi)

    @st.composite
    def draw_array(draw: Any, shape: Shape) -> np.ndarray:
        signs = draw(hnp.arrays(np.bool_, shape))
        return np.where(signs, -1.0, 1.0) * draw(magnitude(shape))

    return draw_array


def positive(lo: float = 0.3, hi: float = 2.0) -> Domain:
    return uniform(lo, hi)


# Complex points are drawn from a seed (hypothesis draws the seed) rather than
# built from hypothesis floats: simple floats make intermediates that are exactly
# real (0.05i .* 0.05i, cos(0.05i), z - z), and a complex value whose imaginary
# parts are all 0 is stored as real, so only the real part of its gradient flows
# back.  Generic points keep these coincidences away (see test_engine for them).


def _seeded(make: Callable[[np.random.Generator, Shape], np.ndarray]) -> Domain:
    """A domain drawing a seed; ``salt`` (the argument's position) keeps two arguments
    drawn with the same seed apart."""

    @st.composite
    def draw_array(draw: Any, shape: Shape, salt: int = 0) -> np.ndarray:
        seed = draw(st.integers(0, 2**32 - 1))
        return make(np.random.default_rng([seed, salt]), shape)

    return draw_array


def complex_box(re: tuple[float, float], im: tuple[float, float]) -> Domain:
    """Complex values with real part in ``re`` and imaginary part in ``im``."""
    return _seeded(lambda rng, shape: rng.uniform(*re, shape) + 1j * rng.uniform(*im, shape))


def complex_away_from_zero(lo: float = 0.3, hi: float = 2.0) -> Domain:
    """Complex values with lo <= |z| <= hi at any angle."""
    return _seeded(lambda rng, shape: rng.uniform(lo, hi, shape)
                   * np.exp(1j * rng.uniform(-np.pi, np.pi, shape)))


def generic(complex_: bool = False) -> Domain:
    """Normal entries: no ties and no structure (spectral norms need distinct singular
    values)."""
    if complex_:
        return _seeded(lambda rng, shape: rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
    return _seeded(lambda rng, shape: rng.standard_normal(shape))


def fractional(lo: float = 0.1, hi: float = 0.4, span: int = 3) -> Domain:
    """Values k + f, with integer k in [-span, span) and f in [lo, hi] or [1-hi, 1-lo]:
    away from the integers and from the halves (floor, ceil, fix, round)."""
    ints = st.integers(-span, span - 1)
    frac = uniform(lo, hi)

    @st.composite
    def draw_array(draw: Any, shape: Shape) -> np.ndarray:
        k = draw(hnp.arrays(np.int64, shape, elements=ints)).astype(np.float64)
        f = draw(frac(shape))
        flip = draw(hnp.arrays(np.bool_, shape))
        return k + np.where(flip, 1.0 - f, f)

    return draw_array


def distinct(spacing: float = 0.3, positive_only: bool = False) -> Domain:
    """Values pairwise at least ``spacing``/2 apart (and away from 0 when
    ``positive_only``): no ties for max, min, sort-like functions."""

    @st.composite
    def draw_array(draw: Any, shape: Shape) -> np.ndarray:
        n = int(np.prod(shape))
        order = np.array(draw(st.permutations(range(n))), dtype=np.float64)
        jitter = draw(uniform(0.0, spacing / 2)((n,)))
        values = order * spacing + jitter
        values = values + 0.3 if positive_only else values - spacing * n / 2
        return values.reshape(shape, order="F")

    return draw_array


def well_conditioned(scale: float = 1.0, complex_: bool = False) -> Domain:
    """A square matrix n*I + R with small R (for solves)."""
    entries = complex_box((-0.5, 0.5), (-0.5, 0.5)) if complex_ else uniform(-0.5, 0.5)

    @st.composite
    def draw_array(draw: Any, shape: Shape, salt: int = 0) -> np.ndarray:
        r = draw(entries(shape, salt) if complex_ else entries(shape))
        n = shape[0]
        return r + (n + 1.0) * scale * np.eye(n)

    return draw_array


STANDARD = uniform(-2.0, 2.0)


# ------------------------------------------------------------------ cases


@dataclass(frozen=True)
class Case:
    """One call form of a differentiable builtin.

    ``expr`` is a MATLAB expression in ``x1 .. xn`` (the differentiable arguments).
    ``shapes`` draws a tuple of n shapes; ``domains`` gives each argument's real
    values (one domain for all, or one per argument), ``complex_domains`` its
    complex values (None: complex inputs are not checked).  ``joint`` (optional)
    draws all arguments at once from their shapes, for domains that couple them.
    ``second``: checked to second order.  ``xfail``: expected failures by kind
    ('first', 'second', 'complex', 'complex2', 'single'), each with its reason."""

    name: str
    expr: str
    shapes: st.SearchStrategy
    domains: Domain | tuple[Domain, ...] = STANDARD
    complex_domains: Domain | tuple[Domain, ...] | None = None
    joint: Callable[[tuple[Shape, ...]], st.SearchStrategy] | None = None
    second: bool = True
    step: float = 1e-6
    rtol: float = 1e-5
    atol: float = 1e-6
    xfail: dict[str, str] = field(default_factory=dict)
    label: str = ""

    @property
    def nargs(self) -> int:
        n = 0
        while f"x{n + 1}" in self.expr:
            n += 1
        return n

    @property
    def id(self) -> str:
        return f"{self.name}[{self.label or self.expr}]"

    def domain(self, k: int, complex_: bool) -> Domain:
        d = self.complex_domains if complex_ else self.domains
        return d[k] if isinstance(d, tuple) else d  # type: ignore[return-value]


@st.composite
def draw_point(draw: Any, case: Case, complex_: bool = False) -> list[np.ndarray]:
    shapes = draw(case.shapes)
    assert len(shapes) == case.nargs, f"{case.id}: {len(shapes)} shapes for {case.nargs} arguments"
    if case.joint is not None and not complex_:
        return list(draw(case.joint(shapes)))
    if complex_:  # complex domains are seeded: salted by position
        return [draw(case.domain(k, True)(tuple(s), k)) for k, s in enumerate(shapes)]
    return [draw(case.domain(k, False)(tuple(s))) for k, s in enumerate(shapes)]


# ------------------------------------------------------------------ MATLAB side

HELPERS = {
    # value and gradients with respect to every argument
    "gc_vg.m": """function [v, varargout] = gc_vg(f, varargin)
v = f(varargin{:});
g = cell(1, numel(varargin));
[g{:}] = dlgradient(v, varargin{:});
varargout = g;
end
""",
    # value and the gradient with respect to argument k only
    "gc_vg1.m": """function [v, g] = gc_vg1(f, k, varargin)
v = f(varargin{:});
g = dlgradient(v, varargin{k});
end
""",
    # x(2, :) = v as a function, for checking indexed assignment
    "gc_assign.m": """function y = gc_assign(x, v)
y = x;
y(2, :) = v;
end
""",
    # loss2 = sum over arguments of real(w{k} .* dloss/dx{k}), and its gradients
    "gc_second.m": """function [v, varargout] = gc_second(f, w, varargin)
y = f(varargin{:});
g = cell(1, numel(varargin));
[g{:}] = dlgradient(y, varargin{:}, 'EnableHigherDerivatives', true);
v = 0;
for k = 1:numel(g)
    % the zero term keeps v traced when the first derivative is constant
    v = v + sum(real(w{k} .* g{k}), 'all') + 0 * sum(real(varargin{k}), 'all');
end
h = cell(1, numel(varargin));
[h{:}] = dlgradient(v, varargin{:});
varargout = h;
end
""",
}


def as_matlab(a: np.ndarray) -> Any:
    """A plain MATLAB value for an array of MATLAB shape (1x1 becomes a scalar)."""
    return result(np.array(a, copy=True))


def as_dlarray(a: np.ndarray) -> DlArray:
    return DlArray(np.array(a, copy=True).reshape(matlab_shape(np.shape(a)), order="F"))


def as_array(v: Any) -> np.ndarray:
    if type(v) is DlArray:
        return v.data
    if isinstance(v, (float, complex, bool)):
        return np.array([[v]])
    return np.asarray(v)


class Checker:
    """An interpreter with the helper functions on its path."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in HELPERS.items():
            (folder / name).write_text(text)
        self.out = io.StringIO()
        self.interp = Interpreter(stdout=self.out, stderr=io.StringIO())
        self.interp.path.append(str(folder))
        self.interp.invalidate()
        self.dlfeval = self.interp.resolve("dlfeval")
        self.helpers = {name[:-2]: self.handle(f"@{name[:-2]}") for name in HELPERS}

    @contextmanager
    def running(self) -> Any:
        token = RUNNING.set(self.interp)
        try:
            yield
        finally:
            RUNNING.reset(token)

    def run(self, code: str, **variables: Any) -> None:
        """Run MATLAB statements in a fresh base workspace."""
        vars_ = self.interp.base.vars
        vars_.clear()
        vars_.update(variables)
        self.interp.eval(code)

    def get(self, name: str) -> Any:
        return self.interp.base.vars[name]

    def handle(self, text: str, **captured: Any) -> Any:
        """The function handle a MATLAB expression makes (capturing ``captured``)."""
        self.run(f"gcHandle = {text};", **captured)
        return self.get("gcHandle")

    def call(self, fn: Any, *args: Any, nargout: int = 1) -> list:
        with self.running():
            return self.interp.call_value(fn, list(args), nargout)

    def feval(self, fn: Any, *args: Any, nargout: int = 1) -> list:
        """dlfeval(fn, args...)"""
        with self.running():
            return self.interp.invoke(self.dlfeval, [fn, *args], nargout)

    # --------------------------------------------------------- the checks

    def functions(self, case: Case, xs: Sequence[np.ndarray], weight_seed: int,
                  complex_: bool) -> tuple[Any, Any, np.ndarray]:
        """The forward function, the scalar loss (with a random fixed weighting of the
        output) and the weights."""
        params = ", ".join(f"x{k + 1}" for k in range(len(xs)))
        forward = self.handle(f"@({params}) {case.expr}")
        y = as_array(self.call(forward, *[as_matlab(x) for x in xs])[0])
        rng = np.random.default_rng(weight_seed)
        w = rng.uniform(0.5, 1.5, y.shape) * rng.choice([-1.0, 1.0], y.shape)
        if complex_ or y.dtype.kind == "c":
            w = w * np.exp(1j * rng.uniform(-np.pi, np.pi, y.shape))
            body = f"sum(real(gcW .* ({case.expr})), 'all')"
        else:
            body = f"sum(gcW .* ({case.expr}), 'all')"
        loss = self.handle(f"@({params}) {body}", gcW=as_matlab(w))
        return forward, loss, w

    def loss_value(self, loss: Any, xs: Sequence[np.ndarray]) -> float:
        v = self.call(loss, *[as_matlab(x) for x in xs])[0]
        return float(np.real(as_array(v)).reshape(-1)[0])

    def gradients(self, loss: Any, xs: Sequence[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        """Reverse mode: [v, g1, ..., gn] = dlfeval(@gc_vg, loss, dlarray(x1), ...)."""
        outs = self.feval(self.helpers["gc_vg"], loss, *[as_dlarray(x) for x in xs],
                          nargout=1 + len(xs))
        return float(np.real(as_array(outs[0])).reshape(-1)[0]), [as_array(g) for g in outs[1:]]

    def gradient_of_one(self, loss: Any, xs: Sequence[np.ndarray], k: int) -> np.ndarray:
        """The gradient with respect to argument k, the others plain arrays."""
        args = [as_dlarray(x) if j == k else as_matlab(x) for j, x in enumerate(xs)]
        outs = self.feval(self.helpers["gc_vg1"], loss, float(k + 1), *args, nargout=2)
        return as_array(outs[1])

    def second(self, loss: Any, ws: Sequence[np.ndarray],
               xs: Sequence[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        """Reverse mode over reverse mode: gradients of sum(real(w .* dloss/dx))."""
        from mlang.values.cell import Cell

        wcell = Cell.row([as_matlab(w) for w in ws])
        outs = self.feval(self.helpers["gc_second"], loss, wcell, *[as_dlarray(x) for x in xs],
                          nargout=1 + len(xs))
        return float(np.real(as_array(outs[0])).reshape(-1)[0]), [as_array(g) for g in outs[1:]]


def finite_differences(fun: Callable[[list[np.ndarray]], float], xs: Sequence[np.ndarray],
                       k: int, step: float, complex_: bool) -> np.ndarray:
    """Central differences of the real scalar ``fun`` with respect to ``xs[k]``, in
    MATLAB's convention for complex variables: dL/da + i dL/db for x = a + ib."""
    x = np.asarray(xs[k])
    flat = x.reshape(-1, order="F")
    grad = np.zeros(flat.shape, dtype=np.complex128 if complex_ else np.float64)
    directions = (1.0, 1j) if complex_ else (1.0,)
    for j in range(flat.size):
        h = step * max(1.0, abs(flat[j]))
        for d in directions:
            values = []
            for sign in (1.0, -1.0):
                moved = flat.astype(np.complex128 if complex_ else np.float64, copy=True)
                moved[j] += sign * h * d
                args = list(xs)
                args[k] = moved.reshape(x.shape, order="F")
                values.append(fun(args))
            grad[j] += (values[0] - values[1]) / (2 * h) * (1.0 if d == 1.0 else 1j)
    return grad.reshape(x.shape, order="F")


def assert_close(got: np.ndarray, want: np.ndarray, rtol: float, atol: float, what: str) -> None:
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
    if not np.allclose(got, want, rtol=rtol, atol=atol * scale, equal_nan=False):
        worst = np.max(np.abs(got - want)) if got.size else 0.0
        raise AssertionError(f"{what}: max abs error {worst:.3g}\nreverse mode:\n{got}\n"
                             f"finite differences:\n{want}")
