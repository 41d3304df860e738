"""A builtin called for its one value (``Builtin.direct_value``) gives what ``call`` gives.

Call sites that want one value of a builtin (``x = f(a, b)``) call the function that
``direct_value`` makes for their argument count: no list around the value.  It must
give ``call``'s first output, MISSING_VALUE where ``call`` gives none, the same routed
calls (dlarray, sparse) and the same errors, labelled with the function the same way.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.errors import MatlabError, error
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import BUILTINS, MISSING_VALUE, Builtin

INTERP = Interpreter(stdout=io.StringIO())


def _made(fn, wants_interp: bool, wants_nargout: bool, max_out: int | None = 2) -> Builtin:
    return Builtin(name="probe", fn=fn, min_in=1, max_in=3, max_out=max_out, help="",
                   wants_nargout=wants_nargout, wants_interp=wants_interp)


OUTPUTS = {"value": 4.0, "pair": (5.0, 6.0), "none": None, "empty": (), "array": np.ones((2, 2))}


FORMS = [(False, False), (False, True), (True, False), (True, True)]


@pytest.mark.parametrize(("wants_interp", "wants_nargout"), FORMS)
@pytest.mark.parametrize("kind", ["value", "pair", "none", "empty", "array"])
def test_the_value_is_calls_first_output(wants_interp, wants_nargout, kind):
    seen = []

    def fn(*args, **kwargs):
        seen.append((args, kwargs))
        return OUTPUTS[kind]

    entry = _made(fn, wants_interp, wants_nargout)
    expected = entry.call(INTERP, [1.0, 2.0], 1)
    got = entry.direct_value(INTERP, 2)(INTERP, [1.0, 2.0])
    assert seen[0] == seen[1]  # the same arguments, interpreter and nargout
    if expected:
        assert got is expected[0]
    else:
        assert got is MISSING_VALUE


@pytest.mark.parametrize(("wants_interp", "wants_nargout"), FORMS)
def test_errors_are_labelled_as_calls_label_them(wants_interp, wants_nargout):
    def fn(*args, **kwargs):
        raise error("probe:bad", "Bad input.")

    entry = _made(fn, wants_interp, wants_nargout)
    with pytest.raises(MatlabError) as through_call:
        entry.call(INTERP, [1.0], 1)
    with pytest.raises(MatlabError) as direct:
        entry.direct_value(INTERP, 1)(INTERP, [1.0])
    assert (direct.value.identifier, direct.value.message, direct.value.exc.function) == (
        through_call.value.identifier, through_call.value.message, through_call.value.exc.function)
    assert direct.value.exc.function == "probe"


def test_counts_that_do_not_fit_leave_the_general_call():
    entry = _made(lambda *args: 1.0, False, False)
    assert entry.direct_value(INTERP, 0) is None
    assert entry.direct_value(INTERP, 4) is None
    assert _made(lambda *args: 1.0, False, False, max_out=0).direct_value(INTERP, 1) is None
    assert entry.direct_value(INTERP, 3) is not None


@pytest.mark.parametrize("name", ["abs", "sum", "size", "numel", "full", "class"])
@pytest.mark.parametrize("value", ["sparse([1 0; 0 -2])", "dlarray([1 -2])", "int8([3 4])"])
def test_routed_arguments_take_the_route_call_takes(name, value):
    interp = Interpreter(stdout=io.StringIO())
    interp.run_source(f"v = {value};")
    entry, args = BUILTINS[name], [interp.base.vars["v"]]
    try:
        expected = entry.call(interp, args, 1)
    except MatlabError as exc:
        with pytest.raises(MatlabError) as info:
            entry.direct_value(interp, 1)(interp, args)
        assert (info.value.identifier, info.value.message) == (exc.identifier, exc.message)
        return
    got = entry.direct_value(interp, 1)(interp, args)
    assert type(got) is type(expected[0]) and str(got) == str(expected[0])


@pytest.mark.parametrize("code", [
    "x = sprintf('%d,', 3);", "x = numel([1 2 3]);", "x = max([4 9 2]);", "x = upper('abc');",
    "x = size(zeros(2, 3));", "x = sum(sparse([1 0 2]));", "x = abs(dlarray([-1 2]));",
])
def test_values_at_call_sites_are_the_general_calls(code):
    interp = Interpreter(stdout=io.StringIO())
    interp.run_source(code)
    general = Interpreter(stdout=io.StringIO())
    general.run_source(code.replace("x = ", "c = cell(1, 1); [c{:}] = "))
    got, expected = interp.base.vars["x"], general.base.vars["c"].data[0, 0]
    assert type(got) is type(expected)
    assert repr(got) == repr(expected) if not hasattr(got, "shape") else str(got) == str(expected)


@pytest.mark.parametrize(("code", "identifier"), [
    ("x = sprintf();", "MATLAB:minrhs"),
    ("x = numel();", "MATLAB:minrhs"),
    ("x = upper(1, 2);", "MATLAB:TooManyInputs"),
    ("x = disp(1);", "MATLAB:TooManyOutputs"),
    ("x = str2func(3);", None),
])
def test_errors_at_call_sites(code, identifier):
    interp = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabError) as info:
        interp.run_source(code)
    if identifier is not None:
        assert info.value.identifier == identifier


def test_a_builtin_giving_no_value_at_a_call_site(monkeypatch):
    entry = Builtin(name="probe_nothing", fn=lambda a: None, min_in=1, max_in=1, max_out=1, help="")
    monkeypatch.setitem(BUILTINS, "probe_nothing", entry)
    interp = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabError) as info:
        interp.run_source("x = probe_nothing(1);")
    assert (info.value.identifier, info.value.message) == ("MATLAB:TooManyOutputs", "Too many output arguments.")
    interp.run_source("probe_nothing(1);")  # no value wanted: no error


def test_argument_lists_put_constants_in_as_they_are():
    from mlang.evaluation.compiler.plain_calls import listing
    from mlang.evaluation.compiler.runtime import MISSING, constant_code, constant_of

    a, b = np.ones((1, 2)), "text"
    dynamic = [lambda frame: b, lambda frame: 7.0]
    for codes, expected in [
        ([constant_code(a)], [a]), ([constant_code(a), dynamic[0]], [a, b]),
        ([dynamic[0], constant_code(a)], [b, a]), ([constant_code(a), constant_code(3.0)], [a, 3.0]),
        ([dynamic[0], dynamic[1]], [b, 7.0]), ([constant_code(a), dynamic[0], dynamic[1]], [a, b, 7.0]),
        ([dynamic[1], constant_code(a), dynamic[0], constant_code(b)], [7.0, a, b, b]),
    ]:
        made = listing(codes)
        first, second = made(None), made(None)
        assert first is not second and len(first) == len(expected)
        assert all(x is y for x, y in zip(first, expected, strict=True))
    assert constant_of(dynamic[0]) is MISSING and constant_of(constant_code(a)) is a


@pytest.mark.parametrize("code", [
    "x = max(3, [1 5]);", "x = plus(1, 2);", "x = strcat('a', 'b', 'c');", "x = repmat('ab', 1, 3);",
    "s = ''; for k = 1:3, s = [s 'ab' sprintf('%d', k) 'c']; end; x = s;",
    "s = int8([]); for k = 1:3, s = [s int8(k) 0x7Fs8]; end; x = s;",
])
def test_calls_and_appends_with_literal_arguments(code):
    interp = Interpreter(stdout=io.StringIO())
    interp.run_source(code)
    x = interp.base.vars["x"]
    general = Interpreter(stdout=io.StringIO())
    general.run_source(code.replace("x = ", "c = cell(1, 1); [c{:}] = ") if "for" not in code
                       else code.replace("s = [s ", "s = [s(1:end) "))
    expected = general.base.vars["c"].data[0, 0] if "for" not in code else general.base.vars["x"]
    assert type(x) is type(expected) and str(x) == str(expected)
    if type(x) is np.ndarray:
        assert x.dtype == expected.dtype and x.shape == expected.shape and x.tobytes() == expected.tobytes()


SPRINTF_FORMATS = ["%d,", "%5d", "%-4d|", "%x", "%X!", "%d%%", "%+d", "%05d", "%u", "%i", "%s", "%f", "%g,",
                   "%d %d", "x", "", "%c", "%o"]
SPRINTF_VALUES = ["3", "-7", "0", "-0", "1.5", "NaN", "Inf", "-Inf", "1e20", "2^53+2", "int8(5)", "true",
                  "'a'", "1+2i", "[1 2]", "[]", "dlarray(4)", "single(6)", "uint64(18446744073709551615)"]


@pytest.mark.parametrize("fmt", SPRINTF_FORMATS)
def test_sprintf_with_a_literal_format_at_a_call_site(fmt):
    values = "; ".join(f"r{{{k}}} = sprintf('{fmt}', {v})" for k, v in enumerate(SPRINTF_VALUES, 1))
    fast = Interpreter(stdout=io.StringIO())
    fast.run_source(f"r = {{}}; f = '{fmt}'; {values};")
    general = Interpreter(stdout=io.StringIO())  # the format from a variable: no literal
    general.run_source(f"r = {{}}; f = '{fmt}'; {values.replace(repr(fmt), 'f')};")
    got, expected = fast.base.vars["r"], general.base.vars["r"]
    for a, b in zip(got.data.ravel(), expected.data.ravel(), strict=True):
        assert type(a) is type(b) and str(a) == str(b)
        if type(a) is np.ndarray:
            assert a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_sprintf_specialized_only_for_a_literal_one_integer_format():
    from mlang.registry import MISSING_LITERAL
    from mlang.values.core import char_row

    entry = BUILTINS["sprintf"]
    assert entry.specialize((char_row("%d,"), MISSING_LITERAL)) is not None
    for literals in [(char_row("%f"), MISSING_LITERAL), (char_row("%d %d"), MISSING_LITERAL),
                     (MISSING_LITERAL, MISSING_LITERAL), (char_row("%d"),),
                     (char_row("%d"), MISSING_LITERAL, MISSING_LITERAL), (char_row("%d").T, 1.0)]:
        assert entry.specialize(literals) is None
    made = entry.direct_value(INTERP, 2, (char_row("%d,"), MISSING_LITERAL))
    assert char_text_of(made(INTERP, [char_row("%d,"), 12.0])) == "12,"
    assert char_text_of(made(INTERP, [char_row("%d,"), 1.5])) == "1.500000e+00,"
    assert entry.direct_value(INTERP, 2, (char_row("%d,"),)) is not None  # (counts differ: general)


def char_text_of(v: object) -> str:
    from mlang.values.core import char_text

    return char_text(v)


# ``direct_value_of``: the same for a site passing one or two arguments as they are


@pytest.mark.parametrize("output", list(OUTPUTS))
@pytest.mark.parametrize(("wants_interp", "wants_nargout"), FORMS)
@pytest.mark.parametrize("args", [[1.0], [1.0, 2.0]])
def test_positional_value_is_the_first_output_of_call(output, wants_interp, wants_nargout, args):
    seen = []

    def fn(*a, **kwargs):
        seen.append((a, kwargs))
        return OUTPUTS[output]

    entry = _made(fn, wants_interp, wants_nargout)
    expected = entry.call(INTERP, list(args), 1)
    got = entry.direct_value_of(len(args))(INTERP, *args)
    assert seen[0] == seen[1]
    assert got is (expected[0] if expected else MISSING_VALUE)


@pytest.mark.parametrize(("wants_interp", "wants_nargout"), FORMS)
@pytest.mark.parametrize("args", [[1.0], [1.0, 2.0]])
def test_positional_errors_are_labelled_as_calls_label_them(wants_interp, wants_nargout, args):
    def fn(*a, **kwargs):
        raise error("probe:bad", "Bad input.")

    entry = _made(fn, wants_interp, wants_nargout)
    with pytest.raises(MatlabError) as direct:
        entry.direct_value_of(len(args))(INTERP, *args)
    assert (direct.value.identifier, direct.value.exc.function) == ("probe:bad", "probe")


def test_positional_value_only_for_one_or_two_arguments_that_fit():
    entry = _made(lambda *args: 1.0, False, False)
    assert entry.direct_value_of(3) is None
    assert entry.direct_value_of(0) is None
    assert _made(lambda *args: 1.0, False, False, max_out=0).direct_value_of(1) is None
    narrow = Builtin(name="probe", fn=lambda a: a, min_in=1, max_in=1, max_out=1, help="")
    assert narrow.direct_value_of(2) is None


@pytest.mark.parametrize("name", ["abs", "sum", "size", "numel", "full", "class", "max", "mod"])
@pytest.mark.parametrize("value", ["sparse([1 0; 0 -2])", "dlarray([1 -2])", "int8([3 4])", "[1 2]"])
@pytest.mark.parametrize("second", [None, "2", "dlarray(2)"])
def test_positional_routed_arguments_take_the_route_call_takes(name, value, second):
    interp = Interpreter(stdout=io.StringIO())
    interp.run_source(f"v = {value};" + (f" w = {second};" if second else ""))
    entry = BUILTINS[name]
    args = [interp.base.vars["v"]] + ([interp.base.vars["w"]] if second else [])
    direct = entry.direct_value_of(len(args))
    if direct is None:
        return  # the count does not fit: sites call ``call``
    try:
        expected = entry.call(interp, args, 1)
    except MatlabError as exc:
        with pytest.raises(MatlabError) as info:
            direct(interp, *args)
        assert (info.value.identifier, info.value.message) == (exc.identifier, exc.message)
        return
    got = direct(interp, *args)
    assert type(got) is type(expected[0]) and str(got) == str(expected[0])
