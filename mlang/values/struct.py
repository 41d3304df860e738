"""Structures and struct arrays."""

from __future__ import annotations

import numpy as np

from mlang.values.core import EMPTY


class Struct:
    """A struct array: field names in order, and one dict of field values per element.

    A scalar struct (the common case) has a 1×1 ``elems`` array.
    """

    matlab_class = "struct"
    __slots__ = ("fields", "elems")

    def __init__(self, fields: list[str], elems: np.ndarray) -> None:
        self.fields = fields
        self.elems = elems

    @classmethod
    def scalar(cls, values: dict | None = None) -> Struct:
        elems = np.empty((1, 1), dtype=object)
        elems[0, 0] = dict(values or {})
        return cls(list(elems[0, 0]), elems)

    @classmethod
    def empty(cls, shape: tuple[int, ...] = (0, 0), fields: list[str] | None = None) -> Struct:
        return cls(list(fields or []), np.empty(shape, dtype=object))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.elems.shape

    def is_scalar(self) -> bool:
        return self.elems.size == 1

    def element(self, k: int = 0) -> dict:
        """The field dict of element k (column-major order)."""
        return self.elems.ravel(order="F")[k] if self.elems.ndim != 2 else \
            self.elems[k % self.elems.shape[0], k // self.elems.shape[0]]

    def add_field(self, name: str) -> None:
        if name not in self.fields:
            self.fields.append(name)
            for d in self.elems.ravel(order="K"):
                d.setdefault(name, EMPTY)

    def copy(self) -> Struct:
        """A copy whose elements can be changed without touching this one."""
        elems = np.empty(self.elems.shape, dtype=object)
        flat_src = self.elems.reshape(-1)
        flat_dst = elems.reshape(-1)
        for i in range(flat_src.size):
            flat_dst[i] = dict(flat_src[i])
        return Struct(list(self.fields), elems)

    def __repr__(self) -> str:
        return f"Struct({self.fields}, {self.elems.shape})"
