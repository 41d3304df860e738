"""Compiling references: function calls, ``x(i)``, ``c{i}``, ``s.f``, ``pkg.fn(args)``.

A name is a variable first; otherwise it is resolved as a function once per
call site, again only when the path changes.  References that may give a
comma-separated list (``c{:}``, ``s.f`` of a struct array) compile to code
returning a list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.evaluation.compiler.expressions import LONG_CHAIN
from mlang.evaluation.compiler.plain_calls import listing, plain_call_or_index
from mlang.evaluation.compiler.runtime import MISSING, Code, constant_of
from mlang.evaluation.frame import Frame
from mlang.syntax import ast
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.core import char_row, to_str
from mlang.values.double_arithmetic import F64
from mlang.values.handle import FunctionHandle
from mlang.values.indexing import COLON
from mlang.values.objects import FUNCTION_LIKE, kind_of
from mlang.values.struct import Struct

# expressions cheap and pure to compile twice (as range ends here and in the general code)
_SIMPLE_NODES = (ast.Number, ast.Name, ast.End, ast.Binary, ast.Unary)


def _single(values: list, intermediate: bool = False) -> Any:
    if len(values) == 1:
        return values[0]
    if not values:
        raise error("MATLAB:index:expected_one_output_from_expression" if intermediate else
                    "MATLAB:TooManyOutputs",
                    "Insufficient number of outputs from right hand side of equal sign to "
                    "satisfy assignment." if not intermediate else
                    "Expected one output from a curly brace or dot indexing expression, but "
                    "there were 0 results.")
    raise error("MATLAB:index:expected_one_output_from_expression",
                f"Expected one output from a curly brace or dot indexing expression, but there "
                f"were {len(values)} results.")


def get_field(base: Any, name: str) -> list:
    """``base.name``: one value per struct element (a comma-separated list)."""
    t = type(base)
    if t is Struct:
        if name not in base.fields:
            raise error("MATLAB:nonExistentField",
                        f"Unrecognized field name \"{name}\".")
        if base.elems.size == 1:
            return [base.elems.reshape(-1)[0][name]]
        return [d[name] for d in base.elems.ravel(order="F")]
    kind = kind_of(base)
    if kind is not None:
        return kind.property_list(base, name)
    raise error("MATLAB:structRefFromNonStruct",
                "Dot indexing is not supported for variables of this type.")


_COLON_TEXT = char_row(":")


def _colons_as_text(values: list) -> list:
    """A function called with ``:`` receives the character ':' (only indexing reads it as all)."""
    return [_COLON_TEXT if v is COLON else v for v in values]


def _dotted_call(node: ast.Node) -> tuple[str, str, list | None] | None:
    """``a.b.c(args)`` or ``a.b.c`` with a Name root: (root, 'a.b.c', args or None)."""
    args = None
    if type(node) is ast.Index and not node.braces and type(node.base) is ast.Field:
        args = node.args
        node = node.base
    if type(node) is not ast.Field:
        return None
    parts = []
    while type(node) is ast.Field:
        parts.append(node.name)
        node = node.base
    if type(node) is not ast.Name:
        return None
    return node.name, ".".join([node.name, *reversed(parts)]), args


def _is_link(node: ast.Node) -> bool:
    """Is ``node`` a step applied to the value of its base: ``.f``, ``.(e)``, ``{...}``, or
    ``(...)`` on anything but a name (a name's parentheses may be a call)?"""
    t = type(node)
    return t is ast.Field or t is ast.DynField or (
        t is ast.Index and (node.braces or type(node.base) is not ast.Name))  # type: ignore[attr-defined]


def _chain_links(node: ast.Node) -> int:
    """How many links a reference chain has (up to LONG_CHAIN)."""
    n = 0
    while n < LONG_CHAIN and _is_link(node):
        node = node.base  # type: ignore[attr-defined]
        n += 1
    return n


# the kinds of step of a compiled reference chain
_FIELD, _DYNFIELD, _BRACES, _PARENS = range(4)


class ReferenceCompiler:
    """The part of ``Compiler`` that compiles calls and indexing (a mixin: it calls the other parts)."""

    def caller(self, name: str, node: ast.Node) -> Callable[[Frame, list, int], Any]:
        """A call of function ``name`` returning its first output (nargout >= 1 context)."""
        calls = self.calls(name, node)

        def call_one(frame: Frame, args: list, nargout: int) -> Any:
            out = calls(frame, args, nargout)
            if not out:
                raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
            return out[0]

        return call_one

    def calls(self, name: str, node: ast.Node) -> Callable[[Frame, list, int], list]:
        """A call of function ``name`` returning all requested outputs, resolved once."""
        interp = self.interp
        unit = self.unit
        cache: list[Any] = [-1, None]

        def call(frame: Frame, args: list, nargout: int) -> list:
            if cache[0] != interp.generation:
                target = interp.lookup(name, unit)
                if target is None:
                    raise error("MATLAB:UndefinedFunction",
                                f"Unrecognized function or variable '{name}'.")
                cache[0] = interp.generation
                cache[1] = target
            return interp.invoke(cache[1], args, nargout, frame)

        return call

    def expr_outputs(self, node: ast.Node) -> Callable[[Frame, int], list]:
        """Code giving ``nargout`` outputs of an expression (a call passes nargout on)."""
        if type(node) is ast.Index and not node.braces and type(node.base) is ast.Name:
            return self.call_or_index(node)
        if type(node) is ast.Name and node.name not in self.special_names:  # (globals: below)
            name = node.name
            calls = self.calls(name, node)

            def name_outputs(frame: Frame, nargout: int) -> list:
                try:
                    return [frame.vars[name]]
                except KeyError:
                    return calls(frame, [], nargout)

            return name_outputs
        dotted = _dotted_call(node)
        if dotted is not None:
            return self.dotted_call(node, *dotted)
        if self.may_expand(node):
            multi = self.multi(node)
            return lambda frame, nargout: multi(frame)
        code = self.expr(node)
        return lambda frame, nargout: [code(frame)]

    def may_expand(self, node: ast.Node) -> bool:
        """Can this expression produce a comma-separated list (c{:}, s.f of an array)?"""
        t = type(node)
        return (t is ast.Index and node.braces) or t is ast.Field or t is ast.DynField

    def index_args(self, nodes: list[ast.Node]) -> tuple[Callable[[Frame], list], bool]:
        """Code for index arguments, and whether any of them uses ``end``."""
        codes = self.plain_arg_codes(nodes)
        if codes is not None:
            return listing(codes), False
        uses_end = any(self.facts.contains_end(n) for n in nodes)
        parts = []
        for n in nodes:
            if type(n) is ast.NamedArg:
                key = char_row(n.name)
                value = self.expr(n.value)
                parts.append((lambda frame, key=key, value=value: [key, value(frame)], True))
            elif self.may_expand(n):
                parts.append((self.multi(n), True))
            else:
                parts.append((self.expr(n), False))
        if not uses_end and not any(e for _, e in parts):
            codes = [c for c, _ in parts]
            if len(codes) == 1:
                only = codes[0]
                return (lambda frame: [only(frame)]), False
            return (lambda frame: [c(frame) for c in codes]), False
        count = len(nodes)

        def values(frame: Frame, base: Any = MISSING) -> list:
            out: list = []
            if base is MISSING:  # a function call: `end` keeps referring to an enclosing index
                for code, expand in parts:
                    if expand:
                        out.extend(code(frame))
                    else:
                        out.append(code(frame))
                return out
            stack = frame.end_stack
            for position, (code, expand) in enumerate(parts):
                stack.append((base, position, count))
                try:
                    if expand:
                        out.extend(code(frame))
                    else:
                        out.append(code(frame))
                finally:
                    stack.pop()
            return out

        return values, uses_end

    def plain_arg_codes(self, nodes: list[ast.Node]) -> list[Code] | None:
        """Code for each index argument, if none of them uses ``end``, can give a
        comma-separated list or is name=value (else None, and nothing is compiled)."""
        for n in nodes:
            if type(n) is ast.NamedArg or self.may_expand(n) or self.facts.contains_end(n):
                return None
        return [self.expr(n) for n in nodes]

    def _plain_call_site(self, node: ast.Index) -> list[Code] | None:
        """The argument codes of ``name(args)`` when the plain path applies: ``name`` is an
        ordinary name (no input, global, persistent or shared one), no argument is ``:``,
        and the function it may call does not ask for its arguments' names."""
        name = node.base.name  # type: ignore[attr-defined]
        if name in self.special_names or name in self.params \
                or any(type(a) is ast.Colon for a in node.args):
            return None
        entry = self.interp.builtins.get(name)
        if entry is not None and entry.wants_argument_names:
            return None
        return self.plain_arg_codes(node.args)

    def call_or_index(self, node: ast.Index) -> Callable[[Frame, int], list]:
        """``name(args)``: index the variable, or call the function, with nargout outputs."""
        name = node.base.name  # type: ignore[attr-defined]
        codes = self._plain_call_site(node)
        if codes is not None:
            return plain_call_or_index(self.interp, self.unit, name, codes)[0]
        args, uses_end = self.index_args(node.args)
        calls = self.calls(name, node)
        index = indexing.index
        if name in self.special_names:
            base_code = self.visit_Name(node.base)  # type: ignore[arg-type]

            def special(frame: Frame, nargout: int) -> list:
                base = base_code(frame)
                return [index(base, args(frame, base) if uses_end else args(frame))]

            return special

        is_param = name in self.params
        has_colon = any(type(a) is ast.Colon for a in node.args)
        interp = self.interp
        library_entry = interp.builtins.get(name)
        if library_entry is not None and library_entry.wants_argument_names:
            calls = self._naming_arguments(calls, node.args)

        def run(frame: Frame, nargout: int) -> list:
            base = frame.vars.get(name, MISSING)
            if base is MISSING:
                if is_param:
                    raise error("MATLAB:minrhs", "Not enough input arguments.")
                values = args(frame) if not uses_end else args(frame, MISSING)
                return calls(frame, _colons_as_text(values) if has_colon else values, nargout)
            values = args(frame, base) if uses_end else args(frame)
            if type(base) is FunctionHandle:
                return self.interp.invoke(base, _colons_as_text(values) if has_colon else values,
                                          nargout)
            if type(base) in FUNCTION_LIKE:
                return base.call_as_function(self.interp, values, nargout)
            return [index(base, values)]

        return run

    def _naming_arguments(self, calls: Callable[[Frame, list, int], list], arg_nodes: list
                          ) -> Callable[[Frame, list, int], list]:
        """A call that tells the function the variable names of its arguments (what
        ``inputname`` would give: '' for an argument that is not a plain variable)."""
        names = [a.name if type(a) is ast.Name else "" for a in arg_nodes]
        known = not any(self.may_expand(a) for a in arg_nodes)  # c{:} hides the positions
        state = self.interp.family_state

        def call(frame: Frame, args: list, nargout: int) -> list:
            variables = frame.vars
            state["argument_names"] = [n if n in variables else "" for n in names] if known else None
            return calls(frame, args, nargout)

        return call

    def visit_Index(self, node: ast.Index) -> Code:
        if not node.braces and type(node.base) is ast.Name:
            whole = self._array_range_index(node)
            return whole if whole is not None else self._general_index(node)
        multi = self.multi(node)
        root = self.plain_variable(node.base)
        if root is None or len(node.args) != 1 or self.may_expand(node.args[0]) \
                or self.facts.contains_end(node.args[0]) or type(node.args[0]) is ast.NamedArg:
            return lambda frame: _single(multi(frame))
        arg = self.expr(node.args[0])

        def brace_element(frame: Frame) -> Any:  # c{k}: the hot case
            b = frame.vars.get(root)
            if type(b) is not Cell:
                return _single(multi(frame))
            k = arg(frame)
            if type(k) is float:
                data = b.data
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                if i == k and 1 <= i <= data.size and data.ndim == 2:
                    rows = data.shape[0]
                    return data[(i - 1) % rows, (i - 1) // rows]
            return _single(indexing.brace_index(b, [k]))

        return brace_element

    def _on_array(self, node: ast.Index, name: str, take: Callable[[np.ndarray], Any]) -> Code:
        """``take(x)`` when the variable ``x`` holds an array, else the general code."""
        general = self._general_index(node)

        def on_array(frame: Frame) -> Any:
            base = frame.vars.get(name, MISSING)
            if type(base) is np.ndarray:
                return take(base)
            return general(frame)

        return on_array

    def _whole_column(self, node: ast.Index, name: str) -> Code:
        """``x(:)``: a double row's elements as a column made here, anything else as
        ``indexing.index_all`` gives it (or the general code, for no array)."""
        general = self._general_index(node)
        index_all = indexing.index_all

        def whole_column(frame: Frame) -> Any:
            base = frame.vars.get(name, MISSING)
            if type(base) is np.ndarray:
                if base.dtype is F64 and base.ndim == 2 and base.shape[0] == 1 and base.size > 1:
                    return base.T.copy()  # (as index_all makes a row's column)
                return index_all(base)
            return general(frame)

        return whole_column

    def _array_range_index(self, node: ast.Index) -> Code | None:
        """``x(a:b)``, ``x(a:s:b)``, ``x(:)``, ``x(end)`` and ``x(i, j)`` on an array variable
        ``x``, without making the range (None when the index is not of that form).  Anything
        but an array takes the general code, compiled alongside."""
        name = node.base.name  # type: ignore[attr-defined]
        if name in self.special_names:
            return None
        if len(node.args) == 2:
            element = self._array_element(node)
            return element if element is not None else self._array_subscripts(node)
        if len(node.args) != 1:
            return None
        arg = node.args[0]
        if type(arg) is ast.End:
            index = indexing.index
            return self._on_array(node, name, lambda base: index(base, [float(base.size)]))
        if type(arg) is ast.Colon:
            return self._whole_column(node, name)
        if type(arg) is not ast.Range or not all(
                _is_simple(n) for n in (arg.start, arg.step, arg.stop) if n is not None):
            return None
        general = self._general_index(node)
        start = self.expr(arg.start)
        step = self.expr(arg.step) if arg.step is not None else (lambda frame: 1.0)
        stop = self.expr(arg.stop)
        by_range = indexing.index_by_range
        fixed = self._fixed_range_index(name, arg, start, stop, general)
        if fixed is not None:
            return fixed
        if not self.facts.contains_end(arg):
            def array_range(frame: Frame) -> Any:
                base = frame.vars.get(name, MISSING)
                if type(base) is not np.ndarray:
                    return general(frame)
                return by_range(base, start(frame), step(frame), stop(frame))

            return array_range

        def array_range_to_end(frame: Frame) -> Any:
            base = frame.vars.get(name, MISSING)
            if type(base) is not np.ndarray:
                return general(frame)
            stack = frame.end_stack
            stack.append((base, 0, 1))
            try:
                a, s, b = start(frame), step(frame), stop(frame)
            finally:
                stack.pop()
            return by_range(base, a, s, b)

        return array_range_to_end

    def _fixed_range_index(self, name: str, arg: ast.Range, start: Code, stop: Code, general: Code
                           ) -> Code | None:
        """``x(2:5)`` or ``x(2:end)`` (literal whole-number ends, step 1) on a row or column
        array ``x``: the slice worked out once; two or more elements in range taken as
        ``index_by_range`` takes them, anything else the general way."""
        first = constant_of(start)
        last = constant_of(stop) if type(arg.stop) is not ast.End else float("inf")
        if arg.step is not None or type(first) is not float or type(last) is not float \
                or not first.is_integer() or first < 1 or not (last.is_integer() or last == float("inf")):
            return None
        begin = int(first) - 1
        end = None if last == float("inf") else int(last)
        least = (end if end is not None else begin + 2)  # the elements x must have
        if end is not None and end - begin < 2:
            return None
        positions = slice(begin, end)
        of_row, of_column = (slice(None), positions), (positions, slice(None))  # (made once)

        def fixed_range(frame: Frame) -> Any:
            base = frame.vars.get(name, MISSING)
            if type(base) is np.ndarray and base.ndim == 2 and base.size >= least \
                    and (base.dtype is F64 or base.dtype.kind != "c"):
                rows, cols = base.shape
                if rows == 1:
                    return base[of_row].copy()
                if cols == 1:
                    return base[of_column].copy()
            return general(frame)

        return fixed_range

    def _array_subscripts(self, node: ast.Index) -> Code | None:
        """``x(a:b, c:d)``, ``x(2:end, :)``, ``x(i, a:b)``: two subscripts, each ``:``, simple,
        or a range of simple parts (``end`` allowed), on an array variable ``x``; ranges are
        passed as their parts to ``index_by_subscripts`` (no index array is made)."""
        parts: list[Any] = []
        for arg in node.args:
            if type(arg) is ast.Colon:
                parts.append(None)
            elif type(arg) is ast.Range and all(_is_simple(n) for n in (arg.start, arg.step, arg.stop)
                                                if n is not None):
                step = self.expr(arg.step) if arg.step is not None else (lambda frame: 1.0)
                parts.append((self.expr(arg.start), step, self.expr(arg.stop)))
            elif _is_simple(arg):
                parts.append(self.expr(arg))
            else:
                return None
        name = node.base.name  # type: ignore[attr-defined]
        general = self._general_index(node)
        by_subscripts = indexing.index_by_subscripts
        colon = COLON

        first, second = parts

        def values_of(part: Any, frame: Frame) -> Any:
            if part is None:
                return colon
            if type(part) is tuple:
                return (part[0](frame), part[1](frame), part[2](frame))
            return part(frame)

        if not any(self.facts.contains_end(arg) for arg in node.args):
            def subscripts_without_end(frame: Frame) -> Any:
                base = frame.vars.get(name, MISSING)
                if type(base) is not np.ndarray:
                    return general(frame)
                return by_subscripts(base, [values_of(first, frame), values_of(second, frame)])

            return subscripts_without_end

        def subscripts(frame: Frame) -> Any:
            base = frame.vars.get(name, MISSING)
            if type(base) is not np.ndarray:
                return general(frame)
            stack = frame.end_stack
            values = []
            for position, part in enumerate(parts):
                stack.append((base, position, 2))
                try:
                    values.append(values_of(part, frame))
                finally:
                    stack.pop()
            return by_subscripts(base, values)

        return subscripts

    def _array_element(self, node: ast.Index) -> Code | None:
        """``x(i, j)`` on an array variable ``x``, with ``i`` and ``j`` simple and without
        ``end`` (else None): indexed directly; anything but an array takes the general code."""
        if not all(_is_simple(a) and not self.facts.contains_end(a) for a in node.args):
            return None
        name = node.base.name  # type: ignore[attr-defined]
        codes = self._plain_call_site(node)
        if codes is not None:  # a plain site's value indexes an array itself, and calls directly
            return plain_call_or_index(self.interp, self.unit, name, codes)[1]
        general = self._general_index(node)
        first, second = (self.expr(a) for a in node.args)
        index = indexing.index

        def element(frame: Frame) -> Any:
            base = frame.vars.get(name, MISSING)
            if type(base) is not np.ndarray:
                return general(frame)
            return index(base, [first(frame), second(frame)])

        return element

    def _general_index(self, node: ast.Index) -> Code:
        """The code ``visit_Index`` gives ``name(args)`` when no special form applies."""
        codes = self._plain_call_site(node)
        if codes is not None:
            return plain_call_or_index(self.interp, self.unit, node.base.name, codes)[1]  # type: ignore
        run = self.call_or_index(node)

        def first(frame: Frame) -> Any:
            out = run(frame, 1)
            if not out:
                raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
            return out[0]

        return first

    def visit_Field(self, node: ast.Field | ast.DynField) -> Code:
        if type(node) is ast.Field and type(node.base) is ast.Index:
            element_field = self._element_field(node)
            if element_field is not None:
                return element_field
        multi = self.multi(node)
        root = self.plain_variable(node.base) if type(node) is ast.Field else None
        if root is None:
            return lambda frame: _single(multi(frame))
        fname = node.name

        def field(frame: Frame) -> Any:  # s.f on a scalar struct: the hot case
            b = frame.vars.get(root)
            if type(b) is Struct:
                elems = b.elems
                if elems.size == 1:
                    d = elems.item(0)
                    if fname in d:
                        return d[fname]
            return _single(multi(frame))

        return field

    visit_DynField = visit_Field

    def _element_field(self, node: ast.Field) -> Code | None:
        """``s(k).f`` with one plain index: read from the element where it is when ``s`` is a
        struct array and ``k`` a double in range (the general path makes the element anew)."""
        selection: Any = node.base
        root = self.plain_variable(selection.base)
        if root is None or selection.braces or len(selection.args) != 1:
            return None
        codes = self.plain_arg_codes(selection.args)
        if codes is None or type(selection.args[0]) is ast.Colon:
            return None
        arg = codes[0]
        multi = self.multi(node)
        fname = node.name
        index = indexing.index

        def element_field(frame: Frame) -> Any:
            b = frame.vars.get(root)
            if type(b) is not Struct:
                return _single(multi(frame))
            k = arg(frame)
            elems = b.elems
            if type(k) is float and elems.ndim == 2:
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                if i == k and 1 <= i <= elems.size:
                    rows = elems.shape[0]
                    d = elems[(i - 1) % rows, (i - 1) // rows]
                    if fname in d:
                        return d[fname]
            return _single(get_field(_single([index(b, [k])], intermediate=True), fname))

        return element_field

    def multi(self, node: ast.Node, dotted_names: bool = True) -> Callable[[Frame], list]:
        """Code for a reference that may give a comma-separated list."""
        t = type(node)
        dotted = _dotted_call(node) if dotted_names else None
        if dotted is not None:
            dotted_outputs = self.dotted_call(node, *dotted)
            return lambda frame: dotted_outputs(frame, 1)
        if _chain_links(node) >= LONG_CHAIN:
            return self.reference_chain(node)
        if t is ast.Index:
            if not node.braces and type(node.base) is ast.Name:
                run = self.call_or_index(node)
                return lambda frame: run(frame, 1)
            base = self.single_ref(node.base)
            args, uses_end = self.index_args(node.args)
            if node.braces:
                brace = indexing.brace_index

                def braces(frame: Frame) -> list:
                    b = base(frame)
                    return brace(b, args(frame, b) if uses_end else args(frame))

                return braces
            index = indexing.index
            method = node.base.name if type(node.base) is ast.Field else None
            method_base = self.single_ref(node.base.base) if method is not None else None

            def parens(frame: Frame) -> list:
                if method_base is not None:  # obj.method(args): a method call on an object
                    obj = method_base(frame)
                    kind = kind_of(obj)
                    if kind is not None and kind.method(obj, method) is not None:
                        return _method_outputs(kind.call_method(obj, method, args(frame)))
                b = base(frame)
                values = args(frame, b) if uses_end else args(frame)
                if type(b) is FunctionHandle:
                    return self.interp.invoke(b, _colons_as_text(values), 1)[:1]
                return [index(b, values)]

            return parens
        if t is ast.Field or t is ast.DynField:
            base = self.single_ref(node.base)
            if t is ast.Field:
                fname = node.name

                def field(frame: Frame) -> list:
                    return get_field(base(frame), fname)

                return field
            name_code = self.expr(node.name)

            def dyn_field(frame: Frame) -> list:
                return get_field(base(frame), to_str(name_code(frame)))

            return dyn_field
        code = self.expr(node)
        return lambda frame: [code(frame)]

    def reference_chain(self, node: ast.Node) -> Callable[[Frame], list]:
        """A long chain of references (``s.a.a.a...``, ``c{1}{1}...``), compiled and run one
        link at a time in a loop: nesting a closure per link would recurse once per link."""
        links = []
        while _is_link(node):
            links.append(node)
            node = node.base  # type: ignore[attr-defined]
        links.reverse()
        first = self.single_ref(node)
        steps: list[tuple[int, Any, Any]] = []
        for i, link in enumerate(links):
            t = type(link)
            if t is ast.Field:
                after = links[i + 1] if i + 1 < len(links) else None
                # `.name(args)` calls a method of an object that has one
                method = type(after) is ast.Index and not after.braces  # type: ignore[union-attr]
                steps.append((_FIELD, link.name, method))  # type: ignore[attr-defined]
            elif t is ast.DynField:
                steps.append((_DYNFIELD, self.expr(link.name), None))  # type: ignore[attr-defined]
            else:
                args, uses_end = self.index_args(link.args)  # type: ignore[attr-defined]
                steps.append((_BRACES if link.braces else _PARENS, args, uses_end))  # type: ignore[attr-defined]
        interp = self.interp
        count = len(steps)

        def chain(frame: Frame) -> list:
            values = [first(frame)]
            i = 0
            while i < count:
                v = _single(values, intermediate=True)
                kind, a, b = steps[i]
                i += 1
                if kind == _FIELD:
                    if b:
                        obj_kind = kind_of(v)
                        if obj_kind is not None and obj_kind.method(v, a) is not None:
                            values = _method_outputs(obj_kind.call_method(v, a, steps[i][1](frame)))
                            i += 1
                            continue
                    values = get_field(v, a)
                elif kind == _DYNFIELD:
                    values = get_field(v, to_str(a(frame)))
                else:
                    arg_values = a(frame, v) if b else a(frame)
                    if kind == _BRACES:
                        values = indexing.brace_index(v, arg_values)
                    elif type(v) is FunctionHandle:
                        values = interp.invoke(v, _colons_as_text(arg_values), 1)[:1]
                    else:
                        values = [indexing.index(v, arg_values)]
            return values

        return chain

    def dotted_call(self, node: ast.Node, root: str, name: str, args_nodes: list | None
                    ) -> Callable[[Frame, int], list]:
        """``pkg.fn(args)`` with nargout outputs: a call of a dotted function name, unless
        ``pkg`` is a variable."""
        normal = self.multi(node, dotted_names=False)
        calls = self.calls(name, node)
        args = self.index_args(args_nodes)[0] if args_nodes is not None else (lambda frame: [])

        def run(frame: Frame, nargout: int) -> list:
            if root in frame.vars:
                return normal(frame)
            return calls(frame, args(frame), nargout)

        return run

    def single_ref(self, node: ast.Node) -> Code:
        """The base of an index or field access: exactly one value."""
        if type(node) is ast.Name:
            return self.expr(node)
        multi = self.multi(node)
        return lambda frame: _single(multi(frame), intermediate=True)


def _is_simple(node: ast.Node) -> bool:
    t = type(node)
    if t is ast.Binary:
        return _is_simple(node.left) and _is_simple(node.right)  # type: ignore[attr-defined]
    if t is ast.Unary:
        return _is_simple(node.operand)  # type: ignore[attr-defined]
    return t in _SIMPLE_NODES


def _method_outputs(value: Any) -> list:
    """The values of ``obj.method(...)``: none when the method returns nothing (None),
    so a statement like ``p.addRequired('x')`` shows nothing, as in MATLAB."""
    return [] if value is None else [value]
