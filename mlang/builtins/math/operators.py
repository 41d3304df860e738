"""The functional forms of the operators: plus, minus, times, rdivide, ldivide,
power, mtimes, mrdivide, mldivide, mpower, the comparisons, and, or, not,
xor, uminus, uplus, transpose and ctranspose, with their gradient rules."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mlang.autodiff import ops
from mlang.builtins.math.elementwise import check_expansion
from mlang.errors import error
from mlang.registry import builtin
from mlang.values import operators
from mlang.values.core import result
from mlang.values.operators import align

# --------------------------------------------------- functional operator forms


def _operator(name: str, symbol: str, usage: str, gradient: Callable | None) -> None:
    def op(a: object, b: object) -> object:
        return operators.binary(symbol, a, b)

    op.__name__ = name
    builtin(name, help=usage, gradient=gradient, dl=None if gradient else "constant")(op)


def _is_scalar(v: object) -> bool:
    return ops.shape_of(v) == (1, 1)


def _plus_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(g, a), lambda: ops.unbroadcast(g, b))


def _minus_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(g, a), lambda: ops.unbroadcast(ops.uminus(g), b))


def _times_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(ops.times(g, ops.conj(b)), a),
            lambda: ops.unbroadcast(ops.times(g, ops.conj(a)), b))


def _rdivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(ops.rdivide(g, ops.conj(b)), a),
            lambda: ops.unbroadcast(ops.uminus(ops.times(g, ops.conj(ops.rdivide(y, b)))), b))


def _ldivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    ga, gb = _rdivide_rule(g, y, b, a)
    return (gb, ga)


def _power_rule(g: object, y: object, a: object, b: object) -> tuple:
    def by_base() -> object:
        if _is_scalar(b) and not isinstance(b, ops.DlArray):
            data = np.asarray(b)
            # a numeric exponent (a char one is taken by its code below)
            e = float(data.reshape(-1)[0].real) if data.dtype.kind in "fiub" else None
            if e == 2.0:
                return ops.unbroadcast(ops.times(g, ops.times(2.0, ops.conj(a))), a)
            if e == 1.0:
                return ops.unbroadcast(g, a)
        slope = ops.times(b, ops.call("power", a, ops.minus(b, 1.0)))
        return ops.unbroadcast(ops.times(g, ops.conj(slope)), a)
    return (by_base, lambda: ops.unbroadcast(ops.times(g, ops.conj(ops.times(y, ops.call("log", a)))), b))


def _mtimes_rule(g: object, y: object, a: object, b: object) -> tuple:
    da = a.data if type(a) is ops.DlArray else a
    db = b.data if type(b) is ops.DlArray else b
    if type(da) is np.ndarray and type(db) is np.ndarray and da.ndim == 2 and db.ndim == 2 \
            and da.dtype.kind == "f" and db.dtype.kind == "f" and da.shape != (1, 1) \
            and db.shape != (1, 1) and ops.data_of(g).dtype.kind == "f":
        # real matrices (the common case): as below, with the checks made once
        return (lambda: ops.matmul(g, b, False, True), lambda: ops.matmul(a, g, True, False))
    if _is_scalar(a) or _is_scalar(b):
        return _times_rule(g, y, a, b)
    if ops.data_of(a).dtype.kind == "f" and ops.data_of(b).dtype.kind == "f" \
            and ops.data_of(g).dtype.kind == "f" and ops.data_of(a).ndim == ops.data_of(b).ndim == 2:
        return (lambda: ops.matmul(g, b, False, True), lambda: ops.matmul(a, g, True, False))
    return (lambda: ops.mtimes(g, ops.ctranspose(b)), lambda: ops.mtimes(ops.ctranspose(a), g))


def _mrdivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    if _is_scalar(b):
        return _rdivide_rule(g, y, a, b)
    # y = a/b: ga = g/b', gb = -y'*ga
    ga = ops.call("mrdivide", g, ops.ctranspose(b))
    return (ga, lambda: ops.uminus(ops.mtimes(ops.ctranspose(y), ga)))


def _mldivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    if _is_scalar(a):
        return _ldivide_rule(g, y, a, b)
    # y = a\b: gb = a'\g, ga = -gb*y'
    gb = ops.call("mldivide", ops.ctranspose(a), g)
    return (lambda: ops.uminus(ops.mtimes(gb, ops.ctranspose(y))), gb)


def _mpower_rule(g: object, y: object, a: object, b: object) -> tuple:
    if not (_is_scalar(a) and _is_scalar(b)):
        raise error("deep:dlarray:mpowerNotScalar",
                    "Matrix power of a dlarray is supported only for scalar inputs. Use "
                    "POWER (.^) for elementwise power.")
    return _power_rule(g, y, a, b)


# name, symbol, help, gradient rule (None: a logical result, never differentiated)
_OPERATORS = [
    ("plus", "+", "C = plus(A, B)  A + B", _plus_rule),
    ("minus", "-", "C = minus(A, B)  A - B", _minus_rule),
    ("times", ".*", "C = times(A, B)  A .* B, element-wise product", _times_rule),
    ("rdivide", "./", "C = rdivide(A, B)  A ./ B, element-wise right division", _rdivide_rule),
    ("ldivide", ".\\", "C = ldivide(A, B)  A .\\ B, element-wise left division (B ./ A)",
     _ldivide_rule),
    ("power", ".^", "C = power(A, B)  A .^ B, element-wise power", _power_rule),
    ("mtimes", "*", "C = mtimes(A, B)  A * B, matrix product", _mtimes_rule),
    ("mrdivide", "/", "x = mrdivide(B, A)  B / A, solves x*A = B", _mrdivide_rule),
    ("mldivide", "\\", "x = mldivide(A, B)  A \\ B, solves A*x = B", _mldivide_rule),
    ("mpower", "^", "C = mpower(A, B)  A ^ B, matrix power", _mpower_rule),
    ("eq", "==", "TF = eq(A, B)  A == B", None),
    ("ne", "~=", "TF = ne(A, B)  A ~= B", None),
    ("lt", "<", "TF = lt(A, B)  A < B", None),
    ("le", "<=", "TF = le(A, B)  A <= B", None),
    ("gt", ">", "TF = gt(A, B)  A > B", None),
    ("ge", ">=", "TF = ge(A, B)  A >= B", None),
    ("and", "&", "TF = and(A, B)  A & B, element-wise logical AND", None),
    ("or", "|", "TF = or(A, B)  A | B, element-wise logical OR", None),
]

for _name, _symbol, _usage, _rule in _OPERATORS:
    _operator(_name, _symbol, _usage, _rule)


@builtin(gradient=lambda g, y, a: (ops.uminus(g),))
def uminus(a: object) -> object:
    """B = uminus(A)  -A"""
    return operators.uminus(a)


@builtin(gradient=lambda g, y, a: (g,))
def uplus(a: object) -> object:
    """B = uplus(A)  +A"""
    return operators.uplus(a)


@builtin("not", dl="constant")
def not_(a: object) -> object:
    """B = not(A)  ~A, logical NOT"""
    return operators.logical_not(a)


@builtin(dl="constant")
def xor(a: object, b: object) -> object:
    """C = xor(A, B)  logical exclusive OR: true where exactly one of A and B is nonzero"""
    x, y = operators.logical_scalar(a), operators.logical_scalar(b)
    if x is not None and y is not None:
        return x is not y
    x, y = align(operators.to_logical(a, "xor"), operators.to_logical(b, "xor"))
    check_expansion(x, y)
    return result(np.logical_xor(x, y))


@builtin(gradient=lambda g, y, a: (ops.transpose(g),))
def transpose(a: object) -> object:
    """B = transpose(A)  A.', transpose without conjugation"""
    return operators.transpose(a, False)


@builtin(gradient=lambda g, y, a: (ops.ctranspose(g),))
def ctranspose(a: object) -> object:
    """B = ctranspose(A)  A', complex conjugate transpose"""
    return operators.transpose(a, True)
