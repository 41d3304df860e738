"""trainingProgressMonitor: progress, metrics and information of a custom training loop.

``monitor = trainingProgressMonitor(Metrics=..., Info=..., XLabel=...)`` makes a
``deep.TrainingProgressMonitor``, a handle object: every variable holding it sees the
same monitor, so it is changed in place.  ``recordMetrics(monitor, step, Name=value)``,
``updateInfo(monitor, Name=value)``, ``groupSubPlot(monitor, group, metrics)`` and
``yscale(monitor, names, "log")`` work on it (also as ``monitor.recordMetrics(...)``).

Without graphics the monitor prints one compact line to the session's standard error
(never standard output, so a script's output stays the same from run to run):

    Iteration 120  Progress 40%  TrainingLoss 0.0123  LearningRate 0.001  Elapsed 0:00:03

at most once a second (the time of the monitor's ``clock``), and at once when
``Progress`` reaches 100, when ``Status`` changes, and when ``Stop`` becomes true.  A
change not printed because it came less than a second after the last line stays
pending; ``flush_monitors(interp)`` prints the pending lines of a session's monitors
(for a front end to call when a program ends: the interpreter has no end-of-session
hook yet).  ``Visible = false`` silences the monitor.

For Python code (the graphics issue, trainnet): a ``TrainingProgressMonitor`` has

* ``history()``: ``{metric name: [(step, value), ...]}`` for every metric recorded, in
  the order of recording, values as floats;
* ``info_history()``: ``{info name: [value, ...]}`` (floats or str);
* ``subplots()``: the training plot's panels in order, each ``(title, [metric names],
  y scale)``: a group made by ``groupSubPlot`` (title: the group name), or an ungrouped
  metric of ``Metrics`` (title: its name); the scale is ``"linear"`` or ``"log"``;
* ``metrics``, ``info``, ``xlabel``, ``progress``, ``status``, ``stop``, ``visible``;
* ``request_stop()``: what a Stop button does (``Stop`` becomes true, a line is printed);
* ``clock``: a function of no arguments giving seconds (``time.monotonic`` unless the
  session's ``family_state["training"]["clock"]`` names another when the monitor is
  made); tests replace it per object.
"""

from __future__ import annotations

import re
import time
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import NUMERIC_OR_LOGICAL, option_flag, options, text_list, text_or_none
from mlang.builtins.training import monitor_plots
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import class_of, numel, to_array
from mlang.values.objects import MatlabObject, read_only_property
from mlang.values.string import StringArray
from mlang.values.struct import Struct

FAMILY = "training"
PRINT_INTERVAL = 1.0  # seconds between two progress lines
PROPERTIES = ("Metrics", "Info", "XLabel", "Progress", "Status", "Stop", "Visible",
              "MetricData", "InfoData")
READ_ONLY = ("Stop", "MetricData", "InfoData")
CREATION_OPTIONS = ("Metrics", "Info", "Visible", "Progress", "Status", "XLabel")
VALID_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
ID = "deep:TrainingProgressMonitor"


def family_state(interp: Any) -> dict[str, Any]:
    """The session's training state: the monitors made (weakly held) and the clock new
    monitors use."""
    state = interp.family_state.get(FAMILY)
    if state is None:
        state = interp.family_state[FAMILY] = {"monitors": weakref.WeakSet(), "clock": None}
        # a line held back in the last second is printed when the program ends
        interp.at_end.append(lambda: flush_monitors(interp))
    return state


def flush_monitors(interp: Any) -> None:
    """Print the pending progress line of every monitor of the session."""
    state = interp.family_state.get(FAMILY)
    if state is not None:
        for monitor in list(state["monitors"]):
            monitor.flush()


# ------------------------------------------------------------------ value checks


def _names(v: Any, what: str) -> list[str]:
    """Metric or information names: valid names, each once."""
    if type(v) is np.ndarray and v.size == 0 and v.dtype.kind != "V":
        return []
    names = text_list(v, what)
    for name in names:
        if not VALID_NAME.match(name):
            raise error(f"{ID}:InvalidName",
                        f"Invalid name '{name}'. Names must begin with a letter and contain "
                        "only letters, digits, and underscores.")
    if len(set(names)) != len(names):
        raise error(f"{ID}:DuplicateNames", f"{what} must be unique.")
    return names


