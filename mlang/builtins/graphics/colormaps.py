"""Colormap functions: parula, jet, hot, gray, turbo and the others MATLAB has, each
``c = NAME(m)`` giving an m-by-3 double array of RGB intensities in [0, 1].

Without an argument a colormap has the length of the current figure's colormap, 256 when
there is no figure.  The graphics core tells this module how to read that length (and the
current axes' colour order, for ``lines``) with ``use_figure_colormap_length`` and
``use_current_color_order``; until it does, 256 and ``DEFAULT_COLOR_ORDER`` are used.

``colormap_by_name(name, m)`` gives any of them by name, for ``colormap jet`` and the
``Colormap`` properties.  Pure NumPy: nothing here needs matplotlib.

The count is read as MATLAB's size inputs are (the errors of ``zeros(m,3)``): a real
integer scalar, negative counting as 0.  The tabulated maps (parula, turbo, sky) are
interpolated linearly at ``linspace(1, P, m)`` of their P-row tables, as MATLAB does, so
``parula(1)`` is the last colour of the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import NUMERIC_OR_LOGICAL, checked_shape
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, to_double_array

# MATLAB's default colormap length (since R2019b; 64 before).
DEFAULT_LENGTH = 256

# MATLAB's default axes colour order (R2014b and later): the seven line colours.
DEFAULT_COLOR_ORDER = np.array([
    [0.0000, 0.4470, 0.7410],
    [0.8500, 0.3250, 0.0980],
    [0.9290, 0.6940, 0.1250],
    [0.4940, 0.1840, 0.5560],
    [0.4660, 0.6740, 0.1880],
    [0.3010, 0.7450, 0.9330],
    [0.6350, 0.0780, 0.1840],
])
DEFAULT_COLOR_ORDER.flags.writeable = False  # shared: callers copy before changing it

# ------------------------------------------------------------------- the tables

# parula (MATLAB's default colormap since R2014b; this is the R2017a table): 256 rows of
# R G B in units of 1e-4.
_PARULA_TEXT = (
    "2422 1504 6603  2444 1534 6728  2464 1569 6847  2484 1607 6961  2503 1648 7071  2522 1689 7179 "
    "2540 1732 7286  2558 1773 7393  2576 1814 7501  2594 1854 7610  2611 1893 7719  2628 1932 7828 "
    "2645 1972 7937  2661 2011 8043  2676 2052 8148  2691 2094 8249  2704 2138 8346  2717 2184 8439 "
    "2729 2231 8528  2740 2280 8612  2749 2330 8692  2758 2382 8767  2766 2435 8840  2774 2489 8908 "
    "2781 2543 8973  2788 2598 9035  2794 2653 9094  2798 2708 9150  2802 2764 9204  2806 2819 9255 "
    "2809 2875 9305  2811 2930 9352  2813 2985 9397  2814 3040 9441  2814 3095 9483  2813 3150 9524 "
    "2811 3204 9563  2809 3259 9600  2807 3313 9636  2803 3367 9670  2798 3421 9702  2791 3475 9733 "
    "2784 3529 9763  2776 3583 9791  2766 3638 9817  2754 3693 9840  2741 3748 9862  2726 3804 9881 "
    "2710 3860 9898  2691 3916 9912  2670 3973 9924  2647 4030 9935  2621 4088 9946  2591 4145 9955 "
    "2556 4203 9965  2517 4261 9974  2473 4319 9983  2424 4378 9991  2369 4437 9996  2311 4497 9995 "
    "2250 4559 9985  2189 4620 9968  2128 4682 9948  2066 4743 9926  2006 4803 9906  1950 4861 9887 "
    "1903 4919 9867  1869 4975 9844  1847 5030 9819  1831 5084 9793  1818 5138 9766  1806 5191 9738 "
    "1795 5244 9709  1785 5296 9677  1778 5349 9641  1773 5401 9602  1768 5452 9560  1764 5504 9516 "
    "1755 5554 9473  1740 5605 9432  1716 5655 9393  1686 5705 9357  1649 5755 9323  1610 5805 9289 "
    "1573 5854 9254  1540 5902 9218  1513 5950 9182  1492 5997 9147  1475 6043 9113  1461 6089 9080 "
    "1446 6135 9050  1429 6180 9022  1408 6226 8998  1383 6272 8975  1354 6317 8953  1321 6363 8932 "
    "1288 6408 8910  1253 6453 8887  1219 6497 8862  1185 6541 8834  1152 6584 8804  1119 6627 8770 "
    "1085 6669 8734  1048 6710 8695  1009 6750 8653  0964 6789 8609  0914 6828 8562  0855 6865 8513 "
    "0789 6902 8462  0713 6938 8409  0628 6972 8355  0535 7006 8299  0433 7039 8242  0328 7071 8183 "
    "0234 7103 8124  0155 7133 8064  0091 7163 8003  0046 7192 7941  0019 7220 7878  0009 7248 7815 "
    "0018 7275 7752  0046 7301 7688  0094 7327 7623  0162 7352 7558  0253 7376 7492  0369 7400 7426 "
    "0504 7423 7359  0638 7446 7292  0770 7468 7224  0899 7489 7156  1023 7510 7088  1141 7531 7019 "
    "1252 7552 6950  1354 7572 6881  1448 7593 6812  1532 7614 6741  1609 7635 6671  1678 7656 6599 "
    "1741 7678 6527  1799 7699 6454  1853 7721 6379  1905 7743 6303  1954 7765 6225  2003 7787 6146 "
    "2061 7808 6065  2118 7828 5983  2178 7849 5899  2244 7869 5813  2318 7887 5725  2401 7905 5636 "
    "2491 7922 5546  2589 7937 5454  2695 7951 5360  2809 7964 5266  2929 7975 5170  3052 7985 5074 "
    "3176 7994 4975  3301 8002 4876  3424 8009 4774  3548 8016 4669  3671 8021 4563  3795 8026 4454 "
    "3921 8029 4344  4050 8031 4233  4184 8030 4122  4322 8028 4013  4463 8024 3904  4608 8018 3797 "
    "4753 8011 3691  4899 8002 3586  5044 7993 3480  5187 7982 3374  5329 7970 3267  5470 7957 3159 "
    "5609 7943 3050  5748 7929 2941  5886 7913 2833  6024 7896 2726  6161 7878 2622  6297 7859 2521 "
    "6433 7839 2423  6567 7818 2329  6701 7796 2239  6833 7773 2155  6963 7750 2075  7091 7727 1998 "
    "7218 7703 1924  7344 7679 1852  7468 7654 1782  7590 7629 1717  7710 7604 1658  7829 7579 1608 "
    "7945 7554 1570  8060 7529 1546  8172 7505 1535  8281 7481 1536  8389 7457 1546  8495 7435 1564 "
    "8600 7413 1587  8703 7392 1615  8804 7372 1650  8903 7353 1695  9000 7336 1749  9093 7321 1815 "
    "9184 7308 1890  9272 7298 1973  9357 7290 2061  9440 7285 2151  9523 7284 2237  9606 7285 2312 "
    "9689 7292 2373  9770 7304 2418  9842 7330 2446  9900 7365 2429  9946 7407 2394  9966 7458 2351 "
    "9971 7513 2309  9972 7569 2267  9971 7626 2224  9969 7683 2181  9966 7740 2138  9962 7798 2095 "
    "9957 7856 2053  9949 7915 2012  9938 7974 1974  9923 8034 1939  9906 8095 1906  9885 8156 1875 "
    "9861 8218 1846  9835 8280 1817  9807 8342 1787  9778 8404 1757  9748 8467 1726  9720 8529 1695 "
    "9694 8591 1665  9671 8654 1636  9651 8716 1608  9634 8778 1582  9619 8840 1557  9608 8902 1532 "
    "9601 8963 1507  9596 9023 1480  9595 9084 1450  9597 9143 1418  9601 9203 1382  9608 9262 1344 "
    "9618 9320 1304  9629 9379 1261  9642 9437 1216  9657 9494 1168  9674 9552 1116  9692 9609 1061 "
    "9711 9667 1001  9730 9724 0938  9749 9782 0872  9769 9839 0805 "
)

# turbo (since R2020b): the 256-row table of the turbo colormap published by Google (Anton
# Mikhailov, 2019, Apache 2.0), R G B in units of 1e-5.
_TURBO_TEXT = (
    "18995 07176 23217  19483 08339 26149  19956 09498 29024  20415 10652 31844  20860 11802 34607 "
    "21291 12947 37314  21708 14087 39964  22111 15223 42558  22500 16354 45096  22875 17481 47578 "
    "23236 18603 50004  23582 19720 52373  23915 20833 54686  24234 21941 56942  24539 23044 59142 "
    "24830 24143 61286  25107 25237 63374  25369 26327 65406  25618 27412 67381  25853 28492 69300 "
    "26074 29568 71162  26280 30639 72968  26473 31706 74718  26652 32768 76412  26816 33825 78050 "
    "26967 34878 79631  27103 35926 81156  27226 36970 82624  27334 38008 84037  27429 39043 85393 "
    "27509 40072 86692  27576 41097 87936  27628 42118 89123  27667 43134 90254  27691 44145 91328 "
    "27701 45152 92347  27698 46153 93309  27680 47151 94214  27648 48144 95064  27603 49132 95857 "
    "27543 50115 96594  27469 51094 97275  27381 52069 97899  27273 53040 98461  27106 54015 98930 "
    "26878 54995 99303  26592 55979 99583  26252 56967 99773  25862 57958 99876  25425 58950 99896 "
    "24946 59943 99835  24427 60937 99697  23874 61931 99485  23288 62923 99202  22676 63913 98851 "
    "22039 64901 98436  21382 65886 97959  20708 66866 97423  20021 67842 96833  19326 68812 96190 "
    "18625 69775 95498  17923 70732 94761  17223 71680 93981  16529 72620 93161  15844 73551 92305 "
    "15173 74472 91416  14519 75381 90496  13886 76279 89550  13278 77165 88580  12698 78037 87590 "
    "12151 78896 86581  11639 79740 85559  11167 80569 84525  10738 81381 83484  10357 82177 82437 "
    "10026 82955 81389  09750 83714 80342  09532 84455 79299  09377 85175 78264  09287 85875 77240 "
    "09267 86554 76230  09320 87211 75237  09451 87844 74265  09662 88454 73316  09958 89040 72393 "
    "10342 89600 71500  10815 90142 70599  11374 90673 69651  12014 91193 68660  12733 91701 67627 "
    "13526 92197 66556  14391 92680 65448  15323 93151 64308  16319 93609 63137  17377 94053 61938 "
    "18491 94484 60713  19659 94901 59466  20877 95304 58199  22142 95692 56914  23449 96065 55614 "
    "24797 96423 54303  26180 96765 52981  27597 97092 51653  29042 97403 50321  30513 97697 48987 "
    "32006 97974 47654  33517 98234 46325  35043 98477 45002  36581 98702 43688  38127 98909 42386 "
    "39678 99098 41098  41229 99268 39826  42778 99419 38575  44321 99551 37345  45854 99663 36140 "
    "47375 99755 34963  48879 99828 33816  50362 99879 32701  51822 99910 31622  53255 99919 30581 "
    "54658 99907 29581  56026 99873 28623  57357 99817 27712  58646 99739 26849  59891 99638 26038 "
    "61088 99514 25280  62233 99366 24579  63323 99195 23937  64362 98999 23356  65394 98775 22835 "
    "66428 98524 22370  67462 98246 21960  68494 97941 21602  69525 97610 21294  70553 97255 21032 "
    "71577 96875 20815  72596 96470 20640  73610 96043 20504  74617 95593 20406  75617 95121 20343 "
    "76608 94627 20311  77591 94113 20310  78563 93579 20336  79524 93025 20386  80473 92452 20459 "
    "81410 91861 20552  82333 91253 20663  83241 90627 20788  84133 89986 20926  85010 89328 21074 "
    "85868 88655 21230  86709 87968 21391  87530 87267 21555  88331 86553 21719  89112 85826 21880 "
    "89870 85087 22038  90605 84337 22188  91317 83576 22328  92004 82806 22456  92666 82025 22570 "
    "93301 81236 22667  93909 80439 22744  94489 79634 22800  95039 78823 22831  95560 78005 22836 "
    "96049 77181 22811  96507 76352 22754  96931 75519 22663  97323 74682 22536  97679 73842 22369 "
    "98000 73000 22161  98289 72140 21918  98549 71250 21650  98781 70330 21358  98986 69382 21043 "
    "99163 68408 20706  99314 67408 20348  99438 66386 19971  99535 65341 19577  99607 64277 19165 "
    "99654 63193 18738  99675 62093 18297  99672 60977 17842  99644 59846 17376  99593 58703 16899 "
    "99517 57549 16412  99419 56386 15918  99297 55214 15417  99153 54036 14910  98987 52854 14398 "
    "98799 51667 13883  98590 50479 13367  98360 49291 12849  98108 48104 12332  97837 46920 11817 "
    "97545 45740 11305  97234 44565 10797  96904 43399 10294  96555 42241 09798  96187 41093 09310 "
    "95801 39958 08831  95398 38836 08362  94977 37729 07905  94538 36638 07461  94084 35566 07031 "
    "93612 34513 06616  93125 33482 06218  92623 32473 05837  92105 31489 05475  91572 30530 05134 "
    "91024 29599 04814  90463 28696 04516  89888 27824 04243  89298 26981 03993  88691 26152 03753 "
    "88066 25334 03521  87422 24526 03297  86760 23730 03082  86079 22945 02875  85380 22170 02677 "
    "84662 21407 02487  83926 20654 02305  83172 19912 02131  82399 19182 01966  81608 18462 01809 "
    "80799 17753 01660  79971 17055 01520  79125 16368 01387  78260 15693 01264  77377 15028 01148 "
    "76476 14374 01041  75556 13731 00942  74617 13098 00851  73661 12477 00769  72686 11867 00695 "
    "71692 11268 00629  70680 10680 00571  69650 10102 00522  68602 09536 00481  67535 08980 00449 "
    "66449 08436 00424  65345 07902 00408  64223 07380 00401  63082 06868 00401  61923 06367 00410 "
    "60746 05878 00427  59550 05399 00453  58336 04931 00486  57103 04474 00529  55852 04028 00579 "
    "54583 03593 00638  53295 03169 00705  51989 02756 00780  50664 02354 00863  49321 01963 00955 "
    "47960 01583 01055 "
)

# sky (since R2023a) runs linearly from a pale blue to the first line colour.
_SKY_ENDS = np.array([[0.9000, 0.9447, 0.9741], [0.0000, 0.4470, 0.7410]])


def _table(text: str, unit: float) -> np.ndarray:
    table = np.array(text.split(), dtype=float).reshape(-1, 3) * unit
    table.flags.writeable = False
    return table


_TABLES: dict[str, np.ndarray] = {}


def _tabulated(name: str) -> np.ndarray:
    """A colormap's table, decoded on first use."""
    table = _TABLES.get(name)
    if table is None:
        if name == "parula":
            table = _table(_PARULA_TEXT, 1e-4)
        elif name == "turbo":
            table = _table(_TURBO_TEXT, 1e-5)
        else:
            table = _SKY_ENDS
        _TABLES[name] = table
    return table


