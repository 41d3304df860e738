"""Session.grad: MATLAB losses differentiated by dlfeval/dlgradient, handed to Python;
and the SciPy example that fits a MATLAB model with them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

import mlang

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture()
def m():
    return mlang.Session()


def test_gradient_of_an_anonymous_function(m):
    w = np.array([1.0, -2.0, 3.0])
    loss, (g,) = m.grad("@(w) sum(w.^2)", w)
    assert loss == 14.0 and isinstance(loss, float)
    assert g.shape == (3,)  # shaped like the parameter given
    np.testing.assert_allclose(g, 2 * w)


def test_several_parameters_and_data(m):
    X = np.arange(6.0).reshape(3, 2)
    y = np.array([[1.0], [0.0], [2.0]])
    w, b = np.array([[0.5], [-1.0]]), 0.25
    loss, (gw, gb) = m.grad("@(w, b, X, y) mean((X*w + b - y).^2)", w, b, data=(X, y))
    r = X @ w + b - y
    assert loss == pytest.approx(float(np.mean(r**2)))
    np.testing.assert_allclose(gw, 2 * X.T @ r / 3)
    assert isinstance(gb, float) and gb == pytest.approx(float(2 * r.mean()))


def test_struct_parameters_give_dicts_of_gradients(m):
    params = {"w": np.ones((2, 1)), "b": 0.5, "inner": {"s": np.array([2.0])}}
    loss, (g,) = m.grad("@(p, X) sum((X*p.w + p.b).^2) + p.inner.s^2", params, data=(np.eye(2),))
    assert loss == pytest.approx(2 * 1.5**2 + 4)
    assert set(g) == {"w", "b", "inner"}
    np.testing.assert_allclose(g["w"], [[3.0], [3.0]])
    assert g["b"] == pytest.approx(6.0)
    np.testing.assert_allclose(g["inner"]["s"], [4.0])


def test_a_function_file_and_a_handle(m, tmp_path):
    (tmp_path / "cube_loss.m").write_text("function L = cube_loss(x)\n  L = sum(x.^3);\nend\n")
    m.addpath(tmp_path)
    x = np.array([[1.0, 2.0]])
    loss, (g,) = m.grad("cube_loss", x)
    assert loss == 9.0
    np.testing.assert_allclose(g, 3 * x**2)
    handle = m.eval("@(x) sum(sin(x))", nargout=1)
    _, (g,) = m.grad(handle, x)
    np.testing.assert_allclose(g, np.cos(x))


def test_single_precision_parameters_keep_their_class(m):
    _, (g,) = m.grad("@(w) sum(w.^2)", np.array([1.0, 2.0], dtype=np.float32))
    assert g.dtype == np.float32


def test_errors_in_the_loss(m):
    with pytest.raises(mlang.MatlabError) as info:
        m.grad("@(w) w.^2", np.array([1.0, 2.0]))
    assert info.value.identifier == "deep:dlgradient:ValueNotScalar"
    with pytest.raises(mlang.MatlabError) as info:
        m.grad("no_such_loss_function", 1.0)
    assert info.value.identifier == "MATLAB:UndefinedFunction"


def _logistic(theta, X, y):
    """The loss of examples/logistic_loss.m and its gradient, written in NumPy."""
    w, b = theta[:3].reshape(3, 1), theta[3]
    z = X @ w + b
    loss = float(np.mean(np.log1p(np.exp(z)) - y * z) + 0.01 * np.sum(w**2))
    s = 1 / (1 + np.exp(-z)) - y
    return loss, np.append((X.T @ s / len(y)).ravel() + 0.02 * w.ravel(), s.mean())


def test_the_scipy_example_finds_the_optimum():
    spec = importlib.util.spec_from_file_location("scipy_logistic_fit", EXAMPLES / "scipy_logistic_fit.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    X, y = example.make_data()
    result = example.fit(X, y)
    assert result.success
    reference = minimize(_logistic, np.zeros(4), args=(X, y), jac=True, method="L-BFGS-B")
    np.testing.assert_allclose(result.x, reference.x, atol=1e-5)
    assert result.fun == pytest.approx(reference.fun, rel=1e-9)
    # and the gradients mlang gives agree with the hand-written ones away from the optimum
    m = mlang.Session(path=[str(EXAMPLES)])
    theta = np.array([0.3, -0.2, 0.1, 0.05])
    loss, (g,) = m.grad("logistic_loss", {"w": theta[:3].reshape(3, 1), "b": theta[3]}, data=(X, y))
    want_loss, want_g = _logistic(theta, X, y)
    assert loss == pytest.approx(want_loss, rel=1e-12)
    np.testing.assert_allclose(np.append(g["w"].ravel(), g["b"]), want_g, rtol=1e-10)
