"""Fast paths of the trace give the gradients of the general path: rows and columns of a
dlarray, tanh differentiated three times, gradients summed in place, matrix products."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from tests.builtins.conftest import Session

HELPERS = """
function g = row_and_column(X)
u = sum(X.^3, 'all');
du = dlgradient(u, X, 'EnableHigherDerivatives', true);
g = dlgradient(sum(du(2,:)) + sum(du(:,3)), X);
end
"""

TANH = """
function [g1, g2, g3] = tanh_three(x)
y = sum(tanh(2*x), 'all');
g1 = dlgradient(y, x, 'EnableHigherDerivatives', true);
g2 = dlgradient(sum(g1.*g1, 'all'), x, 'EnableHigherDerivatives', true);
g3 = dlgradient(sum(g2.*x, 'all'), x);
end
"""

SHARED = """
function g = shared(x)
a = x + x;
b = a + a;
y = sum(b .* x + b + a, 'all');
g = dlgradient(y, x);
end
"""


@pytest.fixture()
def m(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "row_and_column.m").write_text(HELPERS)
    (tmp_path / "tanh_three.m").write_text(TANH)
    (tmp_path / "shared.m").write_text(SHARED)
    session = Session()
    session.interp.invalidate()
    return session


def data(v: object) -> np.ndarray:
    assert type(v) is DlArray
    return v.data


def test_gradient_through_a_row_and_a_column(m: Session) -> None:
    g = data(m.value("g = dlfeval(@row_and_column, dlarray([1 2 3; 4 5 6]));", "g"))
    # d/dX of sum(6*X(2,:)) + sum(6*X(:,3)), scaled by d(3x^2)/dx = 6x
    np.testing.assert_allclose(g, [[0, 0, 18], [24, 30, 72]])


def test_tanh_first_second_and_third_derivatives(m: Session) -> None:
    x = np.array([[0.3, -0.7, 1.2]])
    g1, g2, g3 = m.values("[g1, g2, g3] = dlfeval(@tanh_three, dlarray(x));", "g1", "g2", "g3", x=x)
    t = np.tanh(2 * x)
    s = 1 - t * t
    expected_g2 = -32 * t * s**2
    derivative_g2 = -32 * (2 * s**3 - 8 * t * t * s**2)
    np.testing.assert_allclose(data(g1), 2 * s, rtol=1e-12)
    np.testing.assert_allclose(data(g2), expected_g2, rtol=1e-12)
    np.testing.assert_allclose(data(g3), expected_g2 + x * derivative_g2, rtol=1e-12)


def test_gradients_of_a_value_used_many_times(m: Session) -> None:
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    g = data(m.value("g = dlfeval(@shared, dlarray(x));", "g", x=x))
    # y = 4x.*x + 4x + 2x: dy/dx = 8x + 6
    np.testing.assert_allclose(g, 8 * x + 6)


def test_matrix_product_of_single_dlarrays_is_single(m: Session) -> None:
    y = m.value("y = dlarray(single([1 2; 3 4])) * dlarray(single([1; 1]));", "y")
    assert data(y).dtype == np.float32
    np.testing.assert_array_equal(data(y), [[3], [7]])