def _interpolated(table: np.ndarray, m: int) -> np.ndarray:
    """``interp1(1:P, table, linspace(1, P, m))``: linspace's one point is its end."""
    last = table.shape[0] - 1
    where = np.linspace(0.0, last, m) if m != 1 else np.array([float(last)])
    rows = np.arange(table.shape[0])
    return np.column_stack([np.interp(where, rows, table[:, k]) for k in range(3)])


# --------------------------------------------------------------------- the maps


def _ramp(m: int) -> np.ndarray:
    """0 to 1 in m steps as a column: the common part of gray, cool, spring..."""
    return (np.arange(m, dtype=float) / max(m - 1, 1)).reshape(-1, 1)


def parula_map(m: int) -> np.ndarray:
    return _interpolated(_tabulated("parula"), m)


def turbo_map(m: int) -> np.ndarray:
    return _interpolated(_tabulated("turbo"), m)


def sky_map(m: int) -> np.ndarray:
    return _interpolated(_tabulated("sky"), m)


def jet_map(m: int) -> np.ndarray:
    """Blue, cyan, yellow, red: each channel a trapezoid of width about m/4 steps, placed
    as MATLAB's jet places it (1-based positions below, as in MATLAB)."""
    n = math.ceil(m / 4)
    u = np.concatenate([np.arange(1, n + 1) / n, np.ones(max(n - 1, 0)), np.arange(n, 0, -1) / n])
    green = math.ceil(n / 2) - (m % 4 == 1) + np.arange(1, u.size + 1)
    red = green + n
    blue = green - n
    green = green[green <= m]
    red = red[red <= m]
    blue = blue[blue >= 1]
    out = np.zeros((m, 3))
    out[red - 1, 0] = u[:red.size]
    out[green - 1, 1] = u[:green.size]
    out[blue - 1, 2] = u[u.size - blue.size:]
    return out


