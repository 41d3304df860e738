"""matlab.lang.makeValidName and matlab.lang.makeUniqueStrings."""

from mlang.values.convert import to_python


def test_make_valid_name_forms(m):
    m.run("N = matlab.lang.makeValidName({'Height (cm)','for','1abc','ok','a b c','café'});")
    assert to_python(m.interp.base.vars["N"]) == ["Height_cm_", "xFor", "x1abc", "ok", "aBC", "caf_"]


def test_make_valid_name_styles_prefix_and_modified_flags(m):
    m.run("[a, f] = matlab.lang.makeValidName(\"x-y\", 'ReplacementStyle', 'delete'); "
          "b = matlab.lang.makeValidName('x-y', 'ReplacementStyle', 'hex'); "
          "c = matlab.lang.makeValidName('2go', 'Prefix', 'var_'); "
          "[~, g] = matlab.lang.makeValidName({'ok', 'not ok'});")
    v = m.interp.base.vars
    assert to_python(v["a"]) == "xy" and bool(v["f"])
    assert to_python(v["b"]) == "x0x2Dy"
    assert to_python(v["c"]) == "var_2go"
    assert v["g"].tolist() == [[False, True]]


def test_make_valid_name_errors(m):
    assert m.fails("matlab.lang.makeValidName(5)").identifier == "MATLAB:invalidInput"
    assert m.fails("matlab.lang.makeValidName('a', 'ReplacementStyle', 'x')").identifier == \
        "MATLAB:makeValidName:invalidReplacementStyle"


def test_make_unique_strings(m):
    m.run("U = matlab.lang.makeUniqueStrings({'John' 'Sue' 'Nick' 'John' 'Campion' 'John' 'Jason'}); "
          "V = matlab.lang.makeUniqueStrings('sin', {'sin','cos'}); "
          "[W, f] = matlab.lang.makeUniqueStrings([\"a\" \"a\" \"a\"], [false true false]); "
          "X = matlab.lang.makeUniqueStrings({'abcd','abcd'}, {}, 5);")
    v = m.interp.base.vars
    assert to_python(v["U"]) == ["John", "Sue", "Nick", "John_1", "Campion", "John_2", "Jason"]
    assert to_python(v["V"]) == "sin_1"
    assert v["W"].data.ravel().tolist() == ["a", "a_1", "a"]
    assert v["f"].tolist() == [[False, True, False]]
    assert to_python(v["X"]) == ["abcd", "abc_1"]


def test_make_unique_strings_cannot_fit_the_length(m):
    assert m.fails("matlab.lang.makeUniqueStrings({'ab','ab'}, {}, 1)").identifier == \
        "MATLAB:makeUniqueStrings:cannotMakeUnique"


def test_dotted_function_names_give_several_outputs(m):
    m.run("[a, b] = matlab.lang.makeValidName('1x');")
    assert to_python(m.interp.base.vars["a"]) == "x1x" and bool(m.interp.base.vars["b"])
