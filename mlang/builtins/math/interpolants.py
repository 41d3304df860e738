"""griddedInterpolant: an interpolant of gridded data in ndgrid layout, evaluated by
indexing (F(xq), F(Xq1,...,Xqn), F({xq1,...,xqn})), with readable and settable
properties GridVectors, Values, Method and ExtrapolationMethod."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option, text_or_none
from mlang.builtins.math.gridded import is_uniform, real_interpolation
from mlang.builtins.math.linalg import as_floats, float_result, is_vector_array
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, fix_shape, result, to_double_array
from mlang.values.objects import MatlabObject

NAME = "griddedInterpolant"
METHODS = ("linear", "nearest", "next", "previous", "pchip", "cubic", "spline", "makima")
EXTRAPOLATIONS = (*METHODS, "none")
# Fewest grid points each method needs in every dimension.
_LEAST_POINTS = {"pchip": 4, "cubic": 3, "spline": 4}


def _bad_method() -> Exception:
    return error(f"MATLAB:{NAME}:BadInterpTypeErrId",
                 "Interpolation method must be 'linear', 'nearest', 'next', 'previous', "
                 "'pchip', 'cubic', 'spline', or 'makima'.")


def _method(v: Any, extrapolation: bool = False) -> str:
    word = text_option(v)
    allowed = EXTRAPOLATIONS if extrapolation else METHODS
    if word not in allowed:
        if extrapolation:
            raise error(f"MATLAB:{NAME}:BadExtrapTypeErrId",
                        "Extrapolation method must be 'linear', 'nearest', 'next', 'previous', "
                        "'pchip', 'cubic', 'spline', 'makima', or 'none'.")
        raise _bad_method()
    return word


def _mismatch() -> Exception:
    return error(f"MATLAB:{NAME}:CompVecValueMismatchErrId",
                 "The grid vectors do not define a grid of points that match the given values.")


def _grid_from(v: Any, axis: int, n: int) -> np.ndarray:
    """A grid vector: a vector, or a full ndgrid array read along ``axis``."""
    a = as_floats(v, NAME)
    if a.dtype.kind == "c":
        raise error(f"MATLAB:{NAME}:ComplexGridErrId", "Grid vectors must be real.")
    if is_vector_array(a) or a.size == 1:
        g = a.reshape(-1)
    elif a.size == 0:
        g = a.reshape(-1)  # an empty grid: the size check below reports it
    else:
        index = [0] * a.ndim
        if axis < a.ndim:
            index[axis] = slice(None)
        g = a[tuple(index)].reshape(-1)
    if g.size != n:
        raise _mismatch()
    return g.astype(np.float64)


def _checked(grids: list[np.ndarray], values: np.ndarray) -> None:
    if len(grids) > 1 and values.ndim > len(grids) or any(
            values.shape[d] != g.size for d, g in enumerate(grids)):
        raise _mismatch()
    for g in grids:
        if g.size < 2:
            raise error(f"MATLAB:{NAME}:NotEnoughPtsErrId",
                        "Interpolation requires at least two sample points for each grid "
                        "dimension.")
        if not np.all(np.diff(g) > 0):
            raise error(f"MATLAB:{NAME}:NonMonotonicCompVecsErrId",
                        "Sample points in each dimension must be unique and sorted in "
                        "ascending order.")


def _values(v: Any) -> np.ndarray:
    cls = class_of(v)
    if cls not in ("double", "single"):
        raise error(f"MATLAB:{NAME}:NonFloatValuesErrId",
                    "Sample values must be of type double or single.")
    return np.asarray(v) if type(v) is np.ndarray else to_double_array(v)


class GriddedInterpolant(MatlabObject):
    """A griddedInterpolant value: grid vectors (increasing), values with one axis per
    grid vector, and the interpolation and extrapolation methods."""

    matlab_class = NAME
    __slots__ = ("grids", "values", "method", "extrapolation")

    def __init__(self, grids: list[np.ndarray], values: np.ndarray, method: str = "linear",
                 extrapolation: str | None = None) -> None:
        self.grids = grids
        self.values = values
        self.method = method
        self.extrapolation = extrapolation or method

    def _copy(self) -> GriddedInterpolant:
        return GriddedInterpolant(list(self.grids), self.values, self.method, self.extrapolation)

    # ---------------------------------------------------------- properties

    def property_names(self) -> list[str]:
        return ["GridVectors", "Values", "Method", "ExtrapolationMethod"]

    def get_property(self, name: str) -> Any:
        if name == "GridVectors":
            return Cell.row([result(g.reshape(1, -1).copy()) for g in self.grids]) \
                if self.grids else Cell.empty((1, 0))
        if name == "Values":
            return result(self.values)
        if name == "Method":
            return char_row(self.method)
        if name == "ExtrapolationMethod":
            return char_row(self.extrapolation)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Any:
        new = self._copy()
        if name == "GridVectors":
            if type(value) is not Cell:
                raise error(f"MATLAB:{NAME}:GridVecsNotCellErrId",
                            "Grid vectors must be specified as a cell array.")
            items = list(value.data.ravel(order="F"))
            new.grids = [_grid_from(g, d, as_floats(g, NAME).size) for d, g in enumerate(items)]
            _checked(new.grids, _shaped(new.values, len(new.grids)))
        elif name == "Values":
            values = _values(value)
            _checked(new.grids, _shaped(values, len(new.grids)))
            new.values = values
        elif name == "Method":
            new.method = _method(value)
        elif name == "ExtrapolationMethod":
            new.extrapolation = _method(value, extrapolation=True)
        else:
            return super().set_property(name, value)
        _enough(new.grids, new.method, new.extrapolation)
        return new

    # ---------------------------------------------------------- evaluation

    def subsref_paren(self, args: list) -> Any:
        dims = len(self.grids)
        if dims == 0:
            raise error(f"MATLAB:{NAME}:EmptyInterpolantErrId",
                        "The interpolant is empty: it has no grid or values.")
        if len(args) == 1 and type(args[0]) is Cell:
            vectors = [as_floats(q, NAME).reshape(-1) for q in args[0].data.ravel(order="F")]
            if len(vectors) != dims:
                raise _query_mismatch(dims)
            queries = np.meshgrid(*vectors, indexing="ij")
            shape = fix_shape(tuple(q.size for q in vectors))
        elif len(args) == 1 and dims > 1:
            a = as_floats(args[0], NAME)
            if a.ndim != 2 or a.shape[1] != dims:
                raise _query_mismatch(dims)
            queries = [a[:, d] for d in range(dims)]
            shape = (a.shape[0], 1)
        elif len(args) == dims:
            arrays = [as_floats(q, NAME) for q in args]
            if len({q.shape for q in arrays}) > 1:
                raise error(f"MATLAB:{NAME}:QueryPtsSizeMismatchErrId",
                            "The input coordinate arrays must have the same size.")
            queries, shape = arrays, arrays[0].shape
        else:
            raise _query_mismatch(dims)
        points = np.stack([np.asarray(q, dtype=np.float64).reshape(-1, order="F")
                           for q in queries], axis=1)
        if points.dtype.kind == "c" or any(np.iscomplexobj(q) for q in queries):
            raise error(f"MATLAB:{NAME}:ComplexQueryErrId", "Query points must be real.")
        values = _shaped(self.values, dims).astype(np.result_type(self.values, np.float64))
        out = _evaluate(self.grids, values, points, self.method, self.extrapolation)
        trailing = values.shape[dims:]
        if trailing:  # several value sets: one column (or page) per set
            lead = (points.shape[0],) if len(shape) == 2 and min(shape) == 1 else tuple(shape)
            out = out.reshape(lead + trailing, order="F")
            return float_result(out.reshape(fix_shape(out.shape)), self.values, *args)
        return float_result(out.reshape(shape, order="F"), self.values, *args)

    def __repr__(self) -> str:
        return f"GriddedInterpolant({len(self.grids)}-D, {self.method!r}, {self.extrapolation!r})"


def _shaped(values: np.ndarray, dims: int) -> np.ndarray:
    """The values with one axis per grid dimension (a vector is one axis)."""
    if dims == 1:
        return values.reshape(-1) if is_vector_array(values) or values.size <= 1 else values
    return values.reshape(values.shape + (1,) * (dims - values.ndim)) \
        if values.ndim < dims else values


def _query_mismatch(dims: int) -> Exception:
    return error(f"MATLAB:{NAME}:NumCoordsGridDimMismatchErrId",
                 f"The number of input coordinate arrays does not equal the number of "
                 f"dimensions of the interpolant ({dims}).")


def _enough(grids: list[np.ndarray], *methods: str) -> None:
    """MATLAB's error when a method needs more grid points than there are."""
    for m in methods:
        need = _LEAST_POINTS.get(m, 2)
        if any(g.size < need for g in grids):
            raise error(f"MATLAB:{NAME}:NotEnoughPtsErrId",
                        f"The '{m}' method requires at least {need} points in each dimension.")


