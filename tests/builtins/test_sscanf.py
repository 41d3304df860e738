"""sscanf: conversions, literals, whitespace, sizes and the four outputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.values.core import char_text


def column(*xs):
    return np.array(xs, dtype=float).reshape(-1, 1)


@pytest.mark.parametrize("code, expected", [
    ("x = sscanf('1 2 3 x 4', '%d');", column(1, 2, 3)),
    ("x = sscanf('12abc', '%d%s');", column(12, 97, 98, 99)),
    ("x = sscanf('1,2,3', '%d,');", column(1, 2, 3)),
    ("x = sscanf('ff 10', '%x');", column(255, 16)),
    ("x = sscanf('x=10, y=20', 'x=%d, y=%d');", column(10, 20)),
    ("x = sscanf('010 0x1f 9', '%i');", column(8, 31, 9)),
    ("x = sscanf('12345', '%2d');", column(12, 34, 5)),
    ("x = sscanf('3.5 -2e2 .5', '%f');", column(3.5, -200, 0.5)),
    ("x = sscanf('1.5,2.5', '%g,');", column(1.5, 2.5)),
    ("x = sscanf(sprintf('  7\\t8\\n9'), '%d');", column(7, 8, 9)),
    ("x = sscanf('1 2 3 4 5', '%d', [2 Inf]);", np.array([[1, 3, 5], [2, 4, 0]], dtype=float)),
    ("x = sscanf('1 2 3 4 5 6', '%d', [2 2]);", np.array([[1, 3], [2, 4]], dtype=float)),
    ("x = sscanf('1 2 3 4', '%d', Inf);", column(1, 2, 3, 4)),
    ("x = sscanf('1 2 3 4', '%d', [3 Inf]);", np.array([[1, 4], [2, 0], [3, 0]], dtype=float)),
    ("x = sscanf('10 20', '%d', [3 Inf]);", column(10, 20)),
    ("x = sscanf('1:2:3', '%d:');", column(1, 2, 3)),
    ("x = sscanf('1 2 3 4', '%d', 3);", column(1, 2, 3)),
])
def test_numbers(m, code, expected):
    np.testing.assert_array_equal(m.value(code), expected)


def test_scalars_and_specials(m):
    assert m.value("x = sscanf('17', '%o');") == 15.0
    assert m.value("x = sscanf('1 2 3', '%*d %d');") == 2.0
    assert m.value("x = sscanf('3.0', '%d');") == 3.0
    x = m.value("x = sscanf('Inf -inf NaN', '%f');")
    assert x[0, 0] == math.inf and x[1, 0] == -math.inf and math.isnan(x[2, 0])
    assert m.value("x = sscanf('', '%d');").shape == (0, 0)


def test_text_results(m):
    assert char_text(m.value("x = sscanf('abc def', '%s');")) == "abcdef"
    x = m.value("x = sscanf('a b', '%c');")
    assert x.shape == (1, 3) and char_text(x) == "a b"
    assert char_text(m.value("x = sscanf('abc', '%[a-b]');")) == "ab"
    assert char_text(m.value("x = sscanf('hello', '%3c');")) == "hello"
    x = m.value("x = double(sscanf('abc', '%c', [2 Inf]));")
    np.testing.assert_array_equal(x, [[97.0, 99.0], [98.0, 0.0]])


def test_outputs(m):
    a, n, msg, nxt = m.values("[a, n, msg, nxt] = sscanf('1 2 3 x 4', '%d');",
                              "a", "n", "msg", "nxt")
    np.testing.assert_array_equal(a, column(1, 2, 3))
    assert (n, char_text(msg), nxt) == (3.0, "Matching failure in format.", 7.0)
    a, n, msg, nxt = m.values("[a, n, msg, nxt] = sscanf('abc def', '%s');",
                              "a", "n", "msg", "nxt")
    assert (n, msg.shape, nxt) == (2.0, (0, 0), 8.0)
    # a decimal fraction is a matching failure for %d
    a, n, msg, nxt = m.values("[a, n, msg, nxt] = sscanf('2.34', '%3d');",
                              "a", "n", "msg", "nxt")
    assert a.shape == (0, 0) and n == 0.0 and char_text(msg) == "Matching failure in format."
    assert nxt == 1.0
    assert m.value("[a, x] = sscanf('1 2 3', '%d', 2);") == 2.0


@pytest.mark.parametrize("code, identifier", [
    ("sscanf(5, '%d')", "MATLAB:invalidInput"),
    ("sscanf('1', 5)", "MATLAB:invalidInput"),
    ("sscanf('1', '%d', [1 2 3])", "MATLAB:sscanf:InvalidSize"),
    ("sscanf('1', '%d', [Inf 2])", "MATLAB:sscanf:InvalidSize"),
    ("sscanf('1', '%d', -1)", "MATLAB:sscanf:InvalidSize"),
    ("sscanf('1', '%y')", "MATLAB:sscanf:InvalidFormat"),
    ("[a,b,c,d,e] = sscanf('1', '%d')", "MATLAB:TooManyOutputs"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_64_bit_integers(m):
    x = m.value("x = sscanf('9007199254740993 -5', '%ld');")
    assert x.dtype == np.int64 and x.ravel().tolist() == [9007199254740993, -5]
    x = m.value("x = sscanf('ff', '%lx');")
    assert x.dtype == np.uint64 and x.ravel().tolist() == [255]
    assert m.value("x = sscanf('-3', '%lu');").ravel().tolist() == [0]
    assert m.value("x = sscanf('1 2', '%ld %f');").dtype == np.float64
