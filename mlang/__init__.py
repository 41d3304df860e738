"""mlang: a MATLAB-compatible interpreter with automatic differentiation."""

__version__ = "0.1.0"
