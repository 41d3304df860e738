"""Shared scaffolding of the robustness tests: run awkward MATLAB code and collect the
Python exceptions that escaped (MATLAB errors are the expected outcome)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from mlang.errors import MatlabError


def python_failures(g: Any, codes: Iterable[str], context: str = "") -> list[str]:
    """Run each line of code; describe those that raised anything but a MATLAB error."""
    failures = []
    for code in codes:
        try:
            g.interp.eval(code)
        except MatlabError:
            pass
        except Exception as exc:  # noqa: BLE001 - the point of the test
            failures.append(f"{context}{code} -> {type(exc).__name__}: {exc}")
    return failures


def awkward_calls(name: str, arguments: list[str], steps: dict[int, int]) -> Iterator[str]:
    """Calls of name with every step-th combination of count arguments, for each count."""
    for count, step in steps.items():
        for combo in itertools.islice(itertools.product(arguments, repeat=count), 0, None, step):
            yield f"{name}({', '.join(combo)});"
