"""Robustness of the files-and-data builtins: awkward arguments give a MATLAB value or a
MATLAB error, never a Python exception.

Every builtin of the files family, the table functions and the date and time
functions is called with argument lists drawn from a pool of unusual values and
of names of real files of each kind (text, CSV, MAT, PNG, GIF, a folder, a file
that does not exist), in a scratch folder.  Functions that reach outside that
folder (system, setenv) are left out.
"""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlang.errors import RUNNING, MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import load_all

FAMILIES = ("mlang.builtins.files.", "mlang.builtins.data.table", "mlang.builtins.data.datetimes",
            "mlang.builtins.data.durations", "mlang.builtins.data.date_functions")
LEFT_OUT = {"system", "setenv", "pause", "input", "keyboard"}

POOL_SOURCES = [
    "zeros(0,0)", "zeros(1,0)", "5", "-1", "0", "0.5", "NaN", "Inf", "1e308", "3+4i", "[1 2 3]",
    "[1;2;3]", "magic(3)", "int8([-5 0 7])", "uint8(200)", "single(2)", "true", "[true false]",
    "''", "'x'", "'abc'", "['ab';'cd']", "\"str\"", "string({'a','b'})", "{}", "{1,'a'}",
    "{'a','b'}", "struct('x',1)", "struct('a',{1,2})", "@sin", "rand(2,3,2)", "'r'", "'w'", "'a+'",
    "'%f'", "'%s %d'", "'double'", "'uint8'", "'*char'", "'Delimiter'", "','", "'WriteMode'",
    "'append'", "'-append'", "'-struct'", "'-ascii'", "'-v7.3'", "'data.txt'", "'data.csv'",
    "'data.mat'", "'pic.png'", "'anim.gif'", "'sub'", "'missing.csv'", "'out.csv'", "'out.mat'",
    "'out.png'", "'*.txt'", "'**'", "'%'", "3", "1:2", "datetime(2024,1,2)", "hours(1:2)",
    "table([1;2],{'a';'b'})", "'Format'", "'yyyy-MM-dd'", "'hh:mm:ss'",
]


def _names() -> list[str]:
    registry = load_all()
    return sorted(name for name, entry in registry.items()
                  if entry.fn.__module__.startswith(FAMILIES) and name not in LEFT_OUT)


NAMES = _names()


@pytest.fixture(scope="module")
def interp(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("robust")
    before = os.getcwd()
    os.chdir(folder)
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    it.eval("fid = fopen('data.txt', 'w'); fprintf(fid, '1 2 3\\n4 5 6\\n'); fclose(fid); "
            "writematrix(magic(3), 'data.csv'); a = 1; b = 'x'; save data.mat a b; "
            "imwrite(uint8(magic(8)), 'pic.png'); imwrite(uint8(magic(8)), repmat(linspace(0,1,256)', 1, 3), 'anim.gif'); "
            "mkdir sub; clear all")
    it.eval("\n".join(f"v{k} = {src};" for k, src in enumerate(POOL_SOURCES)))
    yield it
    it.eval("fclose('all');")
    os.chdir(before)


@settings(max_examples=5000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(NAMES),
       picks=st.lists(st.integers(0, len(POOL_SOURCES) - 1), max_size=4),
       nargout=st.integers(0, 3))
def test_awkward_arguments_never_raise_python_errors(interp: Interpreter, name: str,
                                                     picks: list[int], nargout: int) -> None:
    args = [interp.base.vars[f"v{k}"] for k in picks]
    token = RUNNING.set(interp)
    try:
        load_all()[name].call(interp, args, nargout)
    except MatlabError:
        pass
    finally:
        RUNNING.reset(token)


@pytest.mark.parametrize("code", [
    "datestr([1;2;3], NaN, 'double')", "datestr(1e308, Inf, -1)", "datestr(NaN)",
    "imresize([1 2 3], 1e308)", "csvwrite('x.csv', 1, 1e308)",
    "dlmwrite('x.txt', zeros(0,0))",
])
def test_found_by_random_calls(code: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    try:
        it.eval(code)
    except MatlabError:
        pass


@pytest.mark.parametrize("code", [
    "a = zeros(0,0); save('e.txt', 'a', '-ascii');", "sortrows(magic(3), NaN)",
    "x = join({'a';'b'}, ',', 120);", "sortrows(seconds(5), NaN)", "repmat('descend', seconds(5))",
    "cat(datetime(2024,1,2), categorical({'a','b','a'}))", "cat(zeros(0,0), categorical({'a'}))",
])
def test_found_by_random_calls_with_objects(code: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    try:
        it.eval(code)
    except MatlabError:
        pass


def test_importdata_of_text_after_the_header_lines(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.txt").write_text("abc\n")
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    it.eval("[a, d, h] = importdata('t.txt', 'x', 0);")
    assert it.get("a") == ["abc"] and it.get("h") == 0


def test_copying_a_folder_into_itself_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d" / "sub").mkdir(parents=True)
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    it.eval("[ok, msg, id] = copyfile('d', 'd/sub');")
    assert not it.get("ok")
    assert sorted(p.name for p in (tmp_path / "d" / "sub").iterdir()) == []
