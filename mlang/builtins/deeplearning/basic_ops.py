"""Basic deep learning operations: fullyconnect, and the one-hot encoding of labels
(onehotencode, onehotdecode)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import Node, Primitive, record
from mlang.builtins.coerce import dim_argument, split_options, text_option
from mlang.builtins.data.categoricals import number_name
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.categorical import CategoricalArray, text_values
from mlang.values.core import class_of, fix_shape, result
from mlang.values.operators import matrix_product
from mlang.values.string import StringArray
from mlang.values.table import Table

# ------------------------------------------------------------ fullyconnect


def _single_if_any(*arrays: np.ndarray) -> np.dtype | None:
    """float32 when any operand is single (MATLAB: single with double gives single)."""
    for a in arrays:
        if type(a) is np.ndarray and a.dtype == np.float32:
            return np.dtype(np.float32)
    return None


def _fully_connect(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """w @ x + b for features-by-observations ``x``, outputs-by-features ``w`` and an
    outputs-by-1 bias ``b``."""
    y = matrix_product(w, x)
    if x.dtype is w.dtype is b.dtype is y.dtype and y.dtype.kind == "f":  # the usual case
        return np.add(y, b, out=y)
    y = y + b if np.iscomplexobj(b) and not np.iscomplexobj(y) else np.add(y, b, out=y)
    single = _single_if_any(x, w, b)
    if single is not None and y.dtype.kind == "c":  # complex stays complex
        single = np.dtype(np.complex64)
    return y.astype(single, copy=False) if single is not None else y


def _fully_connect_rule(g: Any, y: Any, x: Any, w: Any, b: Any) -> tuple:
    # y = w x + b: one product for each of x and w, a row sum for b
    if type(g) is np.ndarray and type(x) is np.ndarray and type(w) is np.ndarray \
            and g.dtype.kind == "f" and x.dtype.kind == "f" and w.dtype.kind == "f":
        # first derivatives of real data (the common case): the products of ops.matmul
        return (lambda: matrix_product(w.T, g), lambda: g @ x.T,
                lambda: np.add.reduce(g, axis=1, keepdims=True))
    return (lambda: ops.matmul(w, g, True, False), lambda: ops.matmul(g, x, False, True),
            lambda: _row_sums(g))


def _row_sums(g: Any) -> Any:
    if type(g) is np.ndarray:
        return np.add.reduce(g, axis=1, keepdims=True)  # (no Python wrapper of ndarray.sum)
    return ops.call("sum", g, 2.0)


FULLY_CONNECT = Primitive("fullyconnect", _fully_connect, _fully_connect_rule)


def _parameter(v: object, what: str) -> Any:
    """A weights or bias argument: a dlarray without its format, or numeric data."""
    if type(v) is DlArray:
        return DlArray(v.data, "", v.node) if v.fmt else v
    if class_of(v) not in ("double", "single"):
        raise error("deep:fullyconnect:InvalidInput",
                    f"{what} must be a numeric array or dlarray of type single or double.")
    return ops.raw(as_data(v))


def fully_connect_features(x: object, weights: object, bias: object) -> DlArray | None:
    """``fullyconnect(x, weights, bias)`` in the usual case (a network's layer): 'CB' data,
    unformatted matrix weights and a column bias, all dlarrays of sizes that fit; None
    otherwise (``fullyconnect`` then checks and lays out its arguments)."""
    if type(x) is DlArray and x.fmt == "CB" and type(weights) is DlArray \
            and type(bias) is DlArray and not weights.fmt and not bias.fmt:
        xd, wd, bd = x.data, weights.data, bias.data
        if xd.ndim == 2 and wd.ndim == 2 and bd.ndim == 2 and wd.shape[1] == xd.shape[0] \
                and bd.shape[0] == wd.shape[0] and bd.shape[1] == 1:
            out = _fully_connect(xd, wd, bd)
            xn, wn, bn = x.node, weights.node, bias.node
            if xn is None and wn is None and bn is None:
                return DlArray(out, "CB")
            flat = DlArray(xd, "", xn)
            if xd.dtype.kind == "b" or wd.dtype.kind == "b" or bd.dtype.kind == "b":
                return record(FULLY_CONNECT, (flat, weights, bias), (xd, wd, bd), out, "CB")
            # what record makes of it, with the arguments known to be dlarrays of real data
            return DlArray(out, "CB", Node((xn, wn, bn), _fully_connect_rule, (flat, weights, bias),
                                           (xd, wd, bd), out, FULLY_CONNECT))
    return None


@builtin(dl="traced")
def fullyconnect(x: object, weights: object = None, bias: object = None, *settings: object) -> DlArray:
    """Y = fullyconnect(X, WEIGHTS, BIAS)  fully connected operation: the weighted sum of
    the spatial, channel and unspecified dimensions of each observation (and time step)
    of the formatted dlarray X, plus BIAS; Y is formatted 'CB' ('CBT' when X has a
    time dimension)
    WEIGHTS is OutputSize-by-InputSize, or OutputSize-by-(the sizes of those dimensions)
    Y = fullyconnect(X, WEIGHTS, BIAS, 'DataFormat', FMT)  for unformatted X with
    dimension labels FMT; Y is unformatted"""
    if bias is None:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if not settings:
        y = fully_connect_features(x, weights, bias)
        if y is not None:
            return y
    data_format = data_format_option(dict(_options(settings)))
    xf, form = formatted_input(x, data_format, "fullyconnect")
    w = _parameter(weights, "Weights")
    b = _parameter(bias, "Bias")
    fmt = xf.fmt
    shape = xf.shape
    feature_dims = [k for k, label in enumerate(fmt) if label in "SCU"]
    sample_dims = [k for k, label in enumerate(fmt) if label in "BT"]
    # math.prod: np.prod on a short list costs more than the small products it makes
    features = math.prod(shape[k] for k in feature_dims)
    samples = math.prod(shape[k] for k in sample_dims)
    flat = DlArray(xf.data, "", xf.node)
    order = feature_dims + sample_dims
    if order != sorted(order):
        # 'U' dimensions come after 'B' and 'T' in canonical order: bring them forward
        order = [float(k + 1) for k in order]
        flat = ops.call("permute", flat, np.array([order]))
    if flat.data.shape != (features, samples):
        flat = ops.reshape_to(flat, (features, samples))
    w_shape = ops.shape_of(w)
    outputs = w_shape[0]
    if math.prod(w_shape[1:]) != features:
        raise error("deep:fullyconnect:InvalidWeightsSize",
                    f"The weights must have {features} columns (the number of input features: "
                    "the product of the sizes of the spatial, channel and unspecified "
                    "dimensions of the input data).")
    if w_shape != (outputs, features):
        w = ops.reshape_to(w, (outputs, features))
    b_shape = ops.shape_of(b)
    if math.prod(b_shape) != outputs:
        raise error("deep:fullyconnect:InvalidBiasSize",
                    f"The bias must have {outputs} elements (the number of rows of the weights).")
    if b_shape != (outputs, 1):
        b = ops.reshape_to(b, (outputs, 1))
    y = ops.apply(FULLY_CONNECT, flat, w, b)
    out_fmt = "CBT" if "T" in fmt else "CB"
    sizes = (outputs, shape[fmt.index("B")] if "B" in fmt else 1)
    if "T" in fmt:
        sizes += (shape[fmt.index("T")],)
    target = fix_shape(sizes)
    if type(y) is not DlArray:
        y = DlArray(y)
    if y.data.shape != target:
        y = ops.reshape_to(y, target)
    return output_like(DlArray(y.data, out_fmt, y.node), form)


def _options(settings: tuple) -> dict[str, Any]:
    positional, given = split_options(settings, ("DataFormat",))
    if positional:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return given


# ------------------------------------------------------------ one-hot labels

_NUMERIC_TYPES = {"double": np.float64, "single": np.float32, "logical": np.bool_,
                  "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
                  "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64}


def _number_text(v: float) -> str:
    """A number as a class name (as categorical names numbers)."""
    if np.isfinite(v):
        return number_name(float(v))
    return "NaN" if v != v else ("Inf" if v > 0 else "-Inf")


def _class_names(classes: object) -> list[str]:
    """The names of classes given as text, a categorical array or numbers."""
    if type(classes) is CategoricalArray:
        return [n if n is not None else "" for n in classes.element_names().ravel(order="F")]
    texts = text_values(classes)
    if texts is not None:
        return [t if t is not None else "" for t in texts[0]]
    if class_of(classes) in _NUMERIC_TYPES and not np.iscomplexobj(classes):
        numbers = np.asarray(classes, dtype=np.float64).ravel(order="F")
        return [_number_text(v) for v in numbers]
    raise error("deep:onehot:InvalidClassNames",
                "Classes must be a string array, a cell array of character vectors, a "
                "categorical array or a numeric vector.")


# Label codes: k >= 1 for the k-th class, UNDEFINED for an undefined (missing) label,
# OTHER for a label of a class that is not among the classes.
UNDEFINED = 0
OTHER = -1


def _labels_as_codes(labels: object, names: list[str] | None) -> tuple[np.ndarray, list[str]]:
    """Each label's class number (see UNDEFINED, OTHER) and the classes."""
    if type(labels) is CategoricalArray:
        if names is None:
            return labels.codes.astype(np.intp), list(labels.names)
        position = {n: k + 1 for k, n in enumerate(names)}
        table = np.array([UNDEFINED] + [position.get(n, OTHER) for n in labels.names], dtype=np.intp)
        return table[labels.codes.astype(np.intp)], names
    if names is None:
        raise error("deep:onehotencode:ClassNamesRequired",
                    "To encode labels that are not categorical, specify the classes using "
                    "the 'ClassNames' option.")
    texts = text_values(labels)
    if texts is not None:
        flat, shape = texts
    elif class_of(labels) in _NUMERIC_TYPES and not np.iscomplexobj(labels):
        values = np.asarray(labels, dtype=np.float64)
        values = values.reshape(1, 1) if values.ndim == 0 else values
        shape = values.shape
        flat = [_number_text(v) if v == v else None for v in values.ravel(order="F")]
    else:
        raise error("deep:onehotencode:InvalidLabels",
                    "Labels must be a categorical, numeric or string array, or a cell array of "
                    "character vectors.")
    position = {n: k + 1 for k, n in enumerate(names)}
    codes = np.array([position.get(v, OTHER) if v is not None else UNDEFINED for v in flat],
                     dtype=np.intp)
    return codes.reshape(shape, order="F"), names


def _encode(codes: np.ndarray, count: int, dim: int, dtype: Any) -> np.ndarray:
    """One-hot vectors of ``count`` classes along ``dim`` (where ``codes`` has size 1)."""
    classes = np.arange(1, count + 1).reshape((1,) * dim + (count,) + (1,) * (codes.ndim - dim - 1))
    encoded = (codes == classes).astype(dtype)
    if encoded.dtype.kind == "f":
        encoded[np.broadcast_to(codes == UNDEFINED, encoded.shape)] = np.nan
    return encoded


@builtin()
def onehotencode(labels: object, *args: object) -> object:
    """B = onehotencode(A, FEATUREDIM)  one-hot encode the categorical labels A: each label
    becomes a vector along dimension FEATUREDIM (where A has size 1) with a 1 at its class
    and 0 elsewhere; undefined labels give NaN vectors
    TB = onehotencode(TA)  a table of one categorical variable as a table with one
    variable for each class
    B = onehotencode(..., TYPENAME)  B of class TYPENAME (default 'double')
    B = onehotencode(..., 'ClassNames', CLASSES)  the classes, in order (needed when A is
    not categorical); labels of other classes give vectors of zeros"""
    positional, given = split_options(args, ("ClassNames",))
    is_table = type(labels) is Table
    if not is_table and not positional:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    rest = positional if is_table else positional[1:]
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    type_name = "double"
    if rest:
        type_name = text_option(rest[0]) or ""
        if type_name not in _NUMERIC_TYPES:
            raise error("deep:onehotencode:InvalidTypename",
                        "The data type must be 'double', 'single', 'logical' or an integer type.")
    names = _class_names(given["ClassNames"]) if "ClassNames" in given else None
    if is_table:
        if labels.width != 1:
            raise error("deep:onehotencode:TableMustHaveOneVariable",
                        "The input table must have exactly one variable.")
        codes, names = _labels_as_codes(labels.variables[0], names)
        encoded = _encode(codes.reshape(-1, 1), len(names), 1, _NUMERIC_TYPES[type_name])
        return Table([result(encoded[:, k:k + 1]) for k in range(len(names))], list(names))
    codes, names = _labels_as_codes(labels, names)
    dim = dim_argument(positional[0])
    shape = codes.shape + (1,) * max(0, dim + 1 - codes.ndim)
    if shape[dim] != 1:
        raise error("deep:onehotencode:FeatureDimNotSingleton",
                    f"The size of the labels in dimension {dim + 1} (the feature dimension) "
                    "must be 1.")
    encoded = _encode(codes.reshape(shape), len(names), dim, _NUMERIC_TYPES[type_name])
    return result(encoded.reshape(fix_shape(encoded.shape)))


@builtin(dl="native")
def onehotdecode(encoded: object, classes: object = None, feature_dim: object = None,
                 type_name: object = None) -> object:
    """A = onehotdecode(B, CLASSES, FEATUREDIM)  the class of each one-hot (or probability)
    vector along dimension FEATUREDIM of B: the class of its largest element, as a
    categorical array with categories CLASSES
    A = onehotdecode(B, CLASSES, FEATUREDIM, TYPENAME)  the labels as values of class
    TYPENAME (such as 'double' for numeric classes, or 'string')"""
    if feature_dim is None:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    data = encoded.data if type(encoded) is DlArray else encoded
    if class_of(data) not in _NUMERIC_TYPES or np.iscomplexobj(data):
        raise error("deep:onehotdecode:InvalidInput", "Encoded labels must be a real numeric array.")
    values = np.asarray(data, dtype=np.float64)
    values = values.reshape(1, 1) if values.ndim == 0 else values
    names = _class_names(classes)
    dim = dim_argument(feature_dim)
    shape = values.shape + (1,) * max(0, dim + 1 - values.ndim)
    if shape[dim] != len(names):
        raise error("deep:onehotdecode:ClassesSizeMismatch",
                    f"The number of classes ({len(names)}) must match the size of the encoded "
                    f"labels in dimension {dim + 1} ({shape[dim]}).")
    values = values.reshape(shape)
    missing = np.isnan(values).all(axis=dim, keepdims=True)
    if shape[dim] == 0:  # no classes: every label is undefined
        picked = np.zeros(missing.shape, dtype=np.intp).squeeze(axis=dim)
    else:
        picked = np.argmax(np.where(np.isnan(values), -np.inf, values), axis=dim)
    codes = np.where(missing, 0, np.expand_dims(picked, dim) + 1)
    codes = codes.reshape(fix_shape(codes.shape))
    kind = "categorical" if type_name is None else (text_option(type_name) or "")
    if kind == "categorical":
        unique = list(dict.fromkeys(names))
        position = [unique.index(n) + 1 for n in names]
        table = np.array([0, *position], dtype=np.uint32)
        return CategoricalArray(table[codes], unique)
    if kind == "string":
        table_s = np.array([None, *names], dtype=object)
        return StringArray(table_s[codes])
    if kind in _NUMERIC_TYPES and class_of(classes) in _NUMERIC_TYPES:
        numbers = np.concatenate([[np.nan], np.asarray(classes, dtype=np.float64).ravel(order="F")])
        out = numbers[codes]
        if _NUMERIC_TYPES[kind] not in (np.float64, np.float32):
            out = np.nan_to_num(out)
        return result(out.astype(_NUMERIC_TYPES[kind]))
    raise error("deep:onehotdecode:InvalidTypename",
                f"Cannot convert the classes to data type '{kind}'.")
