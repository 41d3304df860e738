"""A headless graphics session for the graphics tests: figures are Agg figures, and the
figure files go to the test's temporary folder."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mlang.builtins.graphics.state import configure
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


class FakeClock:
    """A clock the test moves by hand (drawnow's throttling)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class GraphicsSession:
    def __init__(self, folder: Path) -> None:
        self.out = io.StringIO()
        self.err = io.StringIO()
        self.interp = Interpreter(stdout=self.out, stderr=self.err)
        self.figures_dir = folder / "figures"
        self.state = configure(self.interp, figures_dir=str(self.figures_dir), wait=False)
        self.clock = FakeClock()
        self.state.clock = self.clock

    def run(self, code: str) -> str:
        start = self.out.tell()
        self.interp.eval(code)
        return self.out.getvalue()[start:]

    def value(self, code: str, name: str = "x"):
        self.run(code)
        return self.interp.base.vars[name]

    def get(self, name: str):
        return self.interp.base.vars[name]

    def fails(self, code: str) -> MatlabError:
        with pytest.raises(MatlabError) as info:
            self.interp.eval(code)
        return info.value

    def finish(self) -> str:
        self.interp.finish()
        return self.err.getvalue()


@pytest.fixture
def g(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GraphicsSession:
    monkeypatch.chdir(tmp_path)
    return GraphicsSession(tmp_path)
