"""The stdlib: functions written in MATLAB that ship with mlang (stdlib/*.m).

Where it is (one place, STDLIB), how every lookup finds it (calls, exist,
which, help, type, Tab completion), and each function's values and errors.
Expected numbers are MATLAB's documented examples or the defining formula;
GNU Octave gives the same.
"""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import STDLIB, Interpreter
from mlang.frontends.repl import MatlabCompleter

FUNCTIONS = sorted(p.stem for p in STDLIB.glob("*.m"))


class Session:
    """One interpreter; each ``run`` starts from an empty workspace."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.interp = Interpreter(stdout=self.out, stderr=io.StringIO())

    def run(self, code: str) -> str:
        self.interp.base.vars.clear()
        self.out.seek(0)
        self.out.truncate()
        self.interp.eval(code)
        return self.out.getvalue()

    def value(self, code: str, name: str = "x"):
        self.run(code)
        return self.interp.base.vars[name]

    def fails(self, code: str) -> MatlabError:
        with pytest.raises(MatlabError) as info:
            self.run(code)
        return info.value


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()


def array(value) -> np.ndarray:
    return np.asarray(value)


def is_true(value) -> bool:
    """A scalar logical true, as MATLAB's is* functions return."""
    a = array(value)
    return a.dtype == np.bool_ and a.size == 1 and bool(a.reshape(-1)[0])


def is_false(value) -> bool:
    a = array(value)
    return a.dtype == np.bool_ and a.size == 1 and not bool(a.reshape(-1)[0])


# ------------------------------------------------------------ where it is


def test_stdlib_is_the_installed_package_folder():
    assert STDLIB == Path(str(resources.files("mlang.stdlib")))
    assert (STDLIB / "README.md").is_file()
    assert len(FUNCTIONS) >= 4


def test_every_stdlib_function_is_found_by_exist_which_and_calls(m):
    for name in FUNCTIONS:
        assert float(array(m.value(f"x = exist('{name}');"))) == 2.0, name
        assert m.run(f"which {name}") == f"{STDLIB / name}.m\n"
        assert m.interp.resolve(name) is not None


def test_no_stdlib_function_is_hidden_by_a_builtin(m):
    # builtins come first: a builtin of the same name would make the .m file dead code
    assert [name for name in FUNCTIONS if name in m.interp.builtins] == []


def test_every_stdlib_function_has_help_and_source(m):
    for name in FUNCTIONS:
        shown = m.run(f"help {name}")
        assert shown.startswith(f" {name.upper()} "), name
        assert "See also" in shown, name
        assert m.run(f"type {name}").strip().startswith("function "), name


def test_tab_completion_offers_stdlib_functions():
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    found = MatlabCompleter(interp).get_completions(Document("x = deg2"), CompleteEvent(completion_requested=True))
    assert [(c.text, c.display_meta_text) for c in found] == [("deg2rad", "function")]


def test_a_file_on_the_path_shadows_a_stdlib_function(tmp_path):
    (tmp_path / "hilb.m").write_text("function H = hilb(n)\nH = -n;\nend\n")
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    interp.path.insert(0, str(tmp_path))
    interp.invalidate()
    interp.eval("x = hilb(3);")
    assert float(array(interp.base.vars["x"])) == -3.0


# ------------------------------------------------------------ deg2rad, rad2deg


def test_deg2rad_and_rad2deg_values(m):
    x = m.value("x = deg2rad([0 30 90 180 -45 360]);")
    assert np.array_equal(array(x), (np.pi / 180) * np.array([[0, 30, 90, 180, -45, 360]]))
    assert float(array(m.value("x = deg2rad(180);"))) == np.pi
    assert float(array(m.value("x = rad2deg(pi);"))) == 180.0
    x = m.value("x = rad2deg([pi/6 pi/3; 0 pi]);")
    assert np.allclose(array(x), [[30, 60], [0, 180]], rtol=0, atol=1e-12)
    assert m.value("x = rad2deg(deg2rad(37));") == pytest.approx(37.0, abs=1e-12)
    assert array(m.value("x = deg2rad(zeros(2, 0, 3));")).shape == (2, 0, 3)


def test_deg2rad_keeps_single_and_complex(m):
    assert m.run("disp(class(deg2rad(single(90))))") == "single\n"
    assert float(array(m.value("x = double(deg2rad(single(90)));"))) == pytest.approx(np.pi / 2, rel=1e-7)
    x = complex(array(m.value("x = rad2deg(pi + 2i*pi);")))
    assert x == pytest.approx(180 + 360j)


@pytest.mark.parametrize("call", ["deg2rad(int8(90))", "deg2rad(true)", "deg2rad('a')", "deg2rad({1})"])
def test_deg2rad_refuses_what_is_not_single_or_double(m, call):
    err = m.fails(f"x = {call};")
    assert err.identifier == "MATLAB:deg2rad:nonFloatInput"
    assert err.message == "Input must be single or double."


def test_rad2deg_refuses_integers(m):
    err = m.fails("x = rad2deg(uint16(3));")
    assert (err.identifier, err.message) == ("MATLAB:rad2deg:nonFloatInput", "Input must be single or double.")


def test_deg2rad_argument_count(m):
    assert m.fails("x = deg2rad();").message == "Not enough input arguments."
    assert m.fails("x = deg2rad(1, 2);").message == "Too many input arguments."


# ------------------------------------------------------------ hilb


