"""Random numbers: MATLAB's generator, seeds and shapes."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.evaluation.interpreter import Interpreter


def session() -> Interpreter:
    return Interpreter(stdout=io.StringIO())


def test_default_seed_gives_matlabs_numbers():
    it = session()
    it.eval("a = rand(1, 4); rng('default'); b = rand(2, 2);")
    # MATLAB: rng default; rand(1,4) -> 0.8147 0.9058 0.1270 0.9134 (column-major for 2x2)
    assert np.allclose(it.get("a"), [[0.8147236863931789, 0.9057919370756192,
                                      0.1269868162935061, 0.9133758561390194]])
    assert np.allclose(it.get("b"), [[0.8147236863931789, 0.1269868162935061],
                                     [0.9057919370756192, 0.9133758561390194]])


def test_randi_matches_matlab_after_rng_default():
    it = session()
    it.eval("rng default; r = randi(10, 1, 5); s = randi([5 6], 3, 1);")
    assert it.get("r").tolist() == [[9, 10, 2, 10, 7]]
    assert set(it.get("s").ravel().tolist()) <= {5.0, 6.0} and it.get("s").shape == (3, 1)


def test_seeds_reproduce_and_sessions_are_independent():
    one, two = session(), session()
    one.eval("rng(42); a = rand(3);")
    two.eval("rng(42); b = rand(3);")
    one.eval("c = rand(3);")
    assert np.array_equal(one.get("a"), two.get("b"))
    assert not np.array_equal(one.get("a"), one.get("c"))


@pytest.mark.parametrize("code, shape", [
    ("x = rand(3);", (3, 3)), ("x = rand(2, 5);", (2, 5)), ("x = rand([4 1]);", (4, 1)),
    ("x = randn(2, 3, 4);", (2, 3, 4)), ("x = rand(0, 3);", (0, 3)),
])
def test_shapes(code, shape):
    it = session()
    it.eval(code)
    assert np.shape(it.get("x")) == shape


def test_classes_ranges_and_permutations():
    it = session()
    it.eval("a = rand(2, 'single'); c = class(a); n = randn(1, 2000); p = randperm(6); "
            "q = randperm(10, 3); s = rng; seed = s.Seed;")
    assert it.get("c") == "single"
    n = it.get("n")
    assert abs(n.mean()) < 0.1 and 0.9 < n.std() < 1.1
    assert sorted(it.get("p").ravel().tolist()) == [1, 2, 3, 4, 5, 6]
    q = it.get("q").ravel().tolist()
    assert len(set(q)) == 3 and all(1 <= v <= 10 for v in q)
    assert it.get("seed") == 0.0
    u = session()
    u.eval("x = rand(1, 1000);")
    assert 0 < u.get("x").min() and u.get("x").max() < 1
