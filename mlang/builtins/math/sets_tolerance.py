"""Sets within a tolerance: uniquetol and ismembertol.

Two values u and v are within tolerance when abs(u-v) <= tol*DS, where DS (the
'DataScale') is by default the largest absolute value of the inputs; two rows
are within tolerance when every column is ('ByRows', with one data scale per
column).  The default tol is 1e-12 for double and 1e-6 for single data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_option
from mlang.builtins.text.forms import object_array
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import class_of, result, to_array, to_double_array


def _float_data(name: str, v: Any, what: str) -> np.ndarray:
    if class_of(v) not in ("double", "single"):
        raise error(f"MATLAB:{name}:unsupportedClass",
                    f"{what} must be a full, real array of class double or single.")
    x = to_array(v)
    if x.dtype.kind == "c":
        raise error(f"MATLAB:{name}:complexInput",
                    f"{what} must be a full, real array of class double or single.")
    return x


def _tolerance(name: str, args: list, single: bool) -> tuple[float, bool, dict]:
    """The tolerance and occurrence ('lowest' or 'highest': whether highest), both
    positional and optional, and the name-value options."""
    tol = 1e-6 if single else 1e-12
    if args and class_of(args[0]) in ("double", "single"):
        t = to_double_array(args.pop(0)).reshape(-1)
        if t.size != 1 or t.dtype.kind == "c" or not t[0] >= 0:
            raise error(f"MATLAB:{name}:TolNonNegativeScalar",
                        "Tolerance must be a real nonnegative scalar.")
        tol = float(t[0])
    highest = False
    if name == "uniquetol" and args and text_option(args[0]) in ("lowest", "highest"):
        highest = text_option(args.pop(0)) == "highest"
    return tol, highest, options(args, ("ByRows", "OutputAllIndices", "DataScale"))


def _data_scale(name: str, found: dict, data: np.ndarray, by_rows: bool) -> np.ndarray:
    """DS: the largest absolute value (per column by rows), or the 'DataScale' given."""
    if "DataScale" in found:
        ds = to_double_array(found["DataScale"]).reshape(-1)
        if ds.dtype.kind == "c" or not np.all(ds >= 0) or ds.size not in (
                1, data.shape[1] if by_rows and data.ndim == 2 else 1):
            raise error(f"MATLAB:{name}:InvalidDataScale",
                        "DataScale must be a nonnegative scalar (or a vector with one element "
                        "per column with 'ByRows').")
        return ds
    finite = np.abs(np.where(np.isnan(data), 0.0, data))
    if by_rows:
        return finite.max(axis=0) if finite.shape[0] else np.zeros(finite.shape[1])
    return np.array([finite.max() if finite.size else 0.0])


def _rows_of(name: str, x: np.ndarray) -> np.ndarray:
    if x.ndim != 2:
        raise error(f"MATLAB:{name}:ByRowsMatrix", "Input must be a matrix when 'ByRows' is true.")
    return x.astype(np.float64)


def _value_groups(values: np.ndarray, limit: float, highest: bool) -> tuple[np.ndarray, np.ndarray]:
    """Groups of values within tolerance, numbered in ascending order, and the position
    of each group's kept value. Taken in ascending (or, ``highest``, descending) order,
    the values within tolerance of the first unassigned one form a contiguous run."""
    order = np.argsort(values, kind="stable")  # NaN last
    ordered = values[order]
    count = int(np.count_nonzero(~np.isnan(values)))
    present = ordered[:count]
    group = np.empty(values.size, dtype=np.int64)
    runs: list[tuple[int, int]] = []
    if not highest:
        i = 0
        while i < count:
            j = max(int(np.searchsorted(present, present[i] + limit, side="right")), i + 1)
            runs.append((i, j))
            i = j
    else:
        j = count
        while j > 0:
            i = min(int(np.searchsorted(present, present[j - 1] - limit, side="left")), j - 1)
            runs.append((i, j))
            j = i
        runs.reverse()
    kept = []
    for k, (i, j) in enumerate(runs):
        group[order[i:j]] = k
        # the kept value: the lowest (or highest) of the run, its first occurrence
        top = int(np.searchsorted(present, present[j - 1], side="left")) if highest else i
        kept.append(order[top])
    nan_positions = order[count:]  # every NaN is a group of its own
    group[nan_positions] = len(runs) + np.arange(nan_positions.size)
    return group, np.array(kept + list(nan_positions), dtype=np.int64)


def _row_groups(items: np.ndarray, limit: np.ndarray, highest: bool) -> tuple[np.ndarray, np.ndarray]:
    """Groups of rows within tolerance (greedy over the rows in sorted order, each
    unassigned row starting a group), numbered in ascending order, and the position of
    each group's kept row."""
    order = np.lexsort(items.T[::-1]) if items.shape[1] else np.arange(items.shape[0])
    if highest and items.shape[1]:
        order = np.lexsort((-items).T[::-1])
    group = np.full(items.shape[0], -1, dtype=np.int64)
    firsts: list[int] = []
    for i in order:
        if group[i] >= 0:
            continue
        with np.errstate(invalid="ignore"):
            close = np.all(np.abs(items - items[i]) <= limit, axis=1) & (group < 0)
        close[i] = True
        group[close] = len(firsts)
        firsts.append(int(i))
    ia = np.array(firsts, dtype=np.int64)
    if highest:  # groups were found from the top: number them in ascending order
        ia = ia[::-1]
        group = ia.size - 1 - group
    return group, ia


