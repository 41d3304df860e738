"""help, doc, type and which."""

from __future__ import annotations

import pytest

from mlang.builtins.session.helptext import HELP_USAGE, file_help
from mlang.registry import BUILTINS
from mlang.values.cell import Cell
from mlang.values.core import CHAR, to_str

ADDME = (
    "function c = addme(a, b)\n"
    "% ADDME  Add two values together.\n"
    "%   C = ADDME(A) adds A to itself.\n"
    "%\n"
    "%   See also SUM, PLUS.\n"
    "\n"
    "% not help: after the first block\n"
    "c = a + b;\n"
    "end\n"
)
ADDME_HELP = (
    "  ADDME  Add two values together.\n"
    "    C = ADDME(A) adds A to itself.\n"
    " \n"
    "    See also SUM, PLUS.\n"
    "\n"
)


@pytest.fixture
def folder(m, tmp_path):
    """A folder on the search path (taken off again afterwards)."""
    m.interp.path.insert(0, str(tmp_path))
    m.interp.invalidate()
    yield tmp_path
    m.interp.path.remove(str(tmp_path))
    m.interp.invalidate()


# --------------------------------------------------------------------- help


def test_help_of_a_builtin_is_its_registry_text_indented(m):
    assert m.run("help pwd") == "    currentFolder = pwd  the current folder\n\n"
    expected = "".join(("    " + line).rstrip() + "\n" for line in BUILTINS["addpath"].help.splitlines())
    assert m.run("help addpath") == expected + "\n"
    assert m.run("help('pwd')") == m.run("help pwd")


def test_help_of_a_function_file(m, folder):
    (folder / "addme.m").write_text(ADDME)
    assert m.run("help addme") == ADDME_HELP


def test_help_added_with_addpath(m, tmp_path):
    (tmp_path / "addme.m").write_text(ADDME)
    assert m.run(f"addpath('{tmp_path}'); help addme") == ADDME_HELP
    m.run(f"rmpath('{tmp_path}');")
    assert m.run("help addme") == "addme not found.\n\n"


def test_help_of_a_script_is_its_leading_comments(m, folder):
    (folder / "setup_run.m").write_text("\n%SETUP_RUN prepares a run.\n%  Second line.\nx = 1;\n")
    assert m.run("help setup_run") == " SETUP_RUN prepares a run.\n   Second line.\n\n"


def test_help_before_the_function_line_counts(m, folder):
    (folder / "early.m").write_text("% EARLY  help above the function line\nfunction early()\nend\n")
    assert m.run("help early") == "  EARLY  help above the function line\n\n"


def test_help_after_a_continued_function_line(m, folder):
    (folder / "longsig.m").write_text(
        "function y = longsig(a, ...\n                  b)\n    % LONGSIG  indented help\nend\n")
    assert m.run("help longsig") == "  LONGSIG  indented help\n\n"


def test_help_from_a_block_comment(m, folder):
    (folder / "blocky.m").write_text("function blocky()\n%{\nBLOCKY  inside a block\n  more\n%}\nend\n")
    assert m.run("help blocky") == " BLOCKY  inside a block\n   more\n\n"


def test_help_of_a_function_without_comments(m, folder):
    (folder / "bare.m").write_text("function bare()\nx = 1;\nend\n")
    assert m.run("help bare") == "No help found for bare.\n\n"


def test_file_help_of_an_unreadable_file(tmp_path):
    assert file_help(tmp_path / "absent.m") == []


def test_help_of_a_file_name_with_extension(m, folder):
    (folder / "addme.m").write_text(ADDME)
    assert m.run("help addme.m") == ADDME_HELP


def test_help_of_an_unknown_name(m):
    assert m.run("help no_such_function_here") == "no_such_function_here not found.\n\n"


def test_help_of_a_variable_is_the_help_of_its_class(m):
    expected = "--- help for double ---\n" + m.run("help double")
    assert m.run("x = 3; help x") == expected
    assert m.run("c = {1}; help c").startswith("--- help for cell ---\n    ")


def test_help_alone_explains_itself(m):
    assert m.run("help") == HELP_USAGE
    assert "lookfor" in HELP_USAGE and HELP_USAGE.endswith("\n\n")


