"""Reverse-mode automatic differentiation: the dlarray value, traces and gradients."""
