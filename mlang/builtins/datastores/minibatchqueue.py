"""minibatchqueue: mini-batches of a datastore for a custom training loop.

``next(mbq)`` reads observations from its own copy of the datastore until it has
``MiniBatchSize`` of them (fewer at the end: returned or discarded by
``PartialMiniBatch``), puts each variable's observations together, then casts each
output (``OutputCast``, default 'single') and makes it a dlarray (``OutputAsDlarray``,
default true) labelled with ``MiniBatchFormat``.

Observations: a read that is a cell gives one observation a row, one variable a
column (an arrayDatastore read of ReadSize k is k-by-1; a combined datastore's is
k-by-n); any other read is one observation of one variable.

Putting observations together (``MiniBatchFcn`` 'collate', the default)
concatenates them along the first dimension in which every observation is a
singleton: rows 1-by-c of an arrayDatastore over an N-by-c matrix make a B-by-c
batch (so ``MiniBatchFormat="BC"`` gives a C-by-B dlarray), columns c-by-1 make c-by-B,
h-by-w images make h-by-w-by-B.  A ``MiniBatchFcn`` instead receives one cell array
of observations (B-by-1) per variable and returns the outputs.

A minibatchqueue is a handle: ``next``, ``reset`` and ``shuffle`` change it in place.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import integer_scalar, option_flag, options, text_list, text_or_none
from mlang.builtins.datastores.datastore import Datastore
from mlang.display import func2str_text
from mlang.errors import MatlabError, error, running_interpreter
from mlang.registry import BUILTINS, builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, size_of
from mlang.values.handle import FunctionHandle
from mlang.values.indexing import COLON, index
from mlang.values.limits import check_array_size
from mlang.values.objects import MatlabObject, read_only_property
from mlang.values.table import Table

OPTION_NAMES = ("MiniBatchSize", "PartialMiniBatch", "MiniBatchFcn", "MiniBatchFormat",
                "OutputAsDlarray", "OutputCast", "OutputEnvironment", "DispatchInBackground",
                "PreprocessingEnvironment")
CAST_CLASSES = ("single", "double", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "logical", "char")
NUMERIC_DATA = ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "logical")
ENVIRONMENTS = ("auto", "gpu", "cpu")
PREPROCESSING = ("serial", "background", "parallel")


def end_of_data() -> Exception:
    return error("nnet_cnn:minibatchqueue:EndOfData",
                 "Unable to provide a mini-batch because end of data reached. Use reset or shuffle "
                 "to continue generating mini-batches from the data set.")


def _invalid(name: str, what: str) -> Exception:
    return error("MATLAB:InputParser:ArgumentFailedValidation",
                 f"The value of '{name}' is invalid. {what}")


def _choice(v: object, name: str, allowed: tuple[str, ...]) -> str:
    text = text_or_none(v)
    if text is None or text.lower() not in allowed:
        listed = ", ".join(f"'{a}'" for a in allowed)
        raise _invalid(name, f"Expected {name} to match one of these values: {listed}.")
    return text.lower()


def _per_output(v: object, name: str, count: int, check: Any) -> list:
    """A per-output option: one value for every output, or one value a output."""
    text = text_or_none(v)
    if text is not None:
        items = [text]
    else:
        try:
            items = text_list(v, name)
        except MatlabError:
            raise _invalid(name, f"{name} must be a character vector, string array or cell "
                                 "array of character vectors.") from None
    if len(items) == 1:
        items = items * count
    if len(items) != count:
        raise _invalid(name, f"{name} must have one element for each mini-batch output.")
    return [check(item) for item in items]


def _format_text(text: str) -> str:
    labels = text.upper()
    if any(ch not in "SCBTU" for ch in labels):
        raise _invalid("MiniBatchFormat", "Data format must contain only the labels 'S', 'C', "
                                          "'B', 'T' and 'U'.")
    return labels


def _cast_class(text: str) -> str:
    if text not in CAST_CLASSES and text != "":
        raise _invalid("OutputCast", "OutputCast must be one of the numeric classes, 'logical' "
                                     "or 'char'.")
    return text


def _environment(text: str) -> str:
    if text.lower() not in ENVIRONMENTS:
        raise _invalid("OutputEnvironment", "Expected OutputEnvironment to match one of these "
                                            "values: 'auto', 'gpu', 'cpu'.")
    return text.lower()


def observations_of(read: Any) -> list[list[Any]]:
    """The observations in one read: a cell or table row each, else the read as one."""
    if type(read) is Cell:
        data = read.data
        if data.ndim != 2:
            data = data.reshape(data.shape[0], -1, order="F")
        return [list(data[r, :]) for r in range(data.shape[0])]
    if type(read) is Table:  # a table's rows are observations, its variables the variables
        return [[index(v, [float(r + 1), *[COLON] * (len(size_of(v)) - 1)]) for v in read.variables]
                for r in range(read.height)]
    return [[read]]


def column_cell(values: list[Any]) -> Cell:
    """A B-by-1 cell holding the values (filled one by one: NumPy would stack equal arrays)."""
    data = np.empty((len(values), 1), dtype=object)
    for k, v in enumerate(values):
        data[k, 0] = v
    return Cell(data)


def _batch_dimension(values: list[Any]) -> int:
    """The first dimension (1-based) in which every observation is a singleton."""
    shapes = [size_of(v) for v in values]
    d = 1
    while any(d <= len(s) and s[d - 1] != 1 for s in shapes):
        d += 1
    return d


def collate(interp: Any, values: list[Any]) -> Any:
    """A variable's observations concatenated along their first common singleton dimension."""
    if all(class_of(v) in (*NUMERIC_DATA, "char", "dlarray", "categorical", "string")
           for v in values):
        return BUILTINS["cat"].call(interp, [float(_batch_dimension(values)), *values], 1)[0]
    return column_cell(values)


