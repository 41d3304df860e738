"""String arrays (MATLAB's ``string`` class)."""

from __future__ import annotations

import numpy as np

from mlang.errors import error


class StringArray:
    """An N-D array of strings; ``data`` is an object ndarray of ``str`` (None is <missing>)."""

    matlab_class = "string"
    __slots__ = ("data",)

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    @classmethod
    def scalar(cls, text: str) -> StringArray:
        data = np.empty((1, 1), dtype=object)
        data[0, 0] = text
        return cls(data)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    def scalar_text(self) -> str:
        if self.data.size != 1:
            raise error("MATLAB:invalidType", "Expected a string scalar.")
        text = self.data.reshape(-1)[0]
        return "" if text is None else text

    def __repr__(self) -> str:
        return f"StringArray({self.data.tolist()})"
