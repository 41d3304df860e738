"""lbfgsState and lbfgsupdate: the two-loop recursion against the BFGS matrix formula,
the first steps of a 2-D quadratic by hand, convergence on a quadratic and on
Rosenbrock's function, the state's properties and display, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning.lbfgs import LbfgsState, two_loop_direction

A = np.array([[3.0, 1.0], [1.0, 2.0]])
B = np.array([1.0, 1.0])
QUADRATIC = "A = [3 1; 1 2]; b = [1; 1]; f = @(x) deal(0.5*x'*A*x - b'*x, A*x - b);"

ROSENBROCK_FILE = """function [f, g] = rosenbrock(p)
f = 100*(p.x(2) - p.x(1)^2)^2 + (1 - p.x(1))^2;
g = dlgradient(f, p);
end
"""


def bfgs_inverse(steps, differences, factor):
    """The inverse Hessian approximation by the BFGS update formula, from factor*I."""
    n = len(steps[0]) if steps else 2
    h = factor * np.eye(n)
    for s, y in zip(steps, differences, strict=True):
        rho = 1 / (y @ s)
        left = np.eye(n) - rho * np.outer(s, y)
        h = left @ h @ left.T + rho * np.outer(s, s)
    return h


def test_two_loop_recursion_is_the_bfgs_inverse_hessian():
    rng = np.random.default_rng(3)
    steps = [rng.standard_normal(4) for _ in range(3)]
    spd = np.diag([1.0, 2.0, 5.0, 0.5])
    differences = [spd @ s for s in steps]  # y = H s: curvature pairs of a quadratic
    g = rng.standard_normal(4)
    for factor in (1.0, 0.3):
        expected = -bfgs_inverse(steps, differences, factor) @ g
        assert np.allclose(two_loop_direction(g, steps, differences, factor), expected)
    assert np.allclose(two_loop_direction(g, [], [], 2.0), -2 * g)


def weak_wolfe_reference(f, grad, x, d, eta=1.0, iterations=20):
    """The weak Wolfe bisection written out: halve the bracket, double until bracketed."""
    f0, slope = f(x), grad(x) @ d
    lo, hi = 0.0, np.inf
    for _ in range(iterations):
        trial = x + eta * d
        if f(trial) > f0 + 1e-4 * eta * slope:
            hi = eta
        elif grad(trial) @ d < 0.9 * slope:
            lo = eta
        else:
            return trial
        eta = (lo + hi) / 2 if np.isfinite(hi) else 2 * lo
    raise AssertionError("no step found")


def test_first_two_steps_on_a_quadratic_by_hand(m):
    def f(x):
        return 0.5 * x @ A @ x - B @ x

    def grad(x):
        return A @ x - B

    x0 = np.array([3.0, 4.0])
    x1 = weak_wolfe_reference(f, grad, x0, -grad(x0))  # no history: H0 = I
    s, y = x1 - x0, grad(x1) - grad(x0)
    d1 = -bfgs_inverse([s], [y], (s @ y) / (y @ y)) @ grad(x1)
    x2 = weak_wolfe_reference(f, grad, x1, d1)
    p1, p2, state = m.values(QUADRATIC + """
    [p1, st] = lbfgsupdate([3; 4], f, lbfgsState);
    [p2, st] = lbfgsupdate(p1, f, st);
    """, "p1", "p2", "st")
    assert np.allclose(p1.reshape(-1), x1, rtol=1e-14) and np.allclose(p2.reshape(-1), x2)
    assert state.loss == pytest.approx(f(x2))
    assert state.gradients_norm == pytest.approx(np.linalg.norm(grad(x2)))
    assert state.step_norm == pytest.approx(np.linalg.norm(x2 - x1))


@pytest.mark.parametrize("method", ["weak-wolfe", "strong-wolfe", "backtracking"])
def test_converges_on_a_quadratic(m, method):
    x = m.value(QUADRATIC + f"""
    x = [3; -4]; s = [];
    for k = 1:25
        [x, s] = lbfgsupdate(x, f, s, LineSearchMethod="{method}");
    end
    status = s.LineSearchStatus;
    """)
    assert np.allclose(x.reshape(-1), np.linalg.solve(A, B), atol=1e-8)


def test_converges_on_rosenbrock(m, tmp_path, monkeypatch):
    (tmp_path / "rosenbrock.m").write_text(ROSENBROCK_FILE)
    monkeypatch.chdir(tmp_path)
    out = m.run("""
    p.x = dlarray([-1.2; 1]); s = lbfgsState(HistorySize=5);
    lossFcn = @(q) dlfeval(@rosenbrock, q);
    losses = zeros(1, 100);
    for k = 1:100
        [p, s] = lbfgsupdate(p, lossFcn, s);
        losses(k) = extractdata(s.Loss);
    end
    fprintf('%.6f %.6f %d %s\\n', extractdata(p.x), numel(s.HistoryIndices) <= 5, class(p.x))
    fprintf('%d\\n', losses(end) < 1e-12)
    """)
    lines = out.splitlines()
    assert lines == ["1.000000 1.000000 1 dlarray", "1"]


def test_state_properties_after_steps(m):
    state, p, hist, idx = m.values(QUADRATIC + """
    s = lbfgsState('HistorySize', 2, 'InitialInverseHessianFactor', 0.5);
    p = [3; -4];
    for k = 1:4
        [p, s] = lbfgsupdate(p, f, s);
    end
    hist = s.StepHistory; idx = s.HistoryIndices;
    """, "s", "p", "hist", "idx")
    assert type(state) is LbfgsState and state.history_size == 2 and state.factor == 0.5
    assert hist.data.shape == (1, 2) and np.array_equal(idx, [[1.0, 2.0]])
    assert state.status in ("completed", "failed")


def test_additional_loss_function_outputs_and_struct_parameters(m):
    out = m.run("""
    lossFcn = @(q) deal(sum((q.w - [1 2]).^2), struct('w', 2*(q.w - [1 2])), 7, "x");
    p.w = [0 0];
    [p, s] = lbfgsupdate(p, lossFcn, [], NumLossFunctionOutputs=4);
    extra = s.AdditionalLossFunctionOutputs;
    fprintf('%g %g %g %s %s\\n', p.w, extra{1}, extra{2}, class(s.Gradients))
    """)
    assert out == "1 2 7 x struct\n"


def test_single_parameters_and_formats_are_kept(m):
    p = m.value("""
    f = @(x) deal(sum(x.^2, 'all'), 2*x);
    x = dlarray(single([1 2; 3 4]), 'CB');
    [x, s] = lbfgsupdate(x, f, []);
    """)
    assert type(p) is DlArray and p.fmt == "CB" and p.data.dtype == np.float32
    assert np.allclose(p.data, 0, atol=1e-6)


def test_stationary_start_is_left_alone(m):
    p, s = m.values("[p, s] = lbfgsupdate([1 2], @(x) deal(0, [0 0]), []);", "p", "s")
    assert np.array_equal(p, [[1.0, 2.0]]) and s.step_norm == 0 and s.status == "completed"


def test_failed_line_search_reports_failed(m):
    # the gradient claims descent but the loss only grows: no step is accepted
    p, s = m.values("""
    f = @(x) deal(x + 10, -1);
    [p, s] = lbfgsupdate(1, f, [], MaxNumLineSearchIterations=3);
    """, "p", "s")
    assert p == 1.0 and s.status == "failed"
    assert m.run("[p, s] = lbfgsupdate(1, @(x) deal(x + 10, -1), []); disp(s.LineSearchStatus)"
                 ) == "failed\n"


def test_table_parameters(m):
    out = m.run("""
    T = table(["fc";"fc"], ["W";"b"], {dlarray([0 0]); dlarray(5)}, ...
        'VariableNames', {'Layer','Parameter','Value'});
    lossFcn = @(T) deal(sum((T.Value{1} - [1 -1]).^2) + T.Value{2}^2, ...
        table(T.Layer, T.Parameter, {2*(T.Value{1} - [1 -1]); 2*T.Value{2}}, ...
        'VariableNames', {'Layer','Parameter','Value'}));
    s = [];
    for k = 1:5
        [T, s] = lbfgsupdate(T, lossFcn, s);
    end
    fprintf('%.6f ', extractdata(T.Value{1}), extractdata(T.Value{2})); disp(class(T))
    """)
    assert out == "1.000000 -1.000000 0.000000 table\n"


def test_display_of_a_new_state(m):
    assert m.run("s = lbfgsState") == "\ns = \n" + """
  LBFGSState with properties:

      InitialInverseHessianFactor: 1
                  InitialStepSize: "auto"
                      HistorySize: 10
                      StepHistory: {}
       GradientsDifferenceHistory: {}
                   HistoryIndices: [1×0 double]
                             Loss: []
                        Gradients: []
    AdditionalLossFunctionOutputs: {1×0 cell}
                    GradientsNorm: []
                         StepNorm: []
                 LineSearchStatus: ""