def _as_output(interp: Any, x: Any, cast: str, as_dlarray: bool, fmt: str) -> Any:
    """A mini-batch variable cast and made a dlarray with its format."""
    cls = x.underlying if type(x) is DlArray else class_of(x)
    if cls == "categorical":
        x = BUILTINS["double"].call(interp, [x], 1)[0]
        cls = "double"
    if cls not in NUMERIC_DATA and cls != "char":
        return x
    if cast and cast != cls:
        x = BUILTINS[cast].call(interp, [x], 1)[0]
    if not as_dlarray:
        return x
    if type(x) is DlArray and not fmt:
        return x
    return BUILTINS["dlarray"].call(interp, [x, char_row(fmt)] if fmt else [x], 1)[0]


class MiniBatchQueue(MatlabObject):
    """A queue of mini-batches over its own copy of a datastore."""

    matlab_class = "minibatchqueue"
    __slots__ = ("source", "num_outputs", "mini_batch_size", "partial", "fcn", "preprocessing",
                 "casts", "as_dlarray", "formats", "environments", "buffer")

    def __init__(self, source: Datastore, num_outputs: int, mini_batch_size: int, partial: str,
                 fcn: Any, preprocessing: str, casts: list[str], as_dlarray: list[bool],
                 formats: list[str], environments: list[str]) -> None:
        self.source = source
        self.num_outputs = num_outputs
        self.mini_batch_size = mini_batch_size
        self.partial = partial
        self.fcn = fcn
        self.preprocessing = preprocessing
        self.casts = casts
        self.as_dlarray = as_dlarray
        self.formats = formats
        self.environments = environments
        self.buffer: list[list[Any]] = []

    def with_source(self, source: Datastore) -> MiniBatchQueue:
        return MiniBatchQueue(source, self.num_outputs, self.mini_batch_size, self.partial,
                              self.fcn, self.preprocessing, list(self.casts),
                              list(self.as_dlarray), list(self.formats), list(self.environments))

    # ------------------------------------------------------------ the queue

    def fill(self, interp: Any) -> None:
        """Read until a whole mini-batch is buffered or the datastore is exhausted."""
        source = self.source
        while len(self.buffer) < self.mini_batch_size and source.has_data():
            # the observations still wanted in one piece when the datastore can give them so
            at_once = min(self.mini_batch_size - len(self.buffer), source.observations_at_once())
            read = source.read_observations(interp, at_once) if at_once > 0 \
                else source.read_block(interp)[0]
            self.buffer.extend(observations_of(read))

    def direct_remaining(self) -> int | None:
        """Observations left when batches can be cut straight from the data (see
        ``Datastore.batch_arrays``); None when observations must be read one by one."""
        if self.buffer or self.fcn is not None:
            return None
        return self.source.direct_remaining()

    def has_data(self, interp: Any) -> bool:
        remaining = self.direct_remaining()
        if remaining is None:
            self.fill(interp)
            remaining = len(self.buffer)
        if self.partial == "discard":
            return remaining >= self.mini_batch_size
        return remaining > 0

    def next_batch(self, interp: Any, nargout: int) -> list[Any]:
        if nargout > self.num_outputs:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        if not self.has_data(interp):
            raise end_of_data()
        outputs = None
        if self.direct_remaining() is not None:
            outputs = self.source.batch_arrays(self.mini_batch_size)
            if len(outputs) != self.num_outputs:
                raise self.outputs_mismatch(len(outputs))
        else:
            outputs = self.batch_from_buffer(interp)
        return [_as_output(interp, outputs[k], self.casts[k], self.as_dlarray[k], self.formats[k])
                for k in range(max(nargout, 1))]

    def batch_from_buffer(self, interp: Any) -> list[Any]:
        rows = self.buffer[:self.mini_batch_size]
        del self.buffer[:self.mini_batch_size]
        width = max(len(r) for r in rows)
        variables = [[r[j] for r in rows if j < len(r)] for j in range(width)]
        if self.fcn is None:
            if width != self.num_outputs:
                raise self.outputs_mismatch(width)
            return [collate(interp, v) for v in variables]
        outputs = interp.call_value(self.fcn, [column_cell(v) for v in variables], self.num_outputs)
        if len(outputs) < self.num_outputs:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        return outputs

    def outputs_mismatch(self, width: int) -> Exception:
        variables = "variable" if width == 1 else "variables"
        outputs = "output" if self.num_outputs == 1 else "outputs"
        return error("nnet_cnn:minibatchqueue:NumOutputsMismatch",
                     f"The datastore returns {width} {variables} but the minibatchqueue has "
                     f"{self.num_outputs} {outputs}. Specify a MiniBatchFcn that returns "
                     f"{self.num_outputs} {outputs}.")

    def reset(self) -> None:
        self.source.rewind()
        self.buffer = []

    def shuffle(self, interp: Any) -> None:
        self.source = self.source.shuffled(interp)
        self.buffer = []

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return ["MiniBatchSize", "NumOutputs", "PartialMiniBatch", "MiniBatchFcn",
                "PreprocessingEnvironment", "DispatchInBackground", "OutputCast",
                "OutputAsDlarray", "MiniBatchFormat", "OutputEnvironment"]

    def get_property(self, name: str) -> Any:
        if name == "MiniBatchSize":
            return float(self.mini_batch_size)
        if name == "NumOutputs":
            return float(self.num_outputs)
        if name == "PartialMiniBatch":
            return char_row(self.partial)
        if name == "MiniBatchFcn":
            return char_row("collate") if self.fcn is None else self.fcn
        if name == "PreprocessingEnvironment":
            return char_row(self.preprocessing)
        if name == "DispatchInBackground":
            return self.preprocessing != "serial"
        if name == "OutputCast":
            return Cell.row([char_row(c) for c in self.casts])
        if name == "OutputAsDlarray":
            flags = self.as_dlarray
            return flags[0] if len(flags) == 1 else np.array([flags], dtype=bool)
        if name == "MiniBatchFormat":
            return Cell.row([char_row(f) for f in self.formats])
        if name == "OutputEnvironment":
            return Cell.row([char_row(e) for e in self.environments])
        method = METHODS.get(name)
        if method is not None:
            return method(running_interpreter(), self)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Any:
        if name in self.property_names():
            raise read_only_property(name, "minibatchqueue")
        return super().set_property(name, value)

    def method(self, name: str) -> Any:
        fn = METHODS.get(name)
        if fn is None:
            return None
        return lambda args: fn(running_interpreter(), self, *args)

    # ------------------------------------------------------------ display

    def display_body(self, style: Any, array_lines: Any) -> list:
        def quoted_cell(items: list[str]) -> str:
            return "{" + "  ".join(f"'{t}'" for t in items) + "}"

        flags = self.as_dlarray
        creation = [
            ("MiniBatchSize", str(self.mini_batch_size)),
            ("PartialMiniBatch", f"'{self.partial}'"),
            ("MiniBatchFcn", "'collate'" if self.fcn is None else func2str_text(self.fcn)),
            ("PreprocessingEnvironment", f"'{self.preprocessing}'"),
        ]
        outputs = [
            ("OutputCast", quoted_cell(self.casts)),
            ("OutputAsDlarray", str(int(flags[0])) if len(flags) == 1
             else "[" + " ".join(str(int(f)) for f in flags) + "]"),
            ("MiniBatchFormat", quoted_cell(self.formats)),
            ("OutputEnvironment", quoted_cell(self.environments)),
        ]
        width = 4 + max(len(n) for n, _ in creation + outputs)
        noun = "output" if self.num_outputs == 1 else "outputs"
        return [f"  minibatchqueue with {self.num_outputs} {noun} and properties:", None,
                "   Mini-batch creation:",
                *[f"{n:>{width}}: {t}" for n, t in creation], None,
                "   Outputs:",
                *[f"{n:>{width}}: {t}" for n, t in outputs]]


