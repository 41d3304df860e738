"""The ``mlang`` command line."""

from __future__ import annotations

import argparse
import sys

import mlang
from mlang.errors import MatlabSyntaxError

USAGE = """\
mlang [options] [script.m [args ...]]

Run a MATLAB script with mlang.

  mlang script.m          run a script
  mlang --parse FILE      print the syntax tree of FILE (a debugging aid)
  mlang --version         print the version
"""


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mlang", usage=USAGE, add_help=False)
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("--version", action="store_true")
    p.add_argument("--parse", metavar="FILE")
    p.add_argument("script", nargs="?")
    p.add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    opts = _arguments().parse_args(argv)
    if opts.help:
        print(USAGE, end="")
        return 0
    if opts.version:
        print(f"mlang {mlang.__version__}")
        return 0
    if opts.parse:
        return _print_tree(opts.parse)
    if opts.script:
        print("mlang: running scripts needs the evaluator, which is not built yet; "
              "use 'mlang --parse FILE' to check a file's syntax.", file=sys.stderr)
        return 2
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
