"""``python -m mlang.kernel install [--user | --sys-prefix | --prefix DIR]`` installs the
kernel spec; ``python -m mlang.kernel -f CONNECTION_FILE`` (what Jupyter runs) starts the
kernel."""

from __future__ import annotations

import argparse
import sys

from mlang.kernel import install


def install_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m mlang.kernel install",
                                     description="Install mlang's Jupyter kernel spec.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for the current user only")
    where.add_argument("--sys-prefix", action="store_true",
                       help="into this Python's prefix (a virtual environment)")
    where.add_argument("--prefix", metavar="DIR", help="into DIR/share/jupyter/kernels")
    opts = parser.parse_args(argv)
    try:
        folder = install(user=opts.user, prefix=opts.prefix, sys_prefix=opts.sys_prefix)
    except ImportError:
        print("mlang: the Jupyter kernel needs ipykernel and jupyter_client: "
              "pip install 'mlang[jupyter]'", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"mlang: cannot install the kernel spec: {exc}", file=sys.stderr)
        return 1
    print(f"Installed the mlang kernel spec in {folder}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["install"]:
        return install_command(argv[1:])
    # the kernel itself (ipykernel) loads only when Jupyter starts one
    from mlang.kernel.kernel import launch

    launch(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
