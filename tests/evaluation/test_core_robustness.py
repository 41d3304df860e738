"""The evaluator's core (operators, indexing, assignment, concatenation, control flow)
never lets a Python exception escape: awkward combinations of values either work or
raise a MATLAB error."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError, MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter

VALUES = ["[]", "zeros(1,0)", "zeros(0,3)", "5", "-2.5", "NaN", "Inf", "3+4i", "int8([100 -100])",
          "uint16(7)", "single(2.5)", "true", "[true false]", "'abc'", "['ab';'cd']", "''", '"str"',
          '["a" "b"]', "{1, 'x'}", "{}", "struct('a', 1)", "struct('a', {1, 2})", "@sin",
          "@(x) x+1", "reshape(1:8, 2, 2, 2)", "[1 2; 3 4]", "[1 2 3]", "[1; 2; 3]",
          "int32([1 2; 3 4])", "containers.Map()"]
BINARY = ["+", "-", "*", ".*", "/", "./", "\\", ".\\", "^", ".^", "==", "~=", "<", ">=", "&", "|",
          "&&", "||"]
INDEXES = ["(1)", "(end)", "(0)", "(1.5)", "(:)", "(2,:)", "(:,1)", "([true false])", "(end+1)",
           "{1}", "(1).a", ".a", "(1,1,1)", "('a')", "({1})", "(-1)", "(1,2,3,4)", "([])"]

TEMPLATES = st.one_of(
    st.builds(lambda a, op, b: f"r = ({a}) {op} ({b});",
              st.sampled_from(VALUES), st.sampled_from(BINARY), st.sampled_from(VALUES)),
    st.builds(lambda a, op: f"r = {op}({a});", st.sampled_from(VALUES), st.sampled_from(["-", "+", "~"])),
    st.builds(lambda a, t: f"x = {a}; r = x{t};", st.sampled_from(VALUES), st.sampled_from(["'", ".'"])),
    st.builds(lambda a, ix: f"x = {a}; r = x{ix};", st.sampled_from(VALUES), st.sampled_from(INDEXES)),
    st.builds(lambda a, ix, b: f"x = {a}; x{ix} = {b};",
              st.sampled_from(VALUES), st.sampled_from(INDEXES), st.sampled_from([*VALUES, "[]"])),
    st.builds(lambda a, b, sep: f"r = [{a}{sep} {b}];",
              st.sampled_from(VALUES), st.sampled_from(VALUES), st.sampled_from([",", ";"])),
    st.builds(lambda a: f"for k = {a}, end", st.sampled_from(VALUES)),
    st.builds(lambda a: f"if {a}, end", st.sampled_from(VALUES)),
    st.builds(lambda a: f"switch {a}, case 1, end", st.sampled_from(VALUES)),
    st.builds(lambda a: f"r = 1:{a};", st.sampled_from(VALUES)),
)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(TEMPLATES)
def test_only_matlab_errors_escape(code):
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    try:
        it.eval(code)
    except (MatlabError, MatlabSyntaxError):
        pass
