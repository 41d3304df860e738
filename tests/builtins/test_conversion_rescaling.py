"""Conversion and rescaling (mlang/builtins/data/conversion.py, rescaling.py): cast,
typecast, bsxfun, shiftdim, rescale, normalize, clip, bounds.  Values follow
MATLAB's documentation examples and agree with GNU Octave."""

import numpy as np


def rows(v) -> list:
    return np.asarray(v).tolist()


# ---------------------------------------------------------------------- cast


def test_cast(m):
    x = m.value("x = cast(int8(-5), 'uint8');")
    assert x.dtype == np.uint8 and x[0, 0] == 0
    x = m.value("x = cast([1.5 2.5 -2.5 300], 'int8');")  # round half away, saturate
    assert x.dtype == np.int8 and rows(x) == [[2, 3, -3, 127]]
    assert m.value("x = cast(int16(7), 'double');") == 7.0
    assert m.value("x = cast(pi, 'single');").dtype == np.float32
    assert m.value("x = cast([2 0], 'logical');").tolist() == [[True, False]]
    assert m.value("x = cast(65, 'char');").tobytes() == b"A\x00"
    x = m.value("x = cast(int8(5), 'like', single(1));")
    assert x.dtype == np.float32 and x[0, 0] == 5
    x = m.value("x = cast(3, 'like', 1i);")
    assert np.asarray(x).dtype == np.complex128  # the prototype's complexity
    assert m.value("x = cast(uint8(200), 'like', int8(0));").dtype == np.int8
    assert m.value("x = cast('a', \"double\");") == 97.0
    assert m.fails("cast(1, 'foo')").exc.identifier == "MATLAB:cast:UnsupportedClass"
    assert m.fails("cast({1}, 'double')").exc.identifier == "MATLAB:invalidConversion"
    assert m.fails("cast(1)").exc.identifier == "MATLAB:minrhs"


# ------------------------------------------------------------------- typecast


def test_typecast(m):
    assert m.value("x = typecast(single(1), 'uint32');")[0, 0] == 1065353216
    x = m.value("x = typecast(uint8([1 0 0 0 2 0 0 0]), 'uint32');")
    assert x.dtype == np.uint32 and rows(x) == [[1, 2]]
    x = m.value("x = typecast(uint8([1 0 0 0 2 0 0 0])', 'uint32');")
    assert x.shape == (2, 1)  # a column stays a column
    x = m.value("x = typecast(1, 'uint8');")
    assert x.shape == (1, 8) and rows(x) == [[0, 0, 0, 0, 0, 0, 240, 63]]
    assert rows(m.value("x = typecast(int8([-1 -2]), 'uint8');")) == [[255, 254]]
    assert m.value("x = typecast(uint32([0 1072693248]), 'double');") == 1.0
    x = m.value("x = typecast(int16(-2), 'uint16');")
    assert x[0, 0] == 65534
    assert m.value("x = typecast(zeros(1, 0, 'uint8'), 'uint32');").shape == (1, 0)
    assert m.fails("typecast(uint8([1 2 3]), 'uint32')").exc.identifier == \
        "MATLAB:typecast:notEnoughInputElements"
    assert m.fails("typecast(uint8(ones(2)), 'uint16')").exc.identifier == \
        "MATLAB:typecast:inputMustBeVector"
    assert m.fails("typecast(true, 'uint8')").exc.identifier == "MATLAB:typecast:nonNumericInput"
    assert m.fails("typecast('a', 'uint8')").exc.identifier == "MATLAB:typecast:nonNumericInput"
    x = m.value("x = typecast(uint8([0 0 128 63]), 'like', single(0));")
    assert x.dtype == np.float32 and x[0, 0] == 1
    x = m.value("x = typecast([1 2], 'like', 1i);")  # interleaved real and imaginary parts
    assert np.asarray(x).dtype == np.complex128 and x[0, 0] == 1 + 2j
    assert rows(m.value("x = typecast(single(1+2i), 'single');")) == [[1, 2]]
    assert m.fails("typecast(1, 'like', 'a')").exc.identifier == "MATLAB:typecast:unsupportedOutputClass"
    assert m.fails("typecast(1, 'logical')").exc.identifier == "MATLAB:typecast:unsupportedOutputClass"


# --------------------------------------------------------------------- bsxfun


def test_bsxfun(m):
    assert rows(m.value("x = bsxfun(@minus, [1 2; 3 4], [1 2]);")) == [[0, 0], [2, 2]]
    assert rows(m.value("x = bsxfun(@plus, [1; 2], [10 20]);")) == [[11, 21], [12, 22]]
    assert rows(m.value("x = bsxfun(@max, [1 5 3], [2; 4]);")) == [[2, 5, 3], [4, 5, 4]]
    assert rows(m.value("x = bsxfun(@eq, [1 2 3], [1; 3]);")) == [[True, False, False],
                                                                 [False, False, True]]
    x = m.value("x = bsxfun(@(a, b) a.*b + 1, [1; 2], [10 20 30]);")
    assert rows(x) == [[11, 21, 31], [21, 41, 61]]
    x = m.value("x = bsxfun(@times, int8([1 2]), int8([3; 4]));")
    assert x.dtype == np.int8 and rows(x) == [[3, 6], [4, 8]]
    assert m.value("x = bsxfun(@plus, zeros(0, 3), [1 2 3]);").shape == (0, 3)
    assert m.value("x = bsxfun(@plus, ones(2, 1, 3), ones(1, 4));").shape == (2, 4, 3)
    assert m.fails("bsxfun(@plus, [1 2], [1 2 3])").exc.identifier == \
        "MATLAB:bsxfun:arrayDimensionsMustMatch"
    assert m.fails("bsxfun('plus', 1, 2)").exc.identifier == "MATLAB:bsxfun:invalidFunction"
    assert m.fails("bsxfun(@(a, b) 1, [1 2], [1; 2])").exc.identifier == \
        "MATLAB:bsxfun:invalidOutputSize"


# ------------------------------------------------------------------- shiftdim


def test_shiftdim(m):
    b, n = m.values("[b, n] = shiftdim(ones(1, 1, 3));", "b", "n")
    assert b.shape == (3, 1) and n == 2.0
    b, n = m.values("[b, n] = shiftdim([1 2 3]);", "b", "n")
    assert rows(b) == [[1], [2], [3]] and n == 1.0
    b, n = m.values("[b, n] = shiftdim(5);", "b", "n")
    assert b == 5.0 and n == 0.0
    assert rows(m.value("x = size(shiftdim(rand(4, 2, 3, 5), 2));")) == [[3, 5, 4, 2]]
    assert rows(m.value("x = size(shiftdim(rand(2, 3), -2));")) == [[1, 1, 2, 3]]
    assert rows(m.value("x = size(shiftdim(rand(2, 3), 3));")) == [[3, 2]]  # wraps around
    a = m.value("A = reshape(1:6, 1, 2, 3); x = shiftdim(A, 1);")
    assert rows(a) == [[1, 3, 5], [2, 4, 6]]
    c = m.value("x = shiftdim({1, 2}, 1);")
    assert c.shape == (2, 1)
    assert m.fails("shiftdim(1, 0.5)").exc.identifier == "MATLAB:shiftdim:InvalidShift"


# -------------------------------------------------------------------- rescale


def test_rescale(m):
    assert np.allclose(m.value("x = rescale(1:5);"), [[0, 0.25, 0.5, 0.75, 1]])
    assert np.allclose(m.value("x = rescale(1:5, -1, 1);"), [[-1, -0.5, 0, 0.5, 1]])
    m.run("A = [0.4 -4; 0.5 -5; 0.9 9; 0.2 1];")
    x = m.value("A = [0.4 -4; 0.5 -5; 0.9 9; 0.2 1];"
                "x = rescale(A, 'InputMin', min(A), 'InputMax', max(A));")
    assert np.allclose(x, [[0.2857, 0.0714], [0.4286, 0], [1, 1], [0, 0.4286]], atol=1e-4)
    x = m.value("A = [0.4 -4; 0.5 -5; 0.9 9; 0.2 1];"
                "x = rescale(A, [0 -1], 1, 'InputMin', min(A), 'InputMax', max(A));")
    assert np.allclose(x, [[0.2857, -0.8571], [0.4286, -1], [1, 1], [0, -0.1429]], atol=1e-4)
    x = m.value("x = rescale([-30 1 2 3 4 5 70], 'InputMin', 1, 'InputMax', 5);")  # clipped
    assert np.allclose(x, [[0, 0, 0.25, 0.5, 0.75, 1, 1]])
    assert rows(m.value("x = rescale([5 5 5], 2, 3);")) == [[2, 2, 2]]
    x = m.value("x = rescale(int8([1 2 3]));")
    assert x.dtype == np.float64 and np.allclose(x, [[0, 0.5, 1]])
    assert m.value("x = rescale(single([1 2]));").dtype == np.float32
    x = np.asarray(m.value("x = rescale([1 NaN 3]);"))
    assert x[0, 0] == 0 and np.isnan(x[0, 1]) and x[0, 2] == 1
    assert m.value("x = rescale([]);").shape == (0, 0)
    assert m.fails("rescale(1:3, 2, 1)").exc.identifier == \
        "MATLAB:rescale:LowerBoundGreaterThanUpperBound"
    assert m.fails("rescale(1:3, 'Bogus', 1)").exc.identifier == \
        "MATLAB:InputParser:UnmatchedParameter"
    assert m.fails("rescale({1})").exc.identifier == "MATLAB:rescale:InvalidInput"


# ------------------------------------------------------------------ normalize


def test_normalize(m):
    assert np.allclose(m.value("x = normalize(1:5);"), [[-1.2649, -0.6325, 0, 0.6325, 1.2649]],
                       atol=1e-4)
    assert np.allclose(m.value("x = normalize(magic(3));"),
                       [[1.1339, -1, 0.3780], [-0.7559, 0, 0.7559], [-0.3780, 1, -1.1339]], atol=1e-4)
    assert np.allclose(m.value("x = normalize(magic(3), 2);"),
                       [[0.8321, -1.1094, 0.2774], [-1, 0, 1], [-0.2774, 1.1094, -0.8321]], atol=1e-4)
    assert np.allclose(m.value("x = normalize(1:5, 'scale');"),
                       [[0.6325, 1.2649, 1.8974, 2.5298, 3.1623]], atol=1e-4)
    assert np.allclose(m.value("x = normalize(1:5, 'range');"), [[0, 0.25, 0.5, 0.75, 1]])
    assert np.allclose(m.value("x = normalize(1:5, 'range', [-1 1]);"), [[-1, -0.5, 0, 0.5, 1]])
    assert np.allclose(m.value("x = normalize(1:5, 'norm', 1);"),
                       [[0.0667, 0.1333, 0.2, 0.2667, 0.3333]], atol=1e-4)
    assert np.allclose(m.value("x = normalize([3 4], 'norm');"), [[0.6, 0.8]])
    assert np.allclose(m.value("x = normalize([3 -4], 'norm', Inf);"), [[0.75, -1]])
    assert rows(m.value("x = normalize(1:5, 'center', 'mean');")) == [[-2, -1, 0, 1, 2]]
    assert rows(m.value("x = normalize(1:5, 'center');")) == [[-2, -1, 0, 1, 2]]
    assert rows(m.value("x = normalize([1 2 4], 'zscore', 'robust');")) == [[-1, 0, 2]]
    assert rows(m.value("x = normalize([1 2 3 4], 'center', 'median', 'scale', 'mad');")) == \
        [[-1.5, -0.5, 0.5, 1.5]]
    assert rows(m.value("x = normalize([2 4 6], 'scale', 'first');")) == [[1, 2, 3]]
    assert rows(m.value("x = normalize([2 4 6], 'center', 1, 'scale', 2);")) == [[0.5, 1.5, 2.5]]
    n, c, s = m.values("[n, c, s] = normalize([1 2 3; 4 6 9]);", "n", "c", "s")
    assert np.allclose(c, [[2.5, 4, 6]]) and np.allclose(s, [[2.1213, 2.8284, 4.2426]], atol=1e-4)
    assert np.allclose(n, [[-0.7071] * 3, [0.7071] * 3], atol=1e-4)
    x = np.asarray(m.value("x = normalize([1 2 NaN 4]);"))  # NaN ignored
    assert np.isnan(x[0, 2]) and np.allclose(x[0, [0, 1, 3]], [-0.8729, -0.2182, 1.0911], atol=1e-4)
    assert m.value("x = normalize(single([1 2 3]));").dtype == np.float32
    assert m.fails("normalize(1:3, 'bogus')").exc.identifier == "MATLAB:normalize:InvalidMethod"
    assert m.fails("normalize(1:3, 'range', [1 0])").exc.identifier == "MATLAB:normalize:InvalidRange"


# ----------------------------------------------------------------- clip, bounds


def test_clip(m):
    assert rows(m.value("x = clip(1:7, 3, 6);")) == [[3, 3, 3, 4, 5, 6, 6]]
    x = m.value("x = clip(repmat((1:7)', 1, 4), [1 2 3 4], 6);")
    assert rows(x)[1] == [2, 2, 3, 4] and rows(x)[6] == [6, 6, 6, 6]
    x = m.value("x = clip(repmat(1:7, 4, 1), [1; 2; 3; 4], 6);")
    assert rows(x)[3] == [4, 4, 4, 4, 5, 6, 6]
    x = m.value("x = clip(int8([1 50 100]), 10, 60);")
    assert x.dtype == np.int8 and rows(x) == [[10, 50, 60]]
    x = np.asarray(m.value("x = clip([NaN 1 9], 2, 5);"))
    assert np.isnan(x[0, 0]) and x[0, 1:].tolist() == [2, 5]
    assert m.value("x = clip(single(7), 0, 1);").dtype == np.float32
    assert m.fails("clip(1:3, [1 2], 3)").exc.identifier == "MATLAB:sizeDimensionsMustMatch"
    assert m.fails("clip(1, zeros(2), 3)").exc.identifier == "MATLAB:clip:BoundsSizeMismatch"


def test_bounds(m):
    lo, hi = m.values("[s, l] = bounds([2 7 NaN 1]);", "s", "l")
    assert lo == 1.0 and hi == 7.0
    lo, hi = m.values("[s, l] = bounds(magic(3), 2);", "s", "l")
    assert rows(lo) == [[1], [3], [2]] and rows(hi) == [[8], [7], [9]]
    lo, hi = m.values("[s, l] = bounds(magic(3), 'all');", "s", "l")
    assert lo == 1.0 and hi == 9.0
    lo, hi = m.values("[s, l] = bounds(magic(3));", "s", "l")
    assert rows(lo) == [[3, 1, 2]] and rows(hi) == [[8, 9, 7]]
    lo, hi = m.values("[s, l] = bounds(ones(2, 3, 2), [1 2]);", "s", "l")
    assert lo.shape == (1, 1, 2)
    s = m.value("[x, l] = bounds([2 NaN], 'includenan');")
    assert np.isnan(s)
    s = m.value("[x, l] = bounds(int8([4 -3]));")
    assert s.dtype == np.int8 and s[0, 0] == -3
    assert m.value("x = bounds([5 2 9]);") == 2.0
    assert m.fails("bounds({1})").exc.identifier == "MATLAB:bounds:InvalidInput"