def test_help_returns_text_when_asked(m, folder):
    (folder / "addme.m").write_text(ADDME)
    assert to_str(m.value("x = help('addme');")) == ADDME_HELP
    assert to_str(m.value("x = help('pwd');")) == "    currentFolder = pwd  the current folder\n\n"
    missing = m.value("x = help('no_such_function_here');")
    assert missing.shape == (0, 0) and missing.dtype == CHAR
    assert m.run("x = help('pwd');") == ""


def test_doc_shows_the_help_text(m, folder):
    (folder / "addme.m").write_text(ADDME)
    assert m.run("doc addme") == ADDME_HELP
    assert m.run("doc pwd") == m.run("help pwd")
    assert m.run("doc") == HELP_USAGE
    assert m.fails("x = doc('pwd');").identifier == "MATLAB:TooManyOutputs"


def test_help_needs_a_name_as_text(m):
    assert m.fails("help(3)").identifier == "MATLAB:invalidInput"


# --------------------------------------------------------------------- type


def test_type_shows_a_function_file(m, folder):
    (folder / "addme.m").write_text(ADDME)
    assert m.run("type addme") == "\n" + ADDME + "\n"
    assert m.run("type addme.m") == "\n" + ADDME + "\n"


def test_type_shows_a_text_file_in_the_current_folder(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("first\nsecond\n")
    (tmp_path / "raw.txt").write_text("no newline at the end")
    assert m.run("type notes.txt") == "\nfirst\nsecond\n\n"
    assert m.run("type raw.txt") == "\nno newline at the end\n\n"
    assert m.run("type('notes.txt', 'raw.txt')") == \
        "\nfirst\nsecond\n\n" + "\nno newline at the end\n\n"
    assert m.run(f"type {tmp_path / 'notes.txt'}") == "\nfirst\nsecond\n\n"


def test_type_prefers_the_file_named_exactly(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "readme").write_text("plain\n")
    (tmp_path / "readme.m").write_text("% code\n")
    assert m.run("type readme") == "\nplain\n\n"
    (tmp_path / "readme").unlink()
    m.interp.invalidate()
    assert m.run("type readme") == "\n% code\n\n"


def test_type_of_a_builtin(m):
    assert m.run("type sin") == "'sin' is a built-in function.\n"


def test_type_of_a_missing_file_is_an_error(m):
    err = m.fails("type no_such_file_here")
    assert err.identifier == "MATLAB:type:fileNotFound"
    assert err.message == "File 'no_such_file_here' not found."
    assert m.fails("type missing.txt").message == "File 'missing.txt' not found."
    assert m.fails("type").identifier == "MATLAB:minrhs"


# -------------------------------------------------------------------- which


def test_which_variable(m):
    assert m.run("x = 1; which x") == "x is a variable.\n"
    assert to_str(m.value("x = 1; w = which('x');", "w")) == "variable"


def test_which_builtin(m):
    assert m.run("which sin") == "built-in (mlang)\n"
    assert to_str(m.value("x = which('sin');")) == "built-in (mlang)"


def test_which_file(m, folder):
    (folder / "addme.m").write_text(ADDME)
    path = str((folder / "addme.m").absolute())
    assert m.run("which addme") == path + "\n"
    assert to_str(m.value("x = which('addme');")) == path
    (folder / "data.txt").write_text("1 2 3\n")
    assert m.run("which data.txt") == str((folder / "data.txt").absolute()) + "\n"


def test_which_missing(m):
    assert m.run("which no_such_function_here") == "'no_such_function_here' not found.\n"
    missing = m.value("x = which('no_such_function_here');")
    assert missing.shape == (0, 0) and missing.dtype == CHAR


def test_which_all_lists_shadowed_functions(m, folder):
    (folder / "pwd.m").write_text("function p = pwd()\np = 'mine';\nend\n")
    path = str((folder / "pwd.m").absolute())
    assert m.run("which pwd") == path + "\n"
    assert m.run("which pwd -all") == f"{path}\nbuilt-in (mlang)  % Shadowed\n"
    places = m.value("x = which('pwd', '-all');")
    assert type(places) is Cell and places.shape == (2, 1)
    assert [to_str(v) for v in places.values()] == [path, "built-in (mlang)"]
    assert m.run("pwd = 1; which -all pwd") == \
        f"pwd is a variable.\n{path}  % Shadowed\nbuilt-in (mlang)  % Shadowed\n"


def test_which_needs_one_name(m):
    assert m.fails("which").identifier == "MATLAB:minrhs"
    assert m.fails("which a b").identifier == "MATLAB:TooManyInputs"
