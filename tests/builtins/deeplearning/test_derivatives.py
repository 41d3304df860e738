"""dljacobian, dldivergence, dllaplacian, dlgradient over containers, dlode45, and the
behaviour of differentiation at its edges (higher derivatives, traces, GPU functions)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.table import Table


def run(m, text: str) -> dict:
    """Run a script with local functions in a fresh workspace; its variables."""
    m.interp.base.vars.clear()
    m.interp.run_source(text, "k7_script")
    return dict(m.interp.base.vars)


def fails(m, text: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        run(m, text)
    return info.value


def data(v) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


X = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])


# ------------------------------------------------------------------ dljacobian


JACOBIAN = """
x = dlarray([1 2 3; 0.5 -1 2]);
[j, d, l, j1] = dlfeval(@f, x);
function [j, d, l, j1] = f(x)
u = [x(1,:).^2 .* x(2,:); sin(x(2,:)) + x(1,:)];
j = dljacobian(u, x, 1);
d = dldivergence(u, x, 1);
l = dllaplacian(sum(u, 1), x, 1);
j1 = dljacobian(u(1,:), x, 1, EnableHigherDerivatives=false);
end
"""


def test_jacobian_values_and_shape(m) -> None:
    out = run(m, JACOBIAN)
    a, b = X
    j = data(out["j"])
    assert j.shape == (2, 2, 3)  # [size(u,1) size(x)]
    np.testing.assert_allclose(j[0, 0], 2 * a * b)
    np.testing.assert_allclose(j[0, 1], a ** 2)
    np.testing.assert_allclose(j[1, 0], np.ones(3))
    np.testing.assert_allclose(j[1, 1], np.cos(b))
    assert type(out["j"]) is DlArray and out["j"].fmt == ""


def test_jacobian_of_one_component_has_the_shape_of_x(m) -> None:
    out = run(m, JACOBIAN)
    a, b = X
    j1 = data(out["j1"])
    assert j1.shape == (2, 3)
    np.testing.assert_allclose(j1, np.vstack([2 * a * b, a ** 2]))


def test_divergence_and_laplacian(m) -> None:
    out = run(m, JACOBIAN)
    a, b = X
    np.testing.assert_allclose(data(out["d"]), [2 * a * b + np.cos(b)])
    # u1 + u2 = a^2 b + sin(b) + a: d2/da2 = 2b, d2/db2 = -sin(b)
    np.testing.assert_allclose(data(out["l"]), [2 * b - np.sin(b)])


def test_burgers_style_pinn_terms(m) -> None:
    """The derivative terms of MathWorks' PINN examples: 1-by-N outputs and inputs."""
    out = run(m, """
x = dlarray([0.1 0.7 1.3 2.0]);
[ux, uxx, res] = dlfeval(@f, x);
function [ux, uxx, res] = f(x)
u = sin(x) .* x;
ux = dljacobian(u, x, 1);
uxx = dldivergence(ux, x, 1);
res = mean((u .* ux - uxx) .^ 2);
end
""")
    x = np.array([[0.1, 0.7, 1.3, 2.0]])
    ux = np.sin(x) + x * np.cos(x)
    uxx = 2 * np.cos(x) - x * np.sin(x)
    np.testing.assert_allclose(data(out["ux"]), ux)
    np.testing.assert_allclose(data(out["uxx"]), uxx)
    np.testing.assert_allclose(data(out["res"]), [[np.mean((np.sin(x) * x * ux - uxx) ** 2)]])


def test_results_can_be_trained_and_the_trace_of_u_is_kept(m) -> None:
    """A loss made of a Jacobian differentiates with respect to parameters (higher
    derivatives are on by default), and dlgradient through u still works afterwards."""
    out = run(m, """
[gw, gw2] = dlfeval(@f, dlarray([1 2 3]), dlarray(0.5));
function [gw, gw2] = f(x, w)
u = w .* x .^ 2;
ux = dljacobian(u, x, 1);            % 2 w x
gw = dlgradient(sum(ux), w, 'RetainData', true);          % 2 sum(x)
gw2 = dlgradient(sum(u), w);         % sum(x.^2)
end
""")
    np.testing.assert_allclose(data(out["gw"]), [[12.0]])
    np.testing.assert_allclose(data(out["gw2"]), [[14.0]])


