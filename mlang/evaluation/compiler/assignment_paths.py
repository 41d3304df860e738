"""The general path of a store into a chained target: ``s.a{2}(3) = v``, one step at
a time from the root, each step copying only what it changes (moved out of
``assignment``, which compiles the stores and their fast paths)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.evaluation.frame import Frame
from mlang.syntax import ast
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, to_str
from mlang.values.objects import kind_of
from mlang.values.struct import Struct


def target_chain(target: ast.Node) -> list:
    """``s(1).f{2}`` → ['s', ('()', args), ('.', 'f'), ('{}', args)]."""
    ops: list = []
    node = target
    while True:
        t = type(node)
        if t is ast.Name:
            return [node.name, *reversed(ops)]
        if t is ast.Index:
            ops.append(("{}" if node.braces else "()", node.args))
        elif t is ast.Field:
            ops.append((".", node.name))
        elif t is ast.DynField:
            ops.append((".()", node.name))
        else:
            raise error("MATLAB:invalidAssignment", "Invalid assignment target.")
        node = node.base


def root_name(target: ast.Node) -> str:
    return target_chain(target)[0]


def _op_args(frame: Frame, op: tuple, current: Any) -> list:
    args, uses_end = op[1], op[2]
    if uses_end:
        return args(frame, current if current is not None else np.zeros((0, 0)))
    return args(frame)


def assign_path(frame: Frame, current: Any, ops: list, i: int, value: Any) -> Any:
    """The new value of ``current`` after assigning ``value`` at ``ops[i:]``: down the
    path one link at a time, then back up (a loop: a path can be thousands of links long)."""
    finishers: list[Callable[[Any], Any]] = []
    while True:
        done, current, finish = _assign_step(frame, current, ops, i, value)
        if done:
            break
        finishers.append(finish)
        i += 1
    for finish in reversed(finishers):
        current = finish(current)
    return current


def _assign_step(frame: Frame, current: Any, ops: list, i: int, value: Any
                 ) -> tuple[bool, Any, Callable[[Any], Any] | None]:
    """One link of an assignment path: (True, the new value of ``current``, None) at the
    last link, else (False, the value one link down, what makes ``current`` anew from
    that value once assigned)."""
    op = ops[i]
    kind = op[0]
    last = i == len(ops) - 1
    if kind == "()":
        args = _op_args(frame, op, current)
        if last:
            return True, indexing.assign(current, args, value), None
        # x(i).f = v / x(i){...}: work on the selected element
        if current is None:
            current = Struct.empty((0, 0)) if ops[i + 1][0] in (".", ".()") else Cell.empty()
        if type(current) is Struct and ops[i + 1][0] == ".":
            if ops[i + 1][1] not in current.fields:  # a new field belongs to every element
                current = current.copy()
                current.add_field(ops[i + 1][1])
        try:
            sub = indexing.index(current, args)
        except MatlabError:
            sub = None
        if type(sub) is Struct and sub.elems.size == 0:
            sub = None
        if sub is None and type(current) is Struct:
            sub = Struct.scalar(dict.fromkeys(current.fields, EMPTY))
        return False, sub, lambda new_sub: indexing.assign(current, args, new_sub)
    if kind == "{}":
        args = _op_args(frame, op, current)
        obj_kind = kind_of(current)
        if obj_kind is not None:  # an object with brace indexing of its own (a table)
            return _object_brace_step(obj_kind, current, args, value, last)
        if current is None:
            current = Cell.empty()
        elif type(current) is np.ndarray and current.size == 0:
            current = Cell.empty(current.shape)
        if type(current) is not Cell:
            raise error("MATLAB:cellAssToNonCell",
                        "Unable to perform assignment because brace indexing is not supported "
                        "for variables of this type. Use parentheses instead.")
        if last:
            cell_value = Cell(np.empty((1, 1), dtype=object))
            cell_value.data[0, 0] = value
            return True, indexing.assign(current, args, cell_value), None
        try:
            sub_list = indexing.brace_index(current, args)
            sub = sub_list[0] if len(sub_list) == 1 else None
        except MatlabError:
            sub = None

        def into_cell(new_sub: Any) -> Any:
            wrapped = Cell(np.empty((1, 1), dtype=object))
            wrapped.data[0, 0] = new_sub
            return indexing.assign(current, args, wrapped)

        return False, sub, into_cell
    # field
    if kind == ".":
        name = op[1]
    else:
        name = to_str(op[1](frame))
    if current is None or (type(current) is np.ndarray and current.size == 0):
        current = Struct.scalar()
    if type(current) is not Struct:
        kind = kind_of(current)
        if kind is not None and last:
            return True, kind.set_property(current, name, value), None
        if kind is not None:  # obj.name(...) = v, obj.name.f = v: change the property's value
            return _object_property_step(kind, current, name)
        raise error("MATLAB:structAssToNonStruct",
                    "Unable to perform assignment because dot indexing is not supported for "
                    "variables of this type.")
    if current.elems.size != 1:
        if last and current.elems.size > 1:
            raise error("MATLAB:index:expected_one_output_from_expression",
                        "Unable to perform assignment because the dot indexing produced "
                        "more than one result.")
    out = current.copy() if current.elems.size else Struct.scalar()
    element = out.elems.reshape(-1)[0]
    if name not in out.fields:
        out.add_field(name)
    if last:
        element[name] = value
        return True, out, None

    def into_field(new_sub: Any) -> Any:
        element[name] = new_sub
        return out

    return False, element.get(name) if name in element else None, into_field


def _object_brace_step(kind: Any, current: Any, args: list, value: Any, last: bool
                       ) -> tuple[bool, Any, Callable[[Any], Any] | None]:
    """A ``{}`` link of an assignment path on an object (its brace hooks)."""
    if last:
        out = kind.subsasgn_brace(current, args, value)
        if out is NotImplemented:
            raise error("MATLAB:cellAssToNonCell",
                        "Unable to perform assignment because brace indexing is not supported "
                        "for variables of this type. Use parentheses instead.")
        return True, out, None
    try:
        sub_list = indexing.brace_index(current, args)
        sub = sub_list[0] if len(sub_list) == 1 else None
    except MatlabError:
        sub = None
    return False, sub, lambda new_sub: kind.subsasgn_brace(current, args, new_sub)


def _object_property_step(kind: Any, current: Any, name: str
                          ) -> tuple[bool, Any, Callable[[Any], Any] | None]:
    """A ``.name`` link that is not the last of an assignment path on an object: the
    property's value is changed further down, then set back."""
    try:
        sub = kind.get_property(current, name)
    except MatlabError:
        sub = None  # a new property (a new table variable) made by the rest of the path
    return False, sub, lambda new_sub: kind.set_property(current, name, new_sub)