def test_hilb_values(m):
    i, j = np.indices((4, 4)) + 1
    h = array(m.value("x = hilb(4);"))
    assert np.array_equal(h, 1.0 / (i + j - 1))
    assert np.linalg.cond(h) == pytest.approx(1.5514e4, rel=1e-4)  # MATLAB's documented example
    assert float(array(m.value("x = hilb(1);"))) == 1.0
    assert array(m.value("x = hilb(0);")).shape == (0, 0)
    assert array(m.value("x = hilb(2.5);")).shape == (2, 2)  # as 1:2.5


def test_hilb_class(m):
    assert m.run("disp(class(hilb(3, 'single')))") == "single\n"
    assert m.run("disp(class(hilb(3, \"single\")))") == "single\n"
    assert m.run("disp(class(hilb(3, 'double')))") == "double\n"
    x = array(m.value("x = double(hilb(3, 'single'));"))
    assert np.array_equal(x, (1.0 / (np.indices((3, 3)).sum(axis=0) + 1)).astype(np.float32).astype(float))


@pytest.mark.parametrize("classname", ["'int8'", "'Single'", "[\"single\" \"double\"]", "3"])
def test_hilb_refuses_other_classes(m, classname):
    err = m.fails(f"x = hilb(3, {classname});")
    assert err.identifier == "MATLAB:hilb:notSupportedClass"
    assert err.message == "CLASSNAME must be 'double' or 'single'."


# ------------------------------------------------------------ vander


def test_vander_values(m):
    assert np.array_equal(array(m.value("x = vander([1 2 3]);")), [[1, 1, 1], [4, 2, 1], [9, 3, 1]])
    expected = np.vander(np.arange(1, 3.5, 0.5))
    assert np.array_equal(array(m.value("x = vander(1:.5:3);")), expected)  # MATLAB's documented example
    assert np.array_equal(array(m.value("x = vander([2; -1]);")), [[2, 1], [-1, 1]])
    assert np.array_equal(array(m.value("x = fliplr(vander([1 2 3]));")), [[1, 1, 1], [1, 2, 4], [1, 3, 9]])
    assert float(array(m.value("x = vander(7);"))) == 1.0
    assert array(m.value("x = vander([]);")).shape == (0, 0)


def test_vander_keeps_the_class_and_complex(m):
    assert m.run("disp(class(vander(single([1 2]))))") == "single\n"
    assert m.run("disp(class(vander(int8([1 2 3]))))") == "int8\n"
    x = array(m.value("x = vander([1i 2]);"))
    assert np.array_equal(x, [[1j, 1], [2, 1]])


def test_vander_of_a_matrix_fails_as_in_matlab(m):
    # MATLAB's vander takes a vector: length() rows but numel() values do not fit
    assert "incompatible sizes" in m.fails("x = vander([1 2; 3 4]);").message


# ------------------------------------------------------------ isdiag, istriu, istril


@pytest.mark.parametrize(("call", "expected"), [
    ("istriu([17 24 1; 0 5 7; 0 0 13])", True),
    ("istriu(zeros(5))", True),
    ("istriu(magic(3))", False),
    ("istriu([1 2 3; 0 4 5])", True),
    ("istriu([1 2; 0 3; 0 0])", True),
    ("istriu([1 2; 0 3; 1 0])", False),
    ("istriu([1 2; NaN 3])", False),
    ("istriu([1 2; 1i 3])", False),
    ("istriu(5)", True),
    ("istriu([])", True),
    ("istriu(zeros(0, 3))", True),
    ("istriu(logical([1 1; 0 1]))", True),
    ("istriu(ones(2, 2, 2))", False),
    ("istril([1 0; 2 3])", True),
    ("istril([1 NaN; 2 3])", False),
    ("istril([1 0 0; 2 3 0])", True),
    ("istril([1 2 3; 0 4 5])", False),
    ("istril(single([1 0; 1 1]))", True),
    ("istril(zeros(2, 2, 2))", False),
    ("isdiag(eye(4))", True),
    ("isdiag(3*eye(4) + diag([2 2 2], 1))", False),
    ("isdiag(diag(diag(3*eye(4) + diag([2 2 2], 1))))", True),
    ("isdiag([1 0 0; 0 2 0])", True),
    ("isdiag([1 0; 0 2; 3 0])", False),
    ("isdiag(NaN)", True),
    ("isdiag([1 NaN; 0 1])", False),
    ("isdiag([])", True),
    ("isdiag(true)", True),
    ("isdiag(int8([1 0; 0 1]))", True),
    ("isdiag(ones(1, 1, 2))", False),
])
def test_triangular_and_diagonal_tests(m, call, expected):
    result = m.value(f"x = {call};")
    assert (is_true if expected else is_false)(result), call


def test_triangular_tests_agree_with_each_other(m):
    rng = np.random.default_rng(5)
    for _ in range(20):
        a = rng.integers(-1, 2, size=tuple(rng.integers(0, 5, size=2))).astype(float)
        m.interp.base.vars.clear()
        m.interp.base.vars["A"] = a
        m.interp.eval("u = istriu(A); l = istril(A); d = isdiag(A);")
        got = [bool(array(m.interp.base.vars[k]).reshape(-1)[0]) for k in "uld"]
        upper, lower = np.array_equal(a, np.triu(a)), np.array_equal(a, np.tril(a))
        want = [upper, lower, upper and lower]
        assert got == want, a


@pytest.mark.parametrize("name", ["istriu", "istril", "isdiag"])
def test_triangular_tests_refuse_cells_and_structs(m, name):
    for arg in ("{1}", "struct('a', 1)"):
        err = m.fails(f"x = {name}({arg});")
        assert err.identifier == "MATLAB:UndefinedFunction"
        assert err.message == ("Check for incorrect argument data type or missing argument "
                               f"in call to function '{name}'.")
