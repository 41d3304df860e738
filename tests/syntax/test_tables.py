"""The parse tables shipped in lalr_tables.py are those of matlab.lark as it is now
(``python -m mlang.syntax.make_tables`` writes them), and parsing loads no Lark."""

from __future__ import annotations

import subprocess
import sys

from mlang.syntax.make_tables import TABLES, tables_source


def test_tables_are_up_to_date_with_the_grammar() -> None:
    assert TABLES.read_text() == tables_source(), \
        "matlab.lark changed: run python -m mlang.syntax.make_tables"


def test_parsing_needs_no_lark() -> None:
    code = ("import sys; from mlang.syntax import parse; parse('x = [1 2]; if x, y = x'' * 2; end');"
            "print('lark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
