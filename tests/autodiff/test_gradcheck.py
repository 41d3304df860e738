"""Gradient checks: every differentiable builtin, reverse mode against central finite
differences, at hypothesis-drawn points and shapes away from kinks and poles.

``CASES`` is the table: one or more call forms per differentiable builtin (a MATLAB
expression in the differentiable arguments x1, x2, ...), their shapes, their domains
(real and, where supported, complex), and whether second derivatives are checked.
``test_table_covers_every_differentiable_builtin`` makes a new gradient rule without
an entry here fail the suite.

Checked for each case:
- first order: the gradient of sum(w .* F(x), 'all') (w random and fixed) from
  dlfeval/dlgradient against central differences of the same MATLAB loss on plain
  arrays, with respect to every argument at once and to each argument alone;
- second order: the gradient of sum(w2 .* dlgradient(loss, x, 'EnableHigherDerivatives',
  true), 'all') against central differences of mlang's first-order gradient;
- complex: loss sum(real(w .* F(z)), 'all') with complex w, against differences in the
  real and imaginary directions (MATLAB's convention: dL/da + i dL/db for z = a + ib).
Then single precision; the engine's semantics (RetainData, higher derivatives, nesting,
containers, errors) are checked in test_gradcheck_engine.py.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mlang.registry import load_all
from mlang.values.core import char_text
from tests.autodiff.gradcheck import (
    STANDARD,
    Case,
    Checker,
    as_dlarray,
    assert_close,
    away_from_zero,
    broadcast_pair,
    complex_away_from_zero,
    complex_box,
    distinct,
    draw_point,
    finite_differences,
    fixed,
    fractional,
    generic,
    matlab_shape,
    matmul_pair,
    matrix_shape,
    positive,
    same_pair,
    unary,
    uniform,
    well_conditioned,
)

# ------------------------------------------------------------------ domains

ANY_COMPLEX = complex_box((-2.0, 2.0), (-2.0, 2.0))
NONZERO = away_from_zero(0.2, 2.0)
NEAR_ONE = away_from_zero(0.5, 1.5)  # products stay moderate
DISTINCT = distinct()


@st.composite
def _distinct_magnitudes(draw, shape):
    """Values whose absolute values are pairwise apart and away from 0 (max |x|)."""
    values = draw(distinct(positive_only=True)(shape))
    signs = draw(st.lists(st.booleans(), min_size=values.size, max_size=values.size))
    return values * np.where(np.array(signs).reshape(values.shape, order="F"), -1.0, 1.0)


DISTINCT_MAGNITUDES = _distinct_magnitudes


@st.composite
def _with_zeros(draw, shape):
    """Values near 1 in magnitude with some exact zeros (prod, cumprod)."""
    values = draw(NEAR_ONE(shape))
    zeros = np.array(draw(st.lists(st.booleans(), min_size=values.size, max_size=values.size)))
    return np.where(zeros.reshape(values.shape, order="F"), 0.0, values)


WITH_ZEROS = _with_zeros


GENERIC = generic()
GENERIC_COMPLEX = generic(complex_=True)


def _broadcast(shape_a, shape_b):
    n = max(len(shape_a), len(shape_b))
    a = tuple(shape_a) + (1,) * (n - len(shape_a))
    b = tuple(shape_b) + (1,) * (n - len(shape_b))
    return tuple(max(p, q) for p, q in zip(a, b, strict=True))


@st.composite
def _remainder_pair(draw, shapes):
    """(a, m) with a./m away from the integers (mod, rem have jumps there)."""
    sa, sm = shapes
    full = _broadcast(sa, sm)
    if tuple(sa) != full and tuple(sm) != full:  # a column and a row: |a./m| in [0.15, 0.67]
        return draw(away_from_zero(0.3, 1.0)(tuple(sa))), draw(away_from_zero(1.5, 2.0)(tuple(sm)))
    q = draw(fractional(0.15, 0.85)(full))
    if tuple(sa) == full:
        m = draw(away_from_zero(0.5, 2.0)(tuple(sm)))
        a = np.broadcast_to(m.reshape(m.shape + (1,) * (len(full) - m.ndim)), full) * q
        return a.reshape(sa), m
    a = draw(away_from_zero(0.5, 2.0)(tuple(sa)))
    q = np.where(np.abs(q) < 0.15, 0.5, q)  # m = a ./ q stays bounded
    m = np.broadcast_to(a.reshape(a.shape + (1,) * (len(full) - a.ndim)), full) / q
    return a, m.reshape(sm)


@st.composite
def _apart_pair(draw, shapes):
    """(a, b) with a - b away from 0 everywhere (max(a, b), min(a, b))."""
    sa, sb = shapes
    full = _broadcast(sa, sb)
    if tuple(sa) != full and tuple(sb) != full:  # a column and a row: b in the gaps of a
        a = draw(DISTINCT(tuple(sa)))
        n = a.size
        k = np.array(draw(st.lists(st.integers(-1, n), min_size=int(np.prod(sb)),
                                   max_size=int(np.prod(sb)))), dtype=np.float64)
        return a, (0.3 * k + 0.225 - 0.3 * n / 2).reshape(sb)
    d = draw(away_from_zero(0.2, 1.5)(full))
    if tuple(sa) == full:
        b = draw(STANDARD(tuple(sb)))
        return np.broadcast_to(b.reshape(b.shape + (1,) * (len(full) - b.ndim)), full) + d, b
    a = draw(STANDARD(tuple(sa)))
    return a, (np.broadcast_to(a.reshape(a.shape + (1,) * (len(full) - a.ndim)), full) - d).reshape(sb)


# ------------------------------------------------------------------ shapes

VECTOR = st.one_of(matrix_shape(max_rows=1), matrix_shape(max_cols=1))
MATRIX = matrix_shape()
MATRIX2 = matrix_shape(min_size=2)  # at least two elements along every dimension


def _vectors(min_size=1):
    return st.integers(min_size, 5).flatmap(lambda n: st.sampled_from([(1, n), (n, 1)]))


@st.composite
def _scalar_and_matrix(draw):
    s = draw(MATRIX)
    return ((1, 1), s) if draw(st.booleans()) else (s, (1, 1))


@st.composite
def _solve_left(draw):  # A \ B: A n-by-n, B n-by-k
    n, k = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    return (n, n), (n, k)


@st.composite
def _solve_right(draw):  # B / A: B k-by-n, A n-by-n
    n, k = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    return (k, n), (n, n)


@st.composite
def _pages(draw, transpose_a=False, transpose_b=False, broadcast=False):
    m, k, n, p = (draw(st.integers(1, 3)) for _ in range(4))
    p = max(p, 2)
    a = (k, m, p) if transpose_a else (m, k, p)
    b = (n, k) if transpose_b else (k, n)
    b = b if broadcast else b + (p,)
    return matlab_shape(a), matlab_shape(b)


@st.composite
def _cat_pair(draw, dim):
    r, c, x = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if dim == 1:
        return (r, c), (x, c)
    if dim == 2:
        return (r, c), (r, x)
    return (r, c), (r, c)


@st.composite
def _squeezable(draw):
    n, m = draw(st.integers(1, 4)), draw(st.integers(2, 3))
    return (draw(st.sampled_from([(1, 1, m), (1, n, m), (n, 1, m), (n, m)])),)


@st.composite
def _assign_pair(draw):  # y = x; y(2, :) = v
    r, c = draw(st.integers(2, 4)), draw(st.integers(1, 4))
    return (r, c), draw(st.sampled_from([(1, c), (1, 1)]))


COLUMN_ROW = fixed((3, 1), (1, 4))
ROWS2 = matrix_shape(max_rows=4).filter(lambda s: s[0] >= 2)

# ------------------------------------------------------------------ the table


def elementwise(name, real, complex_=None, expr=None, **kw):
    return Case(name, expr or f"{name}(x1)", unary(), real, complex_, **kw)


def binary(name, expr, real=STANDARD, complex_=None, shapes=None, **kw):
    return Case(name, expr, broadcast_pair() if shapes is None else shapes, real, complex_, **kw)


def forms(name, exprs, shapes, real=STANDARD, complex_=None, tag="", **kw):
    return [Case(name, e, shapes, real, complex_, label=f"{e}; {tag}" if tag else "", **kw)
            for e in exprs]


CASES: list[Case] = [
    # exponentials, logarithms, powers
    elementwise("sqrt", positive(0.2, 3.0), complex_box((0.2, 2.0), (-1.0, 1.0))),
    elementwise("exp", uniform(-2.0, 2.0), complex_box((-1.0, 1.0), (-2.0, 2.0))),
    elementwise("expm1", uniform(-2.0, 2.0), complex_box((-1.0, 1.0), (-1.0, 1.0))),
    elementwise("log", positive(0.2, 3.0), complex_box((0.2, 2.0), (-1.0, 1.0))),
    elementwise("log10", positive(0.2, 3.0), complex_box((0.2, 2.0), (-1.0, 1.0))),
    elementwise("log2", positive(0.2, 3.0), complex_box((0.2, 2.0), (-1.0, 1.0))),
    elementwise("log1p", uniform(-0.7, 3.0), complex_box((-0.5, 2.0), (-1.0, 1.0))),
    # trigonometry
    elementwise("sin", uniform(-3.0, 3.0), complex_box((-1.5, 1.5), (-1.0, 1.0))),
    elementwise("cos", uniform(-3.0, 3.0), complex_box((-1.5, 1.5), (-1.0, 1.0))),
    elementwise("tan", uniform(-1.2, 1.2), complex_box((-1.0, 1.0), (-0.7, 0.7))),
    elementwise("sec", uniform(-1.2, 1.2), complex_box((-1.0, 1.0), (-0.7, 0.7))),
    elementwise("csc", away_from_zero(0.3, 2.8), complex_box((0.4, 2.7), (-0.7, 0.7))),
    elementwise("cot", away_from_zero(0.3, 2.8), complex_box((0.4, 2.7), (-0.7, 0.7))),
    elementwise("asin", uniform(-0.85, 0.85), complex_box((-0.7, 0.7), (-0.7, 0.7))),
    elementwise("acos", uniform(-0.85, 0.85), complex_box((-0.7, 0.7), (-0.7, 0.7))),
    elementwise("atan", uniform(-3.0, 3.0), complex_box((-0.7, 0.7), (-0.6, 0.6))),
    elementwise("acot", away_from_zero(0.3, 3.0), complex_box((0.5, 1.5), (-1.0, 1.0))),
    elementwise("asec", away_from_zero(1.2, 3.0), complex_box((1.2, 2.5), (-1.0, 1.0))),
    elementwise("acsc", away_from_zero(1.2, 3.0), complex_box((1.2, 2.5), (-1.0, 1.0))),
    # hyperbolic
    elementwise("sinh", uniform(-2.0, 2.0), complex_box((-1.0, 1.0), (-1.0, 1.0))),
    elementwise("cosh", uniform(-2.0, 2.0), complex_box((-1.0, 1.0), (-1.0, 1.0))),
    elementwise("tanh", uniform(-2.0, 2.0), complex_box((-1.0, 1.0), (-1.0, 1.0))),
    elementwise("sech", uniform(-2.0, 2.0), complex_box((-1.0, 1.0), (-1.0, 1.0))),
    elementwise("csch", away_from_zero(0.3, 2.0), complex_box((0.3, 1.5), (-1.0, 1.0))),
    elementwise("coth", away_from_zero(0.3, 2.0), complex_box((0.3, 1.5), (-1.0, 1.0))),
    elementwise("asinh", uniform(-3.0, 3.0), complex_box((-0.7, 0.7), (-0.6, 0.6))),
    elementwise("acosh", positive(1.2, 3.0), complex_box((1.2, 2.5), (-1.0, 1.0))),
    elementwise("atanh", uniform(-0.85, 0.85), complex_box((-0.6, 0.6), (-0.6, 0.6))),
    elementwise("erf", uniform(-2.0, 2.0)),
    # activations
    elementwise("sigmoid", uniform(-3.0, 3.0), complex_box((-1.0, 1.0), (-1.0, 1.0))),
    elementwise("gelu", uniform(-3.0, 3.0)),  # real input only, as MATLAB's gelu
    elementwise("gelu", uniform(-3.0, 3.0), expr="gelu(x1, 'Approximation', 'tanh')"),
    elementwise("relu", away_from_zero(0.1, 2.0),
                complex_box((0.1, 2.0), (-1.0, 1.0))),
    elementwise("leakyrelu", away_from_zero(0.1, 2.0), complex_box((0.1, 2.0), (-1.0, 1.0))),
    elementwise("leakyrelu", away_from_zero(0.1, 2.0), expr="leakyrelu(x1, 0.2)"),
    # complex parts, abs, angle
    elementwise("abs", NONZERO, complex_away_from_zero()),
    elementwise("angle", NONZERO, complex_away_from_zero()),
    elementwise("real", STANDARD, ANY_COMPLEX),
    elementwise("imag", STANDARD, ANY_COMPLEX),
    elementwise("conj", STANDARD, ANY_COMPLEX),
    # piecewise constant: zero gradient away from the jumps
    elementwise("sign", NONZERO),
    elementwise("floor", fractional(0.1, 0.45)),
    elementwise("ceil", fractional(0.1, 0.45)),
    elementwise("fix", fractional(0.1, 0.45)),
    elementwise("round", fractional(0.1, 0.4)),
    # conversions
    elementwise("double", STANDARD, ANY_COMPLEX),
    elementwise("single", STANDARD, ANY_COMPLEX, step=1e-2, rtol=1e-3, atol=1e-3),
    # unary operators
    elementwise("uminus", STANDARD, ANY_COMPLEX),
    elementwise("uminus", STANDARD, ANY_COMPLEX, expr="-x1"),
    elementwise("uplus", STANDARD, ANY_COMPLEX),
    elementwise("uplus", STANDARD, ANY_COMPLEX, expr="+x1"),
    Case("transpose", "transpose(x1)", unary(MATRIX), STANDARD, ANY_COMPLEX),
    Case("transpose", "x1.'", unary(MATRIX), STANDARD, ANY_COMPLEX),
    Case("ctranspose", "ctranspose(x1)", unary(MATRIX), STANDARD, ANY_COMPLEX),
    Case("ctranspose", "x1'", unary(MATRIX), STANDARD, ANY_COMPLEX),
    # binary elementwise, with implicit expansion
    binary("plus", "x1 + x2", complex_=ANY_COMPLEX),
    binary("plus", "plus(x1, x2)", complex_=ANY_COMPLEX),
    binary("minus", "x1 - x2", complex_=ANY_COMPLEX),
    binary("minus", "minus(x1, x2)", complex_=ANY_COMPLEX),
    binary("times", "x1 .* x2", complex_=ANY_COMPLEX),
    binary("times", "times(x1, x2)", complex_=ANY_COMPLEX),
    elementwise("times", STANDARD, ANY_COMPLEX, expr="x1 .* x1"),
    binary("rdivide", "x1 ./ x2", (STANDARD, NONZERO), (ANY_COMPLEX, complex_away_from_zero())),
    binary("rdivide", "rdivide(x1, x2)", (STANDARD, NONZERO)),
    binary("ldivide", "x1 .\\ x2", (NONZERO, STANDARD), (complex_away_from_zero(), ANY_COMPLEX)),
    binary("ldivide", "ldivide(x1, x2)", (NONZERO, STANDARD)),
    binary("power", "x1 .^ x2", (positive(0.3, 2.0), uniform(-2.0, 2.0)),
           (complex_box((0.3, 2.0), (-1.0, 1.0)), complex_box((-1.0, 1.0), (-0.5, 0.5)))),
    binary("power", "power(x1, x2)", (positive(0.3, 2.0), uniform(-2.0, 2.0))),
    elementwise("power", STANDARD, ANY_COMPLEX, expr="x1 .^ 2"),
    elementwise("power", STANDARD, ANY_COMPLEX, expr="x1 .^ 3"),
    elementwise("power", STANDARD, ANY_COMPLEX, expr="x1 .^ 1"),
    elementwise("power", positive(0.2, 3.0), complex_box((0.2, 2.0), (-1.0, 1.0)), expr="x1 .^ 0.5"),
    elementwise("power", NONZERO, complex_away_from_zero(), expr="x1 .^ -2"),
    elementwise("power", STANDARD, ANY_COMPLEX, expr="2 .^ x1"),
    binary("hypot", "hypot(x1, x2)", NONZERO, complex_away_from_zero()),
    binary("atan2", "atan2(x1, x2)", NONZERO),
    binary("mod", "mod(x1, x2)", joint=_remainder_pair),
    binary("rem", "rem(x1, x2)", joint=_remainder_pair),
    # a column against a row, explicitly
    *[binary(name, expr, real, complex_, shapes=COLUMN_ROW, label=f"{expr}; 3x1 with 1x4", joint=joint)
      for name, expr, real, complex_, joint in [
          ("plus", "x1 + x2", STANDARD, ANY_COMPLEX, None),
          ("minus", "x1 - x2", STANDARD, ANY_COMPLEX, None),
          ("times", "x1 .* x2", STANDARD, ANY_COMPLEX, None),
          ("rdivide", "x1 ./ x2", (STANDARD, NONZERO), None, None),
          ("ldivide", "x1 .\\ x2", (NONZERO, STANDARD), None, None),
          ("power", "x1 .^ x2", (positive(0.3, 2.0), STANDARD), None, None),
          ("hypot", "hypot(x1, x2)", NONZERO, None, None),
          ("atan2", "atan2(x1, x2)", NONZERO, None, None),
          ("mod", "mod(x1, x2)", STANDARD, None, _remainder_pair),
          ("max", "max(x1, x2)", STANDARD, None, _apart_pair),
          ("min", "min(x1, x2)", STANDARD, None, _apart_pair)]],
    # matrix operators
    Case("mtimes", "x1 * x2", matmul_pair(), STANDARD, ANY_COMPLEX),
    Case("mtimes", "mtimes(x1, x2)", _scalar_and_matrix(), STANDARD, ANY_COMPLEX),
    Case("mtimes", "x1' * x1", unary(MATRIX), STANDARD, ANY_COMPLEX),
    Case("mldivide", "x1 \\ x2", _solve_left(), (well_conditioned(), STANDARD),
         (well_conditioned(complex_=True), ANY_COMPLEX)),
    Case("mldivide", "mldivide(x1, x2)", fixed((1, 1), (3, 2)), (NONZERO, STANDARD),
         (complex_away_from_zero(), ANY_COMPLEX)),
    Case("mrdivide", "x1 / x2", _solve_right(), (STANDARD, well_conditioned()),
         (ANY_COMPLEX, well_conditioned(complex_=True))),
    Case("mrdivide", "mrdivide(x1, x2)", fixed((2, 3), (1, 1)), (STANDARD, NONZERO),
         (ANY_COMPLEX, complex_away_from_zero())),
    Case("mpower", "x1 ^ x2", fixed((1, 1), (1, 1)), (positive(0.3, 2.0), uniform(-2.0, 2.0)),
         (complex_box((0.3, 2.0), (-1.0, 1.0)), complex_box((-1.0, 1.0), (-0.5, 0.5)))),
    Case("mpower", "mpower(x1, 3)", fixed((1, 1)), STANDARD, ANY_COMPLEX),
    # reductions
    *forms("sum", ["sum(x1)", "sum(x1, 1)", "sum(x1, 2)", "sum(x1, 3)", "sum(x1, 'all')",
                   "sum(x1, [1 2])"], unary(), complex_=ANY_COMPLEX),
    *forms("mean", ["mean(x1)", "mean(x1, 1)", "mean(x1, 2)", "mean(x1, 3)", "mean(x1, 'all')",
                    "mean(x1, [1 2])"], unary(), complex_=ANY_COMPLEX),
    *forms("prod", ["prod(x1)", "prod(x1, 2)", "prod(x1, 'all')"], unary(), NEAR_ONE,
           complex_away_from_zero(0.5, 1.5)),
    *forms("prod", ["prod(x1)", "prod(x1, 2)"], unary(), WITH_ZEROS, tag="zeros"),
    *forms("cumsum", ["cumsum(x1)", "cumsum(x1, 2)", "cumsum(x1, 'reverse')",
                      "cumsum(x1, 2, 'reverse')"], unary(), complex_=ANY_COMPLEX),
    *forms("cumprod", ["cumprod(x1)", "cumprod(x1, 2)", "cumprod(x1, 'reverse')"], unary(),
           NEAR_ONE, complex_away_from_zero(0.5, 1.5)),
    *forms("cumprod", ["cumprod(x1)", "cumprod(x1, 2)"], unary(), WITH_ZEROS, tag="zeros"),
    *forms("max", ["max(x1)", "max(x1, [], 2)", "max(x1, [], 'all')"], unary(), DISTINCT),
    binary("max", "max(x1, x2)", joint=_apart_pair),
    *forms("min", ["min(x1)", "min(x1, [], 2)", "min(x1, [], 'all')"], unary(), DISTINCT),
    binary("min", "min(x1, x2)", joint=_apart_pair),
    *forms("var", ["var(x1)", "var(x1, 1)", "var(x1, 0, 2)", "var(x1, 0, 'all')"], unary(),
           complex_=ANY_COMPLEX),
    Case("var", "var(x1, [1; 2; 3; 4])", fixed((4, 2)), STANDARD, ANY_COMPLEX),
    *forms("std", ["std(x1)", "std(x1, 1)", "std(x1, 0, 2)", "std(x1, 0, 'all')"],
           unary(MATRIX2), DISTINCT, GENERIC_COMPLEX),
    Case("std", "std(x1, [1 2 3])", fixed((3, 2)), DISTINCT, GENERIC_COMPLEX),
    # norms and products of vectors
    Case("norm", "norm(x1)", unary(_vectors()), NONZERO, complex_away_from_zero()),
    *forms("norm", ["norm(x1, 1)", "norm(x1, 3)"], unary(_vectors()), NONZERO, complex_away_from_zero()),
    *forms("norm", ["norm(x1, Inf)", "norm(x1, -Inf)"], unary(_vectors()), DISTINCT_MAGNITUDES,
           complex_away_from_zero()),
    Case("norm", "norm(x1)", unary(MATRIX), GENERIC, GENERIC_COMPLEX, label="norm(x1); matrix"),
    Case("norm", "norm(x1, 'fro')", unary(MATRIX), GENERIC, GENERIC_COMPLEX),
    *forms("norm", ["norm(x1, 1)", "norm(x1, Inf)"], unary(MATRIX), GENERIC, tag="matrix"),
    Case("dot", "dot(x1, x2)", same_pair(_vectors()), STANDARD, ANY_COMPLEX),
    Case("dot", "dot(x1, x2)", same_pair(MATRIX), STANDARD, ANY_COMPLEX, label="dot(x1, x2); matrices"),
    Case("dot", "dot(x1, x2, 2)", same_pair(MATRIX), STANDARD, ANY_COMPLEX),
    *forms("vecnorm", ["vecnorm(x1)", "vecnorm(x1, 1)", "vecnorm(x1, 2, 2)", "vecnorm(x1, 3, 2)"],
           unary(MATRIX), NONZERO, complex_away_from_zero()),
    Case("vecnorm", "vecnorm(x1, Inf)", unary(MATRIX), DISTINCT_MAGNITUDES, complex_away_from_zero()),
    Case("pagemtimes", "pagemtimes(x1, x2)", _pages(), STANDARD, ANY_COMPLEX),
    Case("pagemtimes", "pagemtimes(x1, x2)", _pages(broadcast=True), STANDARD, ANY_COMPLEX,
         label="pagemtimes(x1, x2); 2-D x2"),
    Case("pagemtimes", "pagemtimes(x1, 'transpose', x2, 'none')", _pages(transpose_a=True),
         STANDARD, ANY_COMPLEX),
    Case("pagemtimes", "pagemtimes(x1, 'none', x2, 'ctranspose')", _pages(transpose_b=True),
         STANDARD, ANY_COMPLEX),
    # functions that move elements
    *forms("reshape", ["reshape(x1, [], 1)", "reshape(x1, 1, [])"], unary(), complex_=ANY_COMPLEX),
    Case("reshape", "reshape(x1, 3, 2, [])", fixed((2, 3, 2)), STANDARD, ANY_COMPLEX),
    Case("reshape", "reshape(x1, [2 6])", fixed((3, 4)), STANDARD, ANY_COMPLEX),
    Case("permute", "permute(x1, [2 1])", unary(MATRIX), STANDARD, ANY_COMPLEX),
    *forms("permute", ["permute(x1, [3 1 2])", "permute(x1, [2 3 1])"], unary(), complex_=ANY_COMPLEX),
    Case("ipermute", "ipermute(x1, [3 1 2])", unary(), STANDARD, ANY_COMPLEX),
    Case("squeeze", "squeeze(x1)", _squeezable(), STANDARD, ANY_COMPLEX),
    *forms("repmat", ["repmat(x1, 2, 3)", "repmat(x1, [1 2 2])", "repmat(x1, 2)"], unary(MATRIX),
           complex_=ANY_COMPLEX),
    Case("repelem", "repelem(x1, 3)", unary(_vectors()), STANDARD, ANY_COMPLEX),
    Case("repelem", "repelem(x1, 2, 3)", unary(MATRIX), STANDARD, ANY_COMPLEX),
    Case("repelem", "repelem(x1, [1 2 3], 2)", fixed((3, 2)), STANDARD, ANY_COMPLEX),
    Case("cat", "cat(1, x1, x2)", _cat_pair(1), STANDARD, ANY_COMPLEX),
    Case("cat", "cat(2, x1, x2)", _cat_pair(2), STANDARD, ANY_COMPLEX),
    Case("cat", "cat(3, x1, x2)", _cat_pair(3), STANDARD, ANY_COMPLEX),
    Case("cat", "cat(1, x1, x2, x1)", _cat_pair(1), STANDARD, ANY_COMPLEX),
    Case("horzcat", "horzcat(x1, x2)", _cat_pair(2), STANDARD, ANY_COMPLEX),
    Case("horzcat", "[x1, x2, x1]", _cat_pair(2), STANDARD, ANY_COMPLEX),
    Case("vertcat", "vertcat(x1, x2)", _cat_pair(1), STANDARD, ANY_COMPLEX),
    Case("vertcat", "[x1; x2]", _cat_pair(1), STANDARD, ANY_COMPLEX),
    Case("vertcat", "[x1, x2; x2, x1]", same_pair(MATRIX), STANDARD, ANY_COMPLEX),
    *forms("flip", ["flip(x1)", "flip(x1, 2)", "flip(x1, 3)"], unary(), complex_=ANY_COMPLEX),
    Case("fliplr", "fliplr(x1)", unary(), STANDARD, ANY_COMPLEX),
    Case("flipud", "flipud(x1)", unary(), STANDARD, ANY_COMPLEX),
    *forms("circshift", ["circshift(x1, 1)", "circshift(x1, [1 -1])", "circshift(x1, 2, 2)"],
           unary(), complex_=ANY_COMPLEX),
    # Fourier transforms: distinct nonzero values, so a real input's transform is complex at
    # every point checked (as it is at the point drawn)
    *forms("fft", ["fft(x1)", "fft(x1, 5)", "fft(x1, 2)", "fft(x1, [], 2)", "fft(x1, 3, 1)"],
           unary(), DISTINCT_MAGNITUDES, ANY_COMPLEX),
    *forms("ifft", ["ifft(x1)", "ifft(x1, 5)", "ifft(x1, 2)", "ifft(x1, [], 2)",
                    "ifft(x1, 'symmetric')", "ifft(x1, 4, 1, 'symmetric')"],
           unary(), DISTINCT_MAGNITUDES, ANY_COMPLEX),
]

# Differentiable operations that are not registered builtins with a rule: softmax
# handles dlarrays itself; indexing and indexed assignment are trace primitives.
EXTRAS: list[Case] = [
    Case("softmax", "softmax(x1, 'DataFormat', 'CB')", unary(MATRIX), STANDARD),
    Case("softmax", "stripdims(softmax(dlarray(x1, 'CB')))", unary(MATRIX), STANDARD),
    Case("index", "x1(2:end, :)", unary(ROWS2), STANDARD, ANY_COMPLEX),
    Case("index", "x1([1 1 end])", unary(), STANDARD, ANY_COMPLEX),
    Case("index", "x1(:)", unary(), STANDARD, ANY_COMPLEX),
    Case("index", "x1(end:-1:1, [1 1])", unary(), STANDARD, ANY_COMPLEX),
    Case("assign", "gc_assign(x1, x2)", _assign_pair(), STANDARD, ANY_COMPLEX),
    Case("chain", "sum(exp(-x1) .* sin(x1 * x2'), 2) ./ (1 + x1 .^ 2)", same_pair(_vectors()),
         STANDARD),
]

# Further tables, one module a family of builtins: each tests/autodiff/cases_*.py defines
# CASES (and, optionally, SINGLE_CASES: names also checked in single precision).
FAMILY_TABLES = [importlib.import_module(f"tests.autodiff.{path.stem}")
                 for path in sorted(Path(__file__).parent.glob("cases_*.py"))]
for _table in FAMILY_TABLES:
    CASES += _table.CASES
    EXTRAS += getattr(_table, "EXTRAS", [])  # operations that handle dlarrays themselves

DIFFERENTIABLE = {name for name, b in load_all().items() if b.gradient is not None}
# Builtins that read their input's format and record their own derivatives (dl="traced").
TRACED = {name for name, b in load_all().items() if b.dl == "traced"}

# ------------------------------------------------------------------ parameters


def _params(kind: str) -> list:
    out = []
    for case, registered in [(c, True) for c in CASES] + [(c, False) for c in EXTRAS]:
        if kind.startswith("second") and not case.second:
            continue
        if kind.startswith("complex") and case.complex_domains is None:
            continue
        marks = []
        reason = case.xfail.get(kind)
        if reason:
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        elif registered and case.name not in DIFFERENTIABLE:
            marks.append(pytest.mark.xfail(strict=False, reason=f"{case.name} has no gradient rule yet"))
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


# No shrinking: a failing example is reported as drawn (shrinking reruns the slow
# finite differences hundreds of times).
SETTINGS = settings(max_examples=4, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate], report_multiple_bugs=False,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def checker(tmp_path_factory) -> Checker:
    return Checker(tmp_path_factory.mktemp("gradcheck"))


def test_table_covers_every_differentiable_builtin() -> None:
    missing = DIFFERENTIABLE - {case.name for case in CASES}
    assert not missing, f"differentiable builtins without a gradient check: {sorted(missing)}"


def test_table_covers_every_traced_builtin() -> None:
    missing = TRACED - {case.name for case in CASES + EXTRAS}
    assert not missing, f"builtins recording their own derivatives without a gradient check: {sorted(missing)}"


def test_table_names_exist() -> None:
    unknown = {case.name for case in CASES} - DIFFERENTIABLE
    assert not unknown, f"gradient checks for builtins without a gradient rule: {sorted(unknown)}"


# ------------------------------------------------------------------ first order


def _check_first(checker: Checker, case: Case, xs: list, seed: int, complex_: bool) -> None:
    forward, loss, _ = checker.functions(case, xs, seed, complex_)
    value, grads = checker.gradients(loss, xs)
    plain = checker.loss_value(loss, xs)
    assert abs(value - plain) <= max(1e-9, case.rtol * 1e-4) * max(1.0, abs(plain)), \
        "dlarray value differs from plain value"
    for k, x in enumerate(xs):
        g = grads[k]
        assert g.shape == matlab_shape(np.shape(x)), f"gradient {k + 1} has shape {g.shape}"
        if not complex_:
            assert g.dtype == np.float64, f"gradient {k + 1} of a real double is {g.dtype}"
        want = finite_differences(lambda args: checker.loss_value(loss, args), xs, k, case.step, complex_)
        assert_close(g, want, case.rtol, case.atol, f"{case.id} d/dx{k + 1}")
        if len(xs) > 1:  # the same gradient when the other arguments are not dlarrays
            alone = checker.gradient_of_one(loss, xs, k)
            assert_close(alone, g, 1e-12, 1e-12, f"{case.id} d/dx{k + 1} alone")


def _check_second(checker: Checker, case: Case, xs: list, seed: int, complex_: bool) -> None:
    _, loss, _ = checker.functions(case, xs, seed, complex_)
    rng = np.random.default_rng(seed + 1)
    ws = [rng.uniform(-1.0, 1.0, np.shape(x)) for x in xs]
    if complex_:
        ws = [w * np.exp(1j * rng.uniform(-np.pi, np.pi, w.shape)) for w in ws]

    def loss2(args: list) -> float:
        _, grads = checker.gradients(loss, args)
        return float(sum(np.sum(np.real(w * g)) for w, g in zip(ws, grads, strict=True)))

    value, grads = checker.second(loss, ws, xs)
    plain = loss2(xs)
    assert abs(value - plain) <= max(1e-9, case.rtol * 1e-4) * max(1.0, abs(plain)), "loss2 value differs"
    for k in range(len(xs)):
        want = finite_differences(loss2, xs, k, case.step, complex_)
        assert_close(grads[k], want, max(case.rtol, 1e-4), max(case.atol, 1e-5),
                     f"{case.id} second order d/dx{k + 1}")


@pytest.mark.parametrize("case", _params("first"))
@SETTINGS
@given(data=st.data())
def test_first_order(checker: Checker, case: Case, data) -> None:
    xs = data.draw(draw_point(case), label="point")
    _check_first(checker, case, xs, data.draw(st.integers(0, 2**31), label="seed"), False)


@pytest.mark.parametrize("case", _params("second"))
@settings(SETTINGS, max_examples=3)
@given(data=st.data())
def test_second_order(checker: Checker, case: Case, data) -> None:
    xs = data.draw(draw_point(case), label="point")
    _check_second(checker, case, xs, data.draw(st.integers(0, 2**31), label="seed"), False)


@pytest.mark.parametrize("case", _params("complex"))
@settings(SETTINGS, max_examples=3)
@given(data=st.data())
def test_complex_first_order(checker: Checker, case: Case, data) -> None:
    xs = data.draw(draw_point(case, complex_=True), label="point")
    _check_first(checker, case, xs, data.draw(st.integers(0, 2**31), label="seed"), True)


@pytest.mark.parametrize("case", _params("complex2"))
@settings(SETTINGS, max_examples=2)
@given(data=st.data())
def test_complex_second_order(checker: Checker, case: Case, data) -> None:
    xs = data.draw(draw_point(case, complex_=True), label="point")
    _check_second(checker, case, xs, data.draw(st.integers(0, 2**31), label="seed"), True)


# ------------------------------------------------------------------ single precision

SINGLE_CASES = ["sin", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "times", "rdivide",
                "power", "mtimes", "mldivide", "sum", "mean", "prod", "max", "norm", "cumsum",
                "permute", "softmax", "index"]
for _table in FAMILY_TABLES:
    SINGLE_CASES += getattr(_table, "SINGLE_CASES", [])


def _single_params() -> list:
    seen = set()
    out = []
    for case in CASES + EXTRAS:
        if case.name in SINGLE_CASES and case.name not in seen:
            seen.add(case.name)
            out.append(pytest.param(case, id=case.id))
    return out


def test_single_cases_exist() -> None:
    assert {p.values[0].name for p in _single_params()} == set(SINGLE_CASES)


@pytest.mark.parametrize("case", _single_params())
@settings(SETTINGS, max_examples=2)
@given(data=st.data())
def test_single_precision(checker: Checker, case: Case, data) -> None:
    """Gradients of single inputs are single (underlyingType), and agree with double's."""
    xs = data.draw(draw_point(case), label="point")
    _, loss, _ = checker.functions(case, xs, data.draw(st.integers(0, 2**31), label="seed"), False)
    _, want = checker.gradients(loss, xs)
    singles = [np.asarray(x, dtype=np.float32) for x in xs]
    outs = checker.feval(checker.helpers["gc_vg"], loss, *[as_dlarray(x) for x in singles],
                         nargout=1 + len(xs))
    assert outs[0].data.dtype == np.float32, "the loss of single inputs is not single"
    for k, g in enumerate(outs[1:]):
        assert char_text(checker.call(checker.handle("@underlyingType"), g)[0]) == "single"
        assert g.data.dtype == np.float32
        assert_close(g.data, want[k], 1e-3, 1e-3, f"{case.id} single d/dx{k + 1}")


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in CASES + EXTRAS]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
