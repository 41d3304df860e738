"""Data formats of dlarrays: canonical order, operations lining formatted operands up by
label, dims, finddim, stripdims, extractdata, and the formats of reshaped and permuted
results."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray


def script(m, text: str) -> dict:
    """Run a script with local functions in the session's base workspace: its variables."""
    m.interp.base.vars.clear()
    m.interp.run_source(text, "formats_script")
    return m.interp.base.vars


def _dl(m, code: str, name: str = "y") -> DlArray:
    v = m.value(code, name)
    assert type(v) is DlArray
    return v


# ------------------------------------------------------------ canonical order


def test_dlarray_permutes_to_canonical_order(m) -> None:
    y = _dl(m, "y = dlarray(reshape(1:6, 2, 3), 'BC');")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, np.arange(1, 7).reshape(2, 3, order="F").T)


def test_extractdata_of_permuted_data_is_in_canonical_order(m) -> None:
    x = m.value("A = rand(2, 3, 4); y = extractdata(dlarray(A, 'TSC')); x = isequal(y, permute(A, [2 3 1]));")
    assert x is True or x == 1


def test_formats_with_the_same_labels_in_other_orders_meet(m) -> None:
    y = _dl(m, "A = [1 2 3; 4 5 6]; y = dlarray(A, 'CB') + dlarray(A', 'BC');")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, 2 * np.array([[1, 2, 3], [4, 5, 6]]))


def test_dims_and_finddim(m) -> None:
    out = m.run("x = dlarray(ones(2, 3, 4, 5), 'SCSB'); d = dims(x), s = finddim(x, 'S'), "
                "b = finddim(x, 'B'), t = finddim(x, 'T')")
    assert "d =\n\n    'SSCB'" in out
    assert m.interp.base.vars["s"].tolist() == [[1.0, 2.0]]
    assert m.interp.base.vars["b"] == 4.0
    assert m.interp.base.vars["t"].shape == (1, 0)


def test_dims_of_an_unformatted_dlarray_is_empty_char(m) -> None:
    out = m.run("d = dims(dlarray(1:3))")
    assert out == "\nd =\n\n  0\u00d70 empty char array\n\n"


def test_finddim_of_an_unformatted_dlarray_is_empty(m) -> None:
    assert m.value("x = isempty(finddim(dlarray(ones(2)), 'C'));") in (True, 1)


# ------------------------------------------------------------ stripdims


def test_stripdims_removes_the_format_and_keeps_the_order(m) -> None:
    y = _dl(m, "y = stripdims(dlarray(reshape(1:6, 2, 3), 'BC'));")
    assert y.fmt == ""
    assert y.data.shape == (3, 2)


def test_stripdims_with_a_format_orders_the_dimensions(m) -> None:
    y = _dl(m, "y = stripdims(dlarray(reshape(1:6, 2, 3), 'CB'), 'BC');")
    assert y.fmt == ""
    np.testing.assert_array_equal(y.data, np.arange(1, 7).reshape(2, 3, order="F").T)
    y = _dl(m, "y = stripdims(dlarray(rand(2, 3, 4), 'SCB'), 'BSC');")
    assert y.data.shape == (4, 2, 3)


def test_stripdims_with_other_labels_is_an_error(m) -> None:
    err = m.fails("y = stripdims(dlarray(ones(2, 3), 'CB'), 'CT');")
    assert err.identifier == "deep:dlarray:InvalidFormat"


def test_stripdims_keeps_the_trace(m) -> None:
    g = script(m, """
g = dlfeval(@f, dlarray([1 2; 3 4; 5 6], 'CB'));
function g = f(x)
    y = stripdims(x, 'BC');
    g = dlgradient(sum(y(1, :) .* [1 10 100]), x);
end
""")["g"]
    np.testing.assert_array_equal(g.data, [[1, 0], [10, 0], [100, 0]])


# ------------------------------------------------------------ lining up by label


def test_a_channel_vector_expands_along_the_batch(m) -> None:
    y = _dl(m, "y = dlarray([1 2 3; 4 5 6], 'CB') + dlarray([10; 20], 'C');")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, [[11, 12, 13], [24, 25, 26]])


def test_a_batch_vector_expands_along_the_channels(m) -> None:
    y = _dl(m, "y = dlarray([1 2 3; 4 5 6], 'CB') - dlarray([1 2 3], 'B');")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, [[0, 0, 0], [3, 3, 3]])


def test_spatial_data_with_a_per_channel_bias(m) -> None:
    y = _dl(m, "y = dlarray(ones(2, 2, 3, 2), 'SSCB') .* dlarray([1; 2; 3], 'C');")
    assert y.fmt == "SSCB"
    assert y.data.shape == (2, 2, 3, 2)
    np.testing.assert_array_equal(y.data[0, 0, :, 1], [1, 2, 3])


