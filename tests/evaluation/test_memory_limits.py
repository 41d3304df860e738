"""Requests for arrays larger than the session allows: MATLAB's errors, never a
Python MemoryError, and a configurable maximum array size."""

from __future__ import annotations

import io

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values import concat
from mlang.values.limits import DEFAULT_MAX_ARRAY_BYTES, GIB, check_array_size

LIMIT = 8 * GIB  # fixed so that the messages do not depend on the machine


def session() -> Interpreter:
    it = Interpreter(stdout=io.StringIO())
    it.max_array_bytes = LIMIT
    return it


def failure(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as caught:
        session().run_source(code)
    return caught.value


def size_limit_message(dims: str, gigabytes: str) -> str:
    return (f"Requested {dims} ({gigabytes}GB) array exceeds maximum array size preference "
            "(8.0GB). This might cause MATLAB to become unresponsive.")


@pytest.mark.parametrize("code, dims, gigabytes", [
    ("x = ones(1e5);", "100000x100000", "74.5"),
    ("x = zeros(1e6, 1e6);", "1000000x1000000", "7450.6"),
    ("x = zeros(1e5, 1e5, 'int8');", "100000x100000", "9.3"),
    ("x = eye(1e5);", "100000x100000", "74.5"),
    ("x = magic(1e5);", "100000x100000", "74.5"),
    ("x = linspace(0, 1, 1e10);", "1x10000000000", "74.5"),
    ("x = 1:1e12;", "1x1000000000000", "7450.6"),
    ("x = colon(1, 1e12);", "1x1000000000000", "7450.6"),
    ("x = repmat('a', 1, 1e10);", "1x10000000000", "18.6"),  # a char takes 2 bytes
    ("x = repelem(1, 1e11);", "1x100000000000", "745.1"),
    ("x = kron(ones(1000), ones(1000));", "1000000x1000000", "7450.6"),
    ("A = []; A(1e6, 1e6) = 1;", "1000000x1000000", "7450.6"),
    ("x = 1; x(1e11) = 2;", "1x100000000000", "745.1"),
    ("c = {}; c{1e11} = 2;", "1x100000000000", "745.1"),
])
def test_huge_requests_exceed_the_maximum_array_size(code, dims, gigabytes):
    err = failure(code)
    assert err.identifier == "MATLAB:array:SizeLimitExceeded"
    assert err.message == size_limit_message(dims, gigabytes)


@pytest.mark.parametrize("code", [
    "A(1e20) = 1;",
    "A = [1 2]; A([1 1e20]) = 1;",
    "for k = 1:eps(0):2, end",
    "x = 1:eps(0):2;",
])
def test_sizes_no_array_can_have(code):
    err = failure(code)
    assert err.identifier == "MATLAB:pmaxsize"
    assert err.message == "Maximum variable size allowed by the program is exceeded."


def test_size_errors_are_caught_by_try():
    it = session()
    it.run_source("try, x = ones(1e5); ok = 0; catch e, ok = 1; id = e.identifier; end")
    assert it.get("ok") == 1.0
    assert it.get("id") == "MATLAB:array:SizeLimitExceeded"


def test_maximum_array_size_is_a_session_setting():
    it = Interpreter(stdout=io.StringIO())
    assert it.max_array_bytes == DEFAULT_MAX_ARRAY_BYTES > 0
    it.max_array_bytes = 2 ** 27  # 128 MB: 20 million doubles are too many
    with pytest.raises(MatlabError) as caught:
        it.run_source("x = zeros(1, 2e7);")
    assert "(0.1GB)" in caught.value.message
    it.run_source("x = zeros(1, 1e6); n = numel(x);")
    assert it.get("n") == 1e6
    with pytest.raises(MatlabError) as caught:  # concatenation checks the joined size
        it.run_source("y = ones(1, 1e7); z = [y y];")
    assert caught.value.message.startswith("Requested 1x20000000 (0.1GB) array exceeds")


def test_default_limit_applies_without_a_running_interpreter():
    with pytest.raises(MatlabError) as caught:
        check_array_size((10 ** 7, 10 ** 7))
    assert caught.value.identifier == "MATLAB:array:SizeLimitExceeded"
    check_array_size((1000, 1000))


def test_a_memory_error_becomes_out_of_memory(monkeypatch):
    def refuse(arrays, axis):
        raise MemoryError

    monkeypatch.setattr(concat, "_concatenate", refuse)
    it = session()
    it.run_source("a = ones(2); try, x = [a a]; catch e, id = e.identifier; msg = e.message; end")
    assert it.get("id") == "MATLAB:nomem"
    assert it.get("msg") == "Out of memory."
