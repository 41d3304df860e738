"""addpath, rmpath, pwd."""

from __future__ import annotations

import os

from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import to_str


def test_addpath_makes_functions_in_a_folder_callable(m, tmp_path):
    (tmp_path / "triple.m").write_text("function y = triple(x)\ny = 3*x;\nend\n")
    m.fails("y = triple(2);")
    assert m.value(f"addpath('{tmp_path}'); x = triple(2);") == 6.0
    assert m.interp.path[0] == str(tmp_path)
    m.run(f"rmpath('{tmp_path}');")
    m.fails("y = triple(2);")


def test_addpath_puts_folders_first_unless_end(m, tmp_path):
    a, b, c = (tmp_path / name for name in "abc")
    for folder in (a, b, c):
        folder.mkdir()
    m.interp.path.clear()
    m.run(f"addpath('{a}'); addpath('{b}'); addpath('{c}', '-end');")
    assert m.interp.path == [str(b), str(a), str(c)]
    old = m.value(f"x = addpath('{a}');")
    assert to_str(old) == os.pathsep.join([str(b), str(a), str(c)])
    assert m.interp.path == [str(a), str(b), str(c)]  # moved to the top, not duplicated
    m.interp.path.clear()


def test_addpath_of_a_missing_folder_warns(m, tmp_path):
    m.run(f"addpath('{tmp_path / 'missing'}');")
    assert "Name is nonexistent or not a directory" in m.err.getvalue()


def test_two_interpreters_have_their_own_paths(tmp_path):
    first, second = Interpreter(), Interpreter()
    first.eval(f"addpath('{tmp_path}');")
    assert first.path == [str(tmp_path)] and second.path == []


def test_pwd(m):
    assert to_str(m.value("x = pwd;")) == os.getcwd()