def test_traced_jacobian_divergence_and_laplacian_train(m) -> None:
    """Losses made of each result differentiate with respect to a parameter."""
    out = run(m, """
[gj, gd, gl] = dlfeval(@f, dlarray([1 2 3; -1 0.5 2]), dlarray(0.5));
function [gj, gd, gl] = f(x, w)
u = [w .* x(1,:) .^ 2; w .^ 2 .* x(2,:) .^ 3];
j = dljacobian(u, x, 1);             % [2 w a, 0; 0, 3 w^2 b^2]
gj = dlgradient(sum(j, 'all'), w, 'RetainData', true);
gd = dlgradient(sum(dldivergence(u, x, 1)), w, 'RetainData', true);
gl = dlgradient(sum(dllaplacian(sum(u, 1), x, 1)), w);   % 2 w + 6 w^2 b
end
""")
    a, b = np.array([1.0, 2, 3]), np.array([-1.0, 0.5, 2])
    w = 0.5
    np.testing.assert_allclose(data(out["gj"]), [[np.sum(2 * a) + np.sum(6 * w * b ** 2)]])
    np.testing.assert_allclose(data(out["gd"]), [[np.sum(2 * a) + np.sum(6 * w * b ** 2)]])
    np.testing.assert_allclose(data(out["gl"]), [[3 * 2.0 + np.sum(12 * w * b)]])


def test_without_higher_derivatives_the_result_is_untraced(m) -> None:
    err = fails(m, """
g = dlfeval(@f, dlarray([1 2 3]), dlarray(0.5));
function g = f(x, w)
ux = dljacobian(w .* x .^ 2, x, 1, 'EnableHigherDerivatives', false);
g = dlgradient(sum(ux), w);
end
""")
    assert err.identifier == "deep:dlgradient:ValueNotTraced"


def test_laplacian_without_higher_derivatives_still_takes_second_derivatives(m) -> None:
    out = run(m, """
l = dlfeval(@(x) dllaplacian(sum(x .^ 3, 1), x, 1, EnableHigherDerivatives=false), dlarray([1 2; 3 4]));
""")
    np.testing.assert_allclose(data(out["l"]), [[6 * 1 + 6 * 3, 6 * 2 + 6 * 4]])


def test_laplacian_of_a_scalar_sum_over_the_batch(m) -> None:
    """u summed over the batch first, as in MathWorks' band-structure example."""
    out = run(m, """
l = dlfeval(@(x) dllaplacian(sum(x .^ 4, 2), x, 1), dlarray([1 -2 3]));
""")
    np.testing.assert_allclose(data(out["l"]), [[12.0, 48.0, 108.0]])


