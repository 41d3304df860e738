"""The ``mlang`` command line."""

from __future__ import annotations

import argparse
import sys

import mlang
from mlang.errors import MatlabSyntaxError

USAGE = """\
mlang [options] [script.m [args ...]]

Run MATLAB code with mlang.

  mlang script.m          run a script (its folder is on the path)
  mlang -e "code"         run MATLAB statements
  mlang --parse FILE      print the syntax tree of FILE (a debugging aid)
  mlang --debug ...       show Python tracebacks of internal errors
  mlang --version         print the version
"""


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mlang", usage=USAGE, add_help=False)
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("--version", action="store_true")
    p.add_argument("--parse", metavar="FILE")
    p.add_argument("-e", dest="code", metavar="CODE")
    p.add_argument("--debug", action="store_true")
    p.add_argument("script", nargs="?")
    p.add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if (getattr(stream, "encoding", "utf-8") or "").lower().replace("-", "") != "utf8":
            try:
                stream.reconfigure(errors="replace")  # type: ignore[attr-defined]
            except (AttributeError, ValueError):
                pass
    opts = _arguments().parse_args(argv)
    if opts.help:
        print(USAGE, end="")
        return 0
    if opts.version:
        print(f"mlang {mlang.__version__}")
        return 0
    if opts.parse:
        return _print_tree(opts.parse)
    if opts.code is not None or opts.script:
        return _run(opts)
    print("mlang: the interactive Command Window is not built yet; run 'mlang -h' for usage.",
          file=sys.stderr)
    return 2


def _print_tree(path: str) -> int:
    from mlang.syntax import parse_file
    from mlang.syntax.ast import pretty

    try:
        program = parse_file(path)
    except OSError as exc:
        print(f"mlang: cannot read '{path}': {exc.strerror}", file=sys.stderr)
        return 1
    except MatlabSyntaxError as exc:
        print(exc, file=sys.stderr)
        return 1
    print("script" if program.is_script else "function file")
    for node in [*program.body, *program.functions]:
        print(pretty(node))
    return 0


def _read_line(file: str, line: int) -> str:
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    return text.rstrip("\n")
    except OSError:
        pass
    return ""


def _run(opts: argparse.Namespace) -> int:
    """Run a script or -e code; report an uncaught error as MATLAB does; exit 1 on error."""
    import os

    from mlang.errors import InternalError, MatlabError, report
    from mlang.evaluation.interpreter import Interpreter
    from mlang.frontends.allocator import tune_allocator

    tune_allocator()
    if not opts.debug:
        import warnings

        warnings.simplefilter("ignore")  # NumPy's floating-point warnings are not MATLAB output
    interp = Interpreter()
    try:
        if opts.code is not None:
            interp.eval(opts.code)
        else:
            if not os.path.isfile(opts.script):
                print(f"mlang: cannot find script '{opts.script}'", file=sys.stderr)
                return 1
            interp.run_file(opts.script)
    except MatlabSyntaxError as exc:
        sys.stdout.flush()
        print(exc, file=sys.stderr)
        return 1
    except MatlabError as exc:
        sys.stdout.flush()
        if not interp.at_line_start:
            sys.stdout.write("\n")
            sys.stdout.flush()
        sys.stderr.write(report(exc.exc, _read_line))
        return 1
    except InternalError as exc:
        sys.stdout.flush()
        print(f"mlang internal error (a bug in mlang, not in your code): {exc}", file=sys.stderr)
        if opts.debug:
            import traceback

            traceback.print_exception(exc.__cause__ or exc)
        return 1
    except KeyboardInterrupt:
        sys.stdout.flush()
        print("Operation terminated by user.", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # the reader went away (mlang script.m | head): stop quietly, like other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