def hot_map(m: int) -> np.ndarray:
    """Black, red, yellow, white: red rises over the first 3/8, then green, then blue."""
    n = math.trunc(3 / 8 * m)
    rest = m - 2 * n  # positive when m is: 2n is at most 3/4 of m
    rise = np.arange(1, n + 1) / max(n, 1)
    red = np.concatenate([rise, np.ones(m - n)])
    green = np.concatenate([np.zeros(n), rise, np.ones(rest)])
    blue = np.concatenate([np.zeros(2 * n), np.arange(1, rest + 1) / max(rest, 1)])
    return np.column_stack([red, green, blue])


def gray_map(m: int) -> np.ndarray:
    return np.repeat(_ramp(m), 3, axis=1)


def bone_map(m: int) -> np.ndarray:
    return (7 * gray_map(m) + hot_map(m)[:, ::-1]) / 8


def copper_map(m: int) -> np.ndarray:
    return np.minimum(1.0, gray_map(m) * np.array([1.2500, 0.7812, 0.4975]))


def pink_map(m: int) -> np.ndarray:
    return np.sqrt((2 * gray_map(m) + hot_map(m)) / 3)


def cool_map(m: int) -> np.ndarray:
    r = _ramp(m)
    return np.hstack([r, 1 - r, np.ones_like(r)])


