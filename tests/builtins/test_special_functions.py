"""Special functions (mlang/builtins/math/special.py): values checked against MATLAB's
documented examples and GNU Octave."""

import numpy as np
import pytest


def near(v, expected, tol=1e-10):
    return np.allclose(np.asarray(v), np.asarray(expected), rtol=tol, atol=tol)


def test_gammainc_types(m):
    assert near(m.value("x = gammainc([0 1 2], 2);"), [[0, 0.264241117657115, 0.593994150290162]])
    assert near(m.value("x = gammainc(2, 5);"), 0.0526530173437111)
    assert near(m.value("x = gammainc(2, 5, 'upper');"), 1 - 0.0526530173437111)
    assert near(m.value("x = gammainc([0 1 2], 2, 'scaledlower');"), [[1, 1.43656365691809, 2.19452804946533]])
    assert near(m.value("x = gammainc([1 2], 2, 'scaledupper');"), [[4, 1.5]])
    assert m.value("x = gammainc(single(1), 2);").dtype == np.float32
    assert near(m.value("x = gammainc([1 -1], 2);"), [[0.264241117657115, 1]])
    assert near(m.value("x = gammainc([-1 -2], 3, 'upper');"), [[1.35914091422952, 7.38905609893065]])
    assert near(m.value("x = gammainc(-1, 0.5);"), 1.65042575879754j)
    assert m.fails("gammainc(1, -1)").identifier == "MATLAB:gammainc:NegativeArg"
    assert m.fails("gammainc(1, 2, 'middle')").identifier == "MATLAB:gammainc:InvalidType"
    assert m.fails("gammainc(1i, 2)").identifier == "MATLAB:gammainc:complexArgs"
    assert m.fails("gammainc(int8(1), 2)").identifier == "MATLAB:UndefinedFunction"
    assert m.fails("gammainc([1 2], [1 2 3])").identifier == "MATLAB:sizeDimensionsMustMatch"


def test_gammaincinv_and_gammaln(m):
    assert m.fails("gammaincinv(2, 1)").identifier == "MATLAB:gammaincinv:YOutOfRange"
    assert near(m.value("x = gammaincinv(0.5, [1 2]);"), [[0.693147180559945, 1.67834699001666]])
    assert near(m.value("x = gammainc(gammaincinv(0.3, 4, 'upper'), 4, 'upper');"), 0.3)
    assert near(m.value("x = gammaln([0.5 5]);"), [[0.5723649429247, np.log(24)]])
    assert m.value("x = gammaln(0);") == np.inf
    assert np.isfinite(m.value("x = gammaln(1e300);"))


def test_beta_family(m):
    assert near(m.value("x = betainc(0.5, 2, 3);"), 0.6875)
    assert near(m.value("x = betainc(0.5, 2, 3, 'upper');"), 0.3125)
    assert near(m.value("x = betaincinv(0.6875, 2, 3);"), 0.5)
    assert near(m.value("x = betaincinv(0.3125, 2, 3, 'upper');"), 0.5)
    assert near(m.value("x = beta(2, 3);"), 1 / 12)
    assert near(m.value("x = betaln(2, 3);"), np.log(1 / 12))
    assert m.value("x = beta(single(2), 3);").dtype == np.float32
    assert m.fails("betainc(2, 1, 1)").identifier == "MATLAB:betainc:XOutOfRange"
    assert m.fails("betainc(0.5, 1, 1, 'both')").identifier == "MATLAB:betainc:InvalidType"


def test_psi(m):
    assert near(m.value("x = -psi(1);"), 0.577215664901532)
    assert near(m.value("x = psi(1, 2);"), np.pi ** 2 / 6 - 1)
    assert near(m.value("x = psi(2, 0.5);"), -16.8287966442343)
    assert m.fails("psi(1.5, 2)").identifier == "MATLAB:psi:NonIntegerDerivative"


def test_expint_erfcx_erfcinv(m):
    e = m.value("x = expint([-1 1]);")
    assert near(e, [[-1.89511781635594 - 3.14159265358979j, 0.219383934395520]])
    assert m.value("x = expint(0);") == np.inf
    assert near(m.value("x = erfcx([0 1 30]);"), [[1, 0.427583576155807, 0.0187958888614168]])
    assert near(m.value("x = erfcinv([0.5 1 1.5]);"), [[0.476936276204470, 0, -0.476936276204470]])
    assert m.value("x = erfcinv(0);") == np.inf