def test_outputs_linear_or_independent_of_x_give_zeros(m) -> None:
    out = run(m, """
[l, j] = dlfeval(@f, dlarray([1 2 3]), dlarray(2));
function [l, j] = f(x, w)
l = dllaplacian(3 * x, x, 1);          % first derivative constant: no second derivative
j = dljacobian(w .^ 2 + 0 * sum(x), x, 1);
end
""")
    np.testing.assert_array_equal(data(out["l"]), [[0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(data(out["j"]), [[0.0, 0.0, 0.0]])


def test_single_precision_gives_single(m) -> None:
    out = run(m, "j = dlfeval(@(x) dljacobian(x .^ 2, x, 1), dlarray(single([1 2 3])));")
    assert data(out["j"]).dtype == np.float32
    np.testing.assert_allclose(data(out["j"]), [[2.0, 4.0, 6.0]])


def test_formatted_inputs_are_used_without_their_labels(m) -> None:
    out = run(m, """
x = dlarray([1 2 3; 4 5 6], 'CB');
j = dlfeval(@(x) dljacobian(x .* x, x, 'C'), x);
""")
    j = data(out["j"])
    assert j.shape == (2, 2, 3)
    np.testing.assert_allclose(j[0, 0], [2.0, 4.0, 6.0])
    np.testing.assert_allclose(j[0, 1], [0.0, 0.0, 0.0])


@pytest.mark.parametrize("code, identifier", [
    ("x = dlarray([1 2]); j = dljacobian(x .^ 2, x, 1);", "deep:dlgradient:ValueNotTraced"),
    ("j = dlfeval(@(x) dljacobian(dlarray([1 2]), x, 1), dlarray([1 2]));",
     "deep:dlgradient:ValueNotTraced"),
    ("j = dlfeval(@(x) dljacobian(x .^ 2, dlarray([1 2]), 1), dlarray([1 2]));",
     "deep:dlgradient:VariableNotTraced"),
    ("j = dlfeval(@(x) dljacobian(x .^ 2, x, 0), dlarray([1 2]));", "deep:dlarray:InvalidDimension"),
    ("j = dlfeval(@(x) dljacobian(x .^ 2, x, 1.5), dlarray([1 2]));", "deep:dlarray:InvalidDimension"),
    ("d = dlfeval(@(x) dldivergence([x; x], x, 1), dlarray([1 2]));", "deep:dldivergence:SizeMismatch"),
    ("j = dlfeval(@(x) dljacobian(x .^ 2, x, 1, 'Bad', 1), dlarray([1 2]));",
     "MATLAB:InputParser:UnmatchedParameter"),
])
def test_errors(m, code: str, identifier: str) -> None:
    assert m.fails(code).identifier == identifier


# ------------------------------------------------- dlgradient over containers


LEARNABLES = """
T = table(["fc";"fc"], ["Weights";"Bias"], {dlarray([1 2; 3 4]); dlarray([5; 6])}, ...
    'VariableNames', {'Layer', 'Parameter', 'Value'});
[g, gc, gs] = dlfeval(@f, T, {dlarray(2)}, struct('w', dlarray(3)));
function [g, gc, gs] = f(T, c, s)
y = sum(T.Value{1} .^ 2, 'all') + c{1} * s.w * sum(T.Value{2});
[g, gc, gs] = dlgradient(y, T, c, s);
end
"""


def test_gradient_of_a_learnables_table_is_a_table(m) -> None:
    out = run(m, LEARNABLES)
    g = out["g"]
    assert type(g) is Table
    assert g.names == ["Layer", "Parameter", "Value"]
    assert list(g.variables[0].data.reshape(-1)) == ["fc", "fc"]
    assert list(g.variables[1].data.reshape(-1)) == ["Weights", "Bias"]
    values = g.variables[2]
    assert type(values) is Cell
    np.testing.assert_allclose(data(values.data[0, 0]), [[2.0, 4.0], [6.0, 8.0]])
    np.testing.assert_allclose(data(values.data[1, 0]), [[6.0], [6.0]])
    np.testing.assert_allclose(data(out["gc"].data[0, 0]), [[33.0]])  # s.w * sum(bias)
    np.testing.assert_allclose(data(out["gs"].element(0)["w"]), [[22.0]])


def test_size_and_class_of_a_gradient_table(m) -> None:
    out = run(m, LEARNABLES + "sz = size(g); cls = class(g.Value{2}); vals = class(g.Value);\n")
    np.testing.assert_array_equal(out["sz"], [[2.0, 3.0]])
    assert char_text(out["cls"]) == "dlarray"
    assert char_text(out["vals"]) == "cell"


def test_a_value_that_holds_no_dlarray_is_an_error(m) -> None:
    err = fails(m, """
g = dlfeval(@f, dlarray(2));
function g = f(x)
g = dlgradient(x ^ 2, 3);
end
""")
    assert err.identifier == "deep:dlgradient:InvalidVariable"


# ------------------------------------------------------------------ the edges


HIGHER = """
g = dlfeval(FUN, dlarray([1 2]));
function g = f(x)
d1 = dlgradient(sum(x .^ 3), x);
g = dlgradient(sum(d1), x);
end
"""


def test_gradient_of_a_gradient_needs_higher_derivatives(m) -> None:
    err = fails(m, HIGHER.replace("FUN", "@f"))
    assert err.identifier == "deep:dlgradient:ValueNotTraced"


def test_inside_an_accelerated_function_higher_derivatives_are_on_by_default(m) -> None:
    """MATLAB's default for EnableHigherDerivatives inside an AcceleratedFunction is true
    (MathWorks' Hamiltonian network example relies on it)."""
    out = run(m, HIGHER.replace("FUN", "dlaccelerate(@f)"))
    np.testing.assert_allclose(data(out["g"]), [[6.0, 12.0]])


def test_second_gradient_of_one_trace_needs_retain_data(m) -> None:
    err = fails(m, """
[a, b] = dlfeval(@f, dlarray([1 2]));
function [a, b] = f(x)
y = sum(x .^ 2);
a = dlgradient(y, x);
b = dlgradient(y, x);
end
""")
    assert err.identifier == "deep:dlgradient:TraceDiscarded"


def test_mixed_single_and_double_gradients_follow_each_variable(m) -> None:
    out = run(m, """
[ga, gb] = dlfeval(@f, dlarray(single([1 2])), dlarray([3 4]));
function [ga, gb] = f(a, b)
[ga, gb] = dlgradient(sum(a .* b), a, b);
end
""")
    assert data(out["ga"]).dtype == np.float32
    assert data(out["gb"]).dtype == np.float64
    np.testing.assert_allclose(data(out["ga"]), [[3.0, 4.0]])
    np.testing.assert_allclose(data(out["gb"]), [[1.0, 2.0]])


def test_gpu_functions_on_the_cpu(m) -> None:
    out = run(m, """
x = gpuArray([1 2 3]);
y = gather(dlarray([4 5]));
[p, q] = gather(1, 2);
tf = canUseGPU;
if canUseGPU, z = gpuArray(1); else, z = 0; end
""")
    np.testing.assert_array_equal(out["x"], [[1.0, 2.0, 3.0]])
    assert type(out["y"]) is DlArray
    assert (out["p"], out["q"]) == (1.0, 2.0)
    assert out["tf"] is False and out["z"] == 0.0


# ------------------------------------------------------------------ dlode45


def test_dlode45_final_value_and_format(m) -> None:
    out = run(m, """
Y = dlode45(@(t, y, th) th .* y, [0 1], dlarray([1; 2], 'CB'), dlarray(-0.5));
f = dims(Y);
""")
    np.testing.assert_allclose(data(out["Y"]), np.exp(-0.5) * np.array([[1.0], [2.0]]), rtol=1e-3)
    assert out["Y"].fmt == "CB"


def test_dlode45_several_times_adds_a_time_dimension(m) -> None:
    out = run(m, """
Y = dlode45(@(t, y, th) th .* y + t, [0 0.5 1 2], dlarray([1 2 3; 4 5 6], 'CB'), -0.5, ...
    'RelativeTolerance', 1e-7, 'AbsoluteTolerance', 1e-9);
""")
    Y = out["Y"]
    assert Y.fmt == "CBT" and data(Y).shape == (2, 3, 3)
    t = np.array([0.5, 1.0, 2.0])
    y0 = np.array([[1.0, 2, 3], [4, 5, 6]])
    # y' = -y/2 + t: y = (y0 - 4) exp(-t/2) + 2t - 4... solved exactly:
    exact = (y0[..., None] + 4) * np.exp(-t / 2) + 2 * t - 4
    np.testing.assert_allclose(data(Y), exact, rtol=1e-6)


def test_dlode45_gradients_are_those_of_the_solution(m) -> None:
    out = run(m, """
[g, gt] = dlfeval(@loss, dlarray([1; 2]), dlarray(-0.5));
function [g, gt] = loss(y0, th)
Y = dlode45(@(t, y, p) p .* y, [0 2], y0, th, 'DataFormat', 'CB', 'GradientMode', 'adjoint', ...
    'RelativeTolerance', 1e-8, 'AbsoluteTolerance', 1e-10);
[g, gt] = dlgradient(sum(Y, 'all'), y0, th);
end
""")
    np.testing.assert_allclose(data(out["g"]), np.exp(-1.0) * np.ones((2, 1)), rtol=1e-6)
    np.testing.assert_allclose(data(out["gt"]), [[2 * 3 * np.exp(-1.0)]], rtol=1e-6)


@pytest.mark.parametrize("code, identifier", [
    ("Y = dlode45(@(t,y,p) y, [0 1], dlarray([1; 2]), 1);", "deep:dlarray:UnformattedInput"),
    ("Y = dlode45(@(t,y,p) y, [0 1], dlarray([1; 2], 'CB'), 1, 'DataFormat', 'CB');",
     "deep:dlarray:DataFormatFormattedInput"),
    ("Y = dlode45(@(t,y,p) y, 1, dlarray([1; 2], 'CB'), 1);", "deep:dlode45:InvalidTspan"),
    ("Y = dlode45(@(t,y,p) y, [0 1 0.5], dlarray([1; 2], 'CB'), 1);", "deep:dlode45:InvalidTspan"),
    ("Y = dlode45(@(t,y,p) y, [0 1], dlarray([1; 2], 'CB'), 1, 'GradientMode', 'x');",
     "deep:dlode45:InvalidGradientMode"),
    ("Y = dlode45(@(t,y,p) [y; y], [0 1], dlarray([1; 2], 'CB'), 1);", "deep:dlode45:SizeMismatch"),
    ("Y = dlode45(@(t,y,p) y, [0 1], dlarray([1; 2], 'CT'), 1);", "deep:dlode45:TimeDimension"),
])
def test_dlode45_errors(m, code: str, identifier: str) -> None:
    assert m.fails(code).identifier == identifier
