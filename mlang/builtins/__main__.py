"""``python -m mlang.builtins --write-index``: write the library index, the module that
registers each builtin (``function_index.py``), after adding, renaming or moving builtins.
``python -m mlang.builtins --check-index`` exits 1 when the index is out of date."""

from __future__ import annotations

import sys
from pathlib import Path

INDEX = Path(__file__).with_name("function_index.py")

HEADER = '''"""Which module of the library registers each builtin: the registry imports a module the
first time one of its names is looked up.  Written by ``python -m mlang.builtins
--write-index``; a test checks it is up to date."""

MODULES = {
'''


def index_text() -> str:
    # The registry is read only here: the library is scanned in this fresh process.
    from mlang.registry import scan_library

    rows = "".join(f"    {name!r}: {module!r},\n" for name, module in scan_library().items())
    return HEADER + rows + "}\n"


def main(argv: list[str]) -> int:
    if argv == ["--write-index"]:
        INDEX.write_text(index_text(), encoding="utf-8")
        print(f"wrote {INDEX}")
        return 0
    if argv == ["--check-index"]:
        current = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
        if current != index_text():
            print(f"{INDEX} is out of date: run python -m mlang.builtins --write-index",
                  file=sys.stderr)
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