def spring_map(m: int) -> np.ndarray:
    r = _ramp(m)
    return np.hstack([np.ones_like(r), r, 1 - r])


def summer_map(m: int) -> np.ndarray:
    r = _ramp(m)
    return np.hstack([r, 0.5 + r / 2, np.full_like(r, 0.4)])


def autumn_map(m: int) -> np.ndarray:
    r = _ramp(m)
    return np.hstack([np.ones_like(r), r, np.zeros_like(r)])


def winter_map(m: int) -> np.ndarray:
    r = _ramp(m)
    return np.hstack([np.zeros_like(r), r, 0.5 + (1 - r) / 2])


def hsv_map(m: int) -> np.ndarray:
    """Hues 0, 1/m, ... at full saturation and value; hsv(0) is [] (0-by-0) in MATLAB."""
    if m == 0:
        return np.zeros((0, 0))
    h = 6 * np.arange(m, dtype=float) / m
    sector = np.floor(h - 6 * np.finfo(float).eps).astype(int) % 6
    rising = h - np.floor(h - 6 * np.finfo(float).eps)
    falling = 1 - rising
    one, zero = np.ones(m), np.zeros(m)
    # (red, green, blue) in each sixth of the hue circle
    choices = [(one, rising, zero), (falling, one, zero), (zero, one, rising),
               (zero, falling, one), (rising, zero, one), (one, zero, falling)]
    out = np.zeros((m, 3))
    for k, channels in enumerate(choices):
        mask = sector == k
        for c in range(3):
            out[mask, c] = channels[c][mask]
    return out


