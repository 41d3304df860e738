"""Command Window display: golden scripts, exact layouts, format, func2str text.

Each ``tests/golden/display/NAME.m`` runs in a fresh interpreter and its
standard output must equal ``NAME.out`` byte for byte.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlang.display import Style, disp_lines, display_lines, func2str_text, render
from mlang.errors import MatlabError, MException
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax import parse
from mlang.syntax.ast import Lambda
from mlang.syntax.unparse import unparse
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_row
from mlang.values.handle import FunctionHandle
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from tests.syntax.test_roundtrip import expressions, params

GOLDEN = Path(__file__).resolve().parent / "golden" / "display"
CASES = sorted(p.stem for p in GOLDEN.glob("*.m"))
PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def interpreter(out: io.StringIO) -> Interpreter:
    return Interpreter(stdout=out)


def run(code: str) -> str:
    out = io.StringIO()
    interpreter(out).eval(code)
    return out.getvalue()


def run_script(path: Path) -> str:
    """The standard output of a script file run in a fresh interpreter."""
    out = io.StringIO()
    interpreter(out).run_file(path)
    return out.getvalue()


def shown(value: object, name: str = "x", **style: object) -> str:
    s = Style(**style)  # type: ignore[arg-type]
    return render(display_lines(name, value, s), s)


def disp(value: object, **style: object) -> str:
    s = Style(**style)  # type: ignore[arg-type]
    return render(disp_lines(value, s), s)


# ---------------------------------------------------------------- golden scripts


def test_golden_cases_exist() -> None:
    assert len(CASES) >= 20
    for name in CASES:
        assert (GOLDEN / f"{name}.out").exists(), name


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str) -> None:
    expected = (GOLDEN / f"{name}.out").read_text(encoding="utf-8")
    assert run_script(GOLDEN / f"{name}.m") == expected


# ---------------------------------------------------------------- framing


def test_loose_and_compact_framing() -> None:
    assert shown(5.0) == "\nx =\n\n     5\n\n"
    assert shown(5.0, compact=True) == "x =\n     5\n"
    assert shown(np.array([[True, False]]), "ans", compact=True) == \
        "ans =\n  1×2 logical array\n   1   0\n"
    assert shown(np.array([[5]], dtype=np.int8), compact=True) == "x =\n  int8\n   5\n"


def test_name_line_has_trailing_space_for_structs_strings_and_objects() -> None:
    assert shown(Struct.scalar({"a": 1.0})).startswith("\nx = \n")
    assert shown(StringArray.scalar("abc")) == '\nx = \n\n    "abc"\n\n'
    assert shown(MException("a:b", "m")).startswith("\nx = \n")
    assert shown(Cell.row([1.0])).startswith("\nx =\n")


def test_compact_display_ends_a_partial_line() -> None:
    assert run("format compact; fprintf('abc'); x = 1") == "abc\nx =\n     1\n"
    assert run("fprintf('abc'); x = 1") == "abc\nx =\n\n     1\n\n"


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(("value", "line"), [
    (5.0, "     5"), (-4.0, "    -4"), (660.0, "   660"), (2024.0, "        2024"),
    (300000000.0, "   300000000"), (1e9, "   1.0000e+09"), (np.pi, "    3.1416"),
    (-3.5, "   -3.5000"), (100.25, "  100.2500"), (0.00125, "    0.0013"), (0.001, "   1.0000e-03"),
    (1 / 5323, "   1.8786e-04"), (1234.56789, "   1.2346e+03"), (-12345.678, "  -1.2346e+04"),
    (float("nan"), "   NaN"), (float("inf"), "   Inf"), (float("-inf"), "  -Inf"), (-0.0, "     0"),
])
def test_real_scalars(value: float, line: str) -> None:
    assert shown(value) == f"\nx =\n\n{line}\n\n"


@pytest.mark.parametrize(("value", "body"), [
    ([[15, 150]], ["    15   150"]),
    ([[1, 10, 100, 1000]], ["           1          10         100        1000"]),
    ([[-1e8, 1]], ["  -100000000           1"]),
    ([[float("-inf"), float("nan")]], ["  -Inf   NaN"]),
    ([[4 / 3, 1.2345e-6]], ["    1.3333    0.0000"]),
    ([[0, 1.0511, float("nan")]], ["         0    1.0511       NaN"]),
    ([[1.5, 1000.5]], ["   1.0e+03 *", "", "    0.0015    1.0005"]),
    ([[225323.23, 523.23]], ["   1.0e+05 *", "", "    2.2532    0.0052"]),
    ([[1, 1e9]], ["   1.0e+09 *", "", "    0.0000    1.0000"]),
    ([[-1e-17, 1]], ["   -0.0000    1.0000"]),
])
def test_real_matrices(value: list, body: list[str]) -> None:
    assert disp(np.array(value, dtype=float)) == "".join(line + "\n" for line in body) + "\n"


def test_single_uses_double_rules_under_its_header() -> None:
    a = np.array([[1.0, 2.5, 3.0]], dtype=np.float32)
    assert shown(a) == "\nx =\n\n  1×3 single row vector\n\n    1.0000    2.5000    3.0000\n\n"
    assert shown(np.float32(np.pi)) == "\nx =\n\n  single\n\n    3.1416\n\n"


@pytest.mark.parametrize(("value", "line"), [
    (3 + 4j, "   3.0000 + 4.0000i"), (8j, "   0.0000 + 8.0000i"), (13j, "   0.0000 +13.0000i"),
    (2 - 1j, "   2.0000 - 1.0000i"), (complex(100, np.pi), "   1.0000e+02 + 3.1416e+00i"),
])
def test_complex_scalars(value: complex, line: str) -> None:
    assert disp(value) == line + "\n\n"


@pytest.mark.parametrize(("dtype", "values", "line"), [
    (np.int8, [[-128]], "   -128"), (np.uint8, [[1, 10]], "    1   10"),
    (np.int8, [[-1, 2]], "   -1    2"), (np.uint16, [[256, 512]], "   256   512"),
])
def test_integer_class_widths(dtype: type, values: list, line: str) -> None:
    assert disp(np.array(values, dtype=dtype)) == line + "\n\n"


@PROPERTY
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12))
def test_short_scalar_text_is_the_value_to_five_digits(x: float) -> None:
    text = disp(x).strip()
    assert abs(float(text) - x) <= max(abs(x) * 5e-5, 5e-5)
    if x == int(x) and abs(x) < 1e9:
        assert text == str(int(x))


@PROPERTY
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
                min_size=2, max_size=12))
def test_short_row_elements_share_one_width_and_scale(values: list[float]) -> None:
    lines = disp(np.array([values]), width=1000).split("\n")
    scale = 0
    match = re.fullmatch(r"   1\.0e([+-]\d+) \*", lines[0])
    if match:
        scale = int(match.group(1))
        lines = lines[2:]
    row = lines[0]
    width = len(row) // len(values)
    assert width in (6, 10, 12)
    assert len(row) == width * len(values)
    for k, x in enumerate(values):
        shown_value = float(row[k * width:(k + 1) * width]) * 10.0 ** scale
        assert abs(shown_value - x) <= 5e-5 * 10.0 ** scale + 1e-9 * abs(x)


def test_wide_rows_split_into_column_blocks() -> None:
    text = disp(np.arange(1.0, 15.0).reshape(1, -1))
    assert text.splitlines()[0] == "  Columns 1 through 13"
    assert "  Column 14\n\n    14\n" in text
    narrow = disp(np.arange(1.0, 15.0).reshape(1, -1), width=40)
    assert narrow.splitlines()[0] == "  Columns 1 through 6"


# ---------------------------------------------------------------- other classes


def test_empty_values() -> None:
    assert shown(np.zeros((0, 3))) == "\nx =\n\n  0×3 empty double matrix\n\n"
    assert shown(np.zeros((1, 0), dtype=CHAR)) == "\nx =\n\n  1×0 empty char array\n\n"
    assert shown(StringArray(np.empty((0, 0), dtype=object))) == "\nx = \n\n  0×0 empty string array\n\n"
    assert disp(np.zeros((0, 3))) == disp(Cell.empty()) == ""


def test_strings() -> None:
    data = np.array([["a", None]], dtype=object)
    assert disp(StringArray(data)) == '    "a"    <missing>\n'
    assert disp(StringArray.scalar("hello")) == "hello\n"


def test_struct_display() -> None:
    s = Struct.scalar({"a": 1.0, "longer": np.array([[1.0, 2.0]]), "c": Cell.row([char_row("x")])})
    assert disp(s) == "         a: 1\n    longer: [1 2]\n         c: {'x'}\n\n"


def test_struct_field_row_too_long_for_the_window_shows_its_size() -> None:
    s = Struct.scalar({"v": np.arange(1.0, 41.0).reshape(1, -1)})
    assert disp(s) == "    v: [1×40 double]\n\n"


def test_exception_display() -> None:
    e = MException("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes.")
    assert shown(e, "ME") == (
        "\nME = \n\n  MException with properties:\n\n"
        "    identifier: 'MATLAB:sizeDimensionsMustMatch'\n"
        "       message: 'Arrays have incompatible sizes.'\n"
        "         cause: {}\n"
        "         stack: [0×1 struct]\n"
        "    Correction: []\n\n")


def test_objects_listing_their_properties() -> None:
    class Point(MatlabObject):
        """A value class plugged in through the object protocol."""

        matlab_class = "geom.Point"

        def display_properties(self) -> list:
            return [("X", 1.0), ("Label", char_row("p"))]

    assert shown(Point(), "p") == "\np = \n\n  Point with properties:\n\n        X: 1\n    Label: 'p'\n\n"


def test_containers_map_display() -> None:
    maps = pytest.importorskip("mlang.values.containers_map")
    m = maps.MapObject()
    assert shown(m, "m") == (
        "\nm = \n\n  Map with properties:\n\n        Count: 0\n      KeyType: char\n    ValueType: any\n\n")


# ---------------------------------------------------------------- format


def test_format_command_sets_and_resets() -> None:
    it = interpreter(io.StringIO())
    it.eval("format long g")
    assert it.format == "longG"
    it.eval("format compact")
    assert (it.format, it.compact) == ("longG", True)
    it.eval("format('SHORTE')")
    assert it.format == "shortE"
    it.eval("format")
    assert (it.format, it.compact) == ("short", False)


def test_format_rejects_unknown_styles() -> None:
    with pytest.raises(MatlabError):
        run("format fancy")


# ---------------------------------------------------------------- function handles


def handle(source: str) -> FunctionHandle:
    it = interpreter(io.StringIO())
    it.eval(f"f = {source};")
    return it.get("f")


@pytest.mark.parametrize(("source", "text"), [
    ("@(x) x.^2", "@(x)x.^2"),
    ("@(x) 2*x.^3 - 3", "@(x)2*x.^3-3"),
    ("@(x) [x 1]", "@(x)[x,1]"),
    ("@(x, y) {x; 'a b'}", "@(x,y){x;'a b'}"),
    ("@() disp('it''s')", "@()disp('it''s')"),
    ("@(~, b) -b'", "@(~,b)-b'"),
    ("@(x) (x + 1) * 2", "@(x)(x+1)*2"),
    ("@(a) @(b) a + b", "@(a)@(b)a+b"),
    ("@cos", "@cos"),
])
def test_func2str_text(source: str, text: str) -> None:
    assert func2str_text(handle(source)) == text


@PROPERTY
@given(params, expressions(3))
def test_func2str_text_reads_back_as_the_same_function(names: list, body: object) -> None:
    node = Lambda(names, body)  # type: ignore[arg-type]
    fh = FunctionHandle(params=names, text=unparse(node))
    text = func2str_text(fh)
    assert parse(text).body[0].expr == node  # type: ignore[attr-defined]
