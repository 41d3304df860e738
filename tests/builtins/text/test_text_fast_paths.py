"""The fast paths of the text functions give what their general paths give: long
char rows searched by character codes or converted through one-byte buffers,
sprintf's one-pass formats, regexprep through re.sub and strsplit by str.split."""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest

from mlang.builtins.text import numbers, printing, regexp, split_join
from mlang.builtins.text.transform import _mark_runs, _strrep_text
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_text, class_of, size_of
from mlang.values.string import StringArray
from mlang.values.text import row_text, text_row, to_string_array

LONG = 5000  # past the length where the vectorised and one-byte paths start


def _text(v: object) -> str:
    assert class_of(v) == "char"
    return char_text(v)


def _random_text(alphabet: str, n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _overlapping_starts(text: str, pattern: str) -> list[float]:
    out, k = [], text.find(pattern)
    while k >= 0:
        out.append(k + 1.0)
        k = text.find(pattern, k + 1)
    return out


# ------------------------------------------------------------ conversions


@pytest.mark.parametrize("n", [0, 1, 255, 256, 257, 4096, 8191, 8192, 32767, 32768, 40000])
@pytest.mark.parametrize("alphabet", ["ab c", "aé\xff", "a中b", "a\U0001F600b", "\0\x7f\x80"])
def test_row_conversions_match_the_general_ones(n: int, alphabet: str) -> None:
    text = _random_text(alphabet, n, seed=n)
    units = text.encode("utf-16-le", "surrogatepass")  # the general rule: UTF-16 code units
    for made in (text_row(text), char_row(text)):
        assert made.dtype == np.dtype("V2")
        assert made.shape == ((1, len(units) // 2) if text else (0, 0))
        assert made.tobytes() == units
        assert row_text(made) == char_text(made) == text
        made[...] = made[:, ::-1]  # an ordinary writable array of its own


def test_row_text_of_a_matrix_and_of_a_view_reads_column_major() -> None:
    a = char_row("ab" * 300).reshape(2, 300, order="F")
    assert row_text(a) == char_text(a)
    view = char_row("xyz" * 200)[:, ::2]
    assert row_text(view) == char_text(view)


# ------------------------------------------------------------ strfind


@pytest.mark.parametrize("pattern", ["a", "ab", "aba", "abab", "babababa", "c", "é", "a" * 6000])
@pytest.mark.parametrize("alphabet", ["ab", "abé", "ab中"])
def test_strfind_of_a_long_row_finds_every_overlapping_match(m, pattern: str, alphabet: str) -> None:
    text = _random_text(alphabet, LONG, seed=len(pattern))
    k = m.value("x = strfind(s, p);", s=char_row(text), p=char_row(pattern))
    expected = _overlapping_starts(text, pattern)
    assert size_of(k) == (1, len(expected)) or (not expected and size_of(k) == (1, 0))
    assert np.asarray(k, dtype=float).ravel().tolist() == expected


def test_strfind_of_a_long_row_with_surrogates_and_forced_cells(m) -> None:
    text = _random_text("ab\U0001F600", LONG, seed=3)
    k = m.value("x = strfind(s, 'ab');", s=char_row(text))
    short = m.value("x = strfind(s, 'ab');", s=char_row(text))
    assert np.array_equal(np.asarray(k), np.asarray(short))
    c = m.value("x = strfind(s, 'ab', 'ForceCellOutput', true);", s=char_row("ab" * 3000))
    assert type(c) is Cell and np.asarray(c.data[0, 0]).size == 3000
    assert size_of(m.value("x = strfind(s, '');", s=char_row("a" * LONG))) == (0, 0)


# ------------------------------------------------------------ strrep


@pytest.mark.parametrize(("old", "new"), [("def", "XYZ"), (" ", "_"), ("d", "é"), ("é", "e"),
                                          ("aa", "bb"), ("aba", "xyz"), ("def", "X"),
                                          ("d", "WXYZ"), ("q", "r"), ("a", "中")])
@pytest.mark.parametrize("alphabet", ["abcdef ", "abé d"])
def test_strrep_of_a_long_row_matches_the_text_rule(m, old: str, new: str, alphabet: str) -> None:
    text = _random_text(alphabet, LONG, seed=7)
    v = m.value("x = strrep(s, o, n);", s=char_row(text), o=char_row(old), n=char_row(new))
    assert _text(v) == _strrep_text(text, old, new)
    assert size_of(v) == (1, len(_strrep_text(text, old, new)))


def test_strrep_self_overlapping_pattern_on_long_rows_keeps_matlab_rule(m) -> None:
    text = "aaa" + "b" * LONG
    v = m.value("x = strrep(s, 'aa', 'bb');", s=char_row(text))
    assert _text(v) == "bbbb" + "b" * LONG  # each overlapping match gets its own copy
    assert _text(m.value("x = strrep('aaa', 'aa', 'bb');")) == "bbbb"


def test_strrep_of_long_rows_keeps_forms_and_empties(m) -> None:
    text = "abc" * 2000
    assert _text(m.value("x = strrep(s, '', 'z');", s=char_row(text))) == text
    v = m.value("x = strrep(s, 'abc', '');", s=char_row(text))
    assert size_of(v) == (1, 0) and class_of(v) == "char"
    v = m.value("x = strrep(s, \"abc\", 'xyz');", s=char_row(text))
    assert type(v) is StringArray and v.scalar_text() == "xyz" * 2000  # a string operand
    v = m.value("x = strrep(string(s), 'abc', 'xyz');", s=char_row(text))
    assert type(v) is StringArray and v.scalar_text() == "xyz" * 2000
    v = m.value("x = strrep({s, 'abc'}, 'b', 'B');", s=char_row(text))
    assert type(v) is Cell and _text(v.data[0, 0]) == "aBc" * 2000 and _text(v.data[0, 1]) == "aBc"
    text = "a\U0001F600b" * 2000
    v = m.value("x = strrep(s, 'ab', 'xy');", s=char_row(text))
    assert _text(v) == text


@pytest.mark.parametrize(("text", "old", "new"), [
    ("abc,defgh " * 600, "def", "XYZW"),       # one byte each: bytes.replace
    ("abc,defgh " * 600, "def", ""),           # replaced by nothing
    ("def" * 2000, "def", ""),                 # nothing left: a 1x0 row
    ("def" * 2000, "def", "\xff\0"),          # the whole one-byte range, NUL included
    ("\0\xff a" * 2000, "\0\xff", "z"),      # NUL and U+00FF in the row and the pattern
    ("abc" * 2000, "xyz", "pq"),               # no match: the row comes back unchanged
    ("abc" * 2000, "b中", "pq"),               # a pattern past one byte cannot match
    ("abc" * 2000, "b", "中文"),                # a replacement past one byte: the text rule
    ("a中c" * 2000, "c", "xyz"),               # a row past one byte: the text rule
    ("a\U0001F600c" * 2000, "c", "xyz"),       # characters beyond U+FFFF
    ("ab" * 3000, "b", "éé"),
])
def test_strrep_one_byte_row_path_matches_the_text_rule(m, text: str, old: str, new: str) -> None:
    v = m.value("x = strrep(s, o, n);", s=char_row(text), o=char_row(old), n=char_row(new))
    expected = _strrep_text(text, old, new)
    assert class_of(v) == "char" and size_of(v) == (1, len(expected.encode("utf-16-le")) // 2)
    assert _text(v) == expected
    v[...] = v  # an ordinary writable array


def test_strrep_overlapping_matches_follow_matlab_on_every_path(m) -> None:
    # MATLAB's documented example: every match strfind finds is replaced
    short = "abc 2 def 22 ghi 222 jkl 2222"
    assert _text(m.value("x = strrep(s, '22', '*');", s=char_row(short))) == "abc 2 def * ghi ** jkl ***"
    long = short * 300
    assert _text(m.value("x = strrep(s, '22', '*');", s=char_row(long))) == \
        "abc 2 def * ghi ** jkl ***" * 300
    assert _text(m.value("x = strrep(s, 'aa', 'X');", s=char_row("aaa" + "b" * LONG))) == "XX" + "b" * LONG
    v = m.value("x = strrep(s, '22', '*');", s=StringArray.scalar(long))
    assert type(v) is StringArray and v.scalar_text() == "abc 2 def * ghi ** jkl ***" * 300
    c = m.value("x = strrep({s, 'aaa'}, 'aa', 'X');", s=char_row(long))
    assert _text(c.data[0, 0]) == "abc 2 def 22 ghi 222 jkl 2222" * 300 and _text(c.data[0, 1]) == "XX"


@pytest.mark.parametrize(("old", "new"), [("aa", "X"), ("aa", ""), ("aba", "XYZW"), ("abab", "é"),
                                          ("aa", "中\U0001F600"), ("aaa", "aa"), ("bab", "b"),
                                          ("a" * 6000, "x")])
@pytest.mark.parametrize("alphabet", ["ab", "aab ", "abé", "ab中"])
def test_strrep_self_overlapping_pattern_on_a_long_row_matches_the_text_rule(m, old: str, new: str,
                                                                             alphabet: str) -> None:
    text = _random_text(alphabet, LONG, seed=len(old) + len(alphabet))
    v = m.value("x = strrep(s, o, n);", s=char_row(text), o=char_row(old), n=char_row(new))
    expected = _strrep_text(text, old, new)
    assert class_of(v) == "char" and size_of(v) == (1, len(expected.encode("utf-16-le")) // 2)
    assert _text(v) == expected
    v[...] = v  # an ordinary writable array


def test_strrep_self_overlapping_edges_on_long_rows(m) -> None:
    v = m.value("x = strrep(s, 'aa', '');", s=char_row("a" * LONG))
    assert size_of(v) == (1, 0) and class_of(v) == "char"
    v = m.value("x = strrep(s, 'aba', 'X');", s=char_row("ab" * 3000))
    assert _text(v) == "X" * 2999 + "b"
    v = m.value("x = strrep(s, 'aa', 'X');", s=char_row("b" * LONG))
    assert _text(v) == "b" * LONG
    text = "aa\U0001F600" * 2000  # characters beyond U+FFFF: the text rule
    assert _text(m.value("x = strrep(s, 'aa', 'X');", s=char_row(text))) == "X\U0001F600" * 2000


def test_strrep_long_self_overlapping_pattern_with_many_matches(m) -> None:
    text = "a" * LONG + "b" + "a" * 50
    for old, new in (("a" * 100, "xy"), ("a" * 20, ""), ("aa", "z" * 40), ("a" * 30, "q" * 30)):
        v = m.value("x = strrep(s, o, n);", s=char_row(text), o=char_row(old), n=char_row(new))
        assert _text(v) == _strrep_text(text, old, new)


def test_mark_runs_sets_every_run_however_they_overlap() -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        n, length = int(rng.integers(1, 200)), int(rng.integers(1, 40))
        if length > n:
            continue
        count = int(rng.integers(0, n - length + 2))
        starts = np.sort(rng.choice(n - length + 1, size=min(count, n - length + 1), replace=False))
        expected = np.zeros(n, dtype=bool)
        for k in starts:
            expected[k:k + length] = True
        got = np.zeros(n, dtype=bool)
        _mark_runs(got, starts, length)
        assert np.array_equal(got, expected)


@pytest.mark.parametrize(("old", "new"), [("aa", "X"), ("a", ""), ("aba", "é中"), ("b", "bb"),
                                          ("\U0001F600", "s"), ("zz", "q")])
@pytest.mark.parametrize("n", [0, 1, 5, LONG])
def test_replace_and_erase_of_one_text_match_the_pattern_rule(m, old: str, new: str, n: int) -> None:
    text = _random_text("aab\U0001F600é", n, seed=n)
    by_pattern = re.sub(re.escape(old), lambda _: new, text)  # leftmost, non-overlapping
    for value in (char_row(text), StringArray.scalar(text)):
        v = m.value("x = replace(s, o, n);", s=value, o=char_row(old), n=char_row(new))
        assert (_text(v) if class_of(v) == "char" else v.scalar_text()) == by_pattern
        v = m.value("x = erase(s, o);", s=value, o=char_row(old))
        erased = re.sub(re.escape(old), "", text)
        assert (_text(v) if class_of(v) == "char" else v.scalar_text()) == erased
    v = m.value("x = replace({s, 'aaa'}, o, n);", s=char_row(text), o=char_row(old), n=char_row(new))
    assert type(v) is Cell and _text(v.data[0, 0]) == by_pattern
    assert _text(v.data[0, 1]) == re.sub(re.escape(old), lambda _: new, "aaa")


def test_replace_and_erase_of_several_texts_keep_the_first_listed_rule(m) -> None:
    assert _text(m.value("x = replace('aaab', {'aa', 'a'}, {'X', 'Y'});")) == "XYb"
    assert _text(m.value("x = replace('abab', {'ab', 'ab'}, {'1', '2'});")) == "11"
    assert _text(m.value("x = erase('abcabc', {'bc', 'a'});")) == ""
    v = m.value("x = replace(s, 'aa', 'X');", s=StringArray(np.array([[None, "aaa"]], dtype=object)))
    assert v.data[0, 0] is None and v.data[0, 1] == "Xa"


# ------------------------------------------------------------ upper and lower


@pytest.mark.parametrize("alphabet", ["abcXYZ 09", "aéÿßz", "中aB\U0001F600"])
def test_upper_and_lower_of_long_rows(m, alphabet: str) -> None:
    text = _random_text(alphabet, LONG, seed=11)
    up, low = m.values("u = upper(s); l = lower(s);", "u", "l", s=char_row(text))
    short_up = "".join(_text(m.value("x = upper(c);", c=char_row(c))) for c in text[:200])
    assert _text(up)[:len(short_up)] == short_up
    assert len(_text(up)) == len(text) and len(_text(low)) == len(text)
    assert _text(m.value("x = lower(upper(s));", s=char_row(text))) == _text(low) or "ß" in text


def test_upper_of_a_long_char_matrix_keeps_its_shape(m) -> None:
    v = m.value("x = upper(reshape(s, 2, []));", s=char_row("ab" * 3000))
    assert size_of(v) == (2, 3000) and _text(v) == "AB" * 3000


# ------------------------------------------------------------ sprintf


def _general_format(monkeypatch, fmt: str, args: list) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(printing, "_one_pass", lambda fmt, args: None)
        patch.setattr(printing, "_short_rounds", lambda plan, args: None)
        return printing.format_text(fmt, args)


FORMATS = [
    ("%d,", [5.0]), ("%d,", [-0.0]), ("%d", [1e20]), ("%d", [2.5]), ("%d", [float("nan")]),
    ("%i|%u", [-3.0, -4.0]), ("%5.2f", [3.14159]), ("%f", [float("inf")]), ("%g", [1e-7]),
    ("%G %E", [1e300, -2.5]), ("%x %X", [255.0, -1.0]), ("%x", [2.5]), ("%s", [char_row("abc")]),
    ("[%s]", [np.zeros((0, 0), dtype=char_row("a").dtype)]), ("%s", [65.0]), ("%d %s", [1.0, char_row("x")]),
    ("100%% %d", [7.0]), ("a%qb %d", [1.0]), ("%*d", [5.0, 3.0]), ("%c", [65.0]), ("%+05d", [42.0]),
    ("%-8.3e|", [12345.678]), ("\\n%d\\t", [1.0]), ("%d", [True]), ("%d", [np.int32(4)]),
    ("%d,", [1.0, 2.0]), ("%d %d", [1.0]), ("plain", []), ("%o", [8.0]), ("%#x", [255.0]),
    ("%s", [char_row("ab").reshape(2, 1)]), ("%.3s|", [char_row("abcdef")]), ("%05s", [char_row("ab")]),
    ("%d", [float(2**60)]), ("%.0f", [0.5]), ("%20000000d", [1.0]),
]


@pytest.mark.parametrize(("fmt", "args"), FORMATS)
def test_sprintf_one_pass_matches_the_general_rules(monkeypatch, fmt: str, args: list) -> None:
    try:
        expected = _general_format(monkeypatch, fmt, list(args))
    except Exception as exc:  # the same error either way
        with pytest.raises(type(exc)):
            printing.format_text(fmt, list(args))
        return
    assert printing.format_text(fmt, list(args)) == expected


def _rounds_general(monkeypatch, fmt: str, args: list) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(printing, "_one_pass", lambda fmt, args: None)
        patch.setattr(printing, "_whole_rounds", lambda fmt, args: None)
        patch.setattr(printing, "_short_rounds", lambda plan, args: None)
        return printing.format_text(fmt, args)


_STEPS = np.arange(1.0, 201.0)
ROUNDS = [
    ("%d,", [_STEPS]), ("%d,", [_STEPS.reshape(20, 10)]), ("%i|%u\\n", [-_STEPS]), ("%5.2f %g;", [_STEPS / 7]),
    ("%d:%.3e;", [_STEPS * 1e15]), ("%x %X.", [_STEPS]), ("100%% %d\\n", [_STEPS]), ("%d", [_STEPS * 1e20]),
    ("%d,", [_STEPS - 0.5]), ("%d,", [np.append(_STEPS, np.nan)]), ("%f,", [np.append(_STEPS, np.inf)]),
    ("%d %d,", [np.arange(1.0, 200.0)]), ("%d,", [_STEPS.astype(np.float32) / 4]),
    ("%g,", [_STEPS.astype(np.float32) / 3]),
    ("%d,", [3.0, _STEPS, np.zeros((0, 3))]), ("%d-%d,", [_STEPS, _STEPS]), ("%+05d|", [-_STEPS]),
    ("%d,", [_STEPS.astype(np.int32)]), ("%s,", [_STEPS]), ("%c", [_STEPS + 64]), ("%d,", [_STEPS * 0.0 - 0.0]),
    ("%d,", [np.full(100, 2.0**60)]), ("%d,", [np.arange(1.0, 64.0)]), ("plain", [_STEPS]),
]


@pytest.mark.parametrize(("fmt", "args"), ROUNDS)
def test_sprintf_whole_rounds_match_the_general_rules(monkeypatch, fmt: str, args: list) -> None:
    expected = _rounds_general(monkeypatch, fmt, list(args))
    assert printing.format_text(fmt, list(args)) == expected


def test_sprintf_whole_rounds_applies_only_where_it_is_exact() -> None:
    assert printing._whole_rounds("%d,", [_STEPS]) == "".join(f"{i}," for i in range(1, 201))
    assert printing._whole_rounds("%d:%.1f;", [_STEPS]) is not None
    assert printing._whole_rounds("%d,", [_STEPS - 0.5]) is None  # MATLAB switches to %e
    assert printing._whole_rounds("%d %d,", [np.arange(1.0, 200.0)]) is None  # a partial round
    assert printing._whole_rounds("%f,", [np.append(_STEPS, np.nan)]) is None
    assert printing._whole_rounds("%d,", [np.arange(1.0, 10.0)]) is None  # short: the loop
    assert printing._whole_rounds("%s,", [_STEPS]) is None


def test_sprintf_one_pass_in_programs(m) -> None:
    v = m.value("s = ''; for i = 1:12, s = [s sprintf('%d,', i) 'x']; end; x = s;")
    assert _text(v) == "".join(f"{i},x" for i in range(1, 13))
    assert _text(m.value("x = sprintf('%s=%g;', 'a', 0.5);")) == "a=0.5;"
    assert size_of(m.value("x = sprintf('%s', '');")) == (1, 0)
    v = m.value("x = sprintf(\"%d\", 3);")
    assert type(v) is StringArray and v.scalar_text() == "3"


# ------------------------------------------------------------ regexprep


REGEXPREP = [
    ("abcdef abcdef", "d(e)f", "$1x"), ("abcdef", "(x)?d", "[$1]"), ("aaa bbb", "\\s+", " "),
    ("abc", "x*", "-"), ("abc", "x*", "-", "emptymatch"), ("Hello hello", "hello", "bye", "ignorecase"),
    ("abc", "b", "$0$0"), ("abc", "(b)", "$2"), ("ab12", "(?<num>\\d+)", "<$<num>>"),
    ("ab12", "(?<num>\\d+)", "<$<other>>"), ("a.b", "\\.", "\\n"), ("cost", "o", "$"),
    ("abcabc", "b", "X", "once"), ("abcabc", "b", "X", 2), ("Hello", "hello", "bye", "preservecase"),
    ("abc", "(?<first>a)(b)", "$2$1"), ("", "a", "b"), ("abc", "^", ">", "emptymatch"),
]


@pytest.mark.parametrize("case", REGEXPREP)
def test_regexprep_through_re_sub_matches_the_general_path(m, monkeypatch, case: tuple) -> None:
    text, expr, rep, *opts = case
    args = {f"o{k}": (char_row(o) if isinstance(o, str) else float(o)) for k, o in enumerate(opts)}
    call = "x = regexprep(s, e, r" + "".join(f", o{k}" for k in range(len(opts))) + ");"
    inputs = {"s": char_row(text), "e": char_row(expr), "r": char_row(rep), **args}
    fast = m.value(call, **inputs)
    monkeypatch.setattr(regexp, "_replacer", lambda rx, parts, opts: None)
    general = m.value(call, **inputs)
    assert class_of(fast) == class_of(general) and size_of(fast) == size_of(general)
    assert char_text(fast) == char_text(general)


def test_regexprep_forms_and_several_expressions(m) -> None:
    v = m.value("x = regexprep({'abc', 'bcd'}, {'b', 'c'}, {'1', '2'});")
    assert [_text(c) for c in v.data.ravel()] == ["a12", "12d"]
    v = m.value("x = regexprep([\"abc\", missing], 'b', 'X');")
    assert v.data[0, 0] == "aXc" and v.data[0, 1] is None
    v = m.value("x = regexprep('abc', 'b', '${upper($0)}');")
    assert _text(v) == "aBc"
    long_text = "abc def, " * 1000
    assert _text(m.value("x = regexprep(s, 'd(e)f', '$1x');", s=char_row(long_text))) == \
        long_text.replace("def", "ex")


# ------------------------------------------------------------ strsplit


@pytest.mark.parametrize("delims", [[","], [", "], ["aa"], ["aba"], [",", " "], ["a", "ab"], [" ", "\t"]])
@pytest.mark.parametrize("collapse", [True, False])
def test_split_simple_matches_the_regex_split(delims: list[str], collapse: bool) -> None:
    for seed in range(40):
        text = _random_text("a, b\t", seed % 13, seed)
        expected = split_join._split_text(text, split_join._split_regex(delims, collapse))[0]
        assert split_join._split_simple(text, delims, collapse) == expected, (text, delims)


def test_strsplit_forms(m) -> None:
    v = m.value("x = strsplit(',a,,b,', ',');")
    assert [_text(c) if c.size else "" for c in v.data.ravel()] == ["", "a", "b", ""]
    assert size_of(v) == (1, 4)
    v = m.value("x = strsplit(',a,,b,', ',', 'CollapseDelimiters', false);")
    assert size_of(v) == (1, 5)
    c, d = m.values("[c, d] = strsplit('a,,b', ',');", "c", "d")
    assert [_text(x) for x in d.data.ravel()] == [",,"]
    v = m.value("x = strsplit(\"a b\");")
    assert type(v) is StringArray and list(v.data.ravel()) == ["a", "b"]
    v = m.value("x = strsplit(s);", s=char_row("ab  cd\t" * 1000))
    assert size_of(v) == (1, 2001)
    v = m.value("x = strsplit('a1b22c', '\\d+', 'DelimiterType', 'RegularExpression');")
    assert [_text(x) for x in v.data.ravel()] == ["a", "b", "c"]
    assert size_of(m.value("x = strsplit('', ',');")) == (1, 1)


def test_sprintf_one_pass_applies_to_plain_formats() -> None:
    assert printing._one_pass("%d,", [5.0]) == "5,"
    assert printing._one_pass("%5.2f|%s", [3.14159, char_row("ab")]) == " 3.14|ab"
    assert printing._one_pass("%d", [2.5]) is None  # not whole: MATLAB switches to %e
    assert printing._one_pass("%c", [65.0]) is None


ROW_FORMATS = [*FORMATS, ("", []), ("", [1.0]), ("%s", [char_row("")]), ("é%s\U0001F600", [char_row("中")]),
               ("%s-%d", [char_row("item"), 7.0]), ("%s", [char_row("a\U0001F600")]), ("%%", []),
               ("%d", []), ("%f|%e", [1.5, float("-inf")]), ("%s", [2.5]), ("%d", [char_row("ab")]),
               ("%d", [1e300]), ("%d|", [-1e300]), ("%d%%", [3.0]), ("%5d", [-7.0])]


def _as_format(fmt: str) -> np.ndarray:
    return char_row(fmt) if fmt else np.zeros((1, 0), dtype=char_row("a").dtype)


def _general_sprintf(monkeypatch, fmt: np.ndarray, args: list, nargout: int) -> object:
    with monkeypatch.context() as patch:
        patch.setattr(printing, "_row_format_plan", lambda units: None)
        patch.setattr(printing, "_one_pass", lambda fmt, args: None)
        return printing.sprintf(fmt, *args, nargout=nargout)


def _same_value(a: object, b: object) -> None:
    if type(a) is tuple:
        assert type(b) is tuple and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same_value(x, y)
        return
    assert type(a) is np.ndarray and type(b) is np.ndarray
    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    assert a.base is None and a.flags.writeable


@pytest.mark.parametrize("nargout", [1, 2])
@pytest.mark.parametrize(("fmt", "args"), ROW_FORMATS)
def test_sprintf_of_a_char_row_format_matches_the_general_rules(monkeypatch, fmt: str, args: list,
                                                                 nargout: int) -> None:
    try:
        expected = _general_sprintf(monkeypatch, _as_format(fmt), list(args), nargout)
    except Exception as exc:  # the same error either way
        with pytest.raises(type(exc)):
            printing.sprintf(_as_format(fmt), *args, nargout=nargout)
        return
    _same_value(printing.sprintf(_as_format(fmt), *args, nargout=nargout), expected)


def test_sprintf_formats_that_are_not_rows_take_the_general_rules(m) -> None:
    assert _text(m.value("x = sprintf(['%d'; '%d']);")) == "%dd"  # read down the columns
    assert _text(m.value("x = sprintf(['%'; 'd'], 5);")) == "5"
    assert size_of(m.value("x = sprintf('', 5);")) == (1, 0)
    assert _text(m.value("x = sprintf('%d', int8(-4));")) == "-4"
    assert _text(m.value("x = sprintf('%s|', 'ab', 'c');")) == "ab|c|"
    v = m.value("x = sprintf('%d,', 1); x(2) = 'y';")  # the result is an array of its own
    assert _text(v) == "1y"


# ------------------------------------------------------------ appends in loops


APPENDS = [
    ("''", "[s sprintf('%d,', i) 'x']"), ("''", "[s '' sprintf('%s', '') 'é\U0001F600']"),
    ("zeros(1, 0)", "[s i 2.5 [] NaN]"), ("[]", "[s [i, -i] zeros(0, 3)]"), ("int8([])", "[s int8(i)]"),
    ("true(1, 0)", "[s mod(i, 2) == 0]"), ("[]", "[s complex(i, 1)]"), ("''", "[s repmat('ab', 1, 3000)]"),
    ("[]", "[s 1:5000 i]"),
]


@pytest.mark.parametrize(("start", "expr"), APPENDS)
def test_appends_in_loops_match_one_concatenation(m, start: str, expr: str) -> None:
    grown = m.value(f"s = {start}; for i = 1:6, s = {expr}; end; x = s;")
    parts = expr[1:-1].replace("[s ", "").replace("[s", "")
    whole = m.value(f"s = {start}; c = {{}}; for i = 1:6, c{{i}} = {{{parts}}}; end; "
                    f"x = s; for i = 1:6, x = horzcat(x, c{{i}}{{:}}); end;")
    assert class_of(grown) == class_of(whole) and size_of(grown) == size_of(whole)
    assert np.asarray(grown).tobytes() == np.asarray(whole).tobytes()


# ------------------------------------------------------------ string scalars


@pytest.mark.parametrize("number", [7.0, -3.0, 0.5, 1e20, 123456.789, float("nan"), float("inf"),
                                    -0.0, 1e-7])
def test_string_scalar_and_double_scalar_match_the_array_rule(m, number: float) -> None:
    expected = to_string_array(number).data[0, 0]
    joined = m.value('x = "item" + n;', n=number)
    assert type(joined) is StringArray and size_of(joined) == (1, 1)
    assert joined.data[0, 0] == (None if expected is None else "item" + expected)
    joined = m.value('x = n + "_";', n=number)
    assert joined.data[0, 0] == (None if expected is None else expected + "_")
    same = m.value('x = s == n;', s=StringArray.scalar(expected or "NaN"), n=number)
    assert same is (expected is not None)
    scalar, through_arrays = m.values('a = "item" + n; b = "item" + [n n];', "a", "b", n=number)
    assert scalar.data[0, 0] == through_arrays.data[0, 0] == through_arrays.data[0, 1]


@pytest.mark.parametrize("text", ["", "a", "abc", "aé中", None])
def test_strlength_of_a_string_scalar_matches_arrays(m, text: str | None) -> None:
    scalar = m.value("x = strlength(s);", s=StringArray.scalar(text))
    array = m.value("x = strlength([s s]);", s=StringArray.scalar(text))
    assert type(scalar) is float
    first = float(np.asarray(array).reshape(-1)[0])
    assert (scalar != scalar and first != first) or scalar == first


# ------------------------------------------------------------ str2double


NUMBER_TEXTS = ["1", "-7", "+3.5", "1e3", "1E-3", ".5", "5.", "-0", "0.0", "1e400", "-1e400", "007",
                "1,000", "1d3", " 12 ", "inf", "-Inf", "NaN", "1+2i", "3 - 4j", "i", "abc", "", "1 2", "--1",
                "1e", "1.2.3", "0x10", "1_0", "\u0661", "12\U0001F600"]


@pytest.mark.parametrize("text", NUMBER_TEXTS)
def test_str2double_plain_numbers_match_the_general_pattern(monkeypatch, m, text: str) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(numbers, "_PLAIN_NUMBER", lambda t: None)
        expected = numbers.parse_double(text)
        general_cell = m.value("x = str2double(c);", c=Cell(np.array([[char_row(text), 5.0]], dtype=object)))
    got = numbers.parse_double(text)
    assert type(got) is type(expected) and (got == expected or (got != got and expected != expected))
    if type(got) is float and got == 0:
        assert math.copysign(1, got) == math.copysign(1, expected)
    cell = m.value("x = str2double(c);", c=Cell(np.array([[char_row(text), 5.0]], dtype=object)))
    assert np.array_equal(np.asarray(cell), np.asarray(general_cell), equal_nan=True)
    assert np.asarray(cell).dtype == np.asarray(general_cell).dtype
