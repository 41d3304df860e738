"""Compiling assignments: ``x = v``, indexed and field targets, ``[a, b] = f(...)``.

Hot shapes write in place when nothing else holds the array: ``x(i) = v``,
``c{i} = v``, ``s.a.b = v``; ``x(end+1) = v`` and ``x = [x, v]`` append in
over-allocated buffers (growth views, remembered through weak references).
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.evaluation.compiler.assignment_paths import assign_path, root_name, target_chain
from mlang.evaluation.compiler.donation import donating_outputs
from mlang.evaluation.compiler.element_stores import element_field_store
from mlang.evaluation.compiler.plain_calls import listing
from mlang.evaluation.compiler.runtime import MISSING, Code
from mlang.evaluation.frame import Frame
from mlang.syntax import ast
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.concat import concatenate
from mlang.values.core import EMPTY
from mlang.values.indexing import COLON
from mlang.values.objects import kind_of
from mlang.values.struct import Struct


class AssignmentCompiler:
    """The part of ``Compiler`` that compiles assignments (a mixin: it calls the other parts)."""

    def visit_Assign(self, node: ast.Assign) -> Code:
        target = node.target
        value = self.expr(node.value)
        store = self.store(target)
        show = node.show
        interp = self.interp
        root = root_name(target)
        if type(target) is ast.Name and _appends_to(root, node.value) and root not in self.special_names:
            return self._append_assign(root, node.value.rows[0][1:], value, show)

        if type(target) is ast.Name and root not in self.special_names:
            def assign_name(frame: Frame) -> None:
                v = value(frame)
                frame.vars[root] = v
                if show:
                    interp.display(root, v)

            if not show:
                def assign_quiet(frame: Frame) -> None:
                    frame.vars[root] = value(frame)

                # (written loops store the value themselves: a call fewer a statement)
                assign_quiet.stored_value = (root, value)  # type: ignore[attr-defined]
                return assign_quiet
            return assign_name

        quick = None if show else self._quick_index_store(target, value)
        if quick is not None:
            return quick
        get_root = self.expr(ast.Name(root))

        def assign_(frame: Frame) -> None:
            store(frame, value(frame))
            if show:
                interp.display(root, get_root(frame))

        return assign_

    def _quick_index_store(self, target: ast.Node, value: Code) -> Code | None:
        """``x(i) = expr;`` with one plain index: one closure for the whole statement,
        writing in place when ``x`` is an unshared double array (the hottest loop store)."""
        if type(target) is not ast.Index or target.braces or len(target.args) != 1:
            return None
        root = self.plain_variable(target.base)
        arg_node = target.args[0]
        if root is None or self.may_expand(arg_node) or type(arg_node) in (ast.NamedArg, ast.Colon) \
                or self.facts.contains_end(arg_node):
            return None
        index = self.expr(arg_node)
        general = self._store_index(root, target.args, *self.index_args(target.args))
        getrefcount = sys.getrefcount
        float64 = np.dtype(np.float64)
        string_array = indexing.StringArray  # (the class indexing stores into)
        assign_masked = indexing.assign_masked

        def quick_store(frame: Frame) -> None:
            v = value(frame)
            vars = frame.vars
            base = vars.get(root)
            if type(base) is np.ndarray and type(v) is float and base.dtype is float64:
                k = index(frame)
                if type(k) is float and base.ndim == 2:
                    i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                    if i == k and 1 <= i <= base.size:
                        rows = base.shape[0]
                        if getrefcount(base) <= 3 and (base.base is None or indexing.owns_storage(base)):
                            base[(i - 1) % rows, (i - 1) // rows] = v
                            return
                        # shared (another variable or a view looks at it): a private copy,
                        # as the general store makes
                        new = base.copy()
                        new[(i - 1) % rows, (i - 1) // rows] = v
                        vars[root] = new
                        return
                general_with_index(frame, base, k, v)
                return
            if type(base) is string_array and type(v) is string_array:
                k = index(frame)
                data = base.data
                if type(k) is float and data.ndim == 2 and v.data.shape == (1, 1):
                    i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                    # references to the array: the string's, `data`, getrefcount's argument
                    if i == k and 1 <= i <= data.size and getrefcount(base) <= 3 \
                            and getrefcount(data) <= 3 and indexing.owns_storage(data):
                        rows = data.shape[0]
                        data[(i - 1) % rows, (i - 1) // rows] = v.data[0, 0]
                        return
                data = None
                owned = getrefcount(base) <= 3
                _assign_and_track(frame, root, base, [k], v, owned)
                return
            base = None  # the general store counts who holds x: this name must not count
            general(frame, v)

        def general_with_index(frame: Frame, base: Any, k: Any, v: Any) -> None:
            # the index is already evaluated: do not evaluate it twice
            owned = getrefcount(base) <= 4  # + the caller's local
            vars = frame.vars
            if type(k) is float and k == base.size + 1 and owned:
                grown = append_to_growth_view(frame, root, base)
                if grown is not None:
                    grown[-1, -1] = v
                    vars[root] = grown
                    return
            elif type(k) is np.ndarray:
                new = assign_masked(base, k, v, owned)
                if new is not None:
                    vars[root] = new
                    return
            _assign_and_track(frame, root, base, [k], v, owned)

        return quick_store

    def _append_assign(self, root: str, part_nodes: list, value: Code, show: bool) -> Code:
        """``x = [x, a, b]`` on a row vector: appended in an over-allocated buffer."""
        parts = listing([self.expr(n) for n in part_nodes])
        getrefcount = sys.getrefcount
        interp = self.interp

        def append(frame: Frame) -> None:
            vars = frame.vars
            cur = vars.get(root)
            if type(cur) is ndarray and getrefcount(cur) <= 3:
                shape = cur.shape
                if len(shape) == 2 and shape[0] == 1:
                    values = parts(frame)
                    new = _append_row(frame, root, cur, values)
                    if new is None:
                        new = concatenate([[cur, *values]])
                    vars[root] = new
                    if show:
                        interp.display(root, new)
                    return
            vars[root] = value(frame)
            if show:
                interp.display(root, vars[root])

        return append

    # stores into a target ------------------------------------------------

    def store(self, target: ast.Node) -> Callable[[Frame, Any], None]:
        """Code that stores a value into an assignment target (a name or a chain)."""
        chain = target_chain(target)
        root = chain[0]
        ops = chain[1:]
        if root in self.global_names:
            read, write = self._global_access(root)
        elif root in self.outer_names:
            def read(frame: Frame) -> Any:
                return (frame.outer or frame).vars.get(root, MISSING)

            def write(frame: Frame, v: Any) -> None:
                (frame.outer or frame).vars[root] = v
        elif root in self.persistent_names:
            def read(frame: Frame) -> Any:
                return frame.persistent.get(root, MISSING)  # type: ignore[union-attr]

            def write(frame: Frame, v: Any) -> None:
                frame.persistent[root] = v  # type: ignore[index]
        else:
            read = write = None  # type: ignore[assignment]
        if not ops:
            if write is not None:
                return write

            def store_name(frame: Frame, v: Any) -> None:
                frame.vars[root] = v

            return store_name
        compiled = [self._compile_op(op) for op in ops]
        if read is None and len(compiled) == 1 and compiled[0][0] == "()":
            return self._store_index(root, ops[0][1], compiled[0][1], compiled[0][2])
        if read is None and len(compiled) == 1 and compiled[0][0] == "{}":
            return self._store_brace(root, compiled[0], is_end_plus_one(ops[0][1]))
        if read is None and all(op[0] == "." for op in compiled):
            return self._store_fields(root, [op[1] for op in compiled], compiled)
        if read is None and len(compiled) == 2 and compiled[0][0] == "()" and compiled[1][0] == "." \
                and len(ops[0][1]) == 1 and not self.may_expand(ops[0][1][0]) \
                and type(ops[0][1][0]) not in (ast.NamedArg, ast.Colon):
            field_op = compiled[1]

            def general(frame: Frame, current: Any, values: list, v: Any) -> Any:
                computed = ("()", lambda frame, base=None: values, False)  # not evaluated twice
                return assign_path(frame, current, [computed, field_op], 0, v)

            return element_field_store(root, field_op[1], compiled[0][1], compiled[0][2], general)

        def store_chain(frame: Frame, v: Any) -> None:
            if read is None:
                current = frame.vars.get(root)
            else:
                current = read(frame)
                current = None if current is MISSING else current
            new = assign_path(frame, current, compiled, 0, v)
            if write is None:
                frame.vars[root] = new
            else:
                write(frame, new)

        return store_chain

    def _store_index(self, root: str, arg_nodes: list, args: Callable, uses_end: bool
                     ) -> Callable[[Frame, Any], None]:
        """``x(i) = v``: in place when ``x`` is not shared; ``x(end+1) = v`` appends in O(1)."""
        getrefcount = sys.getrefcount
        owns_storage = indexing.owns_storage
        assign_block, assign_masked = indexing.assign_block, indexing.assign_masked
        appends = is_end_plus_one(arg_nodes)

        def store_index(frame: Frame, v: Any) -> None:
            vars = frame.vars
            base = vars.get(root)
            if appends and base is not None:
                values = [float(indexing.numel_of(base) + 1)]
            elif uses_end:
                values = args(frame, base if base is not None else np.zeros((0, 0)))
            else:
                values = args(frame)
            if (type(base) is np.ndarray and type(v) is float and len(values) == 1
                    and type(values[0]) is float and base.dtype == np.float64 and base.ndim == 2):
                k = values[0]
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                n = base.size
                if i == k and 1 <= i <= n and getrefcount(base) <= 3 and owns_storage(base):
                    rows = base.shape[0]
                    base[(i - 1) % rows, (i - 1) // rows] = v
                    return
                if i == n + 1 and getrefcount(base) <= 3:
                    grown = append_to_growth_view(frame, root, base)
                    if grown is not None:
                        grown[-1, -1] = v
                        vars[root] = grown
                        return
            if appends and type(v) is float and append_to_start(frame, root, base, v):
                return
            # counted before the call: its arguments on the stack would count as holders
            owned = base is not None and getrefcount(base) <= 3
            if type(base) is np.ndarray:
                new = assign_block(base, values, v, owned) if len(values) == 2 else \
                    assign_masked(base, values[0], v, owned) if len(values) == 1 else None
                if new is not None:
                    vars[root] = new
                    return
            _assign_and_track(frame, root, base, values, v, owned)

        return store_index

    def _store_brace(self, root: str, op: tuple, appends: bool) -> Callable[[Frame, Any], None]:
        """``c{i} = v``: in place when the cell is not shared; ``c{end+1} = v`` (``appends``)
        grows a vector in O(1) amortised."""
        args, uses_end = op[1], op[2]
        getrefcount = sys.getrefcount
        owns_storage = indexing.owns_storage
        compiled = [op]

        def store_brace(frame: Frame, v: Any) -> None:
            vars = frame.vars
            base = vars.get(root)
            if type(base) is not Cell:
                vars[root] = assign_path(frame, base, compiled, 0, v)
                return
            data = base.data
            if appends:
                values = [float(data.size + 1)]
            else:
                values = args(frame, base) if uses_end else args(frame)
            if len(values) == 1 and type(values[0]) is float and data.ndim == 2 \
                    and getrefcount(base) <= 3 and getrefcount(data) <= 3 and owns_storage(data):
                k = values[0]
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                if i == k and 1 <= i <= data.size:
                    rows = data.shape[0]
                    data[(i - 1) % rows, (i - 1) // rows] = v
                    return
                if i == data.size + 1:  # c{end+1} = v: one element longer in its growth buffer
                    grown = append_to_growth_view(frame, root, data)
                    if grown is not None:
                        grown[-1, -1] = v
                        base.data = grown
                        return
            wrapped = Cell(np.empty((1, 1), dtype=object))
            wrapped.data[0, 0] = v
            owned = getrefcount(base) <= 3 and getrefcount(data) <= 3
            size_before = data.size
            data = None  # the general store counts who holds the cell's array: not this name
            new = indexing.assign(base, values, wrapped, owned)
            vars[root] = new
            if type(new) is Cell and new.data.base is not None and new.data.size > size_before \
                    and new.data.ndim == 2:
                _remember_growth_view(frame, root, new.data)

        return store_brace

    def _store_fields(self, root: str, names: list, compiled: list) -> Callable[[Frame, Any], None]:
        """``s.a.b = v``: in place when every struct on the way is a private scalar."""
        getrefcount = sys.getrefcount
        path = names[:-1]
        last = names[-1]

        def store_fields(frame: Frame, v: Any) -> None:
            vars = frame.vars
            cur = vars.get(root)
            # each object below is held by its container and by `cur` (and getrefcount)
            for name in path:
                if type(cur) is not Struct or getrefcount(cur) > 3:
                    break
                elems = cur.elems
                if elems.size != 1 or getrefcount(elems) > 3 or elems.base is not None:
                    break
                d = elems.item(0)
                if getrefcount(d) > 3 or name not in d:
                    break
                cur = d[name]
            else:
                if type(cur) is Struct and getrefcount(cur) <= 3:
                    elems = cur.elems
                    if elems.size == 1 and getrefcount(elems) <= 3 and elems.base is None:
                        d = elems.item(0)
                        if getrefcount(d) <= 3 and last in d:
                            d[last] = v
                            return
            cur = None
            vars[root] = assign_path(frame, vars.get(root), compiled, 0, v)

        return store_fields

    def _global_access(self, name: str) -> tuple[Code, Callable[[Frame, Any], None]]:
        interp = self.interp

        def read(frame: Frame) -> Any:
            return interp.globals.get(name, MISSING)

        def write(frame: Frame, v: Any) -> None:
            interp.globals[name] = v

        return read, write

    def _compile_op(self, op: tuple) -> tuple:
        kind, payload = op
        if kind in ("()", "{}"):
            args, uses_end = self.index_args(payload)
            return (kind, args, uses_end)
        if kind == ".":
            return (kind, payload, False)
        return (kind, self.expr(payload), False)  # dynamic field

    # several outputs -----------------------------------------------------

    def visit_MultiAssign(self, node: ast.MultiAssign) -> Code:
        targets = [self.target(t) for t in node.targets]
        outputs = donating_outputs(self, node) or self.expr_outputs(node.value)
        names = [None if type(t) is ast.Tilde else root_name(t) for t in node.targets]
        getters = [None if n is None else self.expr(ast.Name(n)) for n in names]
        show = node.show
        interp = self.interp
        static = all(count is None for count, _ in targets)
        nout_static = len(targets)

        stores = [st for _, st in targets]

        def assign_many(frame: Frame) -> None:
            if static:  # one value a target: each target's store given its value in turn
                values = outputs(frame, nout_static)
                if len(values) >= nout_static:
                    for st, v in zip(stores, values, strict=False):
                        if st is not None:
                            st(frame, v)
                    if show:
                        for n, g in zip(names, getters, strict=True):
                            if n is not None:
                                interp.display(n, g(frame))  # type: ignore[misc]
                    return
                counts = [1] * nout_static
                assign_counted(frame, values, counts, nout_static)
                return
            counts = [1 if count is None else count(frame) for count, _ in targets]
            nout = sum(counts)
            assign_counted(frame, outputs(frame, nout), counts, nout)

        def assign_counted(frame: Frame, values: list, counts: list[int], nout: int) -> None:
            needed = nout
            while needed and targets_ignored(targets, counts, needed - 1):
                needed -= 1
            if len(values) < needed:
                raise error("MATLAB:TooManyOutputs" if values else "MATLAB:needMoreRhsOutputs",
                            "Too many output arguments." if values else
                            "Insufficient number of outputs from right hand side of equal sign "
                            "to satisfy assignment.")
            pos = 0
            for (count, st), c in zip(targets, counts, strict=True):
                part = values[pos:pos + c]
                pos += c
                if st is not None and part:
                    st(frame, part if count is not None else part[0])
            if show:
                for n, g in zip(names, getters, strict=True):
                    if n is not None:
                        interp.display(n, g(frame))  # type: ignore[misc]

        return assign_many

    def target(self, node: ast.Node) -> tuple[Callable[[Frame], int] | None, Any]:
        """An output target: (None, store) for one value, or (count, store_list) for a
        comma-separated list target such as ``s.f`` of a struct array or ``c{:}``."""
        if type(node) is ast.Tilde:
            return None, None
        if type(node) is ast.Field and type(node.base) is ast.Index and not node.base.braces \
                and len(node.base.args) == 1 and type(node.base.base) is ast.Name:
            return self._selected_fields_target(node)
        if type(node) is ast.Field:
            base_get = self._optional(node.base)
            base_store = self.store(node.base)
            fname = node.name
            single = self.store(node)

            def count_fields(frame: Frame) -> int:
                base = base_get(frame)
                return base.elems.size if type(base) is Struct and base.elems.size > 1 else -1

            def store_fields(frame: Frame, values: Any) -> None:
                if type(values) is not list:
                    values = [values]
                base = base_get(frame)
                if type(base) is Struct and base.elems.size > 1:
                    out = base.copy()
                    out.add_field(fname)
                    for d, v in zip(out.elems.ravel(order="F"), values, strict=True):
                        d[fname] = v
                    base_store(frame, out)
                else:
                    single(frame, values[0])

            return (lambda frame: max(count_fields(frame), 1)), store_fields
        if type(node) is ast.Index and node.braces:
            base_get = self._optional(node.base)
            base_store = self.store(node.base)
            args, uses_end = self.index_args(node.args)
            single_store = self.store(node)

            def selected(frame: Frame) -> tuple[Any, list, int]:
                base = base_get(frame)
                cell = base if type(base) is Cell else Cell.empty()
                values = args(frame, cell) if uses_end else args(frame)
                return cell, values, _selection_count(cell, values)

            def count_cells(frame: Frame) -> int:
                if kind_of(base_get(frame)) is not None:  # an object's braces (a table): one value
                    return 1
                return selected(frame)[2]

            def store_cells(frame: Frame, values: Any) -> None:
                if type(values) is not list:
                    values = [values]
                if kind_of(base_get(frame)) is not None:
                    single_store(frame, values[0])
                    return
                cell, index_values, count = selected(frame)
                if count == 1:
                    wrapped = Cell(np.empty((1, 1), dtype=object))
                    wrapped.data[0, 0] = values[0]
                else:
                    wrapped = Cell.row(values)
                base_store(frame, indexing.assign(cell, index_values, wrapped))

            return count_cells, store_cells
        return None, self.store(node)

    def _selected_fields_target(self, node: ast.Field) -> tuple[Callable[[Frame], int], Any]:
        """``[s(i).f] = ...``: one value per element ``s(i)`` names, creating or growing ``s``."""
        selection = node.base
        root_get = self._optional(selection.base)
        root_store = self.store(selection.base)
        args, uses_end = self.index_args(selection.args)
        fname = node.name
        single = self.store(node)

        def selected(frame: Frame) -> tuple[Struct | None, list, np.ndarray]:
            root = root_get(frame)
            if root is None:
                root = Struct.empty((0, 0), [fname])
            if type(root) is not Struct:
                return None, [], np.zeros(0, dtype=np.intp)
            index_values = args(frame, root) if uses_end else args(frame)
            size = root.elems.size
            return root, index_values, indexing.linear_positions(index_values[0], size)

        def count_fields(frame: Frame) -> int:
            root, _, positions = selected(frame)
            return 1 if root is None else max(positions.size, 1)

        def store_fields(frame: Frame, values: Any) -> None:
            if type(values) is not list:
                values = [values]
            root, index_values, positions = selected(frame)
            if root is None or positions.size <= 1:
                single(frame, values[0])
                return
            out = root.copy()
            out.add_field(fname)
            flat = out.elems.ravel(order="F")
            picked = np.empty((1, positions.size), dtype=object)
            for k, (p, v) in enumerate(zip(positions, values, strict=True)):
                element = dict(flat[p]) if p < flat.size else dict.fromkeys(out.fields, EMPTY)
                element[fname] = v
                picked[0, k] = element
            root_store(frame, indexing.assign(out, index_values,
                                              Struct(list(out.fields), picked)))

        return count_fields, store_fields

    def _optional(self, node: ast.Node) -> Code:
        """The value of a reference, or None when it does not exist yet."""
        if type(node) is ast.Name and node.name not in self.special_names:
            name = node.name
            return lambda frame: frame.vars.get(name)
        code = self.expr(node)

        def get(frame: Frame) -> Any:
            try:
                return code(frame)
            except MatlabError:
                return None

        return get


# ------------------------------------------------------------------ helpers


def _selection_count(cell: Cell, values: list) -> int:
    """How many elements ``c{values}`` names, also beyond the end of ``c`` (for
    ``[c{1:3}] = f(...)``, which creates or grows ``c``)."""
    try:
        return len(indexing.brace_index(cell, values))
    except MatlabError:
        pass
    shape = cell.data.shape
    count = 1
    for k, v in enumerate(values):
        if v is COLON:
            count *= cell.data.size if len(values) == 1 else (shape[k] if k < len(shape) else 1)
        elif type(v) is np.ndarray and v.dtype == np.bool_:
            count *= int(np.count_nonzero(v))
        else:
            count *= indexing.numel_of(v)
    return max(count, 1)


def _appends_to(name: str, value: ast.Node) -> bool:
    """Is ``value`` the row literal ``[name, ...]`` (and nothing in it can be a list)?"""
    if type(value) is not ast.Matrix or len(value.rows) != 1 or len(value.rows[0]) < 2:
        return False
    first = value.rows[0][0]
    return type(first) is ast.Name and first.name == name and not any(
        type(n) in (ast.Field, ast.DynField) or (type(n) is ast.Index and n.braces)
        for n in value.rows[0][1:])


ndarray = np.ndarray
float64 = np.dtype(np.float64)
getrefcount = sys.getrefcount
new_weak_reference = weakref.ref

# Kinds of arrays whose elements are plain bytes a buffer's memory may take as they are
# (not objects, whose bytes are references; not dates, which have no buffer form).
_RAW_KINDS = frozenset("biufcV")


def _append_row(frame: Frame, name: str, cur: np.ndarray, values: list) -> np.ndarray | None:
    """``[cur, values...]`` for a row ``cur`` (1×n) and rows of its own class, written into
    an over-allocated buffer (reused when ``cur`` is a view of one that nobody else sees);
    None when the general concatenation rules are needed."""
    dtype = cur.dtype
    n = cur.shape[1]
    total = n
    all_arrays = True
    for v in values:
        if type(v) is ndarray and (v.dtype is dtype or v.dtype == dtype):
            shape = v.shape
            if len(shape) != 2:
                return None
            if shape[0] == 1:
                total += shape[1]
            elif shape[0] and shape[1]:
                return None
        elif type(v) is float and dtype == float64:
            total += 1
            all_arrays = False
        else:
            return None
    growth = frame.growth
    buffer = cur.base
    if buffer is not None:
        ref = None if growth is None else growth.get(name)
        if ref is None or ref() is not cur or buffer.shape[0] != 1 or buffer.shape[1] < total \
                or getrefcount(buffer) > 3:  # cur's reference, buffer, the call's
            buffer = None
    if buffer is None:
        buffer = np.empty((1, max(2 * total, 16)), dtype=dtype)
        if n:
            buffer[:, :n] = cur
    if all_arrays and total - n < 4096:
        # short pieces: their bytes written straight into the buffer's memory (an array
        # copy per piece, or one of the joined bytes, costs more)
        if total <= n:
            pass
        elif dtype.kind in _RAW_KINDS:
            memory = memoryview(buffer).cast("B")
            pos = n * dtype.itemsize
            for v in values:
                data = v.tobytes()
                end = pos + len(data)
                memory[pos:end] = data
                pos = end
            memory.release()
        else:
            buffer[0, n:total] = np.frombuffer(b"".join([v.tobytes() for v in values]), dtype)
    else:
        row = buffer[0]
        pos = n
        for v in values:
            if type(v) is float:
                row[pos] = v
                pos += 1
            elif v.size:
                end = pos + v.shape[1]
                row[pos:end] = v[0]
                pos = end
    new = buffer[:, :total]
    if growth is None:
        growth = frame.growth = {}
    growth[name] = new_weak_reference(new)  # as _remember_growth_view, without the call
    return new


def is_end_plus_one(arg_nodes: list) -> bool:
    """Is the index list exactly ``(end+1)``?"""
    if len(arg_nodes) != 1:
        return False
    a = arg_nodes[0]
    return (type(a) is ast.Binary and a.op == "+" and type(a.left) is ast.End
            and type(a.right) is ast.Number and a.right.value == 1 and a.right.cls == "double")


def _remember_growth_view(frame: Frame, name: str, view: np.ndarray) -> None:
    """Note that ``name`` holds a leading slice of a growth buffer (a weak reference:
    remembering must not count as sharing)."""
    growth = frame.growth
    if growth is None:
        growth = frame.growth = {}
    growth[name] = weakref.ref(view)


def _assign_and_track(frame: Frame, name: str, base: Any, index: list, v: Any, owned: bool) -> None:
    """``name(index) = v`` through the general assignment; a vector that grew is now a
    leading slice of a growth buffer, which is remembered for O(1) appends."""
    size_before = base.size if type(base) is np.ndarray else (0 if base is None else -1)
    new = indexing.assign(base, index, v, owned)
    frame.vars[name] = new
    if type(new) is np.ndarray and new.base is not None and new.size > size_before >= 0:
        _remember_growth_view(frame, name, new)


_EMPTY_VECTOR_SHAPES = ((0, 0), (1, 0), (0, 1))


def append_to_start(frame: Frame, name: str, base: Any, v: float) -> bool:
    """``name(end+1) = v`` for a double ``v`` when ``name`` holds an empty double vector (it
    becomes ``v``, a 1x1) or a double scalar (it becomes a row in a new growth buffer, as the
    general path makes it); False (nothing done) for anything else."""
    t = type(base)
    if t is float:
        buffer = np.zeros((1, _FIRST_CAPACITY))
        buffer[0, 0] = base
        buffer[0, 1] = v
        grown = buffer[:, :2]
        frame.vars[name] = grown
        _remember_growth_view(frame, name, grown)
        return True
    if t is np.ndarray and base.dtype == np.float64 and base.shape in _EMPTY_VECTOR_SHAPES:
        frame.vars[name] = v
        return True
    return False


_FIRST_CAPACITY = 8  # (``_grow_vector``'s least capacity)


def append_to_growth_view(frame: Frame, name: str, view: np.ndarray) -> np.ndarray | None:
    """``view`` one element longer, in its growth buffer, if it is the one remembered for
    ``name``, the buffer has room, and nothing else looks into the buffer."""
    growth = frame.growth
    if growth is None:
        return None
    ref = growth.get(name)
    if ref is None or ref() is not view:
        return None
    buffer = view.base
    if sys.getrefcount(buffer) > 3:  # the view's reference, `buffer`, getrefcount's
        return None
    rows, cols = view.shape
    if rows == 1 and buffer.shape[0] == 1 and buffer.shape[1] > cols:
        grown = buffer[:, :cols + 1]
    elif cols == 1 and buffer.shape[1] == 1 and buffer.shape[0] > rows:
        grown = buffer[:rows + 1, :]
    else:
        return None
    growth[name] = weakref.ref(grown)
    return grown


def targets_ignored(targets: list, counts: list, index: int) -> bool:
    """Is output number ``index`` (0-based) going to a ``~``?"""
    pos = 0
    for (_, st), c in zip(targets, counts, strict=True):
        if pos <= index < pos + c:
            return st is None
        pos += c
    return False
