"""isequaln: isequal with NaN equal to NaN, through numbers, cells, structs, strings,
tables, categoricals and datetimes."""

from __future__ import annotations

import pytest

CASES = [
    ("[1 NaN]", "[1 NaN]", True, False),
    ("NaN", "NaN", True, False),
    ("[1 NaN]", "[NaN 1]", False, False),
    ("single([NaN 2])", "[NaN 2]", True, False),
    ("complex(NaN, 1)", "complex(NaN, 1)", True, False),
    ("{NaN, 'a'}", "{NaN, 'a'}", True, False),
    ("struct('x', {NaN, 1})", "struct('x', {NaN, 1})", True, False),
    ("string(missing)", "string(missing)", True, False),
    ('["a" missing]', '["a" missing]', True, False),
    ("table([1; NaN])", "table([1; NaN])", True, False),
    ("categorical({'a', ''})", "categorical({'a', ''})", True, False),
    ("NaT", "NaT", True, False),
    ("[1 2]", "[1 3]", False, False),
    ("[1 2]", "[1 2]", True, True),
]


@pytest.mark.parametrize(("a", "b", "nan_equal", "plain_equal"), CASES)
def test_isequaln_treats_nan_as_equal_and_isequal_does_not(m, a, b, nan_equal, plain_equal):
    got = m.values(f"p = isequaln({a}, {b}); q = isequal({a}, {b}); r = isequaln({a}, {b}, {a});",
                   "p", "q", "r")
    assert got == [nan_equal, plain_equal, nan_equal]
