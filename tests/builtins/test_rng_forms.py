"""rng in all its forms, and the class, 'like' and size forms of rand, randn, randi."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import ndtri

from mlang.errors import MatlabError
from mlang.values.core import char_text
from tests.running import run


def value(code: str, name: str = "x"):
    interp, _ = run(code)
    return interp.base.vars[name]


def error_id(code: str) -> str:
    with pytest.raises(MatlabError) as info:
        run(code)
    return info.value.identifier


def test_settings_struct_is_matlabs():
    interp, _ = run("rng default; s = rng; t = s.Type; c = class(s.State); n = size(s.State); "
                    "p = s.State(625); seed = s.Seed;")
    v = interp.base.vars
    assert char_text(v["t"]) == "twister"
    assert char_text(v["c"]) == "uint32"
    assert v["n"].tolist() == [[625.0, 1.0]]
    assert v["p"].item() == 624  # a freshly seeded twister: the whole key is still unused
    assert v["seed"] == 0.0
    # MT19937 seeded with 5489 (MATLAB's seed 0): the key starts 5489, 1301868182, ...
    s = interp.base.vars["s"].element(0)["State"]
    assert s[:2, 0].tolist() == [5489, 1301868182]


def test_seed_and_generator_match_matlab_doc_example():
    # MATLAB's rng doc: rng(2,"twister"); rand(1,5) -> 0.4360 0.0259 0.5497 0.4353 0.4204
    x = value("rng(2, 'twister'); x = rand(1, 5);")
    assert np.allclose(x, [[0.4359949, 0.02592623, 0.54966248, 0.43532239, 0.4203678]])
    y = value("rng(2, \"Twister\"); a = rand; rng('twister'); x = rand(1, 2);")
    assert np.allclose(y, [[0.8147236863931789, 0.9057919370756192]])  # rng(gen) = seed 0


def test_randi_matches_matlab_doc_matrix():
    # MATLAB's randi doc: rng default; r = randi(10,5)
    x = value("rng default; x = randi(10, 5);")
    assert x.tolist() == [[9, 1, 2, 2, 7], [10, 3, 10, 5, 1], [2, 6, 10, 10, 9],
                          [10, 10, 5, 8, 10], [7, 10, 9, 10, 7]]


def test_randperm_matches_matlab_after_default():
    assert value("rng default; x = randperm(8);").tolist() == [[6, 3, 7, 8, 5, 1, 2, 4]]


def test_restoring_settings_replays_every_generator():
    interp, _ = run("rng(11); a = rand(1, 3); s = rng; "
                    "x1 = [randn(1, 3), rand, randi(9, 1, 3), randperm(4), randn]; "
                    "rng(s); x2 = [randn(1, 3), rand, randi(9, 1, 3), randperm(4), randn]; "
                    "rng(s); t = rng(5); u = rng; rng(t); r2 = randn;")
    v = interp.base.vars
    assert np.array_equal(v["x1"], v["x2"])
    assert v["r2"] == v["x1"][0, 0]  # t = rng(5) returned the settings before the change
    assert v["t"].element(0)["Seed"] == 11.0 and v["u"].element(0)["Seed"] == 5.0


def test_randn_is_the_inverse_cdf_of_rands_stream():
    interp, _ = run("rng(4); u = rand(3, 2); rng(4); x = randn(3, 2); rng(4); "
                    "y = randn([3 2], 'single'); rng(4); z = randn(3, 2, 'like', single(1));")
    v = interp.base.vars
    assert np.allclose(v["x"], ndtri(v["u"]))
    assert v["y"].dtype == np.float32 and v["y"].shape == (3, 2)
    assert np.allclose(v["y"], ndtri(v["u"]), atol=1e-6)
    assert v["z"].dtype == np.float32


def test_like_takes_class_and_complexity():
    interp, _ = run("rng(1); u = rand(1, 4); rng(1); z = rand(1, 2, 'like', 1i); "
                    "rng(1); n = randn(2, 'like', complex(2, 0)); c = randn(2, 2, 'like', 'a'); "
                    "k = randi(9, 1, 3, 'like', uint16(1)); w = randi([0 1], 2, 'logical');")
    v = interp.base.vars
    u = v["u"].ravel()
    assert np.allclose(v["z"], [[u[0] + 1j * u[1], u[2] + 1j * u[3]]])
    assert v["n"].dtype == np.complex128 and v["n"].shape == (2, 2)
    assert v["c"].dtype == np.float64  # a char prototype makes doubles
    assert v["k"].dtype == np.uint16 and ((v["k"] >= 1) & (v["k"] <= 9)).all()
    assert v["w"].dtype == np.bool_


@pytest.mark.parametrize("code, shape", [
    ("x = randn([2 3 4]);", (2, 3, 4)), ("x = randn(3, 'double');", (3, 3)),
    ("x = randi(5, [2 0]);", (2, 0)), ("x = rand(2, 3, 'like', single(1));", (2, 3)),
    ("x = randi([3 8], 2, 2, 2, 'int8');", (2, 2, 2)),
])
def test_size_forms(code, shape):
    assert np.shape(value(code)) == shape


@pytest.mark.parametrize("code, ident", [
    ("rng(1, 'philox')", "MATLAB:rng:unsupportedGenerator"),
    ("rng('combRecursive')", "MATLAB:rng:unsupportedGenerator"),
    ("rng(1, 'nosuch')", "MATLAB:rng:badSecondOpt"),
    ("rng('nosuch')", "MATLAB:rng:badFirstOpt"),
    ("rng(-1)", "MATLAB:rng:badSeed"),
    ("rng(2^32)", "MATLAB:rng:badSeed"),
    ("rng(1.5)", "MATLAB:rng:badSeed"),
    ("rng(struct('Type', 'twister', 'Seed', 0, 'State', [1 2 3]))", "MATLAB:rng:badSettings"),
    ("rng(struct('Seed', 0))", "MATLAB:rng:badSettings"),
    ("rng('default', 'twister')", "MATLAB:TooManyInputs"),
    ("rand(2, 'int8')", "MATLAB:invalidClassName"),
    ("randn(2, 'like', int8(1))", "MATLAB:invalidClassName"),
    ("randi(300, 1, 'int8')", "MATLAB:randi:invalidLimits"),
    ("randi([-1 1], 1, 'uint8')", "MATLAB:randi:invalidLimits"),
    ("randi(10, 2, 'int64')", "MATLAB:invalidClassName"),
])
def test_errors(code, ident):
    assert error_id(code) == ident


def test_shuffle_reseeds_and_default_resets():
    interp, _ = run("rng('shuffle'); s = rng; rng('shuffle', 'twister'); rng default; "
                    "a = rand; t = rng;")
    v = interp.base.vars
    assert 0 <= v["s"].element(0)["Seed"] < 2 ** 32
    assert v["a"] == pytest.approx(0.8147236863931789)
    assert v["t"].element(0)["Seed"] == 0.0


def test_discouraged_seeding_forms():
    interp, _ = run("rand('twister', 5489); a = rand(1, 2); st = rand('twister'); "
                    "c = rand(1, 3); rand('twister', st); d = rand(1, 3); "
                    "randn('state', 7); e = rand; rng(7); f = rand;")
    v = interp.base.vars
    # rand('twister', 5489) is MATLAB's startup state (rng default)
    assert np.allclose(v["a"], [[0.8147236863931789, 0.9057919370756192]])
    assert v["st"].shape == (625, 1) and v["st"].dtype == np.uint32
    assert np.array_equal(v["c"], v["d"])
    assert v["e"] == v["f"]
    assert error_id("rand('twister', 1, 2)") == "MATLAB:TooManyInputs"
    assert error_id("rand('state', -1)") == "MATLAB:rng:badSeed"
