"""TrainingInfo: the second output of trainnet, and the verbose table trainnet prints.

``TrainingInfo`` (MATLAB's ``deep.TrainingInfo``) holds ``TrainingHistory`` (a table of
Iteration, Epoch, LearnRate and Loss for the stochastic solvers; Iteration, Loss,
GradientNorm and StepNorm for L-BFGS), ``ValidationHistory`` (Iteration and Loss, empty
without validation data), ``OutputNetworkIteration`` and ``StopReason``.  It is a value
object with read-only properties.

``VerboseTable`` prints the progress table of ``Verbose=true`` in MATLAB's layout: a
header, a rule under each column name, one row per reported iteration (columns right
aligned under their names, numbers with five significant digits, an empty cell where a
value was not computed), and the final ``Training stopped: <reason>`` line.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from mlang.values.objects import MatlabObject, read_only_property
from mlang.values.string import StringArray
from mlang.values.table import Table

STOCHASTIC_HISTORY = ("Iteration", "Epoch", "LearnRate", "Loss")
LBFGS_HISTORY = ("Iteration", "Loss", "GradientNorm", "StepNorm")
VALIDATION_HISTORY = ("Iteration", "Loss")


def history_table(names: tuple[str, ...], rows: list[tuple[float, ...]]) -> Table:
    """A table of numeric columns, one row a tuple (NaN for a value not computed)."""
    columns = []
    for k in range(len(names)):
        column = np.array([[float(r[k])] for r in rows], dtype=np.float64).reshape(len(rows), 1)
        columns.append(column)
    return Table(columns, list(names), nrows=len(rows))


class TrainingInfo(MatlabObject):
    """Information about a trainnet run (see the module docstring)."""

    __slots__ = ("training_history", "validation_history", "output_iteration", "stop_reason")
    matlab_class = "deep.TrainingInfo"
    PROPERTIES = ("TrainingHistory", "ValidationHistory", "OutputNetworkIteration", "StopReason")

    def __init__(self, training_history: Table, validation_history: Table, output_iteration: int,
                 stop_reason: str) -> None:
        self.training_history = training_history
        self.validation_history = validation_history
        self.output_iteration = output_iteration
        self.stop_reason = stop_reason

    def property_names(self) -> list[str]:
        return list(self.PROPERTIES)

    def get_property(self, name: str) -> Any:
        if name == "TrainingHistory":
            return self.training_history
        if name == "ValidationHistory":
            return self.validation_history
        if name == "OutputNetworkIteration":
            return float(self.output_iteration)
        if name == "StopReason":
            return StringArray.scalar(self.stop_reason)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Any:
        if name in self.PROPERTIES:
            raise read_only_property(name, "TrainingInfo")
        return super().set_property(name, value)


# ------------------------------------------------------------------ the verbose table


def number_text(x: float | None) -> str:
    """A value of the table: five significant digits, as MATLAB's short g format."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if float(x).is_integer() and abs(x) < 1e10:
        return str(int(x))
    text = f"{x:.5g}"
    if "e" in text:  # MATLAB writes two exponent digits at least: 1.2346e-05
        mantissa, exponent = text.split("e")
        sign = exponent[0] if exponent[0] in "+-" else "+"
        digits = exponent.lstrip("+-").rjust(2, "0")
        text = f"{mantissa}e{sign}{digits}"
    return text


def elapsed_text(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class VerboseTable:
    """The progress table of trainnet's Verbose output, written as training goes."""

    INDENT = "    "
    GAP = "    "

    def __init__(self, interp: Any, columns: list[str], clock: Any = time.monotonic) -> None:
        self.interp = interp
        self.columns = columns
        self.clock = clock
        self.start = clock()

    def _line(self, cells: list[str]) -> None:
        parts = [cell.rjust(len(name)) for cell, name in zip(cells, self.columns, strict=True)]
        self.interp.write(self.INDENT + self.GAP.join(parts).rstrip() + "\n")

    def header(self) -> None:
        self._line(list(self.columns))
        self._line(["_" * len(name) for name in self.columns])

    def row(self, values: dict[str, float | None]) -> None:
        """One row: ``values`` by column name; TimeElapsed is filled in here."""
        cells = []
        for name in self.columns:
            if name == "TimeElapsed":
                cells.append(elapsed_text(self.clock() - self.start))
            else:
                cells.append(number_text(values.get(name)))
        self._line(cells)

    def finish(self, reason: str) -> None:
        self.interp.write(f"Training stopped: {reason}\n")
