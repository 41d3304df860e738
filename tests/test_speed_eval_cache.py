"""Texts given to eval, evalin, str2num and str2func are parsed once (``Interpreter.parsed``).

An interpreter keeps the tree of each short text it parsed, by the variables among the
names in the text (they decide command syntax), and what eval, eval with outputs and
str2func compile from that tree, by the calling file and the declared global and
persistent names.  Running code with the cache must give what running it without gives:
the same output, values and errors, each error raised again on every call.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mlang.errors import MatlabError, MatlabSyntaxError
from mlang.evaluation import interpreter as interpreter_module
from mlang.evaluation.interpreter import TEXT_CACHE_FORMS, TEXT_CACHE_TEXTS, Interpreter


def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text counts as long: none is kept, each is parsed and compiled afresh."""
    monkeypatch.setattr(interpreter_module, "TEXT_CACHE_LONGEST", -1)


def _outcome(code: str, tmp_path: Path | None = None) -> tuple[str, str]:
    """What running ``code`` prints, and the error that ends it ('' if none)."""
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    try:
        if tmp_path is None:
            interp.eval(code)
        else:
            script = tmp_path / "main_script.m"
            script.write_text(code)
            interp.run_file(script)
    except MatlabError as exc:
        return out.getvalue(), f"{exc.identifier}: {exc.message}"
    except MatlabSyntaxError as exc:
        return out.getvalue(), f"syntax: {exc.message}"
    return out.getvalue(), ""


