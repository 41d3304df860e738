"""Test-wide settings: parsed-AST cache entries go to a throwaway folder,
property tests draw a fixed sequence of examples (so CI cannot meet a new
failing case by chance; MLANG_HYPOTHESIS_RANDOM=1 draws fresh ones), and
mlang's own functions are called in the floating-point state MATLAB code runs
in (``Interpreter.running``: NumPy's warnings off); a test of what a Python
caller sees sets the caller's state itself."""

import os
import tempfile
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import settings

os.environ.setdefault("MLANG_CACHE_DIR", tempfile.mkdtemp(prefix="mlang-test-cache-"))

settings.register_profile("fixed", derandomize=True)
settings.register_profile("random", derandomize=False)
settings.load_profile("random" if os.environ.get("MLANG_HYPOTHESIS_RANDOM") else "fixed")


@pytest.fixture(autouse=True)
def _floating_point_state_of_matlab_code() -> Iterator[None]:
    with np.errstate(all="ignore"):
        yield
