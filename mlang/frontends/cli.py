"""The ``mlang`` command line."""

from __future__ import annotations

import gc
import os
import sys
import warnings
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import mlang
from mlang.errors import ExitRequest, MatlabSyntaxError

if TYPE_CHECKING:
    import argparse

USAGE = """\
mlang [options] [script.m [args ...]]

Run MATLAB code with mlang.

  mlang                   the interactive Command Window (statements from
                          standard input when it is not a terminal)
  mlang script.m          run a script (its folder is on the path)
  mlang -e "code"         run MATLAB statements
  mlang -i script.m       run a script, then stay in the Command Window
  mlang --parse FILE      print the syntax tree of FILE (a debugging aid)
  mlang --list-functions  list every function, by family (Markdown)
  mlang --figures DIR ... write figures as DIR/figure1.png... (the default,
                          into ./figures, when there is no display)
  mlang --no-wait ...     do not wait at the end for figure windows to close
  mlang --debug ...       show Python tracebacks of internal errors
  mlang --version         print the version and the optional parts present
  mlang --install-kernel  install the Jupyter kernel for this user (needs the
                          jupyter extra: pip install 'mlang[jupyter]')
"""


def _arguments() -> argparse.ArgumentParser:
    # argparse (with gettext and locale) loads only for command lines other than the two
    # plain forms read by _plain_options: a cost at start-up
    import argparse
    import functools

    # -h prints USAGE, so the help formatter's width is never used: given, it spares the
    # formatter asking the terminal for it (which imports shutil, a cost at start-up)
    formatter = functools.partial(argparse.HelpFormatter, width=80)
    p = argparse.ArgumentParser(prog="mlang", usage=USAGE, add_help=False, formatter_class=formatter)
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("--version", action="store_true")
    p.add_argument("--install-kernel", dest="install_kernel", action="store_true")
    p.add_argument("--parse", metavar="FILE")
    p.add_argument("--list-functions", action="store_true")
    p.add_argument("-e", dest="code", metavar="CODE")
    p.add_argument("-i", dest="interactive", action="store_true")
    p.add_argument("--debug", action="store_true")
    p.add_argument("--figures", metavar="DIR")
    p.add_argument("--no-wait", dest="no_wait", action="store_true")
    p.add_argument("script", nargs="?")
    p.add_argument("args", nargs=argparse.REMAINDER)
    return p


_DEFAULTS = {"help": False, "version": False, "install_kernel": False, "parse": None,
             "list_functions": False, "code": None, "interactive": False, "debug": False,
             "figures": None, "no_wait": False, "script": None, "args": []}


def _plain_options(argv: list[str]) -> SimpleNamespace | None:
    """The options of ``mlang -e CODE`` and ``mlang script.m`` (no word starting with ``-``
    but the ``-e``), as argparse reads them; None for any other command line."""
    if len(argv) == 2 and argv[0] == "-e" and not argv[1].startswith("-"):
        return SimpleNamespace(**{**_DEFAULTS, "code": argv[1], "args": []})
    if len(argv) == 1 and not argv[0].startswith("-"):
        return SimpleNamespace(**{**_DEFAULTS, "script": argv[0], "args": []})
    return None


def _own_options_after_script(opts: argparse.Namespace) -> argparse.Namespace:
    """``mlang script.m --figures DIR``: the figure options are mlang's wherever they stand;
    the script's arguments are the rest."""
    rest: list[str] = []
    words = iter(opts.args)
    for word in words:
        if word == "--no-wait":
            opts.no_wait = True
        elif word == "--figures":
            opts.figures = next(words, opts.figures)
        elif word.startswith("--figures="):
            opts.figures = word.split("=", 1)[1]
        else:
            rest.append(word)
    opts.args = rest
    return opts


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if (getattr(stream, "encoding", "utf-8") or "").lower().replace("-", "") != "utf8":
            try:
                stream.reconfigure(errors="replace")  # type: ignore[attr-defined]
            except (AttributeError, ValueError):
                pass
    words = sys.argv[1:] if argv is None else list(argv)
    opts = _plain_options(words) or _own_options_after_script(_arguments().parse_args(words))
    if opts.help:
        print(USAGE, end="")
        return 0
    if opts.version:
        print(version_text())
        return 0
    if opts.install_kernel:
        # the kernel package (and jupyter_client) load only for this option
        from mlang.kernel.__main__ import install_command

        return install_command(["--user"])
    if opts.parse:
        return _print_tree(opts.parse)
    if opts.list_functions:
        # Loaded here: the library loads only when asked for (start-up of other options).
        from mlang.builtins.session.function_list import function_table, markdown
        from mlang.evaluation.interpreter import STDLIB

        print(markdown(function_table(STDLIB)), end="")
        return 0
    try:
        return _session(opts)
    except KeyboardInterrupt:  # Ctrl-C outside running code: while starting, reading a pipe
        print("Operation terminated by user.", file=sys.stderr)
        return 1


# The libraries --version names, as (distribution, module to look for): those mlang always
# uses (dependencies), then the optional extras.
REQUIRED_PARTS = (("numpy", "numpy"), ("scipy", "scipy"), ("matplotlib", "matplotlib"))
OPTIONAL_PARTS = (("h5py", "h5py"), ("openpyxl", "openpyxl"), ("pandas", "pandas"),
                  ("ipykernel", "ipykernel"))


