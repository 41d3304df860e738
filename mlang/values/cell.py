"""Cell arrays: N-D arrays of arbitrary MATLAB values."""

from __future__ import annotations

import numpy as np

from mlang.values.core import EMPTY


class Cell:
    """A cell array; ``data`` is an object ndarray (at least 2-D) of MATLAB values."""

    matlab_class = "cell"
    __slots__ = ("data",)

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    @classmethod
    def empty(cls, shape: tuple[int, ...] = (0, 0)) -> Cell:
        return cls(np.empty(shape, dtype=object))

    @classmethod
    def filled(cls, shape: tuple[int, ...]) -> Cell:
        """A cell of the given size with every element ``[]``."""
        data = np.empty(shape, dtype=object)
        data.fill(EMPTY)
        return cls(data)

    @classmethod
    def row(cls, values: list) -> Cell:
        data = np.empty((1, len(values)), dtype=object)
        for i, v in enumerate(values):
            data[0, i] = v
        return cls(data)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    def values(self) -> list:
        """Elements in column-major order."""
        return list(self.data.ravel(order="F"))

    def __repr__(self) -> str:
        return f"Cell({self.data.shape})"
