"""Shared fixtures for the builtin tests."""

from __future__ import annotations

import io

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


class Session:
    """One interpreter for a module's tests; each ``run`` starts from an empty workspace."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.err = io.StringIO()
        self.interp = Interpreter(stdout=self.out, stderr=self.err)

    def run(self, code: str, **inputs) -> str:
        self.interp.base.vars.clear()
        self.interp.base.vars.update(inputs)
        for stream in (self.out, self.err):
            stream.seek(0)
            stream.truncate()
        self.interp.eval(code)
        return self.out.getvalue()

    def value(self, code: str, name: str = "x", **inputs):
        self.run(code, **inputs)
        return self.interp.base.vars[name]

    def values(self, code: str, *names: str, **inputs) -> list:
        self.run(code, **inputs)
        return [self.interp.base.vars[n] for n in names]

    def fails(self, code: str) -> MatlabError:
        with pytest.raises(MatlabError) as info:
            self.run(code)
        return info.value


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()
