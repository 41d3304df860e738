"""Front-end robustness: internal errors keep their Python frames for --debug."""

from __future__ import annotations

import errno
import io
import pathlib

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.compiler import expressions
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.cli import main
from mlang.frontends.reporting import run_reported
from mlang.syntax.cache import parse_file


def test_debug_traceback_shows_where_the_python_exception_was_raised(monkeypatch):
    def broken_colon_range(*args: object) -> None:
        raise ZeroDivisionError("deliberately broken")

    monkeypatch.setattr(expressions, "colon_range", broken_colon_range)
    err = io.StringIO()
    interp = Interpreter(stdout=io.StringIO(), stderr=err)
    stopped = run_reported(interp, lambda: interp.eval("x = 1:3;"), debug=True)
    assert stopped is not None
    report = err.getvalue()
    assert report.startswith("mlang internal error (a bug in mlang, not in your code): "
                             "ZeroDivisionError: deliberately broken")
    assert "in broken_colon_range" in report
    assert 'raise ZeroDivisionError("deliberately broken")' in report


# ------------------------------------------------------------------ unreadable files


@pytest.fixture
def unreadable_secret(tmp_path, monkeypatch):
    """A folder holding secret.m that cannot be read (as a file without read permission
    would be for a user other than root) and other.m; the current folder is that folder."""
    (tmp_path / "secret.m").write_text("disp(1)\n")
    real_read_text = pathlib.Path.read_text

    def read_text(self: pathlib.Path, *args: object, **kwargs: object) -> str:
        if self.name == "secret.m":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "read_text", read_text)
    monkeypatch.setenv("MLANG_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_running_an_unreadable_script_is_a_matlab_error_with_status_1(unreadable_secret, capsys):
    assert main(["secret.m"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"Unable to read file '{unreadable_secret / 'secret.m'}'. Permission denied.\n"
    assert "Traceback" not in captured.err + captured.out


def test_run_type_and_calling_an_unreadable_script_are_catchable_errors(unreadable_secret):
    out = io.StringIO()
    interp = Interpreter(stdout=out, stderr=out)
    for statement in ("run secret.m", "run('secret')", "type secret.m", "type secret", "secret"):
        interp.eval(f"try, {statement}, catch e, disp(e.identifier), disp(e.message), end")
    message = f"Unable to read file '{unreadable_secret / 'secret.m'}'. Permission denied."
    assert out.getvalue() == f"MATLAB:unableToReadFile\n{message}\n" * 5


def test_exist_which_and_help_still_find_an_unreadable_script(unreadable_secret):
    out = io.StringIO()
    interp = Interpreter(stdout=out, stderr=out)
    interp.eval("disp(exist('secret')), disp(exist('secret.m')), disp(exist('secret', 'file'))")
    interp.eval("which secret, help secret")
    assert out.getvalue().split("\n") == ["     2", "", "     2", "", "     2", "",
                                          str(unreadable_secret / "secret.m"),
                                          "No help found for secret.", "", ""]


def test_a_folder_named_like_a_script_is_a_read_error_from_the_parser(tmp_path):
    (tmp_path / "folder.m").mkdir()
    with pytest.raises(MatlabError) as caught:
        parse_file(tmp_path / "folder.m")
    assert caught.value.identifier == "MATLAB:unableToReadFile"
    assert caught.value.message == f"Unable to read file '{tmp_path / 'folder.m'}'. Is a directory."