def _text(v: Any, what: str) -> str:
    text = text_or_none(v)
    if text is None:
        raise error(f"{ID}:InvalidText", f"{what} must be a character vector or string scalar.")
    return text


def _number(v: Any, what: str) -> float:
    """A real numeric scalar (a dlarray's or GPU array's data counts) as a float."""
    if type(v) is DlArray:
        v = v.data
    gather = BUILTINS.get("gather")
    if gather is not None:  # a GPU array's data in host memory (the same array on the CPU)
        v = gather.fn(v)
    if class_of(v) not in NUMERIC_OR_LOGICAL or numel(v) != 1:
        raise error(f"{ID}:InvalidValue", f"{what} must be a numeric scalar.")
    x = to_array(v).reshape(-1)[0]
    if np.iscomplexobj(x):
        raise error(f"{ID}:InvalidValue", f"{what} must be real.")
    return float(x)


def _progress(v: Any) -> float:
    x = _number(v, "Progress")
    if not 0 <= x <= 100:
        raise error(f"{ID}:InvalidProgress", "Progress must be a number between 0 and 100.")
    return x


def _string_row(names: list[str]) -> StringArray:
    data = np.empty((1, len(names)), dtype=object)
    for k, name in enumerate(names):
        data[0, k] = name
    return StringArray(data)


def _number_text(x: float) -> str:
    return f"{x:.4g}"


def _elapsed_text(seconds: float) -> str:
    whole = int(max(seconds, 0.0))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _pairs(args: list, what: str) -> list[tuple[str, Any]]:
    """Name=value pairs, or the fields of one scalar struct."""
    if len(args) == 1 and type(args[0]) is Struct:
        s = args[0]
        if not s.is_scalar():
            raise error(f"{ID}:InvalidStruct", f"{what} structure must be a scalar structure.")
        element = s.element(0)
        return [(name, element[name]) for name in s.fields]
    if len(args) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    return [(_text(args[k], f"{what} name"), args[k + 1]) for k in range(0, len(args), 2)]


# ------------------------------------------------------------------ the object


