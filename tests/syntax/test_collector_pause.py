"""A parse, and a load from the AST cache, leave the cyclic collector as they found it."""

from __future__ import annotations

import gc

import pytest

from mlang.errors import MatlabSyntaxError
from mlang.syntax import Parser, parse_file


@pytest.fixture
def collector_enabled():
    yield
    gc.enable()


def test_a_parse_leaves_the_collector_on(collector_enabled):
    parser = Parser()
    parser.parse("x = 1" + "+2" * 20 + ";")
    assert gc.isenabled()
    with pytest.raises(MatlabSyntaxError):
        parser.parse("x = 1" + "+2" * 20 + "+")
    assert gc.isenabled()


def test_a_parse_leaves_the_collector_off(collector_enabled):
    gc.disable()
    Parser().parse("x = 1;")
    assert not gc.isenabled()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_cached_load_leaves_the_collector_as_it_was(tmp_path, monkeypatch, collector_enabled, enabled):
    monkeypatch.setenv("MLANG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MLANG_NO_CACHE", raising=False)
    source = tmp_path / "f.m"
    source.write_text("x = 1 + 2;\ny = [1 2 3];\n")
    first = parse_file(source)  # parsed and stored
    if not enabled:
        gc.disable()
    second = parse_file(source)  # loaded
    assert second == first
    assert gc.isenabled() is enabled
    for entry in (tmp_path / "cache").iterdir():
        entry.write_bytes(b"damaged")
    assert parse_file(source) == first
    assert gc.isenabled() is enabled
