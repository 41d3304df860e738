"""Facts about subtrees that compiling asks for at every level of a nesting.

Whether an index argument uses ``end``, and which names an anonymous function
captures, are questions about a whole subtree, asked again at each level
below (``x(f(f(f(end))))``, ``@() @() @() y``).  Answering each by walking the
subtree costs time quadratic in the depth; here each answer is worked out
once per node, bottom-up, and kept for the rest of the compilation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlang.syntax import ast


def _bottom_up(root: ast.Node, memo: dict[int, tuple[ast.Node, Any]],
               combine: Callable[[ast.Node, list], Any]) -> Any:
    """``combine(node, answers of its children)`` for ``root`` and every node below it
    not answered yet, children first; an explicit stack, since trees can be deep."""
    stack: list[tuple[ast.Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in memo:
            continue
        kids = list(ast.children(node))
        if expanded:
            # the node itself is kept with its answer: its id stays its own meanwhile
            memo[id(node)] = (node, combine(node, [memo[id(k)][1] for k in kids]))
        else:
            stack.append((node, True))
            stack.extend((k, False) for k in kids)
    return memo[id(root)][1]


def _has_end(node: ast.Node, below: list[bool]) -> bool:
    return type(node) is ast.End or any(below)


class TreeFacts:
    """Per-node answers for one compilation (shared by the compilers of the anonymous
    functions inside it)."""

    def __init__(self) -> None:
        self._end: dict[int, tuple[ast.Node, bool]] = {}
        self._free: dict[int, tuple[ast.Node, frozenset[str]]] = {}

    def contains_end(self, node: ast.Node) -> bool:
        """Might an index argument use ``end`` for the array being indexed?

        Any ``end`` below counts: one inside a nested index belongs to that index if
        it indexes a variable, but to this one if it is a function call
        (``x(min(end, 3))``), which is only known at run time.
        """
        found = self._end.get(id(node))
        return found[1] if found is not None else _bottom_up(node, self._end, _has_end)

    def free_names(self, node: ast.Lambda) -> frozenset[str]:
        """Names an anonymous function's body reads that are not its parameters (the
        variables it captures); a nested one's own parameters are not free in it."""
        found = self._free.get(id(node))
        if found is not None:
            return found[1]
        # the anonymous functions not answered yet, each before those inside it
        pending: list[ast.Lambda] = []
        stack: list[ast.Node] = [node]
        while stack:
            current = stack.pop()
            if type(current) is ast.Lambda:
                if id(current) in self._free:
                    continue
                pending.append(current)
            stack.extend(ast.children(current))
        # innermost first: each body is walked once, down to the functions inside it
        for lam in reversed(pending):
            names: set[str] = set()
            stack = [lam.body]
            while stack:
                current = stack.pop()
                kind = type(current)
                if kind is ast.Name:
                    names.add(current.name)
                elif kind is ast.Lambda:
                    names |= self._free[id(current)][1]
                else:
                    stack.extend(ast.children(current))
            names.difference_update(p for p in lam.params if p)
            self._free[id(lam)] = (lam, frozenset(names))
        return self._free[id(node)][1]
