"""who, whos, clc, exit and quit."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.builtins.session.workspace import columns, value_bytes
from mlang.errors import ExitRequest
from mlang.evaluation.interpreter import Interpreter
from mlang.values.cell import Cell
from mlang.values.core import to_str
from mlang.values.struct import Struct


@pytest.fixture(autouse=True)
def no_globals(m):
    """Each test starts without global variables (the session's globals outlive ``run``)."""
    m.interp.globals.clear()
    m.interp.base.global_names.clear()
    yield
    m.interp.globals.clear()
    m.interp.base.global_names.clear()
    m.interp.path.clear()
    m.interp.invalidate()


# ---------------------------------------------------------------------- who


def test_who_lists_names_in_columns(m):
    assert m.run("b = 1; a = 2; ans = 3; who") == "\nYour variables are:\n\na    ans  b    \n\n"
    assert m.run("zeta = 1; alpha = 2; mid = 'x'; who") == \
        "\nYour variables are:\n\nalpha  mid    zeta   \n\n"


def test_who_sorts_capitals_first_as_matlab_does(m):
    assert m.run("map = 1; caption = 2; X = 3; who") == \
        "\nYour variables are:\n\nX        caption  map      \n\n"


def test_who_fills_80_columns_row_by_row(m):
    names = [f"var{k:07d}" for k in range(1, 9)]  # 10 characters: 12 columns each, 6 a line
    out = m.run("".join(f"{n} = 1; " for n in names) + "who")
    first = "".join(n + "  " for n in names[:6])
    second = "".join(n + "  " for n in names[6:])
    assert out == f"\nYour variables are:\n\n{first}\n{second}\n\n"
    assert len(first) == 72


def test_columns_layout():
    assert columns([], 80) == []
    assert columns(["a", "bb"], 80) == ["a   bb  "]
    assert columns(["a" * 100], 80) == ["a" * 100 + "  "]  # one a line even when too wide
    assert columns(["x", "y", "z"], 6) == ["x  y  ", "z  "]


def test_who_with_an_empty_workspace_prints_nothing(m):
    assert m.run("who") == ""
    assert m.run("whos") == ""


def test_who_filters(m):
    setup = "alpha = 1; alps = 2; beta = 3; gamma = 4; "
    assert m.run(setup + "who a*") == "\nYour variables are:\n\nalpha  alps   \n\n"
    assert m.run(setup + "who beta gamma nothere") == "\nYour variables are:\n\nbeta   gamma  \n\n"
    assert m.run(setup + "who -regexp ^g ps$") == "\nYour variables are:\n\nalps   gamma  \n\n"
    assert m.run(setup + "who z*") == ""
    assert m.run(setup + "who('a*', 'b*')") == "\nYour variables are:\n\nalpha  alps   beta   \n\n"


def test_who_returns_a_cell_column(m):
    c = m.value("b = 1; a = 2; x = who;")  # x is assigned after who ran
    assert type(c) is Cell and c.shape == (2, 1)
    assert [to_str(v) for v in c.values()] == ["a", "b"]
    c = m.value("b = 1; a = 2; x = who('b');")
    assert [to_str(v) for v in c.values()] == ["b"]
    empty = m.value("x = who('nothing*');")
    assert type(empty) is Cell and empty.shape == (0, 1)


def test_who_global(m):
    out = m.run("global g1 g2; g1 = 1; g2 = 2; local = 3; who global")
    assert out == "\nYour variables are:\n\ng1  g2  \n\n"
    # a workspace lists the globals it declared among its own variables
    m.interp.base.global_names.clear()
    assert m.run("global g1; local = 3; who") == "\nYour variables are:\n\ng1     local  \n\n"
    c = m.value("x = who('global');")
    assert [to_str(v) for v in c.values()] == ["g1", "g2"]


def test_who_in_a_function_lists_the_function_workspace(m, tmp_path):
    (tmp_path / "lister.m").write_text("function lister(p)\nq = 2;\nwho\nend\n")
    out = m.run(f"addpath('{tmp_path}'); outer = 1; lister(5);")
    assert out == "\nYour variables are:\n\np  q  \n\n"


def test_who_file_needs_a_file_name(m):
    assert m.fails("who -file").identifier == "MATLAB:whos:missingFileName"


# --------------------------------------------------------------------- whos


def test_whos_of_one_double(m):
    assert m.run("a = 1; whos") == (
        "  Name      Size            Bytes  Class     Attributes\n"
        "\n"
        "  a         1x1                 8  double              \n"
        "\n")


def test_whos_matches_matlabs_published_layout(m):
    # MATLAB's documentation shows exactly this table for durer.mat
    out = m.run("X = zeros(648, 509); caption = repmat('a', 2, 28); map = zeros(128, 3); whos")
    assert out == (
        "  Name           Size               Bytes  Class     Attributes\n"
        "\n"
        "  X            648x509            2638656  double              \n"
        "  caption        2x28                 112  char                \n"
        "  map          128x3                 3072  double              \n"
        "\n")


def test_whos_nd_complex_and_global(m):
    out = m.run("z = [1+2i 3]; global gvar; gvar = 5; n = zeros(2, 3, 4); whos")
    assert out == (
        "  Name      Size              Bytes  Class     Attributes\n"
        "\n"
        "  gvar      1x1                   8  double    global    \n"
        "  n         2x3x4               192  double              \n"
        "  z         1x2                  32  double    complex   \n"
        "\n")


def test_whos_widens_for_long_names_classes_and_sizes(m):
    assert m.run("h = @sin; k = int8(1); whos") == (
        "  Name      Size            Bytes  Class            Attributes\n"
        "\n"
        "  h         1x1                32  function_handle            \n"
        "  k         1x1                 1  int8                       \n"
        "\n")
    assert m.run("aVeryLongVariableName = 1; b = 'x'; whos") == (
        "  Name                       Size            Bytes  Class     Attributes\n"
        "\n"
        "  aVeryLongVariableName      1x1                 8  double              \n"
        "  b                          1x1                 2  char                \n"
        "\n")
    assert m.run("big = zeros(1000, 2); whos") == (
        "  Name         Size            Bytes  Class     Attributes\n"
        "\n"
        "  big       1000x2             16000  double              \n"
        "\n")


def test_whos_global_and_complex_together(m):
    out = m.run("global w; w = 1i; whos")
    assert out.splitlines()[2] == "  w         1x1                16  double    global, complex"


def test_whos_filters_like_who(m):
    out = m.run("alpha = 1; beta = 2; whos b*")
    assert out.splitlines()[2:] == ["  beta      1x1                 8  double              ", ""]
    assert m.run("alpha = 1; whos nothing") == ""


def test_whos_lists_persistent_variables(m, tmp_path):
    (tmp_path / "counter.m").write_text(
        "function counter()\npersistent n\nif isempty(n), n = 0; end\nn = n + 1;\nwhos\nend\n")
    out = m.run(f"addpath('{tmp_path}'); counter();")
    assert out.splitlines()[2] == "  n         1x1                 8  double    persistent"


def test_whos_struct_output(m):
    s = m.value("a = int16([1 2 3]); z = 1 + 2i; x = whos;")
    assert type(s) is Struct and s.shape == (2, 1)
    assert s.fields == ["name", "size", "bytes", "class", "global", "sparse", "complex", "nesting",
                        "persistent"]
    a = s.element(0)
    assert to_str(a["name"]) == "a" and to_str(a["class"]) == "int16" and a["bytes"] == 6.0
    assert a["size"].tolist() == [[1.0, 3.0]]
    assert a["global"] is False and a["sparse"] is False and a["complex"] is False
    assert a["persistent"] is False
    nesting = a["nesting"]
    assert type(nesting) is Struct and nesting.element(0)["level"] == 1.0
    assert to_str(nesting.element(0)["function"]) == ""
    z = s.element(1)
    assert to_str(z["name"]) == "z" and z["complex"] is True and z["bytes"] == 16.0
    g = m.value("global gg; gg = 1; x = whos('gg');")
    assert g.shape == (1, 1) and g.element(0)["global"] is True
    empty = m.value("x = whos('nothing');")
    assert type(empty) is Struct and empty.shape == (0, 1) and "bytes" in empty.fields


@pytest.mark.parametrize(("code", "expected"), [
    ("1", 8), ("[1 2 3]", 24), ("zeros(0, 3)", 0), ("1+2i", 16), ("[1+2i 3]", 32),
    ("single([1 2])", 8), ("single(1+2i)", 8), ("int8(1)", 1), ("uint16([1 2 3])", 6),
    ("int32(7)", 4), ("uint64([1 2])", 16), ("true(2)", 4), ("'abcd'", 8), ("''", 0),
    ("{}", 0), ("{1, 'ab'}", 236), ("{{}}", 112), ("cell(1, 3)", 336),
    ("struct()", 0), ("struct('a', 1, 'bb', 'xy')", 364), ("struct('a', {1, 2})", 304),
    ("struct('a', {})", 64), ("\"abc\"", 138), ("[\"a\", \"\"]", 266), ("string(NaN)", 132),
    ("@sin", 32), ("@(x) x + 1", 32), ("dlarray([1 2 3])", 24), ("containers.Map()", 0),
])
def test_bytes_per_class(m, code, expected):
    assert value_bytes(m.value(f"x = {code};")) == expected


def test_bytes_column_of_whos_uses_the_same_rules(m):
    assert m.run("c = {1, 'ab'}; whos").splitlines()[2] == \
        "  c         1x2               236  cell                "


# ---------------------------------------------------------------------- clc


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_clc_clears_a_terminal():
    out = Terminal()
    it = Interpreter(stdout=out)
    it.eval("fprintf('abc'); clc")
    assert out.getvalue() == "abc\x1b[H\x1b[2J"
    assert it.at_line_start


def test_clc_prints_nothing_when_output_is_not_a_terminal(m):
    assert m.run("clc") == ""


# ------------------------------------------------------------- exit and quit


def exit_status(code: str) -> tuple[int, str]:
    out = io.StringIO()
    it = Interpreter(stdout=out, stderr=io.StringIO())
    with pytest.raises(ExitRequest) as info:
        it.eval(code)
    return info.value.status, out.getvalue()


@pytest.mark.parametrize(("code", "status"), [
    ("exit", 0), ("quit", 0), ("exit(3)", 3), ("quit(2)", 2), ("exit force", 0), ("quit force", 0),
    ("quit(4, 'force')", 4), ("exit(int8(5))", 5), ("exit(true)", 1),
])
def test_exit_and_quit_raise_exit_request(code, status):
    got, _ = exit_status(code)
    assert got == status and type(got) is int


def test_exit_stops_the_code_where_it_is():
    assert exit_status("disp('bye'); exit(3); disp('never')") == (3, "bye\n")


def test_try_catch_does_not_catch_exit(tmp_path):
    assert exit_status("try\n  exit(4);\ncatch err\n  disp('caught');\nend\ndisp('after')") == (4, "")
    assert exit_status("try, quit(6), catch, disp('caught'), end") == (6, "")
    assert exit_status("eval('exit(5)', 'disp(1)')") == (5, "")
    (tmp_path / "leaver.m").write_text("function leaver()\ntry\n  exit(7);\ncatch\nend\nend\n")
    assert exit_status(f"addpath('{tmp_path}'); try, leaver(); catch, disp('caught'); end") == (7, "")


def test_exit_checks_its_arguments(m):
    assert m.fails("exit('later')").identifier == "MATLAB:quit:invalidOption"
    assert m.fails("exit([1 2])").identifier == "MATLAB:quit:invalidExitCode"
    assert m.fails("quit(NaN)").identifier == "MATLAB:quit:invalidExitCode"
    assert m.fails("quit({1})").identifier == "MATLAB:quit:invalidExitCode"


def test_value_bytes_of_python_odds():
    assert value_bytes(None) == 0
    assert value_bytes(np.zeros((2, 2), dtype=np.float32)) == 16
