"""Optimisation: fzero, fminbnd, fminsearch and lsqnonneg (their options, optimset and
optimget, are in optim_options).

fzero is Brent's zeroin with MATLAB's search for a sign change from a scalar start;
fminbnd is Brent's golden-section search with parabolic interpolation; fminsearch is the
Nelder-Mead simplex of Lagarias et al. with MATLAB's initial simplex; lsqnonneg is the
Lawson-Hanson active-set method.  Each follows the algorithm MATLAB documents, so the
iterates, counts and displays agree with MATLAB's, not only the answers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.math.optim_options import (
    EPS,
    STOPPED_MESSAGE,
    Objective,
    Options,
    OutputFunctions,
    output_struct,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import EMPTY, result, to_double_array

# ---------------------------------------------------------------------- fzero


@builtin(interp=True, nargout=True, max_out=4)
def fzero(interp: Any, fun: Any, x0: Any, options: Any = None, *extra: Any,
          nargout: int = 1) -> Any:
    """x = fzero(fun,x0)
    x = fzero(fun,x0,options)
    [x,fval,exitflag,output] = fzero(___)

    Root of a nonlinear function of one variable: from a starting point x0
    (searching for a sign change around it) or within an interval [a b]
    whose end values differ in sign.  Options: TolX (eps), Display ('notify',
    'off', 'final', 'iter'), FunValCheck, OutputFcn."""
    opts = Options(options, "fzero")
    tol = opts.number("TolX")
    f = Objective(interp, fun, extra, "fzero", opts)
    show = opts.display() == "iter"
    outputs = OutputFunctions(interp, opts)

    def report(state: str, x: float, fx: float, procedure: str, lo: float, flo: float,
               hi: float, fhi: float, iteration: int) -> bool:
        """The OutputFcn call; True when an output function stops."""
        return bool(outputs) and outputs(x, state, funccount=f.count, fval=fx, intervala=lo,
                                         intervalb=hi, fintervala=flo, fintervalb=fhi,
                                         iteration=iteration, procedure=procedure)
    start = to_double_array(x0)
    if start.dtype.kind == "c" or start.size not in (1, 2):
        raise error("MATLAB:fzero:InvalidX0",
                    "Second argument must be a finite scalar or vector of length 2.")
    start = start.reshape(-1)
    if not np.all(np.isfinite(start)):
        raise error("MATLAB:fzero:Arg2NotFinite",
                    "Second argument must be finite.")
    intervaliter = 0
    if start.size == 2:
        a, b = float(start[0]), float(start[1])
        fa, fb = f(a), f(b)
        for v in (fa, fb):
            if isinstance(v, complex) or not math.isfinite(v):
                raise error("MATLAB:fzero:ValuesAtEndPtsComplexOrNotFinite",
                            "Function values at interval endpoints must be finite and real.")
        if fa == 0:
            return _fzero_out(a, fa, 1, intervaliter, 0, f.count, nargout)
        if fb == 0:
            return _fzero_out(b, fb, 1, intervaliter, 0, f.count, nargout)
        if (fa > 0) == (fb > 0):
            raise error("MATLAB:fzero:ValuesAtEndPtsSameSign",
                        "The function values at the interval endpoints must differ in sign.")
        if report("init", b, fb, "initial", a, fa, b, fb, 0):
            return _fzero_out(b, fb, -1, 0, 0, f.count, nargout)
    else:
        x = float(start[0])
        fx = f(x)
        if fx == 0:
            return _fzero_out(x, fx, 1, 0, 0, f.count, nargout)
        if isinstance(fx, complex) or not math.isfinite(fx):
            raise error("MATLAB:fzero:ValueAtInitGuessComplexOrNotFinite",
                        "Function value at starting guess must be finite and real.")
        dx = x / 50 if x != 0 else 1 / 50
        a = b = x
        fa = fb = fx
        if show:
            interp.write(f" \nSearch for an interval around {_num2str(x)} containing a sign "
                         "change:\n Func-count    a          f(a)             b          f(b)"
                         "        Procedure\n")
            interp.write(_SEARCH_ROW.format(f.count, a, fa, b, fb, "initial interval"))
        if report("init", x, fx, "initial interval", a, fa, b, fb, 0):
            return _fzero_out(x, fx, -1, 0, 0, f.count, nargout)
        while (fa > 0) == (fb > 0):
            intervaliter += 1
            dx = math.sqrt(2) * dx
            for side in (-1, 1):
                point = x + side * dx
                value = f(point)
                if isinstance(value, complex) or not math.isfinite(value) or \
                        not math.isfinite(point):
                    if opts.display() not in ("off", "none"):
                        kind = "complex" if isinstance(value, complex) else "NaN or Inf"
                        interp.write("Exiting fzero: aborting search for an interval containing "
                                     f"a sign change\n    because {kind} function value "
                                     "encountered during search.\n(Function value at "
                                     f"{point:g} is {_num(value)}.)\nCheck function or try "
                                     "again with a different starting value.\n")
                    flag = -4 if isinstance(value, complex) else -3
                    return _fzero_out(math.nan, math.nan, flag, intervaliter, 0, f.count,
                                      nargout)
                if side < 0:
                    a, fa = point, value
                else:
                    b, fb = point, value
                if (fa > 0) != (fb > 0) or side > 0:
                    if show:
                        interp.write(_SEARCH_ROW.format(f.count, a, fa, b, fb, "search"))
                    if report("iter", b, fb, "search", a, fa, b, fb, intervaliter):
                        return _fzero_out(b, fb, -1, intervaliter, 0, f.count, nargout)
                if (fa > 0) != (fb > 0):
                    break
    savefa, savefb = abs(fa), abs(fb)
    savea, saveb = a, b
    if show:
        interp.write(f" \nSearch for a zero in the interval [{_num2str(a)}, {_num2str(b)}]:\n"
                     " Func-count    x          f(x)             Procedure\n")

    def step(x: float, fx: float, procedure: str, c: float, fc: float, iteration: int) -> bool:
        if show:
            interp.write(_ZERO_ROW.format(f.count, x, fx, procedure))
        lo, flo, hi, fhi = (x, fx, c, fc) if x <= c else (c, fc, x, fx)
        return report("iter", x, fx, procedure, lo, flo, hi, fhi, iteration)

    b, fb, iters, stopped = _zeroin(f, a, fa, b, fb, tol, step)
    if stopped:
        report("done", b, fb, "", b, fb, b, fb, iters)
        return _fzero_out(b, fb, -1, intervaliter, iters, f.count, nargout)
    flag = 1 if abs(fb) <= max(savefa, savefb) else -5
    report("done", b, fb, "", b, fb, b, fb, iters)
    if opts.display() in ("iter", "final") and flag == 1:
        interp.write(f" \nZero found in the interval [{savea:g}, {saveb:g}]\n")
    return _fzero_out(b, fb, flag, intervaliter, iters, f.count, nargout)


def _num(v: float | complex) -> str:
    if isinstance(v, complex):
        return f"{v.real:g}{v.imag:+g}i"
    return "NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf") if math.isinf(v) else f"{v:g}"


_SEARCH_ROW = "{:5.0f}   {:13.6g} {:13.6g} {:13.6g} {:13.6g}   {}\n"
_ZERO_ROW = " {:5.0f}   {:13.6g} {:13.6g}        {}\n"


def _num2str(x: float) -> str:
    """num2str of a real scalar: an integer as such, else 4 digits after the leading
    digits (at least 5 significant)."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    digits = max(math.floor(math.log10(abs(x))) + 1, 1) + 4
    return f"{x:.{digits}g}"


