"""The on-disk AST cache: a second load of an unchanged file does not parse it again."""

from __future__ import annotations

import os

import pytest

from mlang.errors import MatlabSyntaxError
from mlang.syntax import Parser, parse_file
from mlang.syntax.ast import dump


class CountingParser(Parser):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def parse(self, *args, **kwargs):
        self.calls += 1
        return super().parse(*args, **kwargs)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("MLANG_CACHE_DIR", str(folder))
    monkeypatch.delenv("MLANG_NO_CACHE", raising=False)
    return folder


def test_second_load_comes_from_cache(tmp_path, cache_dir):
    script = tmp_path / "s.m"
    script.write_text("x = [1 -2];\ndisp(x)\n")
    parser = CountingParser()
    first = parse_file(script, parser)
    second = parse_file(script, parser)
    assert parser.calls == 1
    assert second == first
    assert dump(second) == "(script (assign x (matrix (1 (- 2))) ;) (expr (() disp x)))"
    assert len(list(cache_dir.iterdir())) == 1


def test_cached_tree_keeps_positions(tmp_path, cache_dir):
    script = tmp_path / "s.m"
    script.write_text("a = 1;\n  b = 2;\n")
    parse_file(script)
    tree = parse_file(script)
    assert (tree.body[1].line, tree.body[1].col) == (2, 3)
    assert tree.body[1].file == str(script.resolve())


def test_changed_file_is_parsed_again(tmp_path, cache_dir):
    script = tmp_path / "s.m"
    script.write_text("x = 1;\n")
    parser = CountingParser()
    parse_file(script, parser)
    script.write_text("x = 22;\n")
    os.utime(script, ns=(10**18, 10**18))  # a different mtime even on coarse clocks
    tree = parse_file(script, parser)
    assert parser.calls == 2
    assert dump(tree) == "(script (assign x 22 ;))"


def test_damaged_cache_entry_falls_back_to_parsing(tmp_path, cache_dir):
    script = tmp_path / "s.m"
    script.write_text("y = 3;\n")
    parse_file(script)
    for entry in cache_dir.iterdir():
        entry.write_bytes(b"not a pickle")
    assert dump(parse_file(script)) == "(script (assign y 3 ;))"


def test_cache_can_be_turned_off(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("MLANG_NO_CACHE", "1")
    script = tmp_path / "s.m"
    script.write_text("y = 3;\n")
    parser = CountingParser()
    parse_file(script, parser)
    parse_file(script, parser)
    assert parser.calls == 2
    assert not cache_dir.exists()


def test_unwritable_cache_folder_is_harmless(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("MLANG_CACHE_DIR", str(blocker / "sub"))  # cannot be created
    script = tmp_path / "s.m"
    script.write_text("z = 1;\n")
    assert dump(parse_file(script)) == "(script (assign z 1 ;))"


def test_syntax_errors_are_not_cached(tmp_path, cache_dir):
    script = tmp_path / "bad.m"
    script.write_text("x = (1 + 2\n")
    for _ in range(2):
        with pytest.raises(MatlabSyntaxError):
            parse_file(script)
    assert not cache_dir.exists() or not list(cache_dir.iterdir())
