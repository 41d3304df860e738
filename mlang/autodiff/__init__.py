"""Reverse-mode automatic differentiation: the dlarray value, traces and gradients."""

# ops first: it imports dlarray, whose class needs ops only at call time (see dlarray.py).
from mlang.autodiff import ops  # noqa: F401
