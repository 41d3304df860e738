"""The Command Window driven key by key through prompt_toolkit's pipe input."""

from __future__ import annotations

import os
import signal
import threading

from mlang.frontends.repl import history_path
from tests.frontends.conftest import CTRL_C, CTRL_R, ESCAPE_ENTER, PASTE_END, PASTE_START, UP, Console


def test_a_statement_shows_its_value_as_a_script_would(console):
    assert console.session(["x = 1 + 1\r"]) == 0
    assert console.output() == "\nx =\n\n     2\n\n"


def test_a_for_loop_typed_line_by_line_runs_when_its_end_is_typed(console):
    console.session([
        "total = 0;\r",
        "for k = 1:4\r",
        "total = total + k;\r",
        lambda: console.buffer_text() == "for k = 1:4\ntotal = total + k;\n",
        "end\r",
        "total\r",
    ])
    assert console.output() == "\ntotal =\n\n    10\n\n"


def test_an_open_bracket_and_a_continuation_ask_for_more_lines(console):
    console.session(["m = [1 2\r", "3 4]\r", "s = 1 + ...\r", "2\r"])
    assert console.output() == "\nm =\n\n     1     2\n     3     4\n\n\ns =\n\n     3\n\n"


def test_after_an_error_the_workspace_is_intact(console):
    console.session(["a = 5;\r", "b = a + undefinedThing\r", "c = a * 2\r"])
    assert console.output() == ("Unrecognized function or variable 'undefinedThing'.\n"
                                "\nc =\n\n    10\n\n")
    assert set(console.interp.base.vars) == {"a", "c"}


def test_syntax_errors_are_reported_and_the_session_goes_on(console):
    console.session(["x = (1 + 2\r", "x = 3;\r", "fprintf('%d\\n', x)\r"])
    assert console.output() == ("Error: Unbalanced or unexpected parenthesis or bracket.\n"
                                "x = (1 + 2\n    ^\n3\n")


def test_errors_inside_functions_name_the_function_and_line(console, tmp_path):
    (tmp_path / "halves.m").write_text("function y = halves(x)\n  y = x / 2;\n  error('my:id', 'bad %d', y);\nend\n")
    console.interp.path.append(str(tmp_path))
    console.session(["halves(8)\r", "ok = 1;\r"])
    assert console.output() == ("Error using halves\nbad 4\n\nError in halves (line 3)\n"
                                "  error('my:id', 'bad %d', y);\n")
    assert "ok" in console.interp.base.vars


def test_ctrl_c_interrupts_a_running_loop_and_keeps_the_workspace(console):
    main = threading.main_thread().ident
    assert main == threading.get_ident()

    def interrupt() -> bool:
        if console.interp.base.vars.get("k", 0) > 0:  # the loop is running in the main thread
            signal.pthread_kill(main, signal.SIGINT)
            return True
        return False

    console.session([
        "before = 42; k = 0;\r",
        "while true\r",
        "k = k + 1;\r",
        "end\r",
        interrupt,
        "after = before + 1\r",
    ])
    assert console.output() == "Operation terminated by user.\n\nafter =\n\n    43\n\n"
    assert console.interp.base.vars["k"] > 0
    assert console.interp.frames == [console.interp.base]


def test_ctrl_c_at_the_prompt_clears_the_line(console):
    console.session(["x = 1", lambda: console.buffer_text() == "x = 1", CTRL_C, "y = 2\r"])
    assert console.output() == "\ny =\n\n     2\n\n"


def test_exit_and_quit_end_the_session_with_their_status(console):
    assert console.session(["exit(3)\r", "never = 1\r"]) == 3
    assert "never" not in console.interp.base.vars
    assert Console().session(["quit\r"]) == 0


def test_functions_cannot_be_defined_at_the_prompt(console):
    console.session(["function y = twice(x)\r", "z = 1;\r"])
    assert console.output() == (
        "Function definitions are not supported in this context. Functions can only be created "
        "as local or nested functions in code files.\n")
    assert "z" in console.interp.base.vars


def test_output_left_mid_line_is_finished_before_the_next_prompt(console):
    console.session(["fprintf('no newline')\r", "fprintf('%d\\n', 1)\r"])
    assert console.output() == "no newline\n1\n"


def test_tab_completes_a_variable_name(console):
    console.session([
        "learningRate = 0.5;\r",
        "learn",
        "\t",
        lambda: console.buffer_text() == "learningRate",
        "\r",
    ])
    assert console.output() == "\nlearningRate =\n\n    0.5000\n\n"


def test_tab_completes_a_struct_field_after_a_dot(console):
    console.session([
        "opts.maxIterations = 7; opts.tolerance = 1e-6;\r",
        "opts.max",
        "\t",
        lambda: console.buffer_text() == "opts.maxIterations",
        "\r",
    ])
    assert console.output() == "\nans =\n\n     7\n\n"


