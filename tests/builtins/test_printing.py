"""sprintf and fprintf: MATLAB's format rules, argument recycling and escapes."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.builtins.text.printing import format_text, unescape
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import char_text, class_of, size_of

_INTERP: list[Interpreter] = []


def _shared() -> Interpreter:
    if not _INTERP:
        _INTERP.append(Interpreter(stdout=io.StringIO(), stderr=io.StringIO()))
    return _INTERP[0]


@pytest.fixture(scope="module")
def it() -> Interpreter:
    return _shared()


def sp(it: Interpreter, args: str) -> str:
    """The text sprintf(args) makes."""
    it.eval(f"r__ = sprintf({args});")
    value = it.base.vars["r__"]
    return char_text(value)


def printed(it: Interpreter, code: str) -> str:
    buffer = io.StringIO()
    saved = it.out
    it.out = buffer
    try:
        it.eval(code)
    finally:
        it.out = saved
    return buffer.getvalue()


@pytest.mark.parametrize("args, expected", [
    ("'%d', 42", "42"), ("'%5d', 42", "   42"), ("'%-5d|', 42", "42   |"),
    ("'%05d', 42", "00042"), ("'%+d', 42", "+42"), ("'%.3f', pi", "3.142"),
    ("'%8.2f', -pi", "   -3.14"), ("'%e', 12345.678", "1.234568e+04"),
    ("'%.2e', 0.000123", "1.23e-04"), ("'%g', 1e-5", "1e-05"), ("'%g', 123456789", "1.23457e+08"),
    ("'%g', 0.5", "0.5"), ("'%G', 1e-10", "1E-10"), ("'%x', 255", "ff"), ("'%X', 255", "FF"),
    ("'%o', 8", "10"), ("'%#o', 8", "010"), ("'%#x', 255", "0xff"), ("'%c', 72, 105", "Hi"),
    ("'%s', 'text'", "text"), ("'%10s|', 'right'", "     right|"),
    ("'%-10s|', 'left'", "left      |"), ("'%.2s|', 'abcdefg'", "ab|"), ("'100%%'", "100%"),
    ("'%d%%', 50", "50%"), ("'%d%s', 3, 'rd'", "3rd"), ("'%i', 7", "7"), ("'%u', 7", "7"),
    ("'%ld', 7", "7"), ("'%*d', 5, 42", "   42"), ("'%.*f', 2, pi", "3.14"),
])
def test_conversions(it, args, expected):
    assert sp(it, args) == expected


@pytest.mark.parametrize("args, expected", [
    # text where a number is expected: its character codes, one at a time
    ("'%d', 'abc'", "979899"), ("'%d,', 'ab'", "97,98,"),
    # %c takes one character at a time, %s the whole text
    ("'%c-', 'abc'", "a-b-c-"), ("'%s-', 'abc', 'de'", "abc-de-"), ("'%5c|', 'ab'", "    a|    b|"),
    # numbers under %s and %c: integers are character codes, others use %e
    ("'%s', [72 105]", "Hi"), ("'%s', pi", "3.141593e+00"), ("'%d', 1.5", "1.500000e+00"),
    ("'%x', 3.5", "3.500000e+00"), ("'%c', 2.5", "2.500000e+00"),
    # special values
    ("'%d|', [Inf -Inf NaN]", "Inf|-Inf|NaN|"), ("'%f', NaN", "NaN"), ("'%5.1f|', Inf", "  Inf|"),
    ("'%+d', Inf", "+Inf"),
    # integer classes and logicals
    ("'%d', int8(-5)", "-5"), ("'%u', uint64(18446744073709551615)", "18446744073709551615"),
    ("'%d', 2^53", "9007199254740992"), ("'%d', true", "1"), ("'%.1f', int8(3)", "3.0"),
    ("'%d', 1e20", "100000000000000000000"),
])
def test_mixed_data(it, args, expected):
    assert sp(it, args) == expected


@pytest.mark.parametrize("args, expected", [
    ("'%d,', 1:5", "1,2,3,4,5,"), ("'%d-%d;', 1:5", "1-2;3-4;5-"),
    ("'(%d,%d) ', [1 2; 3 4]", "(1,3) (2,4) "), ("'%s=%d\\n', 'a', 1, 'b', 2", "a=1\nb=2\n"),
    ("'[%s]', 'abc', 'de'", "[abc][de]"), ("'%.1f|', [0.5 1.5; 2.5 3.5]", "0.5|2.5|1.5|3.5|"),
    ("'%d %s', 1, 'a', 2", "1 a2 "), ("'%d', []", ""), ("'[%s]', []", "[]"),
    ("'abc %d'", "abc "), ("'abc'", "abc"), ("'abc', 1, 2", "abc"),
    ("'%s,', 'x', 'yy'", "x,yy,"), ("'%d %s\\n', 5, 'x'", "5 x\n"),
])
def test_recycling(it, args, expected):
    assert sp(it, args) == expected


def test_escapes_only_in_the_format(it):
    assert sp(it, "'a\\tb'") == "a\tb"
    assert sp(it, "'\\n'") == "\n"
    assert sp(it, "'back\\\\slash'") == "back\\slash"
    assert sp(it, "'quote''s'") == "quote's"
    assert sp(it, "'%s', 'x\\ny'") == "x\\ny"
    assert sp(it, "'\\x41\\101'") == "AA"
    assert unescape("\\a\\b\\f\\r\\v") == "\a\b\f\r\v"


def test_result_class_and_size(it):
    it.eval("r__ = sprintf('%d', []);")
    assert size_of(it.base.vars["r__"]) == (1, 0)
    it.eval('r__ = sprintf("%d items", 3);')
    assert class_of(it.base.vars["r__"]) == "string"
    it.eval("r__ = sprintf('%d items', 3);")
    assert class_of(it.base.vars["r__"]) == "char"


def test_errors(it):
    with pytest.raises(MatlabError) as info:
        it.eval("sprintf('%s', {1});")
    assert info.value.identifier == "MATLAB:sprintf:InvalidInputType"
    with pytest.raises(MatlabError) as info:
        it.eval("sprintf(5);")
    assert info.value.identifier == "MATLAB:sprintf:InvalidFormat"


def test_fprintf(it):
    assert printed(it, "fprintf('%d %d\\n', [1 2 3; 4 5 6]);") == "1 4\n2 5\n3 6\n"
    assert printed(it, "fprintf('row: %s\\n', 'a', 'b');") == "row: a\nrow: b\n"
    assert printed(it, "fprintf('%5.2f|%5.2f\\n', [1.234 5.678 9.1]);") == \
        " 1.23| 5.68\n 9.10|"
    assert printed(it, "fprintf(1, 'to %s\\n', 'stdout');") == "to stdout\n"
    assert printed(it, 'fprintf("%s\\n", "double-quoted");') == "double-quoted\n"
    it.err = io.StringIO()
    assert printed(it, "fprintf(2, 'oops\\n');") == ""
    assert it.err.getvalue() == "oops\n"


@given(st.lists(st.integers(-10**12, 10**12), min_size=1, max_size=6))
@settings(max_examples=40, deadline=None)
def test_integers_match_c_formatting(values):
    floats = [float(v) for v in values]
    args = [np.array([floats]).reshape(1, len(floats))]
    assert format_text("%d;", args) == "".join(f"{v};" for v in values)
    assert format_text("%+6d|", args) == "".join(f"{v:+6d}|" for v in values)


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 8))
@settings(max_examples=40, deadline=None)
def test_floats_match_c_formatting(x, prec):
    assert format_text(f"%.{prec}f", [x]) == f"{x:.{prec}f}"
    assert format_text(f"%.{prec}e", [x]) == f"{x:.{prec}e}"
    assert format_text("%g", [x]) == f"{x:g}"


def test_output_counts(it):
    assert printed(it, "n__ = fprintf('abc\\n');") == "abc\n"
    assert it.get("n__") == 4
    it.eval("[s__, msg__] = sprintf('%d', 5);")
    assert it.get("s__") == "5" and it.get("msg__") == ""
    assert sp(it, "'%s|', -1") == "-1|"
