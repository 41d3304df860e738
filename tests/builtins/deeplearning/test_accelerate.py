"""dlaccelerate and AcceleratedFunction objects: display, properties (a handle object),
clearCache, calling, dlfeval with an accelerated function."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError
from mlang.values.core import char_text

DISPLAY = ("\nacc = \n" + """
  AcceleratedFunction with properties:

          Function: @sin
           Enabled: 1
         CacheSize: 50
           HitRate: 0
         Occupancy: 0
         CheckMode: 'none'
    CheckTolerance: 1.0000e-04

""")


def run(m, text: str) -> dict:
    m.interp.base.vars.clear()
    m.interp.run_source(text, "k7_accelerate")
    return dict(m.interp.base.vars)


def test_display(m) -> None:
    assert m.run("acc = dlaccelerate(@sin)") == DISPLAY


def test_display_of_an_anonymous_function(m) -> None:
    text = m.run("acc = dlaccelerate(@(x) x.^2 + 1); disp(acc)")
    assert text.splitlines()[2] == "          Function: @(x)x.^2+1"


def test_class_and_isa(m) -> None:
    assert char_text(m.value("c = class(dlaccelerate(@sin));", "c")) == "deep.AcceleratedFunction"
    assert m.value("t = isa(dlaccelerate(@sin), 'deep.AcceleratedFunction');", "t") is True
    assert m.value("t = isa(dlaccelerate(@sin), 'function_handle');", "t") is False


def test_properties(m) -> None:
    acc_fn, enabled, size, hit, occ, mode, tol = m.values(
        "a = dlaccelerate(@cos); f = a.Function; e = a.Enabled; s = a.CacheSize; "
        "h = a.HitRate; o = a.Occupancy; c = a.CheckMode; t = a.CheckTolerance;",
        "f", "e", "s", "h", "o", "c", "t")
    assert acc_fn.name == "cos"
    assert enabled is True and size == 50.0 and hit == 0.0 and occ == 0.0
    assert char_text(mode) == "none" and tol == 1e-4


def test_setting_properties_changes_every_copy(m) -> None:
    e, mode, tol, size = m.values(
        "a = dlaccelerate(@cos); b = a; b.Enabled = false; b.CheckMode = 'tolerance'; "
        "b.CheckTolerance = 1e-3; b.CacheSize = 10; e = a.Enabled; c = a.CheckMode; "
        "t = a.CheckTolerance; s = a.CacheSize;", "e", "c", "t", "s")
    assert e is False and char_text(mode) == "tolerance" and tol == 1e-3 and size == 10.0


@pytest.mark.parametrize("code, identifier", [
    ("a = dlaccelerate(@cos); a.HitRate = 1;", "MATLAB:class:SetProhibited"),
    ("a = dlaccelerate(@cos); a.Function = @sin;", "MATLAB:class:SetProhibited"),
    ("a = dlaccelerate(@cos); a.CheckMode = 'always';", "MATLAB:validators:mustBeMember"),
    ("a = dlaccelerate(@cos); a.CheckTolerance = -1;", "MATLAB:validators:mustBePositive"),
    ("a = dlaccelerate(@cos); a.CacheSize = 2.5;", "MATLAB:validators:mustBePositive"),
    ("a = dlaccelerate(@cos); a.Bogus = 1;", "MATLAB:noPublicFieldForClass"),
    ("a = dlaccelerate(3);", "deep:dlaccelerate:InvalidInput"),
    ("clearCache(3);", "MATLAB:UndefinedFunction"),
])
def test_errors(m, code: str, identifier: str) -> None:
    err = m.fails(code)
    assert isinstance(err, MatlabError) and err.identifier == identifier


def test_clear_cache(m) -> None:
    occ = m.value("a = dlaccelerate(@cos); y = a(0); clearCache(a); a.clearCache(); o = a.Occupancy;", "o")
    assert occ == 0.0


def test_calling_gives_the_function_result(m) -> None:
    assert m.value("a = dlaccelerate(@(x, y) x.^2 + y); z = a(3, 1);", "z") == 10.0
    z = m.value("a = dlaccelerate(@cos); z = a(dlarray([0 pi]));", "z")
    assert type(z) is DlArray
    np.testing.assert_allclose(z.data, [[1.0, -1.0]])


def test_dlfeval_with_an_accelerated_function_and_several_outputs(m) -> None:
    out = run(m, """
acc = dlaccelerate(@modelLoss);
for k = 1:3
    [loss, g] = dlfeval(acc, dlarray([1 2 3]) * k);
end
function [loss, g] = modelLoss(x)
loss = sum(x .^ 2);
g = dlgradient(loss, x);
end
""")
    np.testing.assert_allclose(out["loss"].data, [[126.0]])
    np.testing.assert_allclose(out["g"].data, [[6.0, 12.0, 18.0]])
    assert out["g"].node is None  # dlfeval returns untraced values


def test_a_disabled_accelerated_function_is_the_function_itself(m) -> None:
    err = m.fails("""
a = dlaccelerate(@(x) dlgradient(sum(dlgradient(sum(x .^ 3), x)), x));
a.Enabled = false;
g = dlfeval(a, dlarray([1 2]));
""")
    assert err.identifier == "deep:dlgradient:ValueNotTraced"
    g = m.value("a = dlaccelerate(@(x) dlgradient(sum(dlgradient(sum(x .^ 3), x)), x)); "
                "g = dlfeval(a, dlarray([1 2]));", "g")
    np.testing.assert_allclose(g.data, [[6.0, 12.0]])


def test_calling_with_several_outputs(m) -> None:
    a, b = m.values("acc = dlaccelerate(@size); [a, b] = acc(ones(2, 3));", "a", "b")
    assert (a, b) == (2.0, 3.0)


def test_feval_and_cellfun_call_it(m) -> None:
    a, c = m.values("acc = dlaccelerate(@(x) 2*x); a = feval(acc, 3); c = cellfun(acc, {1, 2});", "a", "c")
    assert a == 6.0 and c.tolist() == [[2.0, 4.0]]