@builtin(max_out=3, nargout=True)
def uniquetol(a: Any, *args: Any, nargout: int = 1) -> object:
    """C = uniquetol(A,tol)
    C = uniquetol(A)
    C = uniquetol(A,tol,occurrence)
    C = uniquetol(___,Name,Value)
    [C,IA,IC] = uniquetol(___)

    Unique values of A within tolerance, sorted: the elements are taken in
    ascending order (descending with occurrence 'highest') and each one that is
    not within tolerance of an element already kept is kept; C = A(IA) and A is
    close to C(IC). Options: 'ByRows' (unique rows), 'OutputAllIndices' (IA a
    cell array of every index of each group) and 'DataScale'."""
    x = _float_data("uniquetol", a, "Input A")
    tol, highest, found = _tolerance("uniquetol", list(args), x.dtype == np.float32)
    by_rows = option_flag(found["ByRows"], "ByRows") if "ByRows" in found else False
    all_indices = option_flag(found["OutputAllIndices"], "OutputAllIndices") \
        if "OutputAllIndices" in found else False
    items = _rows_of("uniquetol", x) if by_rows else \
        x.reshape(-1, 1, order="F").astype(np.float64)
    limit = tol * _data_scale("uniquetol", found, items if by_rows else x, by_rows)
    if by_rows:
        group, ia = _row_groups(items, limit, highest)
    else:
        group, ia = _value_groups(items[:, 0], float(limit[0]), highest)
    if by_rows:
        c = result(x[ia])
    else:
        flat = x.reshape(-1, order="F")[ia]
        row = x.ndim == 2 and x.shape[0] == 1
        c = result(flat.reshape(1, -1) if row else flat.reshape(-1, 1))
    if nargout <= 1:
        return c
    if all_indices:
        by_group = np.argsort(group, kind="stable")
        bounds = np.searchsorted(group[by_group], np.arange(ia.size + 1))
        members = [result((by_group[bounds[k]:bounds[k + 1]] + 1).astype(np.float64).reshape(-1, 1))
                   for k in range(ia.size)]
        ia_out: object = Cell(object_array(members, (ia.size, 1)))
    else:
        ia_out = result((ia + 1).astype(np.float64).reshape(-1, 1))
    ic = result((group + 1).astype(np.float64).reshape(-1, 1))
    return (c, ia_out, ic)[:nargout]


