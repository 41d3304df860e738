"""Gradient checks of the engine's semantics: RetainData, higher derivatives, nested
dlfeval, containers, untraced parts, the errors of dlgradient, and the complex
convention (the per-builtin table is in test_gradcheck.py)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from tests.autodiff.gradcheck import Checker, as_array


@pytest.fixture(scope="module")
def checker(tmp_path_factory) -> Checker:
    return Checker(tmp_path_factory.mktemp("gradcheck_engine"))

def _run(checker: Checker, text: str) -> dict:
    """Run a script (local functions allowed) in a fresh base workspace; its variables."""
    checker.interp.base.vars.clear()
    checker.interp.run_source(text, "gc_engine")
    return {k: as_array(v) if type(v) is not str else v for k, v in checker.interp.base.vars.items()}


def _fails(checker: Checker, text: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        _run(checker, text)
    return info.value


RETAIN = """
x = dlarray([1 2 3]);
[g1, g2] = dlfeval(@twice, x);
function [g1, g2] = twice(x)
y = sum(x .^ 2);
g1 = dlgradient(y, x, 'RetainData', RETAIN);
g2 = dlgradient(y, x);
end
"""


def test_retain_data(checker: Checker) -> None:
    out = _run(checker, RETAIN.replace("RETAIN", "true"))
    np.testing.assert_allclose(out["g1"], [[2.0, 4.0, 6.0]])
    np.testing.assert_allclose(out["g2"], [[2.0, 4.0, 6.0]])
    err = _fails(checker, RETAIN.replace("RETAIN", "false"))
    assert "RetainData" in str(err)


def test_third_derivative_of_fourth_power(checker: Checker) -> None:
    out = _run(checker, """
x = dlarray([-1.5 0.5 2]);
[d1, d2, d3] = dlfeval(@derivatives, x);
function [d1, d2, d3] = derivatives(x)
d1 = dlgradient(sum(x .^ 4), x, 'EnableHigherDerivatives', true);
d2 = dlgradient(sum(d1), x, 'EnableHigherDerivatives', true);
d3 = dlgradient(sum(d2), x);
end
""")
    x = np.array([[-1.5, 0.5, 2.0]])
    np.testing.assert_allclose(out["d1"], 4 * x ** 3)
    np.testing.assert_allclose(out["d2"], 12 * x ** 2)
    np.testing.assert_allclose(out["d3"], 24 * x)


def test_without_higher_derivatives_the_gradient_is_untraced(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray([1 2]));
function g = f(x)
d1 = dlgradient(sum(x .^ 3), x);
g = dlgradient(sum(d1), x);
end
""")
    assert "traced" in str(err)


def test_nested_dlfeval(checker: Checker) -> None:
    out = _run(checker, """
[g, inner_traced] = dlfeval(@outer, dlarray([1 2 3]));
function [g, t] = outer(x)
[y, gi] = dlfeval(@inner, x);
t = y;
g = dlgradient(sum(gi) + y, x);
end
function [y, gi] = inner(x)
y = sum(x .^ 3);
gi = dlgradient(y, x, 'EnableHigherDerivatives', true);
end
""")
    x = np.array([[1.0, 2.0, 3.0]])
    np.testing.assert_allclose(out["g"], 6 * x + 3 * x ** 2)  # d/dx (sum(3x^2) + sum(x^3))
    np.testing.assert_allclose(out["inner_traced"], [[36.0]])


def test_gradient_mirrors_cell_and_struct_containers(checker: Checker) -> None:
    checker.interp.base.vars.clear()
    checker.interp.run_source("""
c = {dlarray([1 2; 3 4]), dlarray(5)};
s = struct('a', dlarray(2), 'b', dlarray([1 -1 3]));
[gc, gs] = dlfeval(@f, c, s);
function [gc, gs] = f(c, s)
y = sum(c{1} .^ 2, 'all') + 3 * c{2} + s.a * sum(s.b .^ 2);
[gc, gs] = dlgradient(y, c, s);
end
""", "gc_engine")
    from mlang.values.cell import Cell
    from mlang.values.struct import Struct

    gc, gs = checker.get("gc"), checker.get("gs")
    assert type(gc) is Cell and gc.shape == (1, 2)
    g1, g2 = gc.values()
    np.testing.assert_allclose(g1.data, [[2.0, 4.0], [6.0, 8.0]])
    np.testing.assert_allclose(g2.data, [[3.0]])
    assert type(gs) is Struct
    fields = gs.element(0)
    assert list(fields) == ["a", "b"]
    np.testing.assert_allclose(fields["a"].data, [[11.0]])
    np.testing.assert_allclose(fields["b"].data, [[4.0, -4.0, 12.0]])