def test_legendre(m):
    p = m.value("x = legendre(2, [0.2 0.5]);")
    assert near(p, [[-0.44, -0.125], [-0.587877538267963, -1.29903810567666], [2.88, 2.25]])
    assert near(m.value("x = legendre(2, 0.5, 'sch');"), [[-0.125], [0.75], [0.649519052838329]])
    assert near(m.value("x = legendre(2, 0.5, 'norm');"),
                [[-0.197642353760524], [0.838525491562421], [0.726184377413891]])
    assert m.value("x = size(legendre(1, [0.1 0.2; 0.3 0.4]));").tolist() == [[2, 2, 2]]
    assert m.value("x = size(legendre(3, [0.1; 0.2; 0.3]));").tolist() == [[4, 3]]
    assert m.fails("legendre(1.5, 0)").identifier == "MATLAB:legendre:NeedIntegerDeg"
    assert m.fails("legendre(1, 2)").identifier == "MATLAB:legendre:OutOfRangeX"


def test_bessel(m):
    j = m.value("x = besselj([0; 1], [1 2 3]);")
    assert near(j, [[0.765197686557967, 0.223890779141236, -0.260051954901933],
                    [0.440050585744934, 0.576724807756873, 0.339058958525936]])
    assert near(m.value("x = besselj(0.5, -1);"), 0.671396707141804j)
    assert near(m.value("x = bessely(0, -1);"), 0.0882569642156770 + 1.53039537311593j)
    assert near(m.value("x = besselk(0, -1);"), 0.421024438240708 - 3.97746326050642j)
    assert near(m.value("x = besseli(0.5, -1);"), 0.937674888245489j)
    assert near(m.value("x = besselh(0, 1, 2, 1);"), 0.370911846383140 - 0.415974530986934j)
    assert near(m.value("x = besselh(0, 2) - besselh(0, 1, 2);"), 0)
    assert near(m.value("x = besselj(1, 3i, 1);"),
                m.value("x = besselj(1, 3i) * exp(-3);"))
    j2, err = m.values("[x, e] = besseli(1, [1 2]);", "x", "e")
    assert near(j2, [[0.565159103992485, 1.59063685463733]]) and np.all(err == 0)
    assert m.value("x = besselk(1, single(2));").dtype == np.float32
    assert m.fails("besselj(1, 2, 3)").identifier == "MATLAB:besselj:InvalidScale"
    assert m.fails("besselh(1, 3, 2)").identifier == "MATLAB:besselh:InvalidKind"


def test_airy(m):
    assert near(m.value("x = airy(0);"), 0.355028053887817)
    assert near(m.value("x = airy(1, [1 2]);"), [[-0.159147441296793, -0.0530903844336561]])
    assert near(m.value("x = airy(2, 1);"), 1.20742359495287)
    assert near(m.value("x = airy(0, 2, 1);"), 0.0349241304232744 * np.exp(2 / 3 * 2 ** 1.5))
    assert m.fails("airy(4, 1)").identifier == "MATLAB:airy:InvalidK"


def test_elliptic(m):
    k, e = m.values("[k, e] = ellipke(0.5);", "k", "e")
    assert near(k, 1.85407467730137) and near(e, 1.35064388104768)
    assert m.value("x = ellipke(1);") == np.inf
    sn, cn, dn = m.values("[s, c, d] = ellipj(0.3, 0.5);", "s", "c", "d")
    assert near([sn, cn, dn], [0.293412733168455, 0.955985861827787, 0.978240504174361])
    assert m.fails("ellipke(2)").identifier == "MATLAB:ellipke:MOutOfRange"
    assert m.fails("ellipj(1, -0.5)").identifier == "MATLAB:ellipj:MOutOfRange"


@pytest.mark.parametrize("name", ["gammaln", "erfcx", "erfcinv", "expint", "psi"])
def test_empty_and_single_inputs(m, name):
    assert m.value(f"x = {name}(zeros(0, 3));").shape == (0, 3)
    assert m.value(f"x = {name}(single(0.5));").dtype in (np.float32, np.complex64)


# ------------------------------------- coordinates (mlang/builtins/math/coordinates.py)


def test_cart2pol_and_pol2cart(m):
    t, r = m.values("[t, r] = cart2pol([1 0 -1], [1 1 0]);", "t", "r")
    assert near(t, [[np.pi / 4, np.pi / 2, np.pi]]) and near(r, [[np.sqrt(2), 1, 1]])
    t, r, z = m.values("[t, r, z] = cart2pol(1, 1, [5; 6]);", "t", "r", "z")
    assert near(t, np.pi / 4) and z.tolist() == [[5], [6]]
    x, y = m.values("[x, y] = pol2cart(pi/4, sqrt(2));", "x", "y")
    assert near([x, y], [1, 1])
    x, y = m.values("[x, y] = pol2cart([0 pi/2], 2);", "x", "y")
    assert near(x, [[2, 0]]) and near(y, [[0, 2]])
    assert m.value("x = cart2pol(single(1), 2);").dtype == np.float32
    assert m.fails("cart2pol(1i, 2)").identifier == "MATLAB:cart2pol:complexArgs"
    assert m.fails("cart2pol([1 2], [1 2 3])").identifier == "MATLAB:sizeDimensionsMustMatch"


