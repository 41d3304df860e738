"""extractBefore/After/Between, insertBefore/After, erase, eraseBetween, strip, pad,
count, reverse, splitlines, strjust, regexptranslate and compose."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.string import StringArray


def texts(v):
    """A result as (kind, shape, list of texts in column-major order)."""
    if type(v) is StringArray:
        return "string", v.shape, list(v.data.ravel(order="F"))
    if type(v) is Cell:
        return "cell", v.shape, [char_text(x) for x in v.data.ravel(order="F")]
    return "char", v.shape, [char_text(v)]


@pytest.mark.parametrize("code, expected", [
    ('x = extractBefore("The quick brown fox", " brown");', ("string", (1, 1), ["The quick"])),
    ("x = extractBefore({'abc','xbz'}, 'b');", ("cell", (1, 2), ["a", "x"])),
    ("x = extractBefore('hello', 3);", ("char", (1, 2), ["he"])),
    ("x = extractBefore('hello', 6);", ("char", (1, 5), ["hello"])),
    ('x = extractBefore(["ab";"cd"], [2;3]);', ("string", (2, 1), ["a", "cd"])),
    ("x = extractAfter('hello world', 'o');", ("char", (1, 6), [" world"])),
    ('x = extractAfter("hello", 2);', ("string", (1, 1), ["llo"])),
    ('x = extractAfter("hello", 0);', ("string", (1, 1), ["hello"])),
    ('x = extractBefore(["The quick brown fox jumps";"over the lazy dog"], [" brown";" dog"]);',
     ("string", (2, 1), ["The quick", "over the lazy"])),
])
def test_extract_before_after(m, code, expected):
    assert texts(m.value(code)) == expected


def test_not_found(m):
    x = m.value('x = extractBefore("abc", "z");')
    assert x.data[0, 0] is None
    x = m.value("x = extractAfter({'abc'}, 'z');")
    assert x.data[0, 0].shape == (0, 0)


@pytest.mark.parametrize("code, expected", [
    ('x = extractBetween("The quick brown fox", "quick ", " fox");', ("string", (1, 1), ["brown"])),
    ('x = extractBetween("[a][bc]", "[", "]");', ("string", (2, 1), ["a", "bc"])),
    ("x = extractBetween('hello world', 3, 7);", ("cell", (1, 1), ["llo w"])),
    ("x = extractBetween('hello world', 3, 7, 'Boundaries', 'exclusive');",
     ("cell", (1, 1), ["lo "])),
    ("x = extractBetween('<b>x</b>', '<b>', '</b>', 'Boundaries', 'inclusive');",
     ("cell", (1, 1), ["<b>x</b>"])),
    ('x = extractBetween(["The quick brown fox jumps";"over the lazy dog"], '
     '["quick ";"the "], [" fox";" dog"]);', ("string", (2, 1), ["brown", "lazy"])),
])
def test_extract_between(m, code, expected):
    assert texts(m.value(code)) == expected


@pytest.mark.parametrize("code, expected", [
    ("x = insertBefore('a-b-c', '-', '+');", ("char", (1, 7), ["a+-b+-c"])),
    ("x = insertAfter('a-b-c', '-', '+');", ("char", (1, 7), ["a-+b-+c"])),
    ('x = insertAfter("abc", 1, "XY");', ("string", (1, 1), ["aXYbc"])),
    ('x = insertBefore("abc", 1, "XY");', ("string", (1, 1), ["XYabc"])),
    ('x = insertBefore(["ab","cd"], ["b","d"], "_");', ("string", (1, 2), ["a_b", "c_d"])),
    ('x = erase("the cat the dog", ["the ", "dog"]);', ("string", (1, 1), ["cat "])),
    ("x = erase({'abcabc'}, 'b');", ("cell", (1, 1), ["acac"])),
    ("x = eraseBetween('a(xyz)b(q)', '(', ')');", ("char", (1, 6), ["a()b()"])),
    ("x = eraseBetween('a(xyz)b', '(', ')', 'Boundaries', 'inclusive');",
     ("char", (1, 2), ["ab"])),
    ('x = eraseBetween("abcdef", 2, 4);', ("string", (1, 1), ["aef"])),
])
def test_insert_erase(m, code, expected):
    assert texts(m.value(code)) == expected


@pytest.mark.parametrize("code, expected", [
    ('x = strip("  ab  ");', ("string", (1, 1), ["ab"])),
    ("x = strip(sprintf('\\t ab\\n'));", ("char", (1, 2), ["ab"])),
    ("x = strip('--ab--', 'left', '-');", ("char", (1, 4), ["ab--"])),
    ("x = strip('--ab--', '-');", ("char", (1, 2), ["ab"])),
    ("x = strip({' a', 'b '}, 'right');", ("cell", (1, 2), [" a", "b"])),
    ('x = pad(["a";"abc"]);', ("string", (2, 1), ["a  ", "abc"])),
    ("x = pad('ab', 5, 'both', '*');", ("char", (1, 5), ["*ab**"])),
    ("x = pad({'a'}, 3, 'left');", ("cell", (1, 1), ["  a"])),
    ("x = pad('abcd', 2);", ("char", (1, 4), ["abcd"])),
    ('x = pad("a", "right", "0");', ("string", (1, 1), ["a"])),
    ('x = reverse("abc");', ("string", (1, 1), ["cba"])),
    ("x = reverse({'ab','cd'});", ("cell", (1, 2), ["ba", "dc"])),
    ("x = splitlines(sprintf('a\\nb\\r\\nc'));", ("cell", (3, 1), ["a", "b", "c"])),
    ('x = splitlines("x");', ("string", (1, 1), ["x"])),
    ("x = regexptranslate('escape', 'a.b*c');", ("char", (1, 7), ["a\\.b\\*c"])),
    ("x = regexptranslate('wildcard', '*.m');", ("char", (1, 5), [".*\\.m"])),
    ("x = strjust('a   ', 'center');", ("char", (1, 4), [" a  "])),
    ("x = strjust({'a  '});", ("cell", (1, 1), ["  a"])),
])
def test_strip_pad_reverse(m, code, expected):
    assert texts(m.value(code)) == expected


def test_strjust_matrix(m):
    x = m.value("x = strjust(['a  ';'bb ']);")
    assert [char_text(x[i:i + 1]) for i in range(2)] == ["  a", " bb"]
    x = m.value("x = strjust(['  a';' bb'], 'left');")
    assert [char_text(x[i:i + 1]) for i in range(2)] == ["a  ", "bb "]


def test_count(m):
    # MATLAB's documented examples
    assert m.value('x = count("paired with red shoes", "red");') == 2.0
    np.testing.assert_array_equal(
        m.value('x = count(["red green red red blue blue green"; '
                '"green red blue green green blue"], "red");'), [[3.0], [1.0]])
    assert m.value('x = count("abcabcab", "ab");') == 3.0
    assert m.value("x = count('aaa', 'aa');") == 1.0
    np.testing.assert_array_equal(m.value('x = count(["aA","bb"], "a", "IgnoreCase", true);'),
                                  [[2.0, 0.0]])
    np.testing.assert_array_equal(m.value("x = count({'ab';'ba'}, {'a','b'});"), [[2.0], [2.0]])


@pytest.mark.parametrize("code, expected", [
    ('x = compose("%d", [1 2 3]);', ("string", (1, 3), ["1", "2", "3"])),
    ("x = compose('%d and %d', [1 2; 3 4]);", ("cell", (2, 1), ["1 and 2", "3 and 4"])),
    ('x = compose("a\\tb");', ("string", (1, 1), ["a\tb"])),
    ('x = compose("%s: %d", ["x";"y"], [1;2]);', ("string", (2, 1), ["x: 1", "y: 2"])),
    ('x = compose("%.2f", pi);', ("string", (1, 1), ["3.14"])),
    ('x = compose("%d, %d", [1 2 3 4]);', ("string", (1, 2), ["1, 2", "3, 4"])),
    ('x = compose("%.8f", pi);', ("string", (1, 1), ["3.14159265"])),
    ('x = compose("%d and %d", 1);', ("string", (1, 1), ["1 and %d"])),
    ('x = compose("%d and %d", [1 2 3]);', ("string", (1, 2), ["1 and 2", "3 and %d"])),
    ('x = compose("%.2f\\\\n%d%%");', ("string", (1, 1), ["%.2f\\\\n%d%%"])),
    ('x = compose("100%%\\t!");', ("string", (1, 1), ["100%\t!"])),
    ("x = compose('%s=%d', {'a';'b'}, [1;2]);", ("cell", (2, 1), ["a=1", "b=2"])),
])
def test_compose(m, code, expected):
    assert texts(m.value(code)) == expected


@pytest.mark.parametrize("code, identifier", [
    ("extractBefore(5, 'a')", "MATLAB:invalidInput"),
    ("extractBefore('abc', 5)", "MATLAB:string:IndexOutOfRange"),
    ("extractAfter('abc', 1.5)", "MATLAB:string:MustBeInteger"),
    ('extractBefore(["a","b"], ["a";"b";"c"])', "MATLAB:string:MustBeSameSize"),
    ("extractBetween('abc', 1, 2, 'Boundaries', 'sideways')", "MATLAB:string:InvalidBoundaries"),
    ("strip('abc', 'xy')", "MATLAB:strip:InvalidCharacter"),
    ("pad('abc', -1)", "MATLAB:pad:InvalidNumberOfCharacters"),
    ("count('abc', 'a', 'IgnoreCase')", "MATLAB:InputParser:ParamMissingValue"),
    ("regexptranslate('bogus', 'a')", "MATLAB:regexptranslate:InvalidOp"),
    ("strjust('a', 'middle')", "MATLAB:strjust:UnknownJustification"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_pieces_along_a_new_dimension(m):
    x = m.value('x = splitlines(["a" + newline + "b"; "c" + newline + "d"]);')
    assert texts(x) == ("string", (2, 2), ["a", "c", "b", "d"])
    x = m.value("x = splitlines({['x' newline 'y'], ['z' newline 'w']});")
    assert texts(x) == ("cell", (1, 2, 2), ["x", "z", "y", "w"])
    x = m.value('x = extractBetween(["[a][b]"; "[c][d]"], "[", "]");')
    assert texts(x) == ("string", (2, 2), ["a", "c", "b", "d"])
    e = m.fails('splitlines(["a" + newline + "b", "c"])')
    assert e.identifier == "MATLAB:string:DifferentNumberOfPieces"