"""


def test_initial_step_size(m):
    p = m.value("""
    f = @(x) deal(x^2, 2*x);
    [p, s] = lbfgsupdate(4, f, lbfgsState(InitialStepSize=0.5));
    """, "p")
    assert p == 0.0  # the first trial, 4 - 0.5*8, meets the Wolfe conditions
    assert m.run("s = lbfgsState(InitialStepSize='auto'); disp(s.InitialStepSize)") == "auto\n"


@pytest.mark.parametrize("code, identifier", [
    ("s = lbfgsState; s.HistorySize = 3;", "MATLAB:class:SetProhibited"),
    ("lbfgsState('HistorySize', 0)", "MATLAB:lbfgsState:expectedPositive"),
    ("lbfgsState('HistorySize', 2.5)", "MATLAB:lbfgsState:expectedInteger"),
    ("lbfgsState('InitialInverseHessianFactor', -1)", "MATLAB:lbfgsState:expectedPositive"),
    ("lbfgsState('InitialStepSize', 'big')", "MATLAB:lbfgsState:InvalidInitialStepSize"),
    ("lbfgsState('Size', 2)", "MATLAB:InputParser:UnmatchedParameter"),
    ("lbfgsupdate(1, @(x) deal(x, 1), [], LineSearchMethod='exact')",
     "deep:lbfgsupdate:InvalidLineSearchMethod"),
    ("lbfgsupdate(1, @(x) deal(x, 1), [], NumLossFunctionOutputs=1)",
     "MATLAB:lbfgsupdate:notGreaterEqual"),
    ("lbfgsupdate(1, @(x) deal(x, 1), [], MaxNumLineSearchIterations=0)",
     "MATLAB:lbfgsupdate:expectedPositive"),
    ("lbfgsupdate(1, 'f', [])", "deep:lbfgsupdate:InvalidLossFunction"),
    ("lbfgsupdate(1, @(x) deal(x, 1), 5)", "deep:lbfgsupdate:InvalidSolverState"),
    ("lbfgsupdate(1, @(x) deal([x x], 1), [])", "deep:lbfgsupdate:InvalidLoss"),
    ("lbfgsupdate({1}, @(x) deal(1, 1), [])", "deep:optimizers:MismatchedInputs"),
    ("lbfgsupdate(1, @(x) x, [])", "MATLAB:TooManyOutputs"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier
