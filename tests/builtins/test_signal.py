"""Signal processing (mlang/builtins/math/signal.py): the fft family, fftshift, nextpow2,
filter, conv2, convn and filter2; numbers checked against MATLAB's examples and Octave."""

import numpy as np
import pytest


def rows(v) -> list:
    return np.asarray(v).tolist()


def close(v, expected) -> bool:
    return np.allclose(np.asarray(v), np.asarray(expected), atol=1e-10)


# ------------------------------------------------------------------------ fft


def test_fft_vectors_and_lengths(m):
    assert close(m.value("x = fft([1 2 3 4]);"), [[10, -2 + 2j, -2, -2 - 2j]])
    assert m.value("x = fft([1 2 3 4]');").shape == (4, 1)
    out = m.value("x = fft([1 2; 3 4], 3);")
    assert close(out, [[4, 6], [-0.5 - 2.598076211353316j, -3.464101615137754j],
                       [-0.5 + 2.598076211353316j, 3.464101615137754j]])
    assert rows(m.value("x = fft([1 2; 3 4], [], 2);")) == [[3, -1], [7, -1]]
    assert close(m.value("x = fft([1 2 3], 2);"), [[3, -1]])
    assert m.value("x = fft([1 2 3], 0);").shape == (1, 0)
    assert m.value("x = fft([]);").shape == (0, 0)
    assert m.value("x = fft(5);") == 5.0
    # a dimension beyond the array's: each element transforms to itself
    assert rows(m.value("x = fft([1 2 3], [], 3);")) == [[1, 2, 3]]


def test_fft_classes(m):
    assert m.value("x = fft(single([1 2 3]));").dtype == np.complex64
    assert m.value("x = fft(int8([1 2 3]));").dtype == np.complex128
    assert close(m.value("x = fft([true false]);"), [[1, 1]])


def test_fft_errors(m):
    assert m.fails("fft([1 2], -1)").exc.identifier == "MATLAB:fft:invalidLength"
    assert m.fails("fft([1 2], 1.5)").exc.identifier == "MATLAB:fft:invalidLength"
    assert m.fails("fft([1 2], 2, 0)").exc.identifier == "MATLAB:getdimarg:invalidDim"
    assert m.fails("fft({1})").exc.identifier == "MATLAB:UndefinedFunction"
    assert m.fails("ifft([1 2], 'sym')").exc.identifier == "MATLAB:ifft:unrecognizedString"


def test_ifft_round_trip_and_symmetry(m):
    x = m.value("x = ifft(fft([1 2 3 4]));")
    assert x.dtype == np.float64 and close(x, [[1, 2, 3, 4]])
    # conjugate-symmetric input gives a real result
    assert m.value("x = ifft([4 1+1i 0 1-1i]);").dtype == np.float64
    assert close(m.value("x = ifft([1 2 2], 'symmetric');"), [[1.6666666666666667, -1 / 3, -1 / 3]])
    # 'symmetric' reads only the first half
    assert close(m.value("x = ifft([1 2 9], 'symmetric');"), [[1.6666666666666667, -1 / 3, -1 / 3]])
    assert np.iscomplexobj(m.value("x = ifft([1 2i 3]);"))
    assert close(m.value("x = ifft([10 -2+2i -2 -2-2i], 2);"), [[4 + 1j, 6 - 1j]])


def test_fft2_fftn(m):
    out = m.value("x = fft2(magic(3), 2, 4);")
    assert close(out, [[30, -2 - 6j, 18, -2 + 6j], [0, 6 + 4j, 8, 6 - 4j]])
    assert rows(m.value("x = real(ifft2(fft2(magic(4))));")) == rows(m.value("x = magic(4);"))
    assert close(m.value("x = ifftn(fftn(magic(4)));"), m.value("x = magic(4);"))
    assert close(m.value("x = fftn(ones(2,2,2));")[0, 0, 0], 8)
    assert m.value("x = fftn(ones(2,2), [3 4]);").shape == (3, 4)
    assert m.value("x = ifftn(fftn(ones(2,3)), 'symmetric');").dtype == np.float64
    assert close(m.value("x = ifft2(fft2(magic(4)), 'symmetric');"), m.value("x = magic(4);"))
    assert close(m.value("x = ifftn(fftn(reshape(1:24, 2, 3, 4)), 'symmetric');"),
                 np.arange(1, 25).reshape((2, 3, 4), order="F"))
    assert m.fails("fftn(ones(2,2,2), [2 2])").exc.identifier == "MATLAB:fftn:invalidSize"


def test_fftshift(m):
    assert rows(m.value("x = fftshift(1:5);")) == [[4, 5, 1, 2, 3]]
    assert rows(m.value("x = ifftshift(1:5);")) == [[3, 4, 5, 1, 2]]
    assert rows(m.value("x = fftshift(1:6);")) == [[4, 5, 6, 1, 2, 3]]
    assert rows(m.value("x = fftshift(magic(3), 1);")) == [[4, 9, 2], [8, 1, 6], [3, 5, 7]]
    assert rows(m.value("x = fftshift([1 2; 3 4]);")) == [[4, 3], [2, 1]]
    assert rows(m.value("x = ifftshift(fftshift(magic(4)));")) == rows(m.value("x = magic(4);"))
    assert m.value("x = fftshift(int8([1 2 3]));").dtype == np.int8
    # any array: text and cells move the same way
    assert m.run("disp(fftshift('abcde'))") == "deabc\n"
    assert m.run("c = fftshift({1, 'a', 3}); disp(class(c{1}))") == "double\n"
    assert m.value("c = fftshift({1, 'a', 3}); x = c{2};") == 1.0


def test_nextpow2(m):
    assert rows(m.value("x = nextpow2([0 1 2 3 1023 1024 -5 0.3]);")) == [[0, 0, 1, 2, 10, 10, 3, -1]]
    assert m.value("x = nextpow2(Inf);") == np.inf
    # MATLAB's examples
    assert m.value("x = nextpow2(100);") == 7.0
    assert m.value("x = nextpow2([1 -2 3 4 5 9 519]);").tolist() == [[0, 1, 2, 2, 3, 4, 10]]
    assert m.value("x = nextpow2(single(100));").dtype == np.float32
    assert m.value("x = nextpow2(int16(100));").dtype == np.int16


# --------------------------------------------------------------------- filter


def test_filter(m):
    y, zf = m.values("[y, zf] = filter(1, [1 -0.5], [1 2 3 4]);", "y", "zf")
    assert close(y, [[1, 2.5, 4.25, 6.125]]) and zf == pytest.approx(3.0625)
    # MATLAB's moving-average example
    assert close(m.value("x = filter(ones(1,3)/3, 1, [3 6 9 12]);"), [[1, 3, 6, 9]])
    # normalised by a(1); initial conditions; matrices along columns
    out = m.value("x = filter([1 2], [2 3], [1 2 3; 4 5 6], [1 2 3]);")
    assert close(out, [[1.5, 3, 4.5], [0.75, 0, -0.75]])
    assert close(m.value("x = filter(1, [1 -1], [1 2; 3 4], [], 2);"), [[1, 3], [3, 7]])
    assert m.value("x = filter(1, 1, single([1 2]));").dtype == np.float32
    assert close(m.value("x = filter(2, 4, [2 4]);"), [[1, 2]])
    # empty data: an empty result, the delays unchanged
    assert m.value("x = filter([1 1], 1, zeros(0, 3));").shape == (0, 3)
    assert m.value("[y, x] = filter([1 1], 1, zeros(1, 0), 5);") == 5.0


def test_filter_errors(m):
    assert m.fails("filter(1, [0 1], [1 2])").exc.identifier == \
        "MATLAB:filter:firstElementOfDenominatorFilterZero"
    assert m.fails("filter([1 2], 1, [1 2], [1 2 3])").exc.identifier == \
        "MATLAB:filter:invalidInitialConditions"
    assert m.fails("filter([], 1, [1 2])").exc.identifier == "MATLAB:filter:emptyInput"


# ------------------------------------------------------------------ convolution


def test_conv2(m):
    assert rows(m.value("x = conv2([1 2; 3 4], [1 1; 1 1]);")) == [[1, 3, 2], [4, 10, 6], [3, 7, 4]]
    assert rows(m.value("x = conv2(magic(4), [1 2; 3 4], 'valid');")) == \
        [[91, 49, 79], [78, 94, 88], [79, 89, 91]]
    assert m.value("x = conv2(magic(4), [1 2; 3 4], 'same');").shape == (4, 4)
    assert rows(m.value("x = conv2(magic(4), [1 2; 3 4], 'same');"))[0] == [91, 49, 79, 68]
    # the separable form equals the convolution with the outer product
    a, b = m.values("a = conv2([1 2], [1; 3], magic(3), 'same'); "
                    "b = conv2(magic(3), [1; 2] * [1 3], 'same');", "a", "b")
    assert rows(a) == rows(b)
    assert m.value("x = conv2(magic(3), [1 1], 'valid');").shape == (3, 2)
    assert m.value("x = conv2([1 2], [1 2 3], 'valid');").shape == (1, 0)
    assert m.value("x = conv2(single([1 2]), 1);").dtype == np.float32
    assert m.fails("conv2(1, 2, 'middle')").exc.identifier == "MATLAB:conv2:unknownShapeParameter"
    assert m.fails("conv2(ones(2,2,2), 1)").exc.identifier == "MATLAB:conv2:inputsMustBe2D"


def test_convn_filter2(m):
    out = m.value("x = convn(ones(2,2,2), ones(2,2,2));")
    assert out.shape == (3, 3, 3) and out[1, 1, 1] == 8 and out[0, 0, 0] == 1
    assert m.value("x = convn(ones(3,3,3), ones(2,2,2), 'valid');").shape == (2, 2, 2)
    assert m.value("x = convn(ones(3,3,3), ones(2,2,2), 'same');").shape == (3, 3, 3)
    assert rows(m.value("x = filter2([1 2; 3 4], magic(4));")) == \
        [[79, 81, 91, 37], [82, 76, 92, 44], [91, 121, 79, 15], [32, 44, 17, 1]]
    assert m.value("x = filter2([1 1], magic(3), 'valid');").shape == (3, 2)
