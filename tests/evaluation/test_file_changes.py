"""A function file saved, added or removed between inputs is seen by the next input, as
MATLAB sees it at the next prompt (the Command Window, a Jupyter cell, a Python session's
eval and call); inside one running input, only after ``rehash``."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from mlang.api.session import MatlabError, Session
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.repl import execute


def _save(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with a modification time unlike the one it had (a save
    within the file system's time resolution would otherwise look unchanged)."""
    old = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    if path.stat().st_mtime_ns == old:
        os.utime(path, ns=(old + 10**9, old + 10**9))


def _function(path: Path, body: str) -> None:
    _save(path, f"function y = {path.stem}(x)\ny = {body};\nend\n")


@pytest.fixture
def window(tmp_path: Path) -> Interpreter:
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    assert execute(interp, f"addpath('{tmp_path}');") is None
    return interp


def test_a_saved_function_file_runs_anew_at_the_next_input(tmp_path: Path, window: Interpreter) -> None:
    _function(tmp_path / "twice.m", "2 * x")
    for _ in range(3):  # resolved once, then called from the cache
        assert execute(window, "a = twice(5);") is None
    assert window.get("a") == 10.0
    _function(tmp_path / "twice.m", "3 * x")
    assert execute(window, "a = twice(5);") is None
    assert window.get("a") == 15.0


def test_a_file_added_ahead_of_a_builtin_and_removed_again(tmp_path: Path, window: Interpreter) -> None:
    assert execute(window, "h = hypot(3, 4);") is None
    assert window.get("h") == 5.0
    _function(tmp_path / "hypot.m", "x + 100")  # hypot(x) now means the file
    assert execute(window, "h = hypot(3);") is None
    assert window.get("h") == 103.0
    (tmp_path / "hypot.m").unlink()
    assert execute(window, "h = hypot(3, 4);") is None
    assert window.get("h") == 5.0


def test_a_saved_model_function_is_not_replayed_from_its_old_plan(tmp_path: Path,
                                                                 window: Interpreter) -> None:
    model = tmp_path / "model_loss.m"
    _save(model, "function [loss, g] = model_loss(w, x)\nloss = sum(tanh(w .* x));\n"
                 "g = dlgradient(loss, w);\nend\n")
    setup = "w = dlarray([1 2 3]); x = dlarray([0.5 0.1 0.2]);"
    run = "[l, g] = dlfeval(@model_loss, w, x); L = extractdata(l); G = extractdata(g);"
    assert execute(window, setup) is None
    for _ in range(3):  # recorded, then replayed
        assert execute(window, run) is None
    first = window.get("L")
    _save(model, "function [loss, g] = model_loss(w, x)\nloss = 2 * sum(tanh(w .* x));\n"
                 "g = dlgradient(loss, w);\nend\n")
    assert execute(window, run) is None
    assert window.get("L") == 2 * first


def test_inside_one_input_a_saved_file_needs_rehash(tmp_path: Path, window: Interpreter) -> None:
    path = tmp_path / "stepper.m"
    _function(path, "x + 1")
    os.utime(path, ns=(10**18, 10**18))  # saved long ago: the rewrite below is newer
    write = (f"f = fopen('{path}', 'w'); fprintf(f, 'function y = stepper(x)\\ny = x + 2;\\nend\\n');"
             " fclose(f);")
    assert execute(window, f"a = stepper(1); {write} b = stepper(1); rehash; c = stepper(1);") is None
    assert (window.get("a"), window.get("b"), window.get("c")) == (2.0, 2.0, 3.0)


def test_rehash_options() -> None:
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    generation = interp.generation
    interp.eval("rehash; rehash path; rehash('toolbox');")
    assert interp.generation == generation + 3
    stopped = execute(interp, "rehash nonsense")
    assert stopped is not None and stopped.identifier == "MATLAB:rehash:InvalidInput"


def test_a_python_session_sees_saved_files_at_each_eval_and_call(tmp_path: Path) -> None:
    session = Session(stdout=io.StringIO())
    session.addpath(tmp_path)
    _function(tmp_path / "shifted.m", "x + 1")
    assert session.call("shifted", 1.0) == 2.0
    assert session.eval("shifted(1)", nargout=1) == 2.0
    _function(tmp_path / "shifted.m", "x + 10")
    assert session.call("shifted", 1.0) == 11.0
    _function(tmp_path / "shifted.m", "x + 20")
    assert session.eval("shifted(1)", nargout=1) == 21.0
    (tmp_path / "shifted.m").unlink()
    with pytest.raises(MatlabError) as caught:
        session.eval("shifted(1)")
    assert caught.value.identifier == "MATLAB:UndefinedFunction"