class TrainingProgressMonitor(MatlabObject):
    """A training progress monitor (a handle: changed in place; see the module's
    docstring for the Python accessors)."""

    matlab_class = "deep.TrainingProgressMonitor"
    display_name = "TrainingProgressMonitor"
    __slots__ = ("metrics", "info", "xlabel", "progress", "status", "stop", "visible",
                 "metric_values", "info_values", "groups", "scales", "clock", "stream",
                 "start", "last_print", "pending", "plots", "__weakref__")

    def __init__(self, stream: Any = None, clock: Callable[[], float] | None = None) -> None:
        self.metrics: list[str] = []
        self.info: list[str] = []
        self.xlabel = "Iteration"
        self.progress = 0.0
        self.status = "Running"
        self.stop = False
        self.visible = True
        self.metric_values: dict[str, list[tuple[float, float]]] = {}
        self.info_values: dict[str, list[float | str]] = {}
        self.groups: dict[str, list[str]] = {}  # group name -> its metrics, in order
        self.scales: dict[str, str] = {}  # metric or group name -> "log" (linear otherwise)
        self.clock = clock or time.monotonic
        self.stream = stream
        self.start = self.clock()
        self.last_print: float | None = None
        self.pending = False
        self.plots: monitor_plots.MonitorPlots | None = None  # its figure (monitor_plots.py)

    # ------------------------------------------------------------ Python accessors

    def history(self) -> dict[str, list[tuple[float, float]]]:
        return {name: list(points) for name, points in self.metric_values.items()}

    def info_history(self) -> dict[str, list[float | str]]:
        return {name: list(values) for name, values in self.info_values.items()}

    def subplots(self) -> list[tuple[str, list[str], str]]:
        panels: list[tuple[str, list[str], str]] = []
        placed: set[str] = set()
        for metric in self.metrics:
            if metric in placed:
                continue
            group = self._group_of(metric)
            if group is None:
                panels.append((metric, [metric], self.scales.get(metric, "linear")))
                placed.add(metric)
            else:
                members = self.groups[group]
                panels.append((group, list(members), self.scales.get(group, "linear")))
                placed.update(members)
        return panels

    def _group_of(self, metric: str) -> str | None:
        return next((g for g, members in self.groups.items() if metric in members), None)

    # ------------------------------------------------------------ functions

    def record_metrics(self, step: Any, args: list) -> None:
        """recordMetrics(monitor, step, Name=value, ...) or (monitor, step, struct)."""
        x = _number(step, "Step")
        pairs = _pairs(args, "Metric")
        values = []
        for name, value in pairs:
            if name not in self.metrics:
                raise error(f"{ID}:InvalidMetricName",
                            f"'{name}' is not a metric of the monitor. Add it to the Metrics "
                            "property before recording it.")
            values.append((name, _number(value, f"Value of metric '{name}'")))
        for name, value in values:
            self.metric_values.setdefault(name, []).append((x, value))
        self._changed()

    def update_info(self, args: list) -> None:
        """updateInfo(monitor, Name=value, ...) or (monitor, struct)."""
        pairs = _pairs(args, "Information")
        values: list[tuple[str, float | str]] = []
        for name, value in pairs:
            if name not in self.info:
                raise error(f"{ID}:InvalidInfoName",
                            f"'{name}' is not an information field of the monitor. Add it to "
                            "the Info property before updating it.")
            text = text_or_none(value)
            values.append((name, text if text is not None
                           else _number(value, f"Value of information '{name}'")))
        for name, value in values:
            self.info_values.setdefault(name, []).append(value)
        self._changed()

    def group_sub_plot(self, group: Any, members: Any) -> None:
        """groupSubPlot(monitor, groupName, metricNames)."""
        group_name = _text(group, "Group name")
        names = text_list(members, "Metric names")
        for name in names:
            if name not in self.metrics:
                raise error(f"{ID}:InvalidMetricName",
                            f"'{name}' is not a metric of the monitor. Add it to the Metrics "
                            "property before grouping it.")
        if len({self.scales.get(n, "linear") for n in names}) > 1:
            raise error(f"{ID}:MixedScales",
                        "To group metrics, all metrics must have the same y-axis scale.")
        for members_of in self.groups.values():  # a metric sits in one group only
            members_of[:] = [m for m in members_of if m not in names]
        self.groups = {g: ms for g, ms in self.groups.items() if ms}
        self.groups[group_name] = names
        scale = self.scales.get(names[0], "linear") if names else "linear"
        if scale != "linear":
            self.scales[group_name] = scale

    def set_yscale(self, names: Any, scale: Any) -> None:
        """yscale(monitor, metricOrGroupNames, "linear" | "log")."""
        targets = text_list(names, "Metric names")
        kind = (text_or_none(scale) or "").lower()
        if kind not in ("linear", "log"):
            raise error(f"{ID}:InvalidScale", "Scale must be \"linear\" or \"log\".")
        for target in targets:
            if target not in self.groups and target not in self.metrics:
                raise error(f"{ID}:InvalidMetricName",
                            f"'{target}' is not a metric or group of the monitor.")
            if target not in self.groups and self._group_of(target) is not None:
                raise error(f"{ID}:GroupedMetric",
                            f"'{target}' is in the group '{self._group_of(target)}'. Set the "
                            "scale of the group.")
        for target in targets:
            self.scales[target] = kind

    def request_stop(self) -> None:
        """The user asked training to stop (a figure's Stop button): ``Stop`` becomes true."""
        if not self.stop:
            self.stop = True
            self._changed(force=True)

    # ------------------------------------------------------------ printing

    def _changed(self, force: bool = False) -> None:
        """Print the progress line now, or leave it pending until a second has passed."""
        if self.plots is not None:
            self.plots.changed(force)
        if not self.visible or self.stream is None:
            return
        now = self.clock()
        if force or self.last_print is None or now - self.last_print >= PRINT_INTERVAL:
            self._print(now)
        else:
            self.pending = True

    def flush(self) -> None:
        """Print the pending line, if any."""
        if self.pending and self.visible and self.stream is not None:
            self._print(self.clock())

    def progress_line(self, now: float | None = None) -> str:
        """The compact one-line summary of the monitor's state."""
        parts = []
        steps = [points[-1][0] for points in self.metric_values.values() if points]
        if steps:
            parts.append(f"{self.xlabel} {_number_text(max(steps))}")
        parts.append(f"Progress {self.progress:.0f}%")
        for name in self.metrics:
            points = self.metric_values.get(name)
            if points:
                parts.append(f"{name} {_number_text(points[-1][1])}")
        for name in self.info:
            values = self.info_values.get(name)
            if values:
                v = values[-1]
                parts.append(f"{name} {v if isinstance(v, str) else _number_text(v)}")
        if self.status != "Running":
            parts.append(f"Status {self.status}")
        if self.stop:
            parts.append("Stopped")
        parts.append(f"Elapsed {_elapsed_text((self.clock() if now is None else now) - self.start)}")
        return "  ".join(parts)

    def _print(self, now: float) -> None:
        self.stream.write(self.progress_line(now) + "\n")
        self.stream.flush()
        self.last_print = now
        self.pending = False

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return list(PROPERTIES)

    def get_property(self, name: str) -> Any:
        if name == "Metrics":
            return _string_row(self.metrics)
        if name == "Info":
            return _string_row(self.info)
        if name == "XLabel":
            return StringArray.scalar(self.xlabel)
        if name == "Progress":
            return self.progress
        if name == "Status":
            return StringArray.scalar(self.status)
        if name == "Stop":
            return self.stop
        if name == "Visible":
            return self.visible
        if name == "MetricData":
            return self._metric_data()
        if name == "InfoData":
            return self._info_data()
        if self.method(name) is not None:
            return self.call_method(name, [])
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> TrainingProgressMonitor:
        """Sets the property in place (a handle) and returns the monitor."""
        if name in READ_ONLY:
            raise read_only_property(name, "TrainingProgressMonitor")
        if name == "Metrics":
            self.metrics = _names(value, "Metrics")
        elif name == "Info":
            self.info = _names(value, "Info")
        elif name == "XLabel":
            self.xlabel = _text(value, "XLabel")
        elif name == "Progress":
            before = self.progress
            self.progress = _progress(value)
            self._changed(force=self.progress >= 100 > before)
        elif name == "Status":
            before = self.status
            self.status = _text(value, "Status")
            self._changed(force=self.status != before)
        elif name == "Visible":
            self.visible = option_flag(value, "Visible")
        else:
            return super().set_property(name, value)
        return self

    def _metric_data(self) -> Struct:
        fields = {}
        for name in self.metrics:
            points = self.metric_values.get(name, [])
            fields[name] = np.array(points, dtype=float).reshape(len(points), 2)
        return Struct.scalar(fields)

    def _info_data(self) -> Struct:
        fields: dict[str, Any] = {}
        for name in self.info:
            values = self.info_values.get(name, [])
            if values and all(isinstance(v, str) for v in values):
                data = np.empty((len(values), 1), dtype=object)
                for k, v in enumerate(values):
                    data[k, 0] = v
                fields[name] = StringArray(data)
            else:
                fields[name] = np.array([[float(v) if not isinstance(v, str) else np.nan]
                                         for v in values], dtype=float).reshape(len(values), 1)
        return Struct.scalar(fields)

    # ------------------------------------------------------------ methods

    def method(self, name: str) -> Callable[[list], Any] | None:
        methods: dict[str, Callable[[list], Any]] = {
            "recordMetrics": lambda args: call_function("recordMetrics", [self, *args]),
            "updateInfo": lambda args: call_function("updateInfo", [self, *args]),
            "groupSubPlot": lambda args: call_function("groupSubPlot", [self, *args]),
            "yscale": lambda args: call_function("yscale", [self, *args]),
        }
        return methods.get(name)

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        """The monitor functions called with a monitor first (``yscale`` may belong to the
        graphics functions, which then leave a monitor's call to this route)."""
        if builtin.name not in MONITOR_FUNCTIONS or not args \
                or type(args[0]) is not TrainingProgressMonitor:
            return NotImplemented
        if nargout > 0:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        call_function(builtin.name, args)
        return []

    def display_properties(self) -> list[tuple[str, Any]]:
        return [(name, self.get_property(name)) for name in PROPERTIES]

    def __repr__(self) -> str:
        return f"TrainingProgressMonitor({self.metrics}, progress={self.progress})"


