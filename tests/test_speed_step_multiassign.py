"""Multiple assignment with one value a target (the common case, stored directly) gives what
the general path gives: the values, ignored outputs, displays, errors for missing outputs,
and the same with comma-separated list targets (the general path)."""

from __future__ import annotations

import pytest

from mlang.errors import MatlabError
from tests.running import run


@pytest.mark.parametrize("code, equivalent", [
    ("[a, b] = deal(1, 'x');", "a = 1; b = 'x';"),
    ("[a, ~, b] = deal(1, 2, 3);", "a = 1; b = 3;"),
    ("a = 0; [~, b] = size(zeros(2, 5));", "a = 0; b = 5;"),
    ("c = {0, 0}; [c{1}, b] = deal(4, 5); a = c{1};", "a = 4; b = 5;"),
    ("s = struct('f', 1); [s.f, b] = deal(int8(7), true); a = s.f;", "a = int8(7); b = true;"),
    ("[a, b] = max([3 NaN 9]);", "a = 9; b = 3;"),
    ("[a, b] = deal(zeros(0, 3), 1 + 2i);", "a = zeros(0, 3); b = 1 + 2i;"),
    ("[a, b] = deal(single(NaN), 'q');", "a = single(NaN); b = 'q';"),
])
def test_values_are_stored_in_order(code, equivalent):
    show = " disp(class(a)); disp(size(a)); disp(a); disp(class(b)); disp(b)"
    _, fast = run(code + show)
    _, general = run(equivalent + show)
    assert fast == general


def test_display_of_each_target():
    _, fast = run("[a, ~, c] = deal(1, 2, 3)")
    _, general = run("a = 1\nc = 3")
    assert fast == general


def test_a_list_target_takes_the_general_path_with_the_same_display():
    _, out = run("c = cell(1, 2); [c{:}] = deal(1, 2)")
    assert "c =" in out


@pytest.mark.parametrize("code, identifier", [
    ("c = {}; [a, b] = c{:};", "MATLAB:needMoreRhsOutputs"),
    ("c = {1}; [a, b] = c{:};", "MATLAB:TooManyOutputs"),
    ("f = @() disp(1); [a, b] = f();", "MATLAB:TooManyOutputs"),
    ("s = struct('f', {}); [a, b] = s.f;", "MATLAB:needMoreRhsOutputs"),
])
def test_missing_outputs_raise_matlabs_errors(code, identifier):
    with pytest.raises(MatlabError) as caught:
        run(code)
    assert caught.value.exc.identifier == identifier


@pytest.mark.parametrize("code, shown", [("c = {1}; [a, ~] = c{:}; disp(a)", "     1\n\n"),
                                         ("c = {}; [~, ~] = c{:};", "")])
def test_fewer_values_with_ignored_trailing_outputs(code, shown):
    # outputs ignored at the end need not be given
    assert run(code)[1] == shown