def test_labels_missing_from_one_operand_are_added(m) -> None:
    y = _dl(m, "y = dlarray(ones(2, 3), 'CB') .* dlarray(2 * ones(2, 4), 'CT');")
    assert y.fmt == "CBT"
    assert y.data.shape == (2, 3, 4)
    assert np.all(y.data == 2)


def test_more_spatial_dimensions_in_one_operand(m) -> None:
    y = _dl(m, "y = dlarray(ones(2, 3), 'SC') + dlarray(ones(2, 4, 3), 'SSC');")
    assert y.fmt == "SSC"
    assert y.data.shape == (2, 4, 3)


def test_element_wise_functions_line_up_too(m) -> None:
    y = _dl(m, "y = max(dlarray([1 5; 2 0], 'CB'), dlarray([3; 1], 'C'));")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, [[3, 5], [2, 1]])


def test_comparisons_line_up(m) -> None:
    y = _dl(m, "y = dlarray([1 5; 2 0], 'CB') > dlarray([3; 1], 'C');")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, [[False, True], [True, False]])


def test_unformatted_operands_meet_position_by_position(m) -> None:
    y = _dl(m, "y = dlarray([1 2; 3 4], 'CB') + [10 20; 30 40];")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, [[11, 22], [33, 44]])


def test_incompatible_sizes_after_lining_up_is_an_error(m) -> None:
    err = m.fails("y = dlarray(ones(2, 3), 'CB') + dlarray(ones(3, 1), 'C');")
    assert err.identifier == "MATLAB:sizeDimensionsMustMatch"


def test_trailing_singleton_unspecified_dimensions_are_dropped(m) -> None:
    y = _dl(m, "y = dlarray(ones(2, 3), 'CB') + dlarray([1; 2], 'C');")
    assert y.fmt == "CB"  # 'C' on a vector is 'CU': its singleton U goes


def test_gradients_flow_back_through_lined_up_operands(m) -> None:
    out = script(m, """
[gx, gb] = dlfeval(@f, dlarray([1 2 3; 4 5 6], 'CB'), dlarray([1; 2], 'C'));
function [gx, gb] = f(x, b)
    [gx, gb] = dlgradient(sum((x .* b) .^ 2, 'all'), x, b);
end
""")
    gx, gb = out["gx"], out["gb"]
    x = np.array([[1.0, 2, 3], [4, 5, 6]])
    b = np.array([[1.0], [2]])
    np.testing.assert_allclose(gx.data, 2 * x * b ** 2)
    np.testing.assert_allclose(gb.data, (2 * x ** 2 * b).sum(axis=1, keepdims=True))
    assert gx.fmt == "CB" and gb.fmt == "CU"


# ------------------------------------------------------------ reshape, permute


def test_reshape_of_a_formatted_dlarray_is_unformatted(m) -> None:
    y = _dl(m, "y = reshape(dlarray(ones(2, 3), 'CB'), 3, 2);")
    assert y.fmt == ""
    assert y.data.shape == (3, 2)


@pytest.mark.parametrize(("code", "fmt"), [
    ("permute(dlarray(ones(2, 3), 'CB'), [2 1])", ""),
    ("permute(dlarray(ones(2, 3), 'SS'), [2 1])", "SS"),
    ("permute(dlarray(ones(2, 3, 4), 'SSC'), [2 1 3])", "SSC"),
    ("permute(dlarray(ones(2, 3), 'CB'), [1 2 3])", "CB"),
    ("transpose(dlarray(ones(2, 3), 'CB'))", ""),
    ("dlarray(ones(2, 3), 'SS')'", "SS"),
])
def test_permuted_results_keep_labels_only_when_each_dimension_keeps_its_label(
        m, code: str, fmt: str) -> None:
    assert _dl(m, f"y = {code};").fmt == fmt


@pytest.mark.parametrize(("code", "fmt", "shape"), [
    ("squeeze(dlarray(ones(1, 1, 3, 4), 'SSCB'))", "CB", (3, 4)),
    ("squeeze(dlarray(ones(2, 1, 3, 4), 'SSCB'))", "SCB", (2, 3, 4)),
    ("squeeze(dlarray(ones(1, 1, 3), 'SSC'))", "CU", (3, 1)),
    ("squeeze(dlarray(ones(1, 3), 'CB'))", "CB", (1, 3)),
])
def test_squeeze_drops_the_labels_of_the_dimensions_it_removes(
        m, code: str, fmt: str, shape: tuple) -> None:
    y = _dl(m, f"y = {code};")
    assert y.fmt == fmt
    assert y.data.shape == shape