# The functions a minibatchqueue answers (filled by functions.py): name -> fn(interp, mbq, *args).
METHODS: dict[str, Any] = {}


@builtin(interp=True)
def minibatchqueue(interp: Any, ds: Any, *args: Any) -> MiniBatchQueue:
    """minibatchqueue  create mini-batches for deep learning

    mbq = minibatchqueue(ds) makes mini-batches of the data of datastore ds, one output
    for each variable a read of ds gives.
    mbq = minibatchqueue(ds, numOutputs) sets the number of outputs (with MiniBatchFcn).
    mbq = minibatchqueue(___, Name=Value) with the options
      MiniBatchSize             observations in a mini-batch (default 128)
      PartialMiniBatch          'return' (default) or 'discard' the last, smaller one
      MiniBatchFcn              function of one cell array of observations a variable,
                                returning the outputs (default 'collate': concatenate)
      MiniBatchFormat           dlarray data format of each output (default '')
      OutputAsDlarray           make the outputs dlarrays (default true)
      OutputCast                class of each output (default 'single')
      OutputEnvironment         'auto', 'gpu' or 'cpu' (mlang computes on the CPU)
      PreprocessingEnvironment  'serial', 'background' or 'parallel' (run serially)
    [X1,...,Xn] = next(mbq) returns the next mini-batch; hasdata, reset, shuffle and
    partition work on the queue in place."""
    if not isinstance(ds, Datastore):
        raise error("nnet_cnn:minibatchqueue:InvalidDatastore",
                    "Input datastore must be a datastore.")
    rest = list(args)
    num_outputs: int | None = None
    if rest and text_or_none(rest[0]) is None:
        message = "Number of outputs must be a positive integer."
        num_outputs = integer_scalar(rest[0], message, "nnet_cnn:minibatchqueue:InvalidNumOutputs")
        if num_outputs < 1:
            raise error("nnet_cnn:minibatchqueue:InvalidNumOutputs", message)
        check_array_size((1, num_outputs), object)  # each output keeps its own settings
        rest = rest[1:]
    given = options(rest, OPTION_NAMES)
    source = ds.copy()
    source.rewind()
    if num_outputs is None:
        first = source.preview_data(interp)
        observations = observations_of(first) if type(first) is not Cell or first.data.size else []
        num_outputs = len(observations[0]) if observations else 1
    size = 128
    if "MiniBatchSize" in given:
        size = integer_scalar(given["MiniBatchSize"], "MiniBatchSize must be a positive integer.",
                              "MATLAB:InputParser:ArgumentFailedValidation")
        if size < 1:
            raise _invalid("MiniBatchSize", "MiniBatchSize must be a positive integer.")
    partial = "return"
    if "PartialMiniBatch" in given:
        partial = _choice(given["PartialMiniBatch"], "PartialMiniBatch", ("return", "discard"))
    fcn = given.get("MiniBatchFcn")
    if fcn is not None and type(fcn) is not FunctionHandle:
        if text_or_none(fcn) is not None and text_or_none(fcn).lower() == "collate":
            fcn = None
        else:
            raise _invalid("MiniBatchFcn", "MiniBatchFcn must be a function handle.")
    preprocessing = "serial"
    if "DispatchInBackground" in given and option_flag(given["DispatchInBackground"],
                                                        "DispatchInBackground"):
        preprocessing = "background"
    if "PreprocessingEnvironment" in given:
        preprocessing = _choice(given["PreprocessingEnvironment"], "PreprocessingEnvironment",
                                PREPROCESSING)
    casts = (_per_output(given["OutputCast"], "OutputCast", num_outputs, _cast_class)
             if "OutputCast" in given else ["single"] * num_outputs)
    formats = (_per_output(given["MiniBatchFormat"], "MiniBatchFormat", num_outputs, _format_text)
               if "MiniBatchFormat" in given else [""] * num_outputs)
    environments = (_per_output(given["OutputEnvironment"], "OutputEnvironment", num_outputs,
                                _environment)
                    if "OutputEnvironment" in given else ["auto"] * num_outputs)
    as_dlarray = [True] * num_outputs
    if "OutputAsDlarray" in given:
        flags = np.asarray(given["OutputAsDlarray"] if type(given["OutputAsDlarray"]) is np.ndarray
                           else [[given["OutputAsDlarray"]]])
        if flags.dtype.kind not in "biuf" or flags.size not in (1, num_outputs):
            raise _invalid("OutputAsDlarray", "OutputAsDlarray must be a logical scalar or a "
                                              "logical vector with one element for each output.")
        values = [bool(f) for f in flags.reshape(-1)]
        as_dlarray = values * num_outputs if len(values) == 1 else values
    for fmt, wanted in zip(formats, as_dlarray, strict=True):
        if fmt and not wanted:
            raise error("nnet_cnn:minibatchqueue:FormatWithoutDlarray",
                        "MiniBatchFormat must be empty for outputs that are not dlarray objects.")
    return MiniBatchQueue(source, num_outputs, size, partial, fcn, preprocessing, casts,
                          as_dlarray, formats, environments)
