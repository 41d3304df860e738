"""Tab completion in the Command Window (MatlabCompleter) and the quote scanner it uses."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.repl import MatlabCompleter, open_quote


@pytest.fixture
def interp() -> Interpreter:
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    interp.eval("net.layers.weights = 1; net.layers.bias = 2; net.lossName = 'mse'; "
                "netSize = 3; batches = struct('inputs', {1, 2});")
    return interp


def complete(interp: Interpreter, text: str) -> list[tuple[str, int, str]]:
    found = MatlabCompleter(interp).get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [(c.text, c.start_position, c.display_meta_text) for c in found]


def texts(interp: Interpreter, text: str) -> list[str]:
    return [t for t, _, _ in complete(interp, text)]


def test_variables_come_first_then_functions(interp):
    assert complete(interp, "y = net")[:2] == [("net", -3, "variable"), ("netSize", -3, "variable")]
    assert texts(interp, "x = sq") == ["sqrt", "sqrtm", "squeeze"]


def test_functions_include_builtins_stdlib_and_files_on_the_path(interp, tmp_path):
    (tmp_path / "lossSurface.m").write_text("function z = lossSurface(x)\nz = x;\nend\n")
    (tmp_path / "not-a-name.m").write_text("")
    interp.path.append(str(tmp_path))
    assert texts(interp, "lossS") == ["lossSurface"]
    assert texts(interp, "dlgrad") == ["dlgradient"]


def test_keywords_complete_too(interp):
    assert ("otherwise", -4, "keyword") in complete(interp, "othe")


def test_struct_fields_after_a_dot(interp):
    assert complete(interp, "net.") == [("layers", 0, "field"), ("lossName", 0, "field")]
    assert complete(interp, "y = net.lo") == [("lossName", -2, "field")]
    assert texts(interp, "net.layers.b") == ["bias"]
    assert texts(interp, "batches.in") == ["inputs"]  # a struct array: its fields


def test_no_fields_for_what_is_not_a_struct(interp):
    assert texts(interp, "netSize.") == []
    assert texts(interp, "nothing.") == []
    assert texts(interp, "net.lossName.") == []


def test_file_names_inside_quotes(interp, tmp_path, monkeypatch):
    (tmp_path / "weights.mat").write_text("")
    (tmp_path / "wavelet.m").write_text("")
    monkeypatch.chdir(tmp_path)
    assert sorted(texts(interp, "load('we")) == ["ights.mat"]
    assert sorted(texts(interp, 'type("wa')) == ["velet.m"]
    assert sorted(texts(interp, "x = 'w")) == ["avelet.m", "eights.mat"]


def test_file_names_after_file_commands(interp, tmp_path, monkeypatch):
    (tmp_path / "results").mkdir()
    (tmp_path / "readme.txt").write_text("")
    monkeypatch.chdir(tmp_path)
    assert texts(interp, "cd re") == ["sults"]  # cd: folders only
    assert sorted(texts(interp, "type re")) == ["adme.txt", "sults"]


def test_a_transpose_is_not_a_quote(interp):
    assert texts(interp, "y = netSize' + net") == ["net", "netSize"]


def test_nothing_to_complete_after_an_operator(interp):
    assert texts(interp, "x = 1 + ") == []


@pytest.mark.parametrize("line, start", [
    ("x = 'ab", 4),
    ("x = a'", None),
    ("x = a' + 'c", 9),
    ('load("da', 5),
    ("x = 'it''s", 4),
    ("y = [1 2]'", None),
    ("x = 'abc' ", None),
    ("% 'abc", None),
    ("s.a'", None),
    ("z = x.' + 'q", 10),
    ('s = "say ""hi', 4),
])
def test_open_quote(line, start):
    assert open_quote(line) == start
