"""The fast paths of cellfun and arrayfun on small inputs and of switch on literal cases
give exactly what the general paths give: the same class, shape, values and errors."""

from __future__ import annotations

import itertools

import pytest

from mlang.errors import MatlabError
from tests.running import run

# ------------------------------------------------------------------ switch

SUBJECTS = [
    "'hello'", "'abc'", "''", "'x'", "['ac'; 'bd']", "['ab'; 'cd']", "'abcd'", "\"hello\"", "\"abc\"",
    "3", "-0", "0", "NaN", "Inf", "2.5", "int8(3)", "true", "false", "[2 3]", "[]", "{}", "{'abc'}",
    "struct('a', 1)", "single(3)", "3 + 2i", "@sin", "'😀'",
]
CASES = [
    "'abc'", "\"hello\"", "'hello'", "3", "0", "2.5", "1", "{'abc', 'hello'}", "{2, 3}", "{'x', 3}",
    "{}", "'acbd'", "''", "{'a'; 'b'}", "{0, 'abcd'}", "'😀'", "{\"abc\", 1}",
]


def _switch_value(code: str) -> object:
    try:
        interp, _ = run(code)
    except MatlabError as e:
        return ("error", e.identifier, str(e))
    return interp.get("y")


@pytest.mark.parametrize("subject", SUBJECTS)
def test_switch_on_literal_cases_is_the_general_comparison(subject: str) -> None:
    for first, second in itertools.permutations(CASES, 2):
        literal = (f"s = {subject};\nswitch s\n case {first}\n y = 1;\n case {second}\n y = 2;\n"
                   " otherwise\n y = 0;\nend")
        # cases held in variables are compared by the general path
        general = (f"s = {subject}; c1 = {first}; c2 = {second};\nswitch s\n case c1\n y = 1;\n"
                   " case c2\n y = 2;\n otherwise\n y = 0;\nend")
        assert _switch_value(literal) == _switch_value(general), (subject, first, second)


def test_switch_literal_cases_mixed_with_other_cases_keep_their_order() -> None:
    code = "f = @() 'b'; s = 'b';\nswitch s\n case 'a'\n y = 1;\n case f()\n y = 2;\n case 'b'\n y = 3;\nend"
    assert _switch_value(code) == 2.0
    code = "f = @() 'b'; s = 'a';\nswitch s\n case {'a'}\n y = 1;\n case f()\n y = 2;\nend"
    assert _switch_value(code) == 1.0
    # a case of literals whose rows do not join is still the error of building it
    assert _switch_value("s = 'a';\nswitch s\n case {'a', 'b'; 'c'}\n y = 1;\nend")[0] == "error"
