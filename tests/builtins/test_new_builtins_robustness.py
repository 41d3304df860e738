"""Awkward arguments of the statistics, special-matrix, spline, signal, sparse, ODE,
optimization, struct and text-extraction builtins: each gives a MATLAB value or a
MATLAB error, never a Python exception or a hang (one test per problem found)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def run(code: str) -> Interpreter:
    it = Interpreter(stdout=io.StringIO())
    it.eval(code)
    return it


def value(code: str) -> np.ndarray:
    return np.asarray(run(f"r = {code};").get("r"))


def identifier(code: str) -> str:
    with pytest.raises(MatlabError) as info:
        run(code)
    return info.value.identifier


HUGE_INT = "int64(9007199254740993)"
SIZE_LIMIT = "MATLAB:array:SizeLimitExceeded"

# ------------------------------------------------------------------ moving.py


def test_moving_window_longer_than_the_data_covers_all_of_it() -> None:
    a = run("a = movmean(single(2), 1e308); b = movprod(1:4, 1e308);")
    assert a.get("a").dtype == np.float32 and a.get("a").item() == 2
    assert np.array_equal(np.asarray(a.get("b")).ravel(), [24, 24, 24, 24])
    assert np.array_equal(value(f"movsum([1 2 3], {HUGE_INT})").ravel(), [6, 6, 6])


def test_moving_window_shorter_than_one_element_is_the_element() -> None:
    assert float(value("movmean(5, 0.5)")) == 5
    assert np.array_equal(value("movmax([3 1 2], 0.5)").ravel(), [3, 1, 2])


def test_smoothdata_of_complex_data() -> None:
    r = value("smoothdata([1+2i 3])")
    assert r.dtype.kind == "c" and r.shape == (1, 2)


# -------------------------------------------------------------- statistics.py


def test_histcounts_of_the_largest_doubles() -> None:
    it = run("[n, e, b] = histcounts(1e308); [n2, e2] = histcounts([-realmax realmax]);")
    assert float(it.get("n")) == 1 and float(it.get("b")) == 1
    assert np.isfinite(np.asarray(it.get("e"))).all()
    assert np.asarray(it.get("n2")).sum() == 2
    assert np.array_equal(np.asarray(it.get("e2")).ravel(), [-np.finfo(float).max,
                                                             np.finfo(float).max])


def test_histcounts_limits_spanning_all_doubles() -> None:
    assert np.asarray(value("histcounts(1:5, 'BinLimits', [-realmax realmax])")).sum() == 5
    assert np.asarray(value("histcounts([-realmax realmax], 'BinMethod', 'integers')")).sum() == 2


def test_histcounts_huge_number_of_bins() -> None:
    assert identifier(f"histcounts([1 2;3 4], {HUGE_INT})") == SIZE_LIMIT
    assert identifier("histcounts(1:3, 'BinWidth', 1e-300, 'BinLimits', [0 1e300])") == \
        "MATLAB:histcounts:MaxNBinsExceeded"
    assert identifier("histcounts(1e300, 'BinWidth', 1e-300)") == \
        "MATLAB:histcounts:MaxNBinsExceeded"
    assert identifier("histcounts(1:5, 'BinMethod', 'fd', 'BinLimits', [0 1e300])") == \
        "MATLAB:histcounts:MaxNBinsExceeded"


# ---------------------------------------------------------------- matrices.py


@pytest.mark.parametrize("code", ["invhilb(1e308)", f"pascal({HUGE_INT})", "pascal(1e308)",
                                  f"wilkinson({HUGE_INT})", f"hadamard({HUGE_INT})"])
def test_test_matrices_of_huge_order(code: str) -> None:
    assert identifier(code) == SIZE_LIMIT


def test_pascal_by_rows_matches_matlab() -> None:
    assert np.array_equal(value("pascal(4)"), [[1, 1, 1, 1], [1, 2, 3, 4], [1, 3, 6, 10],
                                               [1, 4, 10, 20]])
    assert np.array_equal(value("pascal(4, 1)"), [[1, 0, 0, 0], [1, -1, 0, 0], [1, -2, 1, 0],
                                                  [1, -3, 3, -1]])
    assert np.array_equal(value("pascal(4, 2)"), [[-1, -1, -1, -1], [3, 2, 1, 0], [-3, -1, 0, 0],
                                                  [1, 0, 0, 0]])


def test_invhilb_of_large_order_overflows_instead_of_failing() -> None:
    assert np.array_equal(value("invhilb(3)"), [[9, -36, 30], [-36, 192, -180], [30, -180, 180]])
    assert float(value("invhilb(13)")[-1, -1]) == 182811491808400
    assert not np.isfinite(value("invhilb(500)")).all()


# ----------------------------------------------------------------- splines.py


def test_mkpp_with_bad_dimensions() -> None:
    assert identifier("mkpp(0.5, 'like', -Inf)") == "MATLAB:mkpp:BreaksLessThanTwo"
    assert identifier("mkpp([1 2], [1 2], NaN)") == "MATLAB:mkpp:PPNumberMismatchCoeffs"
    assert identifier("mkpp([1 2], [1 2], Inf)") == "MATLAB:mkpp:PPNumberMismatchCoeffs"
    assert float(run("pp = mkpp(1:5, rand(2,3,2), []); d = pp.dim;").get("d")) == 1


def test_ppval_of_a_pp_with_bad_dimension() -> None:
    def pp(dim: str) -> str:
        return f"struct('form','pp','breaks',[0 1],'coefs',[1 2],'pieces',1,'order',2,'dim',{dim})"
    assert identifier(f"ppval({pp('NaN')}, 1)") == "MATLAB:unmkpp:inputsNotPP"
    assert identifier(f"ppval({pp('1e308')}, 1)") == "MATLAB:unmkpp:inputsNotPP"
    assert identifier(f"unmkpp({pp('Inf')})") == "MATLAB:unmkpp:inputsNotPP"


# -------------------------------------------- special.py, representation.py


def test_non_finite_orders_of_special_functions() -> None:
    assert identifier("psi(Inf, 2)") == "MATLAB:psi:NonIntegerDerivative"
    assert identifier("legendre(NaN, 0.5)") == "MATLAB:legendre:NeedIntegerDeg"
    assert identifier("legendre(1e308, 0.5)") == SIZE_LIMIT


def test_rats_field_width() -> None:
    assert identifier("rats(5, Inf)") == "MATLAB:rats:invalidStrlen"
    assert identifier("rats(0.5, 2^40)") == SIZE_LIMIT


# ------------------------------------------------------------------ signal.py


def test_fft_lengths_too_large() -> None:
    assert identifier("fft(zeros(0,0), 1e308)") == SIZE_LIMIT
    assert identifier("fftn(2, 'rows')") == "MATLAB:fftn:invalidSize"


# --------------------------------------------------------------- rescaling.py


def test_normalize_along_a_dimension_past_64() -> None:
    assert np.array_equal(value("normalize([1 2 3], 70)"), value("normalize([1 2 3], 3)"),
                          equal_nan=True)


# ------------------------------------------------------------------ sparse.py


def test_spdiags_with_non_finite_or_huge_diagonals() -> None:
    assert identifier("spdiags([1 2;3 4], Inf)") == "MATLAB:spdiags:InvalidDiagonals"
    assert np.array_equal(value("spdiags(magic(3), 1e308)"), np.zeros((3, 1)))


def test_sparse_indices_beyond_any_size() -> None:
    assert identifier("sparse(1e308, [1 2;3 4], Inf)") == "MATLAB:sparsfcn:invalidSize"
    assert identifier("sparse(Inf, 1, 1)") == "MATLAB:sparsfcn:invalidSize"


# ------------------------------------------------- conversion.py, structs.py


def test_shiftdim_by_a_huge_negative_count() -> None:
    assert identifier("shiftdim(1:3, -1e308)") == SIZE_LIMIT


def test_cell2struct_along_a_dimension_past_64() -> None:
    assert float(run("s = cell2struct({1}, {'a'}, 70); a = s.a;").get("a")) == 1


# ------------------------------------------------------ extract.py, scan.py


def test_non_finite_and_complex_positions() -> None:
    assert identifier("extractBetween('int8', Inf, 3+4i)") == "MATLAB:string:MustBeInteger"
    assert identifier("extractAfter('abc', 1+1i)") == "MATLAB:string:MustBeInteger"


def test_pad_to_a_huge_or_undefined_width() -> None:
    assert identifier(f"pad('like', {HUGE_INT})") == SIZE_LIMIT
    assert identifier("pad('ab', NaN)") == "MATLAB:pad:InvalidNumberOfCharacters"


@pytest.mark.parametrize("fill", ["{}", "{'x', 'y'}", "''", "'xy'", "strings(0)"])
def test_pad_takes_exactly_one_pad_character(fill: str) -> None:
    assert identifier(f"pad('ab', 3, {fill})") == "MATLAB:pad:InvalidCharacter"
    assert identifier(f"pad('ab', 3, 'left', {fill})") == "MATLAB:pad:InvalidCharacter"


def test_sscanf_integer_conversion_of_an_overflowing_number() -> None:
    assert float(value("sscanf('1e400', '%d')")) == np.inf


# --------------------------------------------------------- optimization, ODEs


def test_nan_tolerance_of_fzero_is_refused() -> None:
    assert identifier("fzero(@(x) x - 1, [0 2], optimset('TolX', NaN))") == \
        "MATLAB:optimset:invalidOption"


def test_ode_tspan_and_refine_must_be_finite() -> None:
    assert identifier("ode45(@(t,y) -y, [0 Inf], 1)") == "MATLAB:odearguments:TspanNotFinite"
    assert identifier("ode45(@(t,y) -y, [0 NaN], 1)") == "MATLAB:odearguments:TspanNotFinite"
    assert identifier("ode45(@(t,y) -y, [0 1], 1, odeset('Refine', NaN))") == \
        "MATLAB:odearguments:RefineNotPosInteger"
    assert identifier("ode45(@(t,y) -y, [0 1], 1, odeset('Refine', 1e308))") == SIZE_LIMIT


def test_stiff_solvers_with_nan_derivatives() -> None:
    assert identifier("ode15s(@(t,y) NaN, [0 1], 1)") == "MATLAB:ode15s:IntegrationTolNotMet"
    assert identifier("ode23s(@(t,y) NaN, [0 1], 1)") == "MATLAB:ode23s:IntegrationTolNotMet"


def test_ode113_stops_when_the_solution_blows_up() -> None:
    assert identifier("ode113(@(t,y) y.^2, [0 10], 1)") == "MATLAB:ode113:IntegrationTolNotMet"
    it = run("[t, y] = ode113(@(t,y) -y, [0 1], 1);")
    assert abs(np.asarray(it.get("y"))[-1, 0] - np.exp(-1)) < 1e-3


def test_sparse_size_vector_of_another_class() -> None:
    assert value("size(speye(int8([2 3])))").ravel().tolist() == [2, 3]
    assert identifier("speye([2+1i 3])") == "MATLAB:sparsfcn:invalidSize"


def test_rats_and_rat_of_a_subnormal(m):
    m.run("x = rats(5e-324, 3); [n, d] = rat(1 + 5e-324);")
    v = m.interp.base.vars
    assert (v["n"], v["d"]) == (1.0, 1.0) and v["x"].shape[0] == 1