def _evaluate(grids: list[np.ndarray], values: np.ndarray, points: np.ndarray, method: str,
              extrapolation: str) -> np.ndarray:
    """Interpolate inside the grid by ``method`` and outside by ``extrapolation``."""
    _enough(grids, method, extrapolation)
    if method == "cubic" and not all(is_uniform(g) for g in grids):
        method = "spline"  # cubic convolution needs a uniform grid
    if extrapolation == "cubic" and not all(is_uniform(g) for g in grids):
        extrapolation = "spline"
    inside = np.ones(points.shape[0], dtype=bool)
    for d, g in enumerate(grids):
        inside &= (points[:, d] >= g[0]) & (points[:, d] <= g[-1])
    lead = values.shape[:len(grids)]
    sets = values.reshape(lead + (-1,), order="F")  # value sets beyond the grid's dimensions
    out = np.full((points.shape[0], sets.shape[-1]), np.nan,
                  dtype=np.result_type(values, np.float64))
    for where, how in ((inside, method), (~inside, extrapolation)):
        if how == "none" or not where.any():
            continue
        for k in range(sets.shape[-1]):
            out[where, k] = _by_method(grids, sets[..., k], points[where], how)
    out[np.isnan(points).any(axis=1)] = np.nan
    return out


def _by_method(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray,
               method: str) -> np.ndarray:
    if v.dtype.kind == "c" and method not in ("nearest", "next", "previous"):
        return real_interpolation(grids, v.real.copy(), points, method, NAME) \
            + 1j * real_interpolation(grids, v.imag.copy(), points, method, NAME)
    return np.asarray(real_interpolation(grids, v, points, method, NAME))


