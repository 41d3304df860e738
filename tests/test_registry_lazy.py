"""The registry loads a family's module on the first lookup of one of its names, from the
library index; start-up loads none."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from mlang.registry import BUILTINS, Registry, library


def _fresh(code: str) -> str:
    """Run ``code`` in a new Python process (nothing of the library loaded) and return what
    it prints."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_library_index_is_up_to_date():
    done = subprocess.run([sys.executable, "-m", "mlang.builtins", "--check-index"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_start_up_loads_no_family_and_a_call_loads_only_its_module():
    out = _fresh("""
        import sys
        from mlang.evaluation.interpreter import Interpreter
        loaded = lambda: sorted(m for m in sys.modules if m.startswith('mlang.builtins.'))
        interp = Interpreter()
        interp.eval('x = 1 + 2;')
        print(loaded())
        interp.eval('y = zeros(2);')
        print('mlang.builtins.data.construct' in loaded(), any('graphics' in m for m in loaded()),
              any('networks' in m for m in loaded()), 'matplotlib' in sys.modules)
    """).splitlines()
    assert out == ["[]", "True False False False"]


def test_a_family_that_extends_its_own_objects_loads_as_one():
    out = _fresh("""
        import sys
        from mlang.evaluation.interpreter import Interpreter
        interp = Interpreter()
        interp.eval("f = figure('Visible', 'off'); ax = axes(f); v = ax.View;")
        print(all(f'mlang.builtins.graphics.{m}' in sys.modules
                  for m in ('surfaces', 'decorations', 'images_color')))
        print(interp.get('v').tolist())
    """).splitlines()
    assert out == ["True", "[[0.0, 90.0]]"]


def test_a_table_made_by_another_family_answers_its_own_calls(tmp_path):
    # readtable (files) makes the table; sortrows and fieldnames of a table are the table
    # functions' own forms (data.tables), loaded by the first call routed for a table
    (tmp_path / "t.csv").write_text("b,a\n2,x\n1,y\n")
    out = _fresh(f"""
        from mlang.evaluation.interpreter import Interpreter
        interp = Interpreter()
        interp.eval("t = readtable('{tmp_path / 't.csv'}'); s = sortrows(t); "
                    "disp(s.b'); disp(strjoin(fieldnames(t)', ','))")
    """)
    assert out.split() == ["1", "2", "b,a,Properties,Row,Variables"]


def test_names_are_listed_without_loading_and_lookups_load():
    registry = library()
    assert isinstance(registry, Registry) and registry is BUILTINS
    assert {"zeros", "plot", "dlnetwork", "readtable"} <= registry.names()
    assert "zeros" in registry and registry.get("zeros").name == "zeros"
    assert registry["sum"].name == "sum"
    assert "no_such_function_xyz" not in registry
    assert registry.get("no_such_function_xyz") is None
    assert len(registry) == len(registry.names())


def test_the_plain_command_lines_read_as_argparse_reads_them():
    # mlang -e CODE and mlang script.m are read without argparse (a cost at start-up)
    from mlang.frontends.cli import _arguments, _own_options_after_script, _plain_options

    for argv in (["-e", "1;"], ["-e", ""], ["-e", "x = 1; disp(x)"], ["s.m"], [""], ["a b.m"]):
        fast = _plain_options(argv)
        assert fast is not None
        assert vars(fast) == vars(_own_options_after_script(_arguments().parse_args(argv)))
    for argv in ([], ["-e", "-1"], ["-e"], ["s.m", "x"], ["-i", "s.m"], ["--debug", "-e", "1"],
                 ["-e", "1", "-i"], ["-h"], ["-e1"]):
        assert _plain_options(argv) is None


def test_start_up_leaves_argparse_threading_and_pkgutil_unloaded():
    out = _fresh("""
        import sys
        from mlang.frontends.cli import main
        sys.argv = ['mlang', '-e', 'x = 1;']
        status = main()
        print(status, sorted(m for m in ('argparse', 'threading', 'pkgutil', 'traceback')
                             if m in sys.modules))
    """)
    assert out.split("\n")[0] == "0 []"