def version_text() -> str:
    """``mlang 0.1.0 (numpy 2.1.0, ...; optional: h5py -, ...)``: the version of each library
    used, or ``-`` when it is not installed; found from the installed metadata, never imported."""
    from importlib.util import find_spec  # (only for --version)

    def listed(parts: tuple) -> str:
        named = []
        for distribution, module in parts:
            spec = find_spec(module)
            named.append(f"{distribution} {'-' if spec is None else _installed_version(distribution, spec)}")
        return ", ".join(named)

    return f"mlang {mlang.__version__} ({listed(REQUIRED_PARTS)}; optional: {listed(OPTIONAL_PARTS)})"


def _installed_version(distribution: str, spec: Any) -> str:
    """The version of ``distribution``, whose module ``spec`` found: from the name of its
    ``NAME-VERSION.dist-info`` folder beside the module (importlib.metadata, which costs more
    to load than the rest of --version, only when there is none)."""
    if spec.origin:
        folder = os.path.dirname(os.path.dirname(spec.origin)) if spec.submodule_search_locations \
            else os.path.dirname(spec.origin)
        prefix = distribution.lower().replace("-", "_") + "-"
        try:
            for entry in os.listdir(folder):
                if entry.lower().startswith(prefix) and entry.endswith(".dist-info"):
                    return entry[len(prefix):-len(".dist-info")]
        except OSError:
            pass
    from importlib.metadata import PackageNotFoundError, version  # (as above)

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"  # importable, but installed without metadata


def _print_tree(path: str) -> int:
    # Imported here, as in _session: --version and --help answer without loading them.
    from mlang.syntax import parse_file
    from mlang.syntax.ast import pretty
    from mlang.syntax.cache import FileReadError

    try:
        program = parse_file(path)
    except FileReadError as exc:
        print(f"mlang: cannot read '{path}': {exc.reason}", file=sys.stderr)
        return 1
    except MatlabSyntaxError as exc:
        print(exc, file=sys.stderr)
        return 1
    print("script" if program.is_script else "function file")
    for node in [*program.body, *program.functions]:
        print(pretty(node))
    return 0


def _configure_figures(interp: Any, opts: argparse.Namespace) -> None:
    """Figures go to files (--figures DIR, or ./figures without a display) or windows; the
    graphics read this when a program first draws (they are not loaded before)."""
    interactive = opts.code is None and not opts.script or opts.interactive
    interp.options["figures"] = {"figures_dir": opts.figures, "wait": not opts.no_wait,
                                 "windows": None if opts.figures is None else False,
                                 "interactive": bool(interactive)}


def _session(opts: argparse.Namespace) -> int:
    """Run a script, -e code or the Command Window; the exit status: 1 after an error."""
    # The objects made while NumPy and mlang load all live for the whole run: the cyclic
    # collector, which would walk them several times over, pauses until the interpreter is
    # built (a tenth of start-up).
    collecting = gc.isenabled()
    gc.disable()
    try:
        # The interpreter and its library load only when code runs (start-up of --version, -h).
        from mlang.evaluation.interpreter import Interpreter
        from mlang.frontends.allocator import tune_allocator
        from mlang.frontends.reporting import run_reported

        if opts.script and not os.path.isfile(opts.script):
            print(f"mlang: cannot find script '{opts.script}'", file=sys.stderr)
            return 1
        tune_allocator()
        if not opts.debug:
            warnings.simplefilter("ignore")  # NumPy's floating-point warnings are not MATLAB output
        interp = Interpreter()
        _configure_figures(interp, opts)
    except Exception as exc:  # the library itself failed to load: a bug in mlang
        print(f"mlang internal error (a bug in mlang, not in your code): {type(exc).__name__}: {exc}",
              file=sys.stderr)
        if opts.debug:
            raise
        return 1
    finally:
        if collecting:
            gc.enable()
    try:
        status = 0
        if opts.code is not None or opts.script:
            stopped = run_reported(interp, lambda: interp.eval(opts.code) if opts.code is not None
                                   else interp.run_file(opts.script), opts.debug)
            status = 0 if stopped is None else 1
            if not opts.interactive:
                return status
        if sys.stdin.isatty():
            # prompt_toolkit and Pygments load only for a Command Window.
            from mlang.frontends.repl import CommandWindow, history_path

            print(f"mlang {mlang.__version__}: MATLAB-compatible. "
                  "Type 'help NAME' for help on a function, 'exit' to leave.\n")
            screen = None  # the prompt goes to the terminal, even when results go to a file
            if not sys.stdout.isatty() and sys.stderr.isatty():
                from prompt_toolkit.output import create_output  # (as above)

                screen = create_output(stdout=sys.stderr)
            return CommandWindow(interp, history=history_path(), output=screen, debug=opts.debug).run()
        from mlang.frontends.repl import run_stream  # (as above)

        return max(status, run_stream(interp, sys.stdin, opts.debug))
    except ExitRequest as exc:
        return exc.status
    except BrokenPipeError:
        # the reader went away (mlang script.m | head): stop quietly, like other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        run_reported(interp, interp.finish, opts.debug)
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