# ------------------------------------------------------------------ functions


def call_function(name: str, args: list) -> None:
    """One of the monitor functions, ``args`` starting with the monitor."""
    if len(args) < {"recordMetrics": 2, "updateInfo": 1, "groupSubPlot": 3, "yscale": 3}[name]:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    monitor = args[0]
    if type(monitor) is not TrainingProgressMonitor:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{class_of(monitor)}'.")
    if name == "recordMetrics":
        monitor.record_metrics(args[1], list(args[2:]))
    elif name == "updateInfo":
        monitor.update_info(list(args[1:]))
    elif name == "groupSubPlot":
        if len(args) > 3:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        monitor.group_sub_plot(args[1], args[2])
    else:
        if len(args) > 3:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        monitor.set_yscale(args[1], args[2])


MONITOR_FUNCTIONS = ("recordMetrics", "updateInfo", "groupSubPlot", "yscale")


@builtin("trainingProgressMonitor", interp=True, dl="native")
def training_progress_monitor(interp: Any, *args: Any) -> TrainingProgressMonitor:
    """trainingProgressMonitor  Monitor and record the progress of a custom training loop.

    monitor = trainingProgressMonitor creates a monitor; monitor =
    trainingProgressMonitor(Name=Value) sets Metrics, Info, XLabel, Progress, Status and
    Visible.  The monitor is a handle object.  Record metric values with
    recordMetrics(monitor, step, Name=value), information with updateInfo(monitor,
    Name=value), group metrics in one plot with groupSubPlot(monitor, group, metrics),
    and choose a logarithmic axis with yscale(monitor, names, "log").  Set
    monitor.Progress (0 to 100) and monitor.Status as training goes; monitor.Stop is
    true when the user asked training to stop.  MetricData and InfoData hold every
    value recorded.  Without a figure window, a one-line summary is printed to the
    standard error at most once a second."""
    state = family_state(interp)
    monitor = TrainingProgressMonitor(stream=interp.err, clock=state["clock"])
    given = options(args, CREATION_OPTIONS)
    for name in CREATION_OPTIONS:  # names and labels first: no line printed before them
        if name in given:
            monitor.set_property(name, given[name])
    state["monitors"].add(monitor)
    monitor.plots = monitor_plots.attach(interp, monitor)  # a figure when figures are on
    return monitor


