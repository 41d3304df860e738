"""SciPy drives a MATLAB model: fit the logistic regression of logistic_loss.m with
scipy.optimize.minimize, mlang computing the loss and its gradients (dlfeval and
dlgradient) through ``Session.grad``.

    python examples/scipy_logistic_fit.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.optimize import OptimizeResult, minimize

import mlang

HERE = Path(__file__).resolve().parent


def make_data(samples: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Features X (samples-by-3) and labels y (a column of 0 and 1) from a known model."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(samples, 3))
    z = X @ np.array([1.5, -2.0, 0.5]) + 0.3 + rng.normal(scale=0.5, size=samples)
    return X, (z > 0).astype(float).reshape(-1, 1)


def fit(X: np.ndarray, y: np.ndarray) -> OptimizeResult:
    """Minimise logistic_loss.m over its parameters struct (w: 3-by-1, b: scalar)."""
    m = mlang.Session(path=[str(HERE)])

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        params = {"w": theta[:3].reshape(3, 1), "b": float(theta[3])}
        loss, (grads,) = m.grad("logistic_loss", params, data=(X, y))
        return loss, np.append(grads["w"].ravel(), grads["b"])

    return minimize(objective, np.zeros(4), jac=True, method="L-BFGS-B")


if __name__ == "__main__":
    result = fit(*make_data())
    print(f"converged: {result.success} after {result.nit} iterations")
    print(f"loss {result.fun:.6f}, w = {np.round(result.x[:3], 4)}, b = {result.x[3]:.4f}")
