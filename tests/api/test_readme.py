"""The README's "From Python" example runs as written and gives the values its comments say."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"


def _first_python_block(section: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"### {section}\n")
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


def test_the_from_python_example(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "analysis.m").write_text("total = sum(B(:));\n")
    (tmp_path / "sumdiff.m").write_text("function [s, d] = sumdiff(a, b)\n  s = a + b;\n  d = a - b;\nend\n")
    (tmp_path / "lib").mkdir()
    names: dict = {}
    exec(_first_python_block("From Python"), names)
    m = names["m"]
    np.testing.assert_array_equal(m["B"], [[2.0, 6.0], [4.0, 8.0]])
    assert (names["mx"], names["where"]) == (9.0, 2.0)
    assert names["text"] == "    3.1416\n\n"
    assert m["total"] == 20.0 and (names["s"], names["d"]) == (8.0, 2.0)
    assert m.path == [str(tmp_path / "lib")]
    assert names["f"](3.0) == 9.0