# Each is run in a loop of three rounds, so that the second and third rounds find the text kept.
SNIPPETS = [
    "eval('y = 3;'); disp(y)",
    "eval('y = 3')",
    "eval('z = 1;'); q = eval('z + 1'); disp(q)",
    "[a, b] = eval('size(ones(2, 3))'); disp([a b])",
    "eval('[1 2 3]')",
    "x = eval('1:4'); disp(x)",
    "evalin('base', 'w = 7;'); disp(w)",
    "v = evalin('base', 'pi'); disp(v)",
    "disp(str2num('3')); disp(str2num('[1 2 3]')); disp(class(str2num('true')))",
    "disp(str2num('1+2i')); disp(size(str2num('')))",
    "[v, ok] = str2num('1 +'); disp(ok); disp(size(v))",
    "[v, ok] = str2num('exp(1)', Evaluation='restricted'); disp(v); disp(ok)",
    "disp(str2num('int8(200)')); disp(class(str2num('single(1.5)')))",
    "f = str2func('@(x) x + 1'); disp(f(2)); disp(func2str(f))",
    "f = str2func('@(x, y) x .* y'); disp(f([1 2], 3))",
    "f = str2func('@sin'); disp(f(0)); disp(func2str(f))",
    "f = str2func('sin'); disp(f(0))",
    "try, eval('y = ;'); catch e, disp(e.identifier); disp(e.message); end",
    "try, eval('y = (1'); catch e, disp(e.identifier); disp(e.message); end",
    "try, q = eval('y = 1'); catch e, disp(e.identifier); end",
    "try, eval('undefined_name_xyz + 1'); catch e, disp(e.identifier); disp(e.message); end",
    "try, eval('function f, end'); catch e, disp(e.identifier); end",
    "try, eval('break'); catch e, disp(e.identifier); end",
    "try, str2func('@(x'); catch e, disp(e.identifier); end",
    "try, str2func('@(x) x; 2'); catch e, disp(e.identifier); end",
    "try, evalin('nowhere', '1'); catch e, disp(e.identifier); end",
    "eval('error(''my:id'', ''boom'')', 'disp(''caught'')')",
    "eval('s.a = 1; s.b = ''t'';'); disp(s)",
    "eval('c = {1, ''two''};'); disp(c)",
    "eval('m = int16([1 -2; 3 4]) * 2;'); disp(m)",
    "eval('n = NaN; i0 = Inf; z = -0;'); disp([n i0 1/z])",
    "eval('format long'); eval('pi'); eval('format short'); eval('pi')",
    "eval('for k = 1:3, fprintf(''%d'', k); end'); fprintf('\\n')",
    "eval('disp -5')",
    "eval('if true, disp(1), else, disp(2), end')",
    "g = eval('@(t) t * 2'); disp(g(4))",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_eval_gives_the_same_with_and_without_the_cache(snippet, monkeypatch):
    code = f"for round = 1:3\n{snippet}\nend"
    kept = _outcome(code)
    _no_cache(monkeypatch)
    assert kept == _outcome(code)


def test_a_syntax_error_is_raised_on_every_call():
    interp = Interpreter(stdout=io.StringIO())
    for _ in range(3):
        with pytest.raises(MatlabSyntaxError) as caught:
            interp.eval("y = (1")
        assert caught.value.line == 1
    for _ in range(3):
        with pytest.raises(MatlabError) as raised:
            interp.eval("function f, end")
        assert raised.value.identifier == "MATLAB:evalFunctionDefinition"


def test_a_new_variable_changes_how_the_same_text_parses():
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.eval("eval('disp -5')")  # disp called with the text '-5'
    assert out.getvalue().strip() == "-5"
    interp.eval("disp = 10;")
    out.truncate(0)
    out.seek(0)
    interp.eval("eval('disp -5')")  # now 10 - 5
    assert "ans =" in out.getvalue() and "5" in out.getvalue()
    interp.eval("clear disp")
    out.truncate(0)
    out.seek(0)
    interp.eval("eval('disp -5')")
    assert out.getvalue().strip() == "-5"


def test_every_name_the_lexer_can_read_is_among_a_texts_names():
    # a name is a letter then letters, digits and underscores, wherever it starts: each end
    # of a word that starts with a letter ('3abc' is read as 3 then abc)
    names = interpreter_module.ParsedText("a1b_c x2 3abc 'in text' % note").names
    assert set(names) == {"a1b_c", "b_c", "c", "x2", "abc", "bc", "in", "n", "text", "ext", "xt", "t",
                          "note", "ote", "te", "e"}


def test_two_interpreters_do_not_share_what_they_parsed():
    first_out, second_out = io.StringIO(), io.StringIO()
    first, second = Interpreter(stdout=first_out), Interpreter(stdout=second_out)
    first.eval("disp = 10;")
    first.eval("eval('disp -5')")
    second.eval("eval('disp -5')")
    assert "ans" in first_out.getvalue()
    assert second_out.getvalue().strip() == "-5"
    assert first._texts is not second._texts
    assert "disp -5" in first._texts and "disp -5" in second._texts
    assert first._texts["disp -5"] is not second._texts["disp -5"]


def test_a_text_seen_before_is_not_parsed_again(monkeypatch):
    interp = Interpreter(stdout=io.StringIO())
    calls = []
    parse = interp.parser.parse

    def counting(*args, **kwargs):
        calls.append(args[0])
        return parse(*args, **kwargs)

    monkeypatch.setattr(interp.parser, "parse", counting)
    for _ in range(5):
        interp.eval("y = 3;")
        interp.eval("v = str2num('1 2');")
    # parsed twice: before y (and v) were variables, and after
    assert calls.count("y = 3;") == 2 and calls.count("v = str2num('1 2');") == 2
    assert calls.count("str2num_value__ = [1 2\n];") == 1  # (in a workspace of its own)


def test_the_cache_stays_bounded():
    interp = Interpreter(stdout=io.StringIO())
    for k in range(TEXT_CACHE_TEXTS + 50):
        interp.eval(f"y = {k};")
    assert len(interp._texts) <= TEXT_CACHE_TEXTS
    assert interp.get("y") == TEXT_CACHE_TEXTS + 49
    # the most recent texts are the ones kept
    assert f"y = {TEXT_CACHE_TEXTS + 49};" in interp._texts and "y = 0;" not in interp._texts
    # one text under many sets of variables: a bounded number of trees
    names = [f"v{k}" for k in range(3 * TEXT_CACHE_FORMS)]
    text = " ".join(["y = 1;", *(f"{n} = 1;" for n in names)])
    for n in names:
        interp.eval(f"{n} = 0;")
        interp.eval(text)
    assert len(interp._texts[text].trees) <= TEXT_CACHE_FORMS
    for trees in interp._texts.values():
        for _, forms in trees.trees.values():
            assert len(forms) <= TEXT_CACHE_FORMS


def test_a_long_text_is_not_kept():
    interp = Interpreter(stdout=io.StringIO())
    text = "y = [" + " ".join(["1"] * 2000) + "];"
    interp.eval(text)
    assert text not in interp._texts
    assert interp.get("y").shape == (1, 2000)


def _write(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.m").write_text(text)


def test_the_calling_files_local_functions_are_the_ones_eval_sees(tmp_path):
    # the same text compiled in two files: each eval calls its own file's local function
    _write(tmp_path, "first_file", "function r = first_file()\nr = eval('helper()');\n"
           "eval('h = helper();'); g = str2func('@() helper()'); r = [r h g()];\nend\n"
           "function v = helper()\nv = 1;\nend\n")
    _write(tmp_path, "second_file", "function r = second_file()\nr = eval('helper()');\n"
           "eval('h = helper();'); g = str2func('@() helper()'); r = [r h g()];\nend\n"
           "function v = helper()\nv = 2;\nend\n")
    code = "for k = 1:2, disp(first_file()); disp(second_file()); end"
    out, problem = _outcome(code, tmp_path)
    assert problem == ""
    assert out.split() == ["1", "1", "1", "2", "2", "2"] * 2


def test_declared_globals_and_persistents_are_seen(tmp_path, monkeypatch):
    # the same texts compiled where G is global and where it is not: each run must see its own
    code = ("global G; G = 3; for k = 1:2, eval('G = G + 1;'); eval('r = G;'); clear global G\n"
            "eval('G = 1;'); eval('r2 = G;'); fprintf('%g %g\\n', r, r2); clear G; global G; G = 3; end")
    kept = _outcome(code)
    assert kept == ("4 1\n4 1\n", "")
    _write(tmp_path, "uses_global", "function r = uses_global()\nglobal G\neval('G = 5;');\n"
           "r = eval('G');\nend\n")
    _write(tmp_path, "uses_persistent", "function r = uses_persistent()\npersistent P\n"
           "if isempty(P), P = 0; end\neval('P = P + 1;'); r = eval('P');\nend\n")
    in_files = ("for k = 1:2, eval('G = 1;'); r = eval('G'); g = uses_global(); r2 = eval('G');\n"
                "fprintf('%g %g %g\\n', r, g, r2); end")
    kept_in_files = _outcome(in_files, tmp_path)
    # (whatever a function's persistent names give in eval, the same with and without)
    persistent = "for k = 1:3, disp(uses_persistent()); end\nP = 9; eval('P = P + 1;'); disp(P)"
    kept_persistent = _outcome(persistent, tmp_path)
    _no_cache(monkeypatch)
    assert _outcome(code) == kept
    assert _outcome(in_files, tmp_path) == kept_in_files
    assert _outcome(persistent, tmp_path) == kept_persistent


def test_code_too_deep_to_compile_is_a_matlab_error_inside_running_code_too():
    # eval called by running code skips ``running`` (its settings hold already) but still turns
    # Python's recursion error into MATLAB's, which try/catch and eval's catch text see
    deep = "x = 1:" + ":".join(["1"] * 30000) + ";"
    interp = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabError) as outside:
        interp.eval(deep)
    interp.set("deep", deep)
    interp.eval("try, eval(deep); catch e, caught = e.identifier; end\n"
                "eval(deep, 'second = 1;')")
    assert outside.value.identifier == "MATLAB:recursionLimit"
    assert interp.get("caught") == "MATLAB:recursionLimit"
    assert interp.get("second") == 1.0
    interp.eval("y = 2;")  # and the interpreter runs on
    assert interp.get("y") == 2.0 and interp.in_stack_room is False


def test_running_code_that_calls_eval_keeps_the_run_settings():
    import sys

    from mlang.errors import RUNNING
    interp = Interpreter(stdout=io.StringIO())
    limit = sys.getrecursionlimit()
    interp.eval("for k = 1:3, eval('z = 1/0; w = int8(200);'); end")
    assert interp.get("z") == float("inf") and interp.get("w") == 127
    assert RUNNING.get() is None and sys.getrecursionlimit() == limit


def _text_cases() -> list:
    import numpy as np

    from mlang.values.core import char_row
    from mlang.values.string import StringArray
    row = char_row("y = 3;")
    wide = char_row("héllo 😀")
    matrix = np.concatenate([char_row("ab"), char_row("cd")], axis=0)
    return [row, wide, np.asfortranarray(row), row[:, ::2], char_row(""), row[:0, :0], row[:, :0],
            matrix, matrix[:, :1], row.reshape(1, 6, 1), row[None], StringArray.scalar("y = 3;"),
            StringArray(np.array([["a", "b"]], dtype=object)), 3.0, True, np.zeros((1, 3)), None]


@pytest.mark.parametrize("value", _text_cases())
def test_code_text_is_what_text_scalar_gives(value):
    from mlang.builtins.coerce import text_scalar
    from mlang.builtins.language.evaluation import _text

    def outcome(fn):
        try:
            return fn(value, "Expression")
        except MatlabError as exc:
            return (exc.identifier, exc.message)

    assert outcome(_text) == outcome(text_scalar)


def test_one_text_run_with_and_without_a_global_declared():
    # each line a Command Window input of its own; eval('r = G;') runs with G global and not
    lines = ["G = 1;", "eval('r = G;'); disp(r)", "clear G", "global G", "G = 5;",
             "eval('r = G;'); disp(r)", "eval('G = G + 1;'); disp(G)", "clear global G"] * 2
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    for line in lines:
        interp.eval(line)
    assert out.getvalue().split() == ["1", "5", "6"] * 2
    # the same variables (none) but G global the second time: not the first run's code
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    for line in ["try, eval('r = G;'); catch e, disp(e.identifier); end", "global G", "G = 5;",
                 "try, eval('r = G;'); catch e, disp(e.identifier); end", "disp(r)"]:
        interp.eval(line)
    assert out.getvalue().split() == ["MATLAB:UndefinedFunction", "5"]


STR2NUM_INPUTS = ["'3'", "'[1 2 3]'", "''", "'1+2i'", "'-0'", "'Inf NaN'", "'1 +'", "'int8(200)'",
                  "'true'", "['1 2'; '3 4']", "\"5\"", "3", "{'1'}", "'a b c'", "'[1; 2]'", "'x = 3'"]


@pytest.mark.parametrize("text", STR2NUM_INPUTS)
def test_str2num_without_options_is_str2num_with_the_default_method(text):
    def outcome(call: str) -> tuple[str, str]:
        return _outcome(f"[v, ok] = {call}; disp(class(v)); disp(size(v)); disp(v); disp(ok);"
                        "if ~isempty(v), disp(1 ./ v); end")

    assert outcome(f"str2num({text})") == outcome(f"str2num({text}, 'Evaluation', 'all')")
