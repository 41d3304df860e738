"""trainnet's OutputFcn: functions called before training, after each iteration and at
the end with a struct of training information; one returning true stops training.

The struct has the fields Epoch, Iteration, TimeElapsed (a duration), LearnRate,
TrainingLoss, ValidationLoss ([] when not computed at that iteration) and State
("start", "iteration" or "done").
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.registry import BUILTINS
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, is_true
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray
from mlang.values.struct import Struct

FIELDS = ("Epoch", "Iteration", "TimeElapsed", "LearnRate", "TrainingLoss", "ValidationLoss",
          "State")


def output_functions(value: Any) -> list[FunctionHandle]:
    """The OutputFcn option as a list of handles."""
    if type(value) is FunctionHandle:
        return [value]
    if type(value) is Cell:
        handles = list(value.data.reshape(-1, order="F"))
        if all(type(h) is FunctionHandle for h in handles):
            return handles
    if type(value) is np.ndarray and value.size == 0:
        return []
    raise error("deep:trainnet:InvalidOutputFcn",
                "OutputFcn must be a function handle or a cell array of function handles.")


class OutputFunctions:
    """The output functions of one run, with the clock of its TimeElapsed."""

    def __init__(self, interp: Any, value: Any) -> None:
        self.interp = interp
        self.handles = output_functions(value)
        self.start = time.monotonic()

    def __bool__(self) -> bool:
        return bool(self.handles)

    def call(self, state: str, iteration: int, values: dict[str, Any]) -> bool:
        """Call each function; True when one asks to stop."""
        if not self.handles:
            return False
        elapsed = BUILTINS["seconds"].call(self.interp, [time.monotonic() - self.start], 1)[0]
        fields: dict[str, Any] = {}
        for name in FIELDS:
            v = values.get(name)
            fields[name] = EMPTY if v is None else float(v)
        fields.update(Iteration=float(iteration), TimeElapsed=elapsed,
                      State=StringArray.scalar(state))
        info = Struct.scalar(fields)
        stop = False
        for handle in self.handles:
            try:
                outs = self.interp.call_value(handle, [info], 1)
            except MatlabError as e:
                if e.identifier not in ("MATLAB:TooManyOutputs", "MATLAB:maxlhs"):
                    raise
                outs = self.interp.call_value(handle, [info], 0)
            if outs and outs[0] is not None and np.size(outs[0]) and is_true(outs[0]):
                stop = True
        return stop
