"""The environment and the system: getenv, setenv, computer, ispc/isunix/ismac, version,
ver, verLessThan, matlabroot, system."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import mlang
from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.string import StringArray


def text(v) -> str:
    if type(v) is StringArray:
        return v.scalar_text()
    return char_text(v)


@pytest.fixture
def env(monkeypatch):
    monkeypatch.setenv("MLANG_TEST_VAR", "value one")
    for name in ("MLANG_TEST_UNSET", "MLANG_TEST_NEW", "A", "B"):
        # set first, so that the variable is removed again after the test
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    return monkeypatch


def test_getenv(m, env):
    assert text(m.value("x = getenv('MLANG_TEST_VAR');")) == "value one"
    unset = m.value("x = getenv('MLANG_TEST_UNSET');")
    assert unset.shape == (0, 0)
    s = m.value('x = getenv("MLANG_TEST_VAR");')
    assert type(s) is StringArray and s.scalar_text() == "value one"
    many = m.value('x = getenv(["MLANG_TEST_VAR" "MLANG_TEST_UNSET"]);')
    assert list(many.data.ravel()) == ["value one", ""]
    c = m.value("x = getenv({'MLANG_TEST_VAR'});")
    assert type(c) is Cell and char_text(c.data[0, 0]) == "value one"


def test_setenv(m, env):
    m.run("setenv('MLANG_TEST_NEW', 'abc')")
    assert os.environ["MLANG_TEST_NEW"] == "abc"
    assert text(m.value("x = getenv('MLANG_TEST_NEW');")) == "abc"
    m.run("setenv('MLANG_TEST_NEW')")
    assert os.environ["MLANG_TEST_NEW"] == ""
    m.run('setenv(["MLANG_TEST_NEW" "MLANG_TEST_VAR"], ["1" "2"])')
    assert (os.environ["MLANG_TEST_NEW"], os.environ["MLANG_TEST_VAR"]) == ("1", "2")


def test_setenv_missing_removes_and_isenv_unsetenv(m, env):
    # MATLAB documents setenv(name, missing) and a <missing> element as removing a variable.
    m.run("setenv('MLANG_TEST_NEW', 'abc'); setenv('MLANG_TEST_NEW', missing)")
    assert "MLANG_TEST_NEW" not in os.environ
    m.run('setenv(["MLANG_TEST_NEW" "MLANG_TEST_VAR"], ["x" missing])')
    assert os.environ["MLANG_TEST_NEW"] == "x" and "MLANG_TEST_VAR" not in os.environ
    assert m.value("x = isenv('MLANG_TEST_NEW');") is True
    x = m.value('x = isenv(["MLANG_TEST_NEW" "MLANG_TEST_VAR"; "MLANG_TEST_NEW" "MLANG_TEST_UNSET"]);')
    assert x.tolist() == [[True, False], [True, False]]
    m.run("unsetenv({'MLANG_TEST_NEW', 'MLANG_TEST_UNSET'})")
    assert "MLANG_TEST_NEW" not in os.environ


def test_setenv_errors(m, env):
    # MATLAB's documentation: a name holding '=' is an error.
    assert m.fails("setenv('A=B', 'x')").identifier == "MATLAB:setenv:InvalidName"
    assert m.fails("setenv('', 'x')").identifier == "MATLAB:setenv:EmptyName"
    assert m.fails("setenv(3, 'x')").identifier == "MATLAB:invalidInput"
    assert m.fails("setenv({'A','B'}, {'1','2','3'})").identifier == "MATLAB:setenv:SizeMismatch"


def test_computer(m):
    expected = {"linux": ("GLNXA64", "glnxa64")}.get(sys.platform)
    kind, size, endian = m.values("[a, b, c] = computer;", "a", "b", "c")
    if expected:
        assert text(kind) == expected[0]
        assert text(m.value("x = computer('arch');")) == expected[1]
    assert size == 2.0**48 - 1 and text(endian) == "L"
    assert m.fails("computer('x')").identifier == "MATLAB:computer:invalidInput"


def test_platform_tests(m):
    assert m.value("x = isunix;") is (not sys.platform.startswith("win"))
    assert m.value("x = ispc;") is sys.platform.startswith("win")
    assert m.value("x = ismac;") is (sys.platform == "darwin")


def test_version(m):
    assert text(m.value("x = version;")) == "24.2.0.2712019 (R2024b)"
    v, d = m.values("[v, d] = version;", "v", "d")
    assert text(d) == "August 21, 2024"
    assert text(m.value("x = version('-release');")) == "2024b"
    assert m.value("x = version('-description');").shape == (0, 0)
    assert text(m.value("x = version('-java');")) == "Java is not enabled"
    assert m.fails("version('-nope')").identifier == "MATLAB:version:invalidInput"


def test_ver_struct(m):
    v = m.value("x = ver;")
    assert v.fields == ["Name", "Version", "Release", "Date"] and v.shape == (1, 2)
    first = v.element(0)
    assert (text(first["Name"]), text(first["Version"]), text(first["Release"])) == \
        ("MATLAB", "24.2", "(R2024b)")
    assert text(v.element(1)["Version"]) == mlang.__version__
    one = m.value("x = ver('matlab');")
    assert one.shape == (1, 1) and text(one.element(0)["Name"]) == "MATLAB"


def test_ver_display(m):
    out = m.run("ver")
    lines = out.splitlines()
    assert lines[0] == "-" * 101 and lines[5] == "-" * 101
    assert lines[1] == "MATLAB Version: 24.2.0.2712019 (R2024b)"
    assert lines[6] == "MATLAB" + " " * 48 + "Version 24.2        (R2024b)"
    assert lines[7].startswith("mlang" + " " * 49 + "Version " + mlang.__version__)


def test_verlessthan(m):
    assert m.value("x = verLessThan('MATLAB', '9.14');") is False
    assert m.value("x = verLessThan('matlab', '24.2');") is False
    assert m.value("x = verLessThan('matlab', '24.2.1');") is True
    assert m.value("x = verLessThan('matlab', '25.1');") is True
    e = m.fails("verLessThan('nosuchbox', '1.0')")
    assert e.identifier == "MATLAB:verLessThan:missingToolbox"


def test_matlabroot_is_the_package_folder(m):
    root = text(m.value("x = matlabroot;"))
    assert root == str(Path(mlang.__file__).resolve().parent)


@pytest.mark.skipif(sys.platform.startswith("win"), reason="a POSIX shell")
def test_system_outputs(m):
    status, out = m.values("[s, out] = system('echo hello; exit 3');", "s", "out")
    assert status == 3.0 and text(out) == "hello\n"
    assert m.run("[s, out] = system('echo hi');") == ""


@pytest.mark.skipif(sys.platform.startswith("win"), reason="a POSIX shell")
def test_system_shows_output_in_the_interpreters_stream(m, capfd):
    out = m.run("s = system('echo shown; echo err 1>&2')")
    assert out == "shown\nerr\n\ns =\n\n     0\n\n"
    assert capfd.readouterr().out == ""  # nothing went to the process's own stdout
    out = m.run("[s, t] = system('echo both', '-echo');")
    assert out == "both\n" and text(m.interp.base.vars["t"]) == "both\n"


@pytest.mark.skipif(sys.platform.startswith("win"), reason="a POSIX shell")
def test_system_environment_and_setenv(m, env):
    out = m.value("[s, x] = system('echo $MLANG_TEST_X', 'MLANG_TEST_X', 'set here');")
    assert text(out) == "set here\n"
    m.run("setenv('MLANG_TEST_NEW', 'from setenv')")
    assert text(m.value("[s, x] = system('echo $MLANG_TEST_NEW');")) == "from setenv\n"
    assert m.fails("system('true', 'A')").identifier == "MATLAB:system:InvalidEnvironment"
    assert m.fails("system(3)").identifier == "MATLAB:invalidInput"


@pytest.mark.skipif(sys.platform.startswith("win"), reason="a POSIX shell")
def test_system_background_command_returns_at_once(m):
    import time

    start = time.monotonic()
    status, out = m.values("[s, out] = system('sleep 3 &');", "s", "out")
    assert time.monotonic() - start < 2
    assert status == 0.0 and out.shape == (0, 0)


def test_is_matlab_release_older_than(m):
    assert m.value("x = isMATLABReleaseOlderThan('R2023a');") is False
    assert m.value('x = isMATLABReleaseOlderThan("R2025a");') is True
    assert m.value("x = isMATLABReleaseOlderThan('R2024b');") is False
    assert m.value("x = isMATLABReleaseOlderThan('R2024b', 'release', 1);") is True
    e = m.fails("isMATLABReleaseOlderThan('2024')")
    assert e.identifier == "MATLAB:isMATLABReleaseOlderThan:InvalidRelease"
