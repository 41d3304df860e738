"""``arguments`` blocks: defaults, class and size conversion, validators, name=value options."""

import io
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError
from mlang.evaluation.arguments import compile_arguments, convert_class, fit_size
from mlang.evaluation.compiler import Compiler
from mlang.evaluation.frame import Frame
from mlang.evaluation.functions import CompiledUnit
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax.parser import default_parser
from mlang.values.core import char_row, char_text
from mlang.values.string import StringArray

SCALE = """function r = scale(x, factor, mode)
arguments
    x (1,:) double {mustBeFinite}
    factor (1,1) double {mustBePositive, mustBeInteger} = 2
    mode char {mustBeMember(mode, {'up', 'down'})} = 'up'
end
if strcmp(mode, 'up')
    r = x * factor;
else
    r = x / factor;
end
end
"""


def call(tmp_path, source: str, script: str) -> Interpreter:
    """Write the function file ``source`` and a script ``script`` calling it; run the script."""
    name = re.match(r"function\s+(?:\w+\s*=\s*)?(\w+)", source).group(1)
    (tmp_path / f"{name}.m").write_text(source)
    (tmp_path / "main.m").write_text(script)
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    it.run_file(tmp_path / "main.m")
    return it


def failure(tmp_path, source: str, script: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        call(tmp_path, source, script)
    return info.value


def test_defaults_fill_missing_inputs(tmp_path):
    it = call(tmp_path, SCALE, "a = scale([1 2]);\nb = scale([1 2], 3);\nc = scale([3 6], 3, 'down');\n")
    assert it.get("a").tolist() == [[2.0, 4.0]]
    assert it.get("b").tolist() == [[3.0, 6.0]]
    assert it.get("c").tolist() == [[1.0, 2.0]]


def test_a_column_is_turned_into_the_declared_row(tmp_path):
    it = call(tmp_path, SCALE, "a = scale([1; 2; 3], 1);\n")
    assert it.get("a").shape == (1, 3)


def test_class_conversion_to_double(tmp_path):
    it = call(tmp_path, SCALE, "a = scale(int8([1 2]), 1);\nb = scale(single(2), 2);\nc = class(b);\n")
    assert it.get("a").tolist() == [[1.0, 2.0]]
    assert it.get("c") == "double"


@pytest.mark.parametrize(("script", "message"), [
    ("scale([1 NaN])", "Invalid argument at position 1. Value must be finite."),
    ("scale(1, -2)", "Invalid argument at position 2. Value must be positive."),
    ("scale(1, 1.5)", "Invalid argument at position 2. Value must be integer."),
    ("scale(1, [1 2])", "Invalid argument at position 2. Value must be a scalar."),
    ("scale([1 2; 3 4])", "Invalid argument at position 1. Value must be a row vector."),
    ("scale(1, 1, 'sideways')",
     "Invalid argument at position 3. Value must be a member of this set:\n    'up'\n    'down'"),
    ("scale({1})", "Invalid argument at position 1. Value must be of type double or be convertible to double."),
])
def test_validation_failures_name_the_position(tmp_path, script, message):
    err = failure(tmp_path, SCALE, f"r = {script};\n")
    assert err.message == message
    assert err.exc.function == "scale"


def test_the_validators_identifier_is_kept(tmp_path):
    err = failure(tmp_path, SCALE, "r = scale(1, 0);\n")
    assert err.identifier == "MATLAB:validators:mustBePositive"


def test_a_missing_required_input(tmp_path):
    err = failure(tmp_path, SCALE, "r = scale();\n")
    assert (err.identifier, err.message) == ("MATLAB:minrhs", "Not enough input arguments.")


def test_defaults_may_use_earlier_inputs_and_local_validators(tmp_path):
    source = """function r = span(lo, hi)
arguments
    lo (1,1) double
    hi (1,1) double {mustBeAbove(hi, lo)} = lo + 10
end
r = hi - lo;
end

function mustBeAbove(a, b)
if a <= b
    error('span:order', 'Upper bound must exceed %g.', b);
end
end
"""
    it = call(tmp_path, source, "a = span(5);\nb = span(1, 4);\n")
    assert (it.get("a"), it.get("b")) == (10.0, 3.0)
    err = failure(tmp_path, source, "c = span(5, 2);\n")
    assert (err.identifier, err.message) == \
        ("span:order", "Invalid argument at position 2. Upper bound must exceed 5.")


def test_text_conversions(tmp_path):
    source = """function r = kinds(s, c, flag)
arguments
    s string
    c char
    flag logical = 1
end
r = {class(s), class(c), class(flag), c};
end
"""
    it = call(tmp_path, source, 'r = kinds(\'abc\', "xyz");\n')
    assert it.get("r") == ["string", "char", "logical", "xyz"]


def test_output_blocks_are_not_input_checks(tmp_path):
    source = """function r = ident(x)
arguments (Input)
    x double
end
arguments (Output)
    r (1,1) double
end
r = x;
end
"""
    it = call(tmp_path, source, "v = ident(4);\n")
    assert it.get("v") == 4.0


# ------------------------------------------------------------ name=value


PLOTISH = """function r = plotish(x, opts)
arguments
    x double
    opts.Color char {mustBeMember(opts.Color, {'red', 'blue'})} = 'red'
    opts.Width (1,1) double {mustBePositive} = 1
    opts.Label string
end
r = opts;
end
"""


def options_for(args: list):
    """Run the compiled arguments blocks of PLOTISH on ``args`` (as values) in a fresh workspace."""
    it = Interpreter(stdout=io.StringIO())
    program = default_parser().parse(PLOTISH, "plotish.m")
    unit = CompiledUnit(program, "plotish.m")
    fn = program.functions[0]
    checks = compile_arguments(Compiler(it, unit), fn.arguments, fn.params)
    frame = Frame(it, unit, None, len(args), 1)
    for p, a in zip(fn.params, args, strict=False):
        frame.vars[p] = a
    checks(frame, args)
    return checks, frame.vars


def text(s: str) -> np.ndarray:
    return char_row(s)


def test_options_take_any_number_of_inputs():
    checks, _ = options_for([1.0])
    assert checks.max_inputs is None


def test_options_get_defaults_in_declaration_order():
    _, vars = options_for([1.0])
    opts = vars["opts"]
    assert opts.fields == ["Color", "Width"]
    assert char_text(opts.element(0)["Color"]) == "red"


def test_given_options_are_validated_and_converted():
    _, vars = options_for([1.0, text("width"), 3.0, text("Label"), text("hi"), text("Color"), text("blue")])
    fields = vars["opts"].element(0)
    assert vars["x"] == 1.0
    assert fields["Width"] == 3.0
    assert type(fields["Label"]) is StringArray and fields["Label"].scalar_text() == "hi"
    assert char_text(fields["Color"]) == "blue"


@pytest.mark.parametrize(("args", "message"), [
    ([1.0, text("Width"), -1.0], "Invalid name-value argument 'Width'. Value must be positive."),
    ([1.0, text("Color"), text("green")],
     "Invalid name-value argument 'Color'. Value must be a member of this set:\n    'red'\n    'blue'"),
    ([1.0, text("Width")], "Invalid argument list."),
    ([1.0, text("Height"), 2.0], "Invalid argument list."),
])
def test_option_errors(args, message):
    with pytest.raises(MatlabError) as info:
        options_for(args)
    assert info.value.message.startswith(message)


def test_options_in_a_real_call(tmp_path):
    it = call(tmp_path, PLOTISH, "o = plotish(1, 'Width', 2);\n")
    assert it.get("o") == {"Color": "red", "Width": 2.0}


def test_nargin_counts_positional_inputs_of_a_function_with_options(tmp_path):
    it = call(tmp_path, PLOTISH, "n = nargin('plotish');\n")
    assert it.get("n") == 1.0


# -------------------------------------------------------- conversion helpers


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.booleans())
def test_fit_size_turns_vectors_to_the_declared_orientation(n, as_column):
    v = np.arange(1.0, n + 1).reshape((n, 1) if as_column else (1, n))
    row = fit_size(v if n > 1 else float(v[0, 0]), [1, None])
    col = fit_size(v if n > 1 else float(v[0, 0]), [None, 1])
    assert np.shape(row) in ((1, n), ()) and np.shape(col) in ((n, 1), ())
    assert np.ravel(row).tolist() == np.ravel(col).tolist() == list(range(1, n + 1))


def test_fit_size_expands_a_scalar_to_a_fixed_size():
    assert fit_size(5.0, [2, 3]).tolist() == [[5.0] * 3] * 2


def test_fit_size_rejects_other_shapes():
    with pytest.raises(MatlabError, match="Value must be of size 2x3"):
        fit_size(np.ones((3, 2)), [2, 3])


@pytest.mark.parametrize(("value", "cls", "expected"), [
    (2.7, "int8", np.array([[3]], dtype=np.int8)),
    (300.0, "uint8", np.array([[255]], dtype=np.uint8)),
    (np.array([[True, False]]), "double", np.array([[1.0, 0.0]])),
    (2.0, "logical", True),
    (65.0, "char", char_row("A")),
])
def test_convert_class(value, cls, expected):
    got = convert_class(value, cls)
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()
    else:
        assert got is expected


def test_convert_class_refuses_nan_to_logical():
    with pytest.raises(MatlabError):
        convert_class(float("nan"), "logical")