@builtin()
def griddedInterpolant(*args: Any) -> Any:  # noqa: N802 - MATLAB's name
    """F = griddedInterpolant
    F = griddedInterpolant(x,v)
    F = griddedInterpolant(X1,X2,...,Xn,V)
    F = griddedInterpolant(V)
    F = griddedInterpolant(gridVecs,V)
    F = griddedInterpolant(___,Method)
    F = griddedInterpolant(___,Method,ExtrapolationMethod)

    Gridded data interpolant (ndgrid layout). Evaluate it as F(xq),
    F(Xq1,...,Xqn), F(P) (one point per row) or F({xq1,...,xqn}) (a grid).
    Methods: 'linear' (default), 'nearest', 'next', 'previous', 'pchip',
    'cubic', 'spline', 'makima'; ExtrapolationMethod: one of those or 'none'
    (NaN outside the grid), by default the interpolation method. Properties
    GridVectors, Values, Method and ExtrapolationMethod can be read and set."""
    items = list(args)
    texts = 0
    while texts < len(items) and text_or_none(items[len(items) - 1 - texts]) is not None:
        texts += 1
    if texts > 2:
        raise _bad_method()
    numeric, words = items[:len(items) - texts], items[len(items) - texts:]
    method = _method(words[0]) if words else "linear"
    extrapolation = _method(words[1], extrapolation=True) if len(words) > 1 else None
    if not numeric:
        return GriddedInterpolant([], np.zeros((0, 0)), method, extrapolation)
    values = _values(numeric[-1])
    grid_args = numeric[:-1]
    if not grid_args:
        dims = 1 if is_vector_array(values) else values.ndim
        v = _shaped(values, dims)
        grids = [np.arange(1.0, n + 1) for n in v.shape]
    elif len(grid_args) == 1 and type(grid_args[0]) is Cell:
        vectors = list(grid_args[0].data.ravel(order="F"))
        grids = [_grid_from(g, d, as_floats(g, NAME).size) for d, g in enumerate(vectors)]
    elif len(grid_args) == 1:
        x = as_floats(grid_args[0], NAME)
        if not (is_vector_array(x) or x.size == 1):
            raise _mismatch()
        grids = [_grid_from(x, 0, x.size)]
        if is_vector_array(values) and values.size != x.size or \
                not is_vector_array(values) and values.shape[0] != x.size:
            raise _mismatch()
    else:
        dims = len(grid_args)
        if values.ndim > dims:
            raise _mismatch()
        v = _shaped(values, dims)
        grids = [_grid_from(g, d, v.shape[d]) for d, g in enumerate(grid_args)]
    _checked(grids, _shaped(values, len(grids)))
    _enough(grids, method, extrapolation or method)
    return GriddedInterpolant(grids, values, method, extrapolation)