def test_tab_again_walks_the_choices_and_enter_takes_one(console):
    console.session([
        "s.alpha = 1; s.beta = 2;\r",
        "s.",
        "\t",
        lambda: console.window.session.default_buffer.complete_state is not None,
        "\t",
        lambda: console.buffer_text() == "s.alpha",
        "\r",  # takes the choice; the next Enter runs it
        lambda: console.window.session.default_buffer.complete_state is None,
        "\r",
    ])
    assert console.output() == "\nans =\n\n     1\n\n"


def test_tab_at_the_start_of_a_line_indents(console):
    console.session(["for i = 1:2\r", "\t", "fprintf('%d\\n', i)\r", lambda: console.buffer_text().endswith("    fprintf('%d\\n', i)\n"),
                     "end\r"])
    assert console.output() == "1\n2\n"


def test_a_pasted_block_runs_as_a_whole(console):
    block = "a = 1;\nfor i = 1:3\n  a = a * 2;\nend\nfprintf('%d\\n', a);\n"
    console.session([PASTE_START + block + PASTE_END])
    assert console.output() == "8\n"


def test_alt_enter_adds_a_line_to_complete_code(console):
    console.session(["p = 1;", ESCAPE_ENTER, "q = p + 1\r"])
    assert console.output() == "\nq =\n\n     2\n\n"


def test_history_is_kept_in_the_users_data_folder_across_sessions(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    path = history_path()
    assert path == tmp_path / ".local" / "share" / "mlang" / "history"
    first = Console(history=str(path))
    first.session(["x = 6;\r", "y = x * 7\r"])
    assert path.is_file()
    second = Console(history=str(path))
    second.interp.base.vars["x"] = 10.0
    second.session([second.history_loaded, UP, lambda: second.buffer_text() == "y = x * 7", "\r"])
    assert second.output() == "\ny =\n\n    70\n\n"
    assert second.window.session.history.get_strings()[-3:] == ["x = 6;", "y = x * 7"]


def test_up_after_typing_recalls_the_last_line_starting_with_it(tmp_path):
    path = tmp_path / "history"
    Console(history=str(path)).session(["w = 3;\r", "z = w + 1;\r", "q = 0;\r"])
    again = Console(history=str(path))
    again.session([again.history_loaded, "w", lambda: again.buffer_text() == "w", UP,
                   lambda: again.buffer_text() == "w = 3;", "\r", "z", lambda: again.buffer_text() == "z", UP,
                   lambda: again.buffer_text() == "z = w + 1;", "\r", "z\r"])
    assert again.output() == "\nz =\n\n     4\n\n"


def test_ctrl_r_searches_the_history(tmp_path):
    path = tmp_path / "history"
    Console(history=str(path)).session(["alpha = 1;\r", "beta = 2;\r", "gamma = 3;\r"])
    again = Console(history=str(path))
    again.session([again.history_loaded, CTRL_R, "alp", lambda: again.window.session.search_buffer.text == "alp", "\r",
                   lambda: again.buffer_text() == "alpha = 1;", "\r", "fprintf('%d\\n', alpha)\r"])
    assert again.output() == "1\n"


def test_an_unwritable_history_file_leaves_history_in_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    console = Console(history=str(blocker / "history"))
    console.session(["fprintf('%d\\n', 5)\r"])
    assert console.output() == "5\n"


def test_the_display_follows_format_and_clear_forgets(console):
    console.session(["format long\r", "p = pi\r", "format short\r", "clear p\r", "exist('p')\r"])
    assert console.output() == "\np =\n\n   3.141592653589793\n\n\nans =\n\n     0\n\n"


def test_xdg_data_home_wins_over_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if os.name != "nt":
        assert history_path() == tmp_path / "data" / "mlang" / "history"


def test_a_bug_inside_mlang_is_one_marked_line_and_the_session_goes_on(console, monkeypatch):
    parse = console.interp.parser.parse

    def broken(text, *args, **kwargs):
        if "boom" in text:
            raise IndexError("list index out of range")
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(console.interp.parser, "parse", broken)
    console.session(["x = 2;\r", "boom\r", "y = x + 1\r"])
    assert console.output() == ("mlang internal error (a bug in mlang, not in your code): "
                                "IndexError: list index out of range\n\ny =\n\n     3\n\n")


def test_a_failing_completer_or_lexer_check_does_not_end_the_session(console, monkeypatch):
    import mlang.frontends.repl as repl

    def fail(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(repl, "needs_more_input", fail)
    monkeypatch.setattr(repl.MatlabCompleter, "_names", fail)
    console.session(["val = 4;\r", "va", "\t", "l\r"])
    assert console.output() == "\nval =\n\n     4\n\n"