def white_map(m: int) -> np.ndarray:
    return np.ones((m, 3))


def _repeated(colors: np.ndarray, m: int) -> np.ndarray:
    return np.asarray(colors, dtype=float)[np.arange(m) % colors.shape[0]].copy()


def lines_map(m: int, order: np.ndarray | None = None) -> np.ndarray:
    """The colour order (the current axes', else the default) repeated to m rows."""
    return _repeated(DEFAULT_COLOR_ORDER if order is None else order, m)


_PRISM = np.array([[1, 0, 0], [1, 0.5, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [2 / 3, 0, 1]])
_FLAG = np.array([[1.0, 0, 0], [1, 1, 1], [0, 0, 1], [0, 0, 0]])


def prism_map(m: int) -> np.ndarray:
    return _repeated(_PRISM, m)


def flag_map(m: int) -> np.ndarray:
    return _repeated(_FLAG, m)


def _cube_root(m: int) -> int:
    """The largest c with c**3 <= m."""
    c = round(m ** (1 / 3))
    while c ** 3 > m:
        c -= 1
    while (c + 1) ** 3 <= m:
        c += 1
    return c


def colorcube_map(m: int) -> np.ndarray:
    """As many evenly spaced colours of the RGB cube as fit, without its grays and pure
    primaries, then finer ramps of pure red, green and blue, black, and a gray ramp.
    Fewer than 9 colours: a gray ramp."""
    if m < 9:
        return gray_map(m)
    side = _cube_root(m)
    red_green = np.linspace(0, 1, side)
    blue = np.linspace(0, 1, side - 1 if m == side ** 3 else side)  # room for the gray ramp
    # green fastest, then red, then blue: the column-major order of a 3-D meshgrid
    b, r, g = np.meshgrid(blue, red_green, red_green, indexing="ij")
    cube = np.column_stack([r.ravel(), g.ravel(), b.ravel()])
    cube = cube[(cube[:, 0] != cube[:, 1]) | (cube[:, 0] != cube[:, 2])]  # no grays
    cube = cube[(cube == 0).sum(axis=1) != 2]  # no pure red, green, blue
    reserve = m - cube.shape[0] - 1
    steps = reserve // 4
    ramp = np.arange(1, steps + 1) / steps if steps else np.zeros(0)
    gray_steps = reserve - 3 * steps
    gray = np.arange(1, gray_steps + 1) / gray_steps if gray_steps > 0 else np.zeros(0)
    zero = np.zeros(steps)
    return np.vstack([
        cube,
        np.column_stack([ramp, zero, zero]),
        np.column_stack([zero, ramp, zero]),
        np.column_stack([zero, zero, ramp]),
        np.zeros((1, 3)),
        np.repeat(gray.reshape(-1, 1), 3, axis=1),
    ])


# The colormaps by name, in the order MATLAB's documentation lists them.
COLORMAPS: dict[str, Callable[[int], np.ndarray]] = {
    "parula": parula_map,
    "turbo": turbo_map,
    "hsv": hsv_map,
    "hot": hot_map,
    "cool": cool_map,
    "spring": spring_map,
    "summer": summer_map,
    "autumn": autumn_map,
    "winter": winter_map,
    "gray": gray_map,
    "bone": bone_map,
    "copper": copper_map,
    "pink": pink_map,
    "sky": sky_map,
    "jet": jet_map,
    "lines": lines_map,
    "colorcube": colorcube_map,
    "prism": prism_map,
    "flag": flag_map,
    "white": white_map,
}

# ------------------------------------------------------- hooks for the graphics core

_figure_colormap_length: Callable[[Any], int | None] | None = None
_current_color_order: Callable[[Any], np.ndarray | None] | None = None


def use_figure_colormap_length(reader: Callable[[Any], int | None]) -> None:
    """Called once by the graphics core: ``reader(interp)`` gives the number of rows of the
    current figure's colormap, or None when there is no figure."""
    global _figure_colormap_length
    _figure_colormap_length = reader


def use_current_color_order(reader: Callable[[Any], np.ndarray | None]) -> None:
    """Called once by the graphics core: ``reader(interp)`` gives the current axes' (or
    figure's) ColorOrder as an n-by-3 array, or None for the default one."""
    global _current_color_order
    _current_color_order = reader


def default_length(interp: Any = None) -> int:
    """The length of a colormap asked for without one: the current figure's, else 256."""
    if interp is not None and _figure_colormap_length is not None:
        n = _figure_colormap_length(interp)
        if n is not None:
            return int(n)
    return DEFAULT_LENGTH


def color_order(interp: Any = None) -> np.ndarray:
    """The colour order ``lines`` repeats: the current axes', else the default."""
    if interp is not None and _current_color_order is not None:
        order = _current_color_order(interp)
        if order is not None and np.size(order):
            return np.asarray(order, dtype=float).reshape(-1, 3)
    return DEFAULT_COLOR_ORDER


# -------------------------------------------------------------------- the public API


def colormap_count(value: object) -> int:
    """The number of colours asked for, read as MATLAB reads ``zeros(m, 3)``'s size."""
    if class_of(value) not in NUMERIC_OR_LOGICAL:
        raise error("MATLAB:NonNumericInput", "Size inputs must be numeric.")
    a = to_double_array(value)
    if a.size != 1:
        raise error("MATLAB:NonScalarInput", "Size inputs must be scalar.")
    x = a.reshape(-1)[0]
    if np.iscomplexobj(x):
        x = x.real
    x = float(x)
    if not math.isfinite(x) or x != math.floor(x):
        raise error("MATLAB:NonIntegerInput", "Size inputs must be integers.")
    m = max(int(x), 0)
    checked_shape((m, 3), "double")
    return m


def colormap_by_name(name: str, m: int | None = None, interp: Any = None) -> np.ndarray:
    """The colormap called ``name`` (any letter case) with m colours (default: the current
    figure's length, else 256), as an m-by-3 float array.  An unknown name is MATLAB's
    error for an unknown function."""
    maker = COLORMAPS.get(name.lower()) if isinstance(name, str) else None
    if maker is None:
        raise error("MATLAB:UndefinedFunction", f"Unrecognized function or variable '{name}'.")
    count = default_length(interp) if m is None else m
    if count < 0:
        count = 0
    if maker is lines_map:
        return lines_map(count, color_order(interp))
    return maker(count)


def is_colormap_name(name: str) -> bool:
    """Whether ``name`` names one of the colormap functions (any letter case)."""
    return name.lower() in COLORMAPS


# ------------------------------------------------------------------------ builtins


def _register(name: str, summary: str) -> None:
    def colormap_function(interp: Any, m: object = None) -> np.ndarray:
        count = default_length(interp) if m is None else colormap_count(m)
        return colormap_by_name(name, count, interp)

    colormap_function.__name__ = name
    related = ", ".join(other for other in ("colormap", "parula", "turbo", "jet", "gray") if other != name)
    colormap_function.__doc__ = (
        f"c = {name}  {summary}\n"
        f"c = {name}(m)  the colormap with m colors, an m-by-3 array of RGB intensities in [0, 1]\n"
        f"(without m: as many colors as the current figure's colormap, 256 without a figure)\n"
        f"\nSee also {related}."
    )
    builtin(name, interp=True)(colormap_function)


for _name, _summary in [
    ("parula", "the parula colormap (MATLAB's default): blue, green, orange, yellow"),
    ("turbo", "the turbo colormap: dark blue, cyan, green, yellow, red, dark red"),
    ("hsv", "the hue-saturation-value colormap: red, yellow, green, cyan, blue, magenta"),
    ("hot", "the hot colormap: black, red, yellow, white"),
    ("cool", "the cool colormap: cyan to magenta"),
    ("spring", "the spring colormap: magenta to yellow"),
    ("summer", "the summer colormap: green to yellow"),
    ("autumn", "the autumn colormap: red, orange, yellow"),
    ("winter", "the winter colormap: blue to green"),
    ("gray", "the gray colormap: black to white"),
    ("bone", "the bone colormap: gray with a tinge of blue"),
    ("copper", "the copper colormap: black to light copper"),
    ("pink", "the pink colormap: pastel shades of pink"),
    ("sky", "the sky colormap: pale blue to dark blue"),
    ("jet", "the jet colormap: dark blue, cyan, yellow, dark red"),
    ("lines", "the axes colour order repeated"),
    ("colorcube", "the colorcube colormap: a regular sampling of the RGB cube"),
    ("prism", "the prism colormap: red, orange, yellow, green, blue, violet repeated"),
    ("flag", "the flag colormap: red, white, blue, black repeated"),
    ("white", "the all-white colormap"),
]:
    _register(_name, _summary)