def test_untraced_parts_contribute_nothing(checker: Checker) -> None:
    out = _run(checker, """
[g, gz] = dlfeval(@f, dlarray([1 2 3]), dlarray([4 5]));
function [g, gz] = f(x, z)
c = dlarray([10 20 30]);     % made inside: not traced
d = extractdata(x);          % the data only: not traced
y = sum(x .* c) + sum(c .^ 2) + sum(d .* x) + sum(d .^ 2);
[g, gz] = dlgradient(y, x, z);
end
""")
    np.testing.assert_allclose(out["g"], [[11.0, 22.0, 33.0]])
    np.testing.assert_allclose(out["gz"], [[0.0, 0.0]])  # y does not depend on z


def test_extractdata_breaks_the_trace(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray([1 2 3]));
function g = f(x)
y = dlarray(sum(extractdata(x) .^ 2));
g = dlgradient(y, x);
end
""")
    assert "not traced" in str(err)


def test_dlgradient_outside_dlfeval(checker: Checker) -> None:
    err = _fails(checker, "x = dlarray(2); y = x ^ 2; g = dlgradient(y, x);")
    assert "not traced" in str(err)


def test_dlfeval_outputs_are_untraced(checker: Checker) -> None:
    err = _fails(checker, """
y = dlfeval(@(x) sum(x .^ 2), dlarray([1 2]));
g = dlgradient(y, dlarray([1 2]));
""")
    assert "not traced" in str(err)


def test_value_to_differentiate_must_be_scalar(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray([1 2 3]));
function g = f(x)
g = dlgradient(x .^ 2, x);
end
""")
    assert "scalar" in str(err)


def test_value_to_differentiate_must_be_real(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray(1 + 2i));
function g = f(x)
g = dlgradient(x .^ 2, x);
end
""")
    assert "real" in str(err)


def test_complex_variables_need_allow_complex(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray(1 + 2i));
function g = f(x)
g = dlgradient(abs(x), x, 'AllowComplex', false);
end
""")
    assert "AllowComplex" in str(err)


def test_variables_must_be_traced(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray([1 2]));
function g = f(x)
z = dlarray([3 4]);
g = dlgradient(sum(x .* z), z);
end
""")
    assert "not traced" in str(err)


def test_complex_gradient_convention(checker: Checker) -> None:
    """For real L of z = a + ib, MATLAB's gradient is dL/da + i dL/db."""
    out = _run(checker, """
g = dlfeval(@f, dlarray([3 + 4i, -1 + 2i]));
function g = f(z)
g = dlgradient(sum(abs(z) .^ 2 + 2 * real(z) - imag(z)), z);
end
""")
    z = np.array([[3 + 4j, -1 + 2j]])
    np.testing.assert_allclose(out["g"], 2 * z + 2 - 1j)


def test_complex_intermediate_that_happens_to_be_real(checker: Checker) -> None:
    out = _run(checker, """
g = dlfeval(@f, dlarray(0.5i));
function g = f(z)
y = z .* z;                    % -0.25
g = dlgradient(real((1 + 2i) * y), z);
end
""")
    # L = real(h(z)) with h(z) = (1+2i) z^2 holomorphic: gradient conj(h'(z)) = conj((1+2i) 2z)
    np.testing.assert_allclose(out["g"], np.conj((1 + 2j) * 2 * 0.5j))


def test_mpower_of_matrices_is_an_error(checker: Checker) -> None:
    err = _fails(checker, """
g = dlfeval(@f, dlarray([1 2; 3 4]));
function g = f(x)
g = dlgradient(sum(x ^ 2, 'all'), x);
end
""")
    assert "scalar" in str(err)



def test_real_valued_functions_take_the_real_part_of_a_complex_upstream_gradient(
        checker: Checker) -> None:
    # L = real((1+2i) * F(z)) with F real-valued: dL/dF = 1, so the gradient is F's own
    out = _run(checker, """
g = dlfeval(@f, dlarray([3 + 4i, -1 + 2i]));
function g = f(z)
g = dlgradient(real((1 + 2i) * sum(abs(z) + real(z) + imag(z))), z);
end
""")
    z = np.array([[3 + 4j, -1 + 2j]])
    np.testing.assert_allclose(out["g"], z / abs(z) + 1 + 1j)


def test_gelu_rejects_complex_input(checker: Checker) -> None:
    err = _fails(checker, "y = gelu(dlarray(1 + 2i));")
    assert "real" in err.message