@builtin(max_out=2, nargout=True)
def ismembertol(a: Any, b: Any, *args: Any, nargout: int = 1) -> object:
    """LIA = ismembertol(A,B,tol)
    LIA = ismembertol(A,B)
    LIA = ismembertol(___,Name,Value)
    [LIA,LocB] = ismembertol(___)

    True where an element of A is within tolerance of an element of B (DS is the
    largest absolute value of A and B together); LocB is the lowest index of
    such an element of B. Options: 'ByRows', 'OutputAllIndices' (LocB a cell
    array of every index) and 'DataScale'."""
    x = _float_data("ismembertol", a, "Input A")
    y = _float_data("ismembertol", b, "Input B")
    single = x.dtype == np.float32 or y.dtype == np.float32
    tol, _, found = _tolerance("ismembertol", list(args), single)
    by_rows = option_flag(found["ByRows"], "ByRows") if "ByRows" in found else False
    all_indices = option_flag(found["OutputAllIndices"], "OutputAllIndices") \
        if "OutputAllIndices" in found else False
    if by_rows:
        xs, ys = _rows_of("ismembertol", x), _rows_of("ismembertol", y)
        if xs.shape[1] != ys.shape[1]:
            raise error("MATLAB:ismembertol:AandBColnumAgree",
                        "Inputs A and B must have the same number of columns when 'ByRows' is true.")
        shape: tuple[int, ...] = (xs.shape[0], 1)
    else:
        xs = x.reshape(-1, 1, order="F").astype(np.float64)
        ys = y.reshape(-1, 1, order="F").astype(np.float64)
        shape = x.shape
    both = np.concatenate([xs, ys], axis=0) if by_rows else \
        np.concatenate([x.reshape(-1).astype(np.float64), y.reshape(-1).astype(np.float64)])
    limit = tol * _data_scale("ismembertol", found, both, by_rows)
    if by_rows:
        found_any, loc, members = _close_rows(xs, ys, limit, all_indices)
    else:
        found_any, loc, members = _close_values(xs[:, 0], ys[:, 0], float(limit[0]), all_indices)
    lia = result(found_any.reshape(shape, order="F"))
    if nargout <= 1:
        return lia
    if members is not None:
        cells = [result((m + 1).astype(np.float64).reshape(-1, 1)) if m.size else 0.0
                 for m in members]
        return lia, Cell(object_array(cells, shape))
    return lia, result((loc + 1).astype(np.float64).reshape(shape, order="F"))


def _close_rows(xs: np.ndarray, ys: np.ndarray, limit: np.ndarray,
                all_indices: bool) -> tuple[np.ndarray, np.ndarray, list | None]:
    """For each row of xs: whether a row of ys is within tolerance, the lowest such
    row (-1 if none) and, with ``all_indices``, all of them."""
    matches = []
    block = max(1, 2**20 // max(1, ys.shape[0] * max(1, ys.shape[1])))
    for start in range(0, xs.shape[0], block):  # in blocks: bounded memory
        part = xs[start:start + block, None, :]
        with np.errstate(invalid="ignore"):
            matches.append(np.all(np.abs(part - ys[None, :, :]) <= limit, axis=2))
    close = np.concatenate(matches, axis=0) if matches else np.zeros((0, ys.shape[0]), dtype=bool)
    found_any = close.any(axis=1)
    loc = np.where(found_any, close.argmax(axis=1), -1) if close.shape[1] else \
        np.full(close.shape[0], -1)
    members = [np.flatnonzero(r) for r in close] if all_indices else None
    return found_any, loc, members


def _close_values(x: np.ndarray, y: np.ndarray, limit: float,
                  all_indices: bool) -> tuple[np.ndarray, np.ndarray, list | None]:
    """As _close_rows for single values: the elements of y within tolerance of an
    element of x are a contiguous run of sorted y, found by binary search."""
    order = np.argsort(y, kind="stable")
    ordered = y[order]
    count = int(np.count_nonzero(~np.isnan(y)))
    present, positions = ordered[:count], order[:count]
    with np.errstate(invalid="ignore"):
        lo = np.searchsorted(present, x - limit, side="left")
        hi = np.searchsorted(present, x + limit, side="right")
    hi = np.where(np.isnan(x), lo, hi)
    found_any = hi > lo
    loc = np.where(found_any, _range_min(positions, lo, np.maximum(hi, lo + 1)), -1)
    members = [np.sort(positions[i:j]) for i, j in zip(lo, hi, strict=True)] if all_indices \
        else None
    return found_any, loc, members


def _range_min(values: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min(values[lo[k]:hi[k]]) for every k (non-empty ranges; a sparse table of
    minima over power-of-two spans, so each query is two lookups)."""
    if values.size == 0:
        return np.zeros(lo.size, dtype=np.int64)
    lo = np.minimum(lo, values.size - 1)
    hi = np.minimum(hi, values.size)
    tables = [values]
    span = 1
    while 2 * span <= values.size:
        previous = tables[-1]
        tables.append(np.minimum(previous[:-span], previous[span:]))
        span *= 2
    length = np.maximum(hi - lo, 1)
    level = np.floor(np.log2(length)).astype(np.int64)
    out = np.empty(lo.size, dtype=values.dtype)
    for k in np.unique(level):
        pick = level == k
        width = 1 << int(k)
        table = tables[int(k)]
        out[pick] = np.minimum(table[lo[pick]], table[hi[pick] - width])
    return out
