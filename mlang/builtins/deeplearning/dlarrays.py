"""dlarray and differentiation: dlarray, extractdata, isdlarray, underlyingType,
the data formats (dims, finddim, stripdims), dlfeval, dlgradient, and the GPU
functions (gather, canUseGPU) that mlang answers on the CPU.

A dlfeval call traces the dlarrays in its arguments; operations on them are
recorded (``mlang.autodiff.trace``) and dlgradient runs the backward pass.
Outside dlfeval nothing is traced: dlfeval returns untraced values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import (
    HOLDS_NO_DLARRAY,
    DlArray,
    as_data,
    format_plan,
    formatted,
    map_dlarrays,
    strip,
)
from mlang.autodiff.trace import backward, next_number, traced_input, undefined_for_dlarray
from mlang.builtins.coerce import option_flag, split_options, text_scalar
from mlang.builtins.deeplearning.formats import in_label_order
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_row, class_of, fix_shape, is_text, result, to_str
from mlang.values.struct import Struct
from mlang.values.table import Table

# ------------------------------------------------------------- the value


@builtin(dl="native")
def dlarray(x: object, fmt: object = None) -> DlArray:
    """dlX = dlarray(X)  deep learning array for automatic differentiation
    dlX = dlarray(X, FMT)  with data format FMT: labels 'S' (spatial), 'C' (channel),
    'B' (batch), 'T' (time), 'U' (unspecified), permuted to the order S, C, B, T, U"""
    if fmt is None:
        if type(x) is DlArray:
            return x
        return DlArray(as_data(x))
    labels = text_scalar(fmt, "Data format")
    if type(x) is DlArray:
        if x.fmt:
            x = DlArray(x.data, "", x.node)
        if x.node is not None:
            return _relabel_traced(x, labels)
    data, fmt_sorted = formatted(as_data(x), labels)
    return DlArray(data, fmt_sorted)


def _relabel_traced(x: DlArray, labels: str) -> DlArray:
    """A traced dlarray given a format: reshaping and permuting are recorded in the trace."""
    full_shape, order, fmt_sorted = format_plan(x.data.shape, labels)
    shape = fix_shape(full_shape)
    y = x if shape == x.data.shape else ops.reshape_to(x, shape)
    if order is not None:
        y = ops.call("permute", y, np.array([[k + 1.0 for k in order]]))
    return DlArray(y.data, fmt_sorted, y.node)


@builtin(dl="native")
def extractdata(x: object) -> object:
    """X = extractdata(dlX)  the data of a dlarray as a plain array (untraced)"""
    if type(x) is not DlArray:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'extractdata' for input arguments of type '{class_of(x)}'.")
    return result(x.data)


@builtin(dl="native")
def isdlarray(x: object) -> bool:
    """tf = isdlarray(X)  true for a dlarray"""
    return type(x) is DlArray


@builtin("underlyingType", dl="native")
def underlying_type(x: object) -> np.ndarray:
    """c = underlyingType(X)  the class of the data inside X (class(X) for other values)"""
    if type(x) is DlArray:
        return char_row(x.underlying)
    return char_row(class_of(x))


@builtin(dl="native")
def dims(x: object) -> np.ndarray:
    """fmt = dims(dlX)  the data format of a dlarray ('' when unformatted)"""
    if type(x) is not DlArray:
        raise undefined_for_type("dims", x)
    return char_row(x.fmt) if x.fmt else np.empty((0, 0), dtype=CHAR)


@builtin(dl="native")
def finddim(x: object, label: object) -> object:
    """dim = finddim(dlX, label)  the dimensions of dlX labelled LABEL"""
    if type(x) is not DlArray:
        raise undefined_for_type("finddim", x)
    wanted = text_scalar(label, "Label").upper()
    found = [float(k + 1) for k, lab in enumerate(x.fmt) if lab == wanted]
    return result(np.array([found])) if found else np.zeros((1, 0))


@builtin(dl="native")
def stripdims(x: object, fmt: object = None) -> object:
    """Y = stripdims(dlX)  dlX without its data format (the trace is kept)
    Y = stripdims(dlX, FMT)  with its dimensions in the order of the labels of FMT"""
    if type(x) is not DlArray:
        raise undefined_for_type("stripdims", x)
    if fmt is None:
        return DlArray(x.data, "", x.node)
    return in_label_order(x, text_scalar(fmt, "Data format"))


def undefined_for_type(name: str, x: object) -> Exception:
    if type(x) is DlArray:
        return undefined_for_dlarray(name)
    return error("MATLAB:UndefinedFunction",
                 f"Undefined function '{name}' for input arguments of type '{class_of(x)}'.")


# ------------------------------------------------------ dlfeval, dlgradient


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def dlfeval(interp: Any, fun: object, *args: object, nargout: int = 1) -> object:
    """[y1,...,yk] = dlfeval(FUN, x1,...,xn)  evaluate FUN with every dlarray in its
    arguments traced, so that dlgradient can differentiate inside it"""
    # an accelerated function whose traced results are about to be stripped here need not
    # trace the gradients it returns, and traces its inputs itself when it needs them
    call_outermost = getattr(fun, "call_outermost", None) if interp.dl_depth == 0 else None
    if call_outermost is None and interp.dl_depth == 0:
        # (imported here: the plans module builds on this one)
        from mlang.builtins.deeplearning.step_plans import planned_call

        outs = planned_call(interp, fun, args, nargout)
        if outs is not None:
            return tuple(outs)
    traced = list(args) if call_outermost is not None else [map_dlarrays(a, traced_input) for a in args]
    interp.dl_depth += 1
    try:
        if call_outermost is not None:
            outs = call_outermost(interp, traced, nargout)
        else:
            outs = interp.call_value(fun, traced, nargout)
    finally:
        interp.dl_depth -= 1
    if interp.dl_depth == 0:
        outs = [strip(v) for v in outs]
    return tuple(outs)


GRADIENT_OPTIONS = ("RetainData", "EnableHigherDerivatives", "AllowComplex")


# interp.family_state key: how many AcceleratedFunction calls are under way
ACCELERATED = "deep.accelerated_depth"
# interp.family_state key: the traces of accelerated function calls being recorded
RECORDERS = "deep.accelerate_recorders"


# Classes of values that are never text (so never an option name): what dlgradient is
# given to differentiate with respect to
_NOT_TEXT = frozenset({DlArray, Struct, Cell, Table})


def _split_options(args: tuple, accelerated: bool) -> tuple[list, dict[str, bool]]:
    """The variables of dlgradient and its options, as flags (defaults filled in).  Inside
    an AcceleratedFunction call, higher derivatives are enabled by default, as in MATLAB."""
    flags = {"RetainData": False, "EnableHigherDerivatives": accelerated, "AllowComplex": True}
    if all(type(a) in _NOT_TEXT for a in args):  # no option names (the common call)
        return list(args), flags
    variables, given = split_options(args, GRADIENT_OPTIONS)
    for name, value in given.items():
        flags[name] = option_flag(ops.raw(value.data) if type(value) is DlArray else value, name)
    for v in variables:
        if is_text(v):
            raise error("deep:dlgradient:InvalidOption",
                        f"'{to_str(v)}' is not a valid option. Options are 'RetainData', "
                        "'EnableHigherDerivatives' and 'AllowComplex'.")
    return variables, flags


def not_traced() -> Exception:
    return error("deep:dlgradient:ValueNotTraced",
                 "Value to differentiate is not traced. It must be a traced real dlarray "
                 "scalar. Use dlgradient inside a function called by dlfeval to trace the "
                 "variables.")


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def dlgradient(interp: Any, y: object, *args: object, nargout: int = 1) -> object:
    """[g1,...,gk] = dlgradient(y, x1,...,xk)  gradients of the scalar y with respect to
    x1,...,xk (dlarrays, or cells, structs and tables of them, such as a network's
    Learnables table), inside a function called by dlfeval
    dlgradient(..., 'RetainData', tf)  keep the trace for further dlgradient calls
    dlgradient(..., 'EnableHigherDerivatives', tf)  trace the backward pass too, so the
    gradients can be differentiated again (default false, true inside an accelerated
    function made by dlaccelerate)
    dlgradient(..., 'AllowComplex', tf)  allow complex variables and gradients"""
    variables, options = _split_options(args, interp.family_state.get(ACCELERATED, 0) > 0)
    if not variables:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if nargout > len(variables):
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    if type(y) is not DlArray or y.node is None or interp.dl_depth == 0:
        raise not_traced()
    if y.data.size != 1 or y.data.dtype.kind == "c":
        raise error("deep:dlgradient:ValueNotScalar",
                    "Value to differentiate must be a traced real dlarray scalar.")
    leaves: list[DlArray] = []
    for v in variables:
        if not _collect_fields(v, leaves):
            _collect(v, leaves, options["AllowComplex"])
    higher = options["EnableHigherDerivatives"]
    recorders = interp.family_state.get(RECORDERS)
    if not recorders:
        return gradients(y, variables, leaves, higher, options["RetainData"])
    start = next_number()
    outs = gradients(y, variables, leaves, higher, options["RetainData"], keep_arguments=True)
    for recorder in recorders:  # the accelerated functions being traced note the step
        recorder.gradient_step(y, variables, higher, options["RetainData"], outs, start, next_number())
    return outs


def gradients(y: DlArray, variables: list | tuple, leaves: list[DlArray], higher: bool,
              retain: bool, keep_arguments: bool = False) -> tuple:
    """The gradients of ``y`` with respect to ``variables`` (whose dlarrays are ``leaves``),
    each in the shape of its variable (dlgradient's results).  ``keep_arguments``: the
    call is being recorded (see trace.backward)."""
    found = backward(y, leaves, higher, retain, keep_arguments)
    if len(variables) == 1 and not higher:
        v = variables[0]
        elem = v.elems.item() if type(v) is Struct and v.elems.size == 1 else None
        if elem is not None and len(found) == len(elem) \
                and all(type(x) is DlArray for x in elem.values()):
            # a model's parameters (see _collect_fields): their gradients in a struct alike
            elems = np.empty(v.elems.shape, dtype=object)
            elems.reshape(-1)[0] = {name: DlArray(g, x.fmt)
                                    for (name, x), g in zip(elem.items(), found, strict=True)}
            return (Struct(list(v.fields), elems),)
        cells = _learnables_cells(v)
        if cells is not None:
            flat = cells.data.reshape(-1).tolist()
            if flat and len(found) == len(flat) and all(type(x) is DlArray for x in flat):
                # a Learnables table (see _collect_fields): the gradients in a table alike
                data = np.empty(cells.data.shape, dtype=object)
                data.reshape(-1)[:] = [DlArray(g, x.fmt) for x, g in zip(flat, found, strict=True)]
                variables = [Cell(data) if x is cells else x for x in v.variables]
                return (v.copy(variables=variables),)
    grads = iter(found)

    def gradient_of(x: DlArray) -> DlArray:
        g = next(grads)
        if type(g) is DlArray:
            return DlArray(g.data, x.fmt, g.node)
        return DlArray(g, x.fmt)

    return tuple(map_dlarrays(v, gradient_of) for v in variables)


def variable_not_traced() -> Exception:
    return error("deep:dlgradient:VariableNotTraced",
                 "Variable to differentiate with respect to is not traced. It must be "
                 "a dlarray input of the function called by dlfeval, or a value "
                 "computed from one.")


def _learnables_cells(v: object) -> Cell | None:
    """The Value variable of a Learnables-style table (its only variable that can hold
    dlarrays: the others are strings), when it is a cell array; None for other values."""
    if type(v) is not Table:
        return None
    cells = None
    for name, x in zip(v.names, v.variables, strict=True):
        if name == "Value":
            cells = x
        elif type(x) not in HOLDS_NO_DLARRAY:
            return None
    return cells if type(cells) is Cell else None


def _collect_fields(v: object, leaves: list[DlArray]) -> bool:
    """The common variables first: a scalar struct of traced real dlarrays (a model's
    parameters) or a Learnables table of them, their dlarrays added to ``leaves``; False,
    and nothing added, for anything else (``_collect`` then walks it and checks each
    dlarray)."""
    if type(v) is Struct and v.elems.size == 1:
        values = list(v.elems.item().values())
    else:
        cells = _learnables_cells(v)
        if cells is None:
            return False
        values = cells.data.reshape(-1).tolist()
    for x in values:
        if type(x) is not DlArray or x.node is None or x.data.dtype.kind == "c":
            return False
    leaves += values
    return True


def _collect(v: object, leaves: list[DlArray], allow_complex: bool) -> None:
    """The dlarrays in a variable to differentiate with respect to, each checked."""
    def check(x: DlArray) -> DlArray:
        if x.node is None:
            raise variable_not_traced()
        if not allow_complex and x.data.dtype.kind == "c":
            raise error("deep:dlgradient:ComplexNotAllowed",
                        "Variable to differentiate with respect to is complex. To compute "
                        "complex gradients, set 'AllowComplex' to true.")
        leaves.append(x)
        return x

    if type(v) not in (DlArray, Cell, Struct, Table) and not hasattr(v, "map_dlarrays"):
        raise error("deep:dlgradient:InvalidVariable",
                    "Variable to differentiate with respect to must be a dlarray, or a cell "
                    f"array, structure or table containing dlarrays, not {class_of(v)}.")
    map_dlarrays(v, check)


# ------------------------------------------------------------ GPU (none)


@builtin(dl="native", nargout=True, max_out=None)
def gather(*args: object, nargout: int = 1) -> object:
    """X = gather(A)  the data of a GPU array in host memory; mlang computes on the CPU,
    so every array (dlarrays included) is returned as it is"""
    return args if len(args) > 1 else (args[0] if args else None)


@builtin("gpuArray", dl="native")
def gpu_array(x: object) -> object:
    """G = gpuArray(X)  an array stored on the GPU; mlang computes on the CPU, so X is
    returned as it is (gather gives it back unchanged)"""
    return x


@builtin("canUseGPU")
def can_use_gpu() -> bool:
    """tf = canUseGPU  whether a GPU is available for computation: false in mlang"""
    return False