def _zeroin(f: Objective, a: float, fa: float, b: float, fb: float, tol: float,
            step: Any) -> tuple[float, float, int, bool]:
    """Brent's zeroin on a bracket [a b] with a sign change (MATLAB's fzero loop):
    the zero, its value, the iterations and whether an output function stopped it.
    ``step(x, f(x), procedure, c, f(c), iteration)`` reports each evaluation (c is the
    other end of the bracket) and returns True to stop."""
    fc, c = fb, b
    d = e = b - a
    iters = 0
    if step(b, fb, "initial", a, fa, 0):
        return b, fb, iters, True
    while fb != 0 and a != b:
        if (fb > 0) == (fc > 0):
            c, fc = a, fa
            d = e = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        m = 0.5 * (c - b)
        toler = 2.0 * tol * max(abs(b), 1.0)
        if abs(m) <= toler or fb == 0.0:
            break
        procedure = "bisection"
        if abs(e) < toler or abs(fa) <= abs(fb):
            d = e = m
        else:
            s = fb / fa
            if a == c:
                p = 2.0 * m * s
                q = 1.0 - s
            else:
                q = fa / fc
                r = fb / fc
                p = s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0))
                q = (q - 1.0) * (r - 1.0) * (s - 1.0)
            if p > 0:
                q = -q
            else:
                p = -p
            if 2.0 * p < 3.0 * m * q - abs(toler * q) and p < abs(0.5 * e * q):
                e, d = d, p / q
                procedure = "interpolation"
            else:
                d = e = m
        a, fa = b, fb
        if abs(d) > toler:
            b = b + d
        elif b > c:
            b = b - toler
        else:
            b = b + toler
        fb = f(b)
        iters += 1
        if step(b, fb, procedure, c, fc, iters):
            return b, fb, iters, True
    return b, fb, iters, False


