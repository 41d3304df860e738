"""mlang.Session: running code, calling functions, the workspace, the path, errors."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mlang


@pytest.fixture()
def m():
    return mlang.Session()


def test_import_mlang_loads_neither_numpy_nor_the_interpreter():
    code = ("import sys, mlang; mlang.__version__; "
            "print('numpy' in sys.modules, 'mlang.evaluation.interpreter' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_the_public_names():
    assert mlang.Session is mlang.api.Session
    assert issubclass(mlang.MatlabError, Exception)
    assert "Session" in dir(mlang)
    with pytest.raises(AttributeError):
        mlang.NoSuchName  # noqa: B018


def test_eval_prints_as_the_command_window_and_captures(m, capsys):
    m.eval("x = 3")
    assert capsys.readouterr().out == "\nx =\n\n     3\n\n"
    assert m.eval("y = 4", capture=True) == "\ny =\n\n     4\n\n"
    assert capsys.readouterr().out == ""
    with m.capture() as out:
        m.eval("disp('a'); warning('w:x', 'careful');")
    assert out.getvalue() == "a\nWarning: careful\n"
    assert m.eval("x + y", nargout=1) == 7.0
    assert m.eval("x", nargout=1, capture=True) == (3.0, "")


def test_output_goes_to_the_streams_given():
    import io

    out, err = io.StringIO(), io.StringIO()
    m = mlang.Session(stdout=out, stderr=err)
    m.eval("disp(1); warning('careful');")
    assert out.getvalue() == "     1\n\n" and err.getvalue() == "Warning: careful\n"


def test_call_with_several_outputs(m):
    assert m.call("max", np.array([3.0, 9.0, 4.0])) == 9.0
    assert m.call("max", [3, 9, 4], nargout=2) == (9.0, 2.0)
    assert m.call("disp", "quiet", nargout=0) is None
    q, r = m.call("deconv", [1, 5, 6], [1, 2], nargout=2)
    np.testing.assert_allclose(q, [[1, 3]])
    with pytest.raises(mlang.MatlabError) as info:
        m.call("no_such_function_here")
    assert info.value.identifier == "MATLAB:UndefinedFunction"


def test_python_callables_where_matlab_expects_a_handle(m):
    assert m.call("fzero", lambda x: x**2 - 2, 1.0) == pytest.approx(np.sqrt(2))
    out = m.call("arrayfun", lambda x: x * 10, np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(out, [[10.0, 20.0, 30.0]])
    lo, hi = m.call("cellfun", lambda x: (x.min(), x.max()), [[1, 5], [2, 7]], nargout=2)
    np.testing.assert_array_equal(lo, [[1, 2]])
    np.testing.assert_array_equal(hi, [[5, 7]])


def test_func2str_of_a_python_callable_names_it(m):
    import math

    m["f"] = math.hypot
    assert m.eval("func2str(f)", nargout=1) == "py.hypot"
    assert m.eval("func2str(@sin)", nargout=1) == "sin"
    with pytest.raises(mlang.MatlabError) as info:
        m.eval("func2str(dlaccelerate(@sin))")
    assert info.value.identifier == "MATLAB:func2str:InputNotFunctionHandle"


def test_python_exceptions_become_matlab_errors(m):
    def broken(x):
        raise ValueError("no good")

    m["f"] = broken
    m.eval("try, f(1), catch err, id = err.identifier; msg = err.message; end")
    assert m["id"] == "mlang:python:error"
    assert "ValueError: no good" in m["msg"]
    with pytest.raises(mlang.MatlabError) as info:
        m.call("feval", broken, 1)
    assert info.value.identifier == "mlang:python:error"

    def refuses(x):
        raise mlang.MatlabError("my:own", "refused")

    m["g"] = refuses
    m.eval("try, g(1), catch err, id = err.identifier; end")
    assert m["id"] == "my:own"


def test_errors_carry_identifier_message_stack_and_report(m, tmp_path):
    (tmp_path / "failing.m").write_text("function failing(x)\n  y = x + 1;\n  error('my:id', 'Bad value %d.', y);\nend\n")
    m.addpath(tmp_path)
    with pytest.raises(mlang.MatlabError) as info:
        m.call("failing", 2.0, nargout=0)
    err = info.value
    assert err.identifier == "my:id" and err.message == "Bad value 3."
    assert err.stack[0] == (str(tmp_path / "failing.m"), "failing", 3)
    assert str(err) == ("Error using failing\nBad value 3.\n\nError in failing (line 3)\n"
                        "  error('my:id', 'Bad value %d.', y);")
    with pytest.raises(mlang.MatlabError) as info:
        m.eval("x = [1 2")
    assert info.value.identifier == "MATLAB:m_incomplete_statement"
    with pytest.raises(mlang.MatlabError) as info:
        m.eval("x = 1 +* 2")
    assert info.value.identifier == "MATLAB:m_parse_error" and str(info.value).startswith("Error:")
    m.eval("z = 1;")  # the session goes on
    assert m["z"] == 1.0


def test_run_scripts_and_function_files(m, tmp_path):
    script = tmp_path / "setup_vars.m"
    script.write_text("a = 2;\nb = helper_fn(a);\n")
    (tmp_path / "helper_fn.m").write_text("function y = helper_fn(x)\n  y = x * 10;\nend\n")
    m.run(script)
    assert m["b"] == 20.0
    adder = tmp_path / "adder.m"
    adder.write_text("function [s, d] = adder(x, y)\n  s = x + y;\n  d = x - y;\nend\n")
    assert m.run(adder, 5, 3, nargout=2) == (8.0, 2.0)
    assert "helper_fn" not in str(m.path)  # the script's folder is searched only while it runs
    with pytest.raises(mlang.MatlabError):
        m.run(script, 1)
    with pytest.raises(mlang.MatlabError):
        m.run(tmp_path / "missing.m")


def test_workspace_mapping_and_attributes(m):
    m["a"] = 1.0
    m.workspace["b"] = [1, 2]
    m.vars.c = "text"
    assert set(m.workspace) == {"a", "b", "c"} and len(m.workspace) == 3
    assert "a" in m and "a" in m.workspace and "zz" not in m
    assert m.vars.c == "text" and "c" in dir(m.vars)
    del m["a"]
    del m.vars.b
    assert list(m.workspace) == ["c"]
    with pytest.raises(KeyError):
        m["a"]  # noqa: B018
    with pytest.raises(AttributeError):
        m.vars.nothing  # noqa: B018
    with pytest.raises(ValueError):
        m["1bad"] = 1
    assert dict(m.workspace.items()) == {"c": "text"}


def test_path_management(m, tmp_path):
    (tmp_path / "from_folder.m").write_text("function y = from_folder()\n  y = 42;\nend\n")
    with pytest.raises(mlang.MatlabError):
        m.call("from_folder")
    m.addpath(tmp_path)
    assert m.path == [str(tmp_path)]
    assert m.call("from_folder") == 42.0
    m.rmpath(tmp_path)
    assert m.path == []
    with pytest.raises(mlang.MatlabError):
        m.call("from_folder")
    with pytest.raises(FileNotFoundError):
        m.addpath(tmp_path / "nope")
    with pytest.raises(ValueError):
        m.rmpath(tmp_path)
    other = mlang.Session(path=[tmp_path])
    assert other.call("from_folder") == 42.0


def test_two_sessions_never_share_a_workspace():
    one, two = mlang.Session(), mlang.Session()
    one["x"] = 1.0
    two["x"] = 2.0
    one.eval("rng(1); r = rand;")
    assert one["x"] == 1.0 and two["x"] == 2.0 and "r" not in two


def test_callbacks_can_call_back_into_the_session(m):
    m["k"] = 3.0
    m["f"] = lambda x: m.eval("k", nargout=1) * x
    assert m.eval("f(2)", nargout=1) == 6.0


def test_figures_are_written_on_close_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with mlang.Session() as m:
        m.eval("plot(1:3);")
    assert not (tmp_path / "figures").exists()
    with mlang.Session(figures_dir=str(tmp_path / "out"), stderr=open(tmp_path / "log", "w")) as m:
        m.eval("plot(1:3);")
    assert (tmp_path / "out" / "figure1.png").is_file()


def test_docstring_example():
    code = textwrap.dedent("""
        import mlang
        m = mlang.Session()
        m.eval("x = magic(3);")
        print(m["x"].sum(), m.call("max", [3, 9, 4], nargout=2))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "45.0 (9.0, 2.0)\n"