@builtin("recordMetrics", dl="native")
def record_metrics(monitor: Any, step: Any, *args: Any) -> None:
    """recordMetrics(monitor, step, Name=value, ...)  record metric values at a step
    (iteration or epoch) of training; recordMetrics(monitor, step, s) takes the values
    from the fields of the structure s.  Values may be dlarrays."""
    call_function("recordMetrics", [monitor, step, *args])


@builtin("updateInfo", dl="native")
def update_info(monitor: Any, *args: Any) -> None:
    """updateInfo(monitor, Name=value, ...)  update information values (numbers or text)
    of a training progress monitor; updateInfo(monitor, s) takes them from a structure."""
    call_function("updateInfo", [monitor, *args])


@builtin("groupSubPlot", dl="native")
def group_sub_plot(monitor: Any, group: Any, metrics: Any) -> None:
    """groupSubPlot(monitor, groupName, metricNames)  plot several metrics of a training
    progress monitor in one subplot labelled groupName."""
    call_function("groupSubPlot", [monitor, group, metrics])


@builtin("yscale", dl="native")
def _yscale(*args: Any) -> None:
    """yscale(monitor, names, scale)  the y-axis scale ("linear" or "log") of metrics or
    metric groups of a training progress monitor."""
    call_function("yscale", list(args))