def _fzero_out(x: float, fval: float, flag: int, intervaliter: int, iters: int, count: int,
               nargout: int) -> Any:
    if nargout <= 1:
        return x
    messages = {1: "Zero found in the interval [a, b]", -1: STOPPED_MESSAGE,
                -3: "NaN or Inf function value encountered during search for an interval "
                    "containing a sign change.",
                -4: "Complex function value encountered during search for an interval "
                    "containing a sign change.",
                -5: "Current point x may be near a singular point. The interval [a, b] "
                    "has a small length."}
    output = output_struct(intervaliterations=intervaliter, iterations=iters, funcCount=count,
                     algorithm="bisection, interpolation", message=messages[flag])
    return (x, fval, float(flag), output)[:nargout]


# --------------------------------------------------------------------- fminbnd


@builtin(interp=True, nargout=True, max_out=4)
def fminbnd(interp: Any, fun: Any, x1: Any, x2: Any, options: Any = None, *extra: Any,
            nargout: int = 1) -> Any:
    """x = fminbnd(fun,x1,x2)
    x = fminbnd(fun,x1,x2,options)
    [x,fval,exitflag,output] = fminbnd(___)

    Minimum of a function of one variable on the interval x1 < x < x2, by
    golden-section search and parabolic interpolation.  Options: TolX
    (1e-4), MaxFunEvals (500), MaxIter (500), Display, FunValCheck,
    OutputFcn."""
    opts = Options(options, "fminbnd")
    tol = opts.number("TolX")
    maxfun, maxiter = opts.number("MaxFunEvals"), opts.number("MaxIter")
    lo, hi = to_double_array(x1), to_double_array(x2)
    if lo.size != 1 or hi.size != 1 or lo.dtype.kind == "c" or hi.dtype.kind == "c":
        raise error("MATLAB:fminbnd:NonScalarInput",
                    "Lower bound and upper bound must be real scalars.")
    a, b = float(lo.reshape(-1)[0]), float(hi.reshape(-1)[0])
    if a > b:
        if opts.display() not in ("off", "none"):
            interp.write("Exiting: The bounds are inconsistent.\n")
        out = (EMPTY, EMPTY, -2.0, output_struct(iterations=0, funcCount=0,
                                           algorithm="golden section search, parabolic "
                                                     "interpolation",
                                           message="Exiting: The bounds are inconsistent."))
        return out[0] if nargout <= 1 else out[:nargout]
    f = Objective(interp, fun, extra, "fminbnd", opts)
    seps = math.sqrt(EPS)
    c = 0.5 * (3.0 - math.sqrt(5.0))
    v = w = xf = a + c * (b - a)
    d = e = 0.0
    fx = f(xf)
    fv = fw = fx
    num, it, flag = 1, 0, 1
    iterating = opts.display() == "iter"
    row = " {:5.0f}   {:12.6g} {:12.6g} {}\n"
    if iterating:
        interp.write(" \n Func-count     x          f(x)         Procedure\n")
        interp.write(row.format(num, xf, fx, "       initial"))
    outputs = OutputFunctions(interp, opts)

    def report(state: str, procedure: str) -> bool:
        return bool(outputs) and outputs(xf, state, iteration=it, funccount=num, fval=fx,
                                         procedure=procedure)

    if report("init", "") or report("iter", "initial"):
        flag = -1
    xm = 0.5 * (a + b)
    tol1 = seps * abs(xf) + tol / 3.0
    tol2 = 2.0 * tol1
    while flag == 1 and abs(xf - xm) > tol2 - 0.5 * (b - a):
        golden = True
        if abs(e) > tol1:
            golden = False
            r = (xf - w) * (fx - fv)
            q = (xf - v) * (fx - fw)
            p = (xf - v) * q - (xf - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r, e = e, d
            if abs(p) < abs(0.5 * q * r) and q * (a - xf) < p < q * (b - xf):
                d = p / q
                x = xf + d
                if x - a < tol2 or b - x < tol2:
                    d = tol1 * (np.sign(xm - xf) + (xm == xf))
            else:
                golden = True
        procedure = "       parabolic"
        if golden:
            e = a - xf if xf >= xm else b - xf
            d = c * e
            procedure = "       golden"
        x = xf + (np.sign(d) + (d == 0)) * max(abs(d), tol1)
        fu = f(float(x))
        num += 1
        it += 1
        if iterating:
            interp.write(row.format(num, float(x), fu, procedure))
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            v, fv, w, fw, xf, fx = w, fw, xf, fx, float(x), fu
        else:
            if x < xf:
                a = float(x)
            else:
                b = float(x)
            if fu <= fw or w == xf:
                v, fv, w, fw = w, fw, float(x), fu
            elif fu <= fv or v == xf or v == w:
                v, fv = float(x), fu
        xm = 0.5 * (a + b)
        tol1 = seps * abs(xf) + tol / 3.0
        tol2 = 2.0 * tol1
        if report("iter", procedure.strip()):
            flag = -1
        elif num >= maxfun or it >= maxiter:
            flag = 0
    if flag == 0 and opts.display() not in ("off", "none"):
        interp.write("\nExiting: Maximum number of function evaluations or iterations has "
                     f"been exceeded\n         - increase MaxFunEvals and/or MaxIter.\n"
                     f"         Current function value: {fx:f} \n\n")
    message = (f"Optimization terminated:\n the current x satisfies the termination criteria "
               f"using OPTIONS.TolX of {tol:e} \n" if flag == 1 else STOPPED_MESSAGE if flag < 0
               else "Maximum number of function evaluations or iterations has been exceeded.")
    if flag == 1 and opts.display() in ("final", "iter"):
        interp.write(" \n" + message + "\n")
    report("done", "")
    if nargout <= 1:
        return xf
    output = output_struct(iterations=it, funcCount=num,
                     algorithm="golden section search, parabolic interpolation",
                     message=message)
    return (xf, fx, float(flag), output)[:nargout]


# ------------------------------------------------------------------ fminsearch


@builtin(interp=True, nargout=True, max_out=4)
def fminsearch(interp: Any, fun: Any, x0: Any, options: Any = None, *extra: Any,
               nargout: int = 1) -> Any:
    """x = fminsearch(fun,x0)
    x = fminsearch(fun,x0,options)
    [x,fval,exitflag,output] = fminsearch(___)

    Unconstrained minimum of a function of several variables by the
    Nelder-Mead simplex method, starting from x0 (x has the size of x0).
    Options: TolX (1e-4), TolFun (1e-4), MaxIter and MaxFunEvals
    (200*numel(x0)), Display, FunValCheck, OutputFcn."""
    opts = Options(options, "fminsearch")
    start = to_double_array(x0)
    if start.dtype.kind == "c":
        raise error("MATLAB:fminsearch:ComplexX0", "X0 must be real.")
    shape = start.shape
    n = start.size
    tolx, tolf = opts.number("TolX"), opts.number("TolFun")
    maxfun, maxiter = opts.number("MaxFunEvals", n), opts.number("MaxIter", n)
    f = Objective(interp, fun, extra, "fminsearch", opts)

    def at(point: np.ndarray) -> float:
        value = f(result(point.reshape(shape, order="F").copy()))
        return value.real if isinstance(value, complex) else value

    rho, chi, psi, sigma = 1.0, 2.0, 0.5, 0.5
    xin = start.reshape(-1, order="F").astype(np.float64)
    v = np.zeros((n, n + 1))
    fv = np.zeros(n + 1)
    v[:, 0] = xin
    fv[0] = at(xin)
    for j in range(n):
        y = xin.copy()
        y[j] = 1.05 * y[j] if y[j] != 0 else 0.00025
        v[:, j + 1] = y
        fv[j + 1] = at(y)
    iterating = opts.display() == "iter"
    row = " {:5.0f}        {:5.0f}     {:12.6g}         {}\n"
    outputs = OutputFunctions(interp, opts)

    def report(state: str, iteration: int, count: int, how: str) -> bool:
        """Display 'iter' and the OutputFcn calls; True when an output function stops."""
        if iterating and state == "iter":
            interp.write(row.format(iteration, count, fv[0], how))
        return bool(outputs) and outputs(result(v[:, 0].reshape(shape, order="F").copy()),
                                         state, iteration=iteration, funccount=count,
                                         fval=float(fv[0]), procedure=how)

    if iterating:
        interp.write(" \n Iteration   Func-count     min f(x)         Procedure\n")
    stopped = report("init", 0, 1, "") or report("iter", 0, 1, "")
    order = np.argsort(fv, kind="stable")
    fv, v = fv[order], v[:, order]
    itercount, evals = 1, n + 1
    stopped = stopped or report("iter", itercount, evals, "initial simplex")
    while not stopped and evals < maxfun and itercount < maxiter:
        if (np.max(np.abs(fv[0] - fv[1:]), initial=0.0) <= max(tolf, 10 * np.spacing(abs(fv[0])))
                and np.max(np.abs(v[:, 1:] - v[:, :1]), initial=0.0)
                <= max(tolx, 10 * np.spacing(abs(np.max(v[:, 0]))))):
            break
        xbar = v[:, :n].sum(axis=1) / n
        xr = (1 + rho) * xbar - rho * v[:, -1]
        fxr = at(xr)
        evals += 1
        shrink = False
        if fxr < fv[0]:
            xe = (1 + rho * chi) * xbar - rho * chi * v[:, -1]
            fxe = at(xe)
            evals += 1
            if fxe < fxr:
                v[:, -1], fv[-1], how = xe, fxe, "expand"
            else:
                v[:, -1], fv[-1], how = xr, fxr, "reflect"
        elif fxr < fv[n - 1]:
            v[:, -1], fv[-1], how = xr, fxr, "reflect"
        elif fxr < fv[-1]:
            xc = (1 + psi * rho) * xbar - psi * rho * v[:, -1]
            fxc = at(xc)
            evals += 1
            if fxc <= fxr:
                v[:, -1], fv[-1], how = xc, fxc, "contract outside"
            else:
                shrink = True
        else:
            xcc = (1 - psi) * xbar + psi * v[:, -1]
            fxcc = at(xcc)
            evals += 1
            if fxcc < fv[-1]:
                v[:, -1], fv[-1], how = xcc, fxcc, "contract inside"
            else:
                shrink = True
        if shrink:
            how = "shrink"
            for j in range(1, n + 1):
                v[:, j] = v[:, 0] + sigma * (v[:, j] - v[:, 0])
                fv[j] = at(v[:, j])
            evals += n
        order = np.argsort(fv, kind="stable")
        fv, v = fv[order], v[:, order]
        itercount += 1
        stopped = report("iter", itercount, evals, how)
    x = result(v[:, 0].reshape(shape, order="F").copy())
    fval = float(fv[0])
    flag, message = 1, (
        "Optimization terminated:\n the current x satisfies the termination criteria using "
        f"OPTIONS.TolX of {tolx:e} \n and F(X) satisfies the convergence criteria using "
        f"OPTIONS.TolFun of {tolf:e} \n")
    if stopped:
        flag, message = -1, STOPPED_MESSAGE
    elif evals >= maxfun or itercount >= maxiter:
        flag = 0
        what = "function evaluations" if evals >= maxfun else "iterations"
        option = "MaxFunEvals" if evals >= maxfun else "MaxIter"
        message = (f"Exiting: Maximum number of {what} has been exceeded\n         - increase "
                   f"{option} option.\n         Current function value: {fval:f} \n")
        if opts.display() not in ("off", "none"):
            interp.write(" \n" + message + "\n")
    if opts.display() in ("final", "iter") and flag == 1:
        interp.write(" \n" + message + "\n")
    report("done", itercount, evals, "")
    if nargout <= 1:
        return x
    output = output_struct(iterations=itercount, funcCount=evals,
                     algorithm="Nelder-Mead simplex direct search", message=message)
    return (x, fval, float(flag), output)[:nargout]


# ------------------------------------------------------------------- lsqnonneg


@builtin(interp=True, nargout=True, max_out=6)
def lsqnonneg(interp: Any, C: Any, d: Any, options: Any = None, *, nargout: int = 1) -> Any:
    """x = lsqnonneg(C,d)
    x = lsqnonneg(C,d,options)
    [x,resnorm,residual,exitflag,output,lambda] = lsqnonneg(___)

    Nonnegative linear least squares: the x >= 0 minimising norm(C*x - d),
    by the Lawson-Hanson active-set method as MATLAB runs it (its tolerance
    TolX, default 10*eps*norm(C,1)*length(C), its iteration count and its
    Lagrange multipliers lambda = C'*(d - C*x))."""
    A, b = to_double_array(C), to_double_array(d)
    if A.dtype.kind == "c" or b.dtype.kind == "c":
        raise error("MATLAB:lsqnonneg:ComplexCorD", "C and d must be real.")
    if A.ndim != 2 or b.ndim != 2 or min(b.shape) > 1 and b.size:
        raise error("MATLAB:lsqnonneg:NotMatrix", "C must be a matrix and d a vector.")
    b = b.reshape(-1)
    if A.shape[0] != b.size:
        raise error("MATLAB:lsqnonneg:InvalidInputSize",
                    "The number of rows in C must equal the length of d.")
    opts = Options(options, "lsqnonneg")
    n = A.shape[1]
    given = opts.raw("TolX")
    tol = (10 * EPS * float(np.linalg.norm(A, 1)) * max(A.shape) if isinstance(given, str)
           else opts.number("TolX"))
    x, w, outer, flag = _lawson_hanson(A, b, tol, 3 * n)
    if flag == 0 and opts.display() not in ("off", "none"):
        interp.write("Exiting: Iteration count is exceeded, exiting LSQNONNEG.\n"
                     "Try raising the tolerance (OPTIONS.TolX).\n")
    residual = b - A @ x
    resnorm = float(residual @ residual)
    out_x = result(x.reshape(-1, 1))
    if nargout <= 1:
        return out_x
    message = ("Optimization terminated." if flag == 1 else
               "Iteration count is exceeded, exiting LSQNONNEG. Try raising the tolerance "
               "(OPTIONS.TolX).")
    output = output_struct(iterations=outer, algorithm="active-set", message=message)
    return (out_x, resnorm, result(residual.reshape(-1, 1)), float(flag), output,
            result(w.reshape(-1, 1)))[:nargout]


def _lawson_hanson(A: np.ndarray, b: np.ndarray, tol: float,
                   itmax: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """MATLAB's lsqnonneg loop: the solution, the multipliers, the outer iterations and the
    exit flag (0 when the inner iterations exceed itmax)."""
    n = A.shape[1]
    positive = np.zeros(n, dtype=bool)
    zero = np.ones(n, dtype=bool)
    x = np.zeros(n)
    w = A.T @ (b - A @ x)
    outer = inner = 0
    flag = 1

    def solve(active: np.ndarray) -> np.ndarray:
        z = np.zeros(n)
        z[active] = np.linalg.lstsq(A[:, active], b, rcond=None)[0]
        return z

    while zero.any() and np.any(w[zero] > tol):
        outer += 1
        wz = np.where(positive, -np.inf, w)
        t = int(np.argmax(wz))
        positive[t], zero[t] = True, False
        z = solve(positive)
        while np.any(z[positive] <= 0):
            inner += 1
            if inner > itmax:
                return z, A.T @ (b - A @ z), outer, 0
            q = (z <= 0) & positive
            alpha = np.min(x[q] / (x[q] - z[q]))
            x = x + alpha * (z - x)
            zero = ((np.abs(x) < tol) & positive) | zero
            positive = ~zero
            z = solve(positive)
        x = z
        w = A.T @ (b - A @ x)
    return x, w, outer, flag