def test_cart2sph_and_sph2cart(m):
    a, e, r = m.values("[a, e, r] = cart2sph(1, 1, 1);", "a", "e", "r")
    assert near([a, e, r], [np.pi / 4, np.arctan(1 / np.sqrt(2)), np.sqrt(3)])
    x, y, z = m.values("[a, e, r] = cart2sph([1 2], [3 4], [5 6]); [x, y, z] = sph2cart(a, e, r);",
                       "x", "y", "z")
    assert near(x, [[1, 2]]) and near(y, [[3, 4]]) and near(z, [[5, 6]])
    assert m.fails("sph2cart(1, 2)").identifier == "MATLAB:minrhs"


# ------------------------ number representations (mlang/builtins/math/representation.py)


def test_rat(m):
    from mlang.values.core import char_rows
    assert char_rows(m.value("x = rat(pi);")) == ["3 + 1/(7 + 1/16)"]
    assert char_rows(m.value("x = rat(-pi);")) == ["-3 + 1/(-7 + 1/(-16))"]
    assert char_rows(m.value("x = rat(1.5);")) == ["2 + 1/(-2)"]
    assert char_rows(m.value("x = rat([pi; 0.5]);")) == ["3 + 1/(7 + 1/16)", "1 + 1/(-2)      "]
    n, d = m.values("[n, d] = rat([0.75 pi -0.2 0 Inf]);", "n", "d")
    assert n.tolist() == [[3, 355, -1, 0, 1]] and d.tolist() == [[4, 113, 5, 1, 0]]
    n, d = m.values("[n, d] = rat(pi, 1e-10);", "n", "d")
    assert abs(n / d - np.pi) < 1e-10
    assert m.fails("rat(int8(1))").identifier == "MATLAB:UndefinedFunction"


def test_rats_documented_examples(m):
    from mlang.values.core import char_rows
    assert char_rows(m.value("x = rats(pi);")) == ["    355/113   "]
    assert char_rows(m.value("x = rats(pi, 20);")) == ["    104348/33215     "]
    assert char_rows(m.value("x = rats(pi, 25);")) == ["      1146408/364913      "]
    assert char_rows(m.value("x = rats(hilb(4));")) == [
        "       1            1/2           1/3           1/4     ",
        "      1/2           1/3           1/4           1/5     ",
        "      1/3           1/4           1/5           1/6     ",
        "      1/4           1/5           1/6           1/7     "]
    assert char_rows(m.value("x = rats(0.3);")) == ["      3/10    "]


def test_bitget_bitset(m):
    assert m.value("x = bitget(10, [1 2 3 4]);").tolist() == [[0, 1, 0, 1]]
    b = m.value("x = bitget(int8(-1), 8);")
    assert b.dtype == np.int8 and b.item() == 1
    assert m.value("x = bitget(uint64(2)^63, 64);").item() == 1
    s = m.value("x = bitset(uint8(8), 1);")
    assert s.dtype == np.uint8 and s.item() == 9
    assert m.value("x = bitset(10, 2, 0);") == 8.0
    assert m.value("x = bitset(0, [1 2 3]);").tolist() == [[1, 2, 4]]
    assert m.value("x = bitset(-1, 1, 0, 'int8');") == -2.0
    assert m.value("x = bitset(int8(0), 8);").item() == -128
    assert m.fails("bitget(1, 54)").identifier == "MATLAB:bitget:outOfRange"
    assert m.fails("bitget(uint8(1), 9)").identifier == "MATLAB:bitget:outOfRange"
    assert m.fails("bitget(-1, 1)").identifier == "MATLAB:bitfun:InvalidDoubleInput"
    assert m.fails("bitset(1, 1, 1, 'float')").identifier == "MATLAB:bitfun:InvalidAssumedType"


def test_num2hex_hex2num(m):
    from mlang.values.core import char_rows
    assert char_rows(m.value("x = num2hex([1 -2.5]);")) == ["3ff0000000000000", "c004000000000000"]
    assert char_rows(m.value("x = num2hex(single(1));")) == ["3f800000"]
    assert char_rows(m.value("x = num2hex(pi);")) == ["400921fb54442d18"]
    assert m.value("x = hex2num('400921fb54442d18');") == np.pi
    assert m.value("x = hex2num({'3ff', '4000000000000000'});").tolist() == [[1, 2]]
    assert m.value("x = hex2num(['3ff'; '400']);").tolist() == [[1], [2]]
    assert m.value("x = hex2num(num2hex(-0.1));") == -0.1
    assert m.fails("num2hex(int8(1))").identifier == "MATLAB:num2hex:invalidInput"
    assert m.fails("hex2num('xyz')").identifier == "MATLAB:hex2num:InvalidInput"
    assert m.fails("hex2num(12)").identifier == "MATLAB:hex2num:InputMustBeString"
