"""AST node classes for MATLAB source, how to walk a tree, and how to print one.

Every node records where it starts (file, line, column).  Positions are left
out of equality so that two trees compare equal when they mean the same
program, wherever they came from (the unparser round-trip relies on this).

``NODE_TYPES`` lists the node classes and ``CHILD_FIELDS`` their fields that
hold nodes, both derived from the class definitions; ``children``/``walk``
traverse a tree with them, and ``Visitor`` is the one way to write a table
with an entry per node type.
"""

from __future__ import annotations

import re
import sys
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar


class Node:
    """A node: plain classes with ``__slots__`` and an ``__init__`` each (cheaper to define
    at start-up and to make than dataclasses).  Its own fields are ``__slots__``; ``==``
    compares those in ``_compared`` (all of them unless the class says otherwise) between
    nodes of the same class, and never the position."""

    __slots__ = ("line", "col", "file")
    _compared: ClassVar[tuple[str, ...]] = ()
    line: int
    col: int
    file: str

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_compared" not in cls.__dict__:
            cls._compared = cls.__slots__

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = self._compared  # lists compare items by identity first, as dataclasses do
        return [getattr(self, n) for n in names] == [getattr(other, n) for n in names]

    __hash__ = None  # type: ignore[assignment]  # equal nodes need not be the same node

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._compared)
        return f"{type(self).__qualname__}({shown})"


# ---------------------------------------------------------------- expressions


class Number(Node):
    """A numeric literal.  ``cls`` is 'double' or, for 0x/0b literals, an integer class."""

    __slots__ = ("value", "cls", "text")
    _compared = ("value", "cls")
    value: int | float | complex
    cls: str
    text: str

    def __init__(self, value: int | float | complex, cls: str = "double", *, text: str = "", line: int = 0,
                 col: int = 0, file: str = "") -> None:
        self.value = value
        self.cls = cls
        self.text = text
        self.line, self.col, self.file = line, col, file


class Char(Node):
    """A character-vector literal 'like this' (value already unescaped)."""

    __slots__ = ("value",)
    value: str

    def __init__(self, value: str, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.value = value
        self.line, self.col, self.file = line, col, file


class String(Node):
    """A string-scalar literal "like this" (value already unescaped)."""

    __slots__ = ("value",)
    value: str

    def __init__(self, value: str, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.value = value
        self.line, self.col, self.file = line, col, file


class Name(Node):
    __slots__ = ("name",)
    name: str

    def __init__(self, name: str, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.name = name
        self.line, self.col, self.file = line, col, file


class Colon(Node):
    """A bare ``:`` used as an index (``x(:, 1)``)."""
    __slots__ = ()

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file


class End(Node):
    """``end`` inside an index: the last index of the array being indexed."""
    __slots__ = ()

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file


class Tilde(Node):
    """``~`` in an output list: an ignored output."""
    __slots__ = ()

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file


class Unary(Node):
    __slots__ = ("op", "operand")
    op: str  # '-', '+', '~'
    operand: Expr

    def __init__(self, op: str, operand: Expr, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.op = op
        self.operand = operand
        self.line, self.col, self.file = line, col, file


class Postfix(Node):
    __slots__ = ("op", "operand")
    op: str  # "'" or ".'"
    operand: Expr

    def __init__(self, op: str, operand: Expr, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.op = op
        self.operand = operand
        self.line, self.col, self.file = line, col, file


class Binary(Node):
    __slots__ = ("op", "left", "right")
    op: str
    left: Expr
    right: Expr

    def __init__(self, op: str, left: Expr, right: Expr, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.op = op
        self.left = left
        self.right = right
        self.line, self.col, self.file = line, col, file


class Range(Node):
    __slots__ = ("start", "step", "stop")
    start: Expr
    step: Expr | None
    stop: Expr

    def __init__(self, start: Expr, step: Expr | None, stop: Expr, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.start = start
        self.step = step
        self.stop = stop
        self.line, self.col, self.file = line, col, file


class Index(Node):
    """``base(args)`` (call or index, decided at run time) or ``base{args}``."""

    __slots__ = ("base", "args", "braces")
    base: Expr
    args: list[Expr]
    braces: bool

    def __init__(self, base: Expr, args: list[Expr], braces: bool = False, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.base = base
        self.args = args
        self.braces = braces
        self.line, self.col, self.file = line, col, file


class Field(Node):
    __slots__ = ("base", "name")
    base: Expr
    name: str

    def __init__(self, base: Expr, name: str, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.base = base
        self.name = name
        self.line, self.col, self.file = line, col, file


class DynField(Node):
    __slots__ = ("base", "name")
    base: Expr
    name: Expr

    def __init__(self, base: Expr, name: Expr, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.base = base
        self.name = name
        self.line, self.col, self.file = line, col, file


class NamedArg(Node):
    """``Name=value`` in a call's argument list (means ``"Name", value``)."""

    __slots__ = ("name", "value")
    name: str
    value: Expr

    def __init__(self, name: str, value: Expr, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.name = name
        self.value = value
        self.line, self.col, self.file = line, col, file


class FuncHandle(Node):
    __slots__ = ("name",)
    name: str  # possibly dotted: 'pkg.fn'

    def __init__(self, name: str, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.name = name
        self.line, self.col, self.file = line, col, file


class Lambda(Node):
    __slots__ = ("params", "body")
    params: list[str | None]  # None for an ignored input (~)
    body: Expr

    def __init__(self, params: list[str | None], body: Expr, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.params = params
        self.body = body
        self.line, self.col, self.file = line, col, file


class Paren(Node):
    """A parenthesised reference ``(x)``: it is a value, not a name (``(x)`` displays as ``ans``).

    Parentheses around any other expression only group and leave no node.
    """

    __slots__ = ("expr",)
    expr: Expr

    def __init__(self, expr: Expr, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.expr = expr
        self.line, self.col, self.file = line, col, file


class Matrix(Node):
    __slots__ = ("rows",)
    rows: list[list[Expr]]

    def __init__(self, rows: list[list[Expr]], *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.rows = rows
        self.line, self.col, self.file = line, col, file


class NumericMatrix(Node):
    """A big ``[...]`` of plain decimal numbers (see ``matrix_literal``), read at once.

    ``values`` are its rows of values (they may differ in length: concatenating them is
    then an error); ``source`` is its text from ``[`` to ``]``.  It means, and compares
    equal to, the ``Matrix`` that ``lower()`` gives; a ``Visitor`` without a
    ``visit_NumericMatrix`` visits that Matrix instead.
    """

    __slots__ = ("values", "source")
    _compared = ("values",)
    values: list[list[float]]
    source: str

    def __init__(self, values: list[list[float]], source: str = "", *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.values = values
        self.source = source
        self.line, self.col, self.file = line, col, file

    def lower(self) -> Matrix:
        """The Matrix of Number and Unary nodes that the general path makes of the source."""
        from mlang.syntax.matrix_literal import matrix_rows  # it builds nodes of this module
        return Matrix(matrix_rows(self.source, self.line, self.col, self.file),
                      line=self.line, col=self.col, file=self.file)

    def __eq__(self, other: object) -> bool:
        if type(other) is NumericMatrix:
            other = other.lower()
        return self.lower() == other if type(other) is Matrix else NotImplemented



class SumRun(Node):
    """A long left-to-right run of ``+`` and ``-`` with plain decimal numbers after its
    first operand, as in ``x+1+1+...+1``, read at once (see ``operand_runs``).

    ``ops`` holds one character ('+' or '-') per operator, ``texts`` the numbers' source
    texts and ``values`` their values; the run starts at column ``run_col`` of line
    ``run_line`` with no spaces in it.  It means, and compares equal to, the left-deep
    chain of ``Binary`` and ``Number`` nodes that ``lower()`` gives; a ``Visitor``
    without a ``visit_SumRun`` visits that chain instead.
    """

    __slots__ = ("first", "ops", "texts", "values", "run_line", "run_col")
    _compared = ("first", "ops", "values")
    first: Expr
    ops: str
    texts: list[str]
    values: list[float]
    run_line: int
    run_col: int

    def __init__(self, first: Expr, ops: str, texts: list[str], values: list[float], run_line: int,
                 run_col: int, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.first = first
        self.ops = ops
        self.texts = texts
        self.values = values
        self.run_line = run_line
        self.run_col = run_col
        self.line, self.col, self.file = line, col, file

    def lower(self) -> Binary:
        """The chain of Binary nodes over Number nodes that the general path makes."""
        node = self.first
        line, col, file = self.line, self.col, self.file
        at = self.run_col
        for op, text, value in zip(self.ops, self.texts, self.values, strict=True):
            at += 1
            number = Number(value, "double", text=text, line=self.run_line, col=at, file=file)
            node = Binary(op, node, number, line=line, col=col, file=file)
            at += len(text)
        return node  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        if type(other) is SumRun and self.ops == other.ops and self.values == other.values \
                and self.first == other.first:
            return True  # (the same run: no need to make the chains)
        if type(other) is SumRun:
            other = other.lower()
        return self.lower() == other if type(other) is Binary else NotImplemented


class Cell(Node):
    __slots__ = ("rows",)
    rows: list[list[Expr]]

    def __init__(self, rows: list[list[Expr]], *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.rows = rows
        self.line, self.col, self.file = line, col, file


Expr = (
    Number | Char | String | Name | Colon | End | Tilde | Unary | Postfix | Binary | Range | Index |
    Field | DynField | NamedArg | FuncHandle | Lambda | Paren | Matrix | Cell
)

# ----------------------------------------------------------------- statements


class ExprStmt(Node):
    __slots__ = ("expr", "show")
    expr: Expr
    show: bool  # False when the statement ends with ';'

    def __init__(self, expr: Expr, show: bool = True, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.expr = expr
        self.show = show
        self.line, self.col, self.file = line, col, file


class Assign(Node):
    __slots__ = ("target", "value", "show")
    target: Expr
    value: Expr
    show: bool

    def __init__(self, target: Expr, value: Expr, show: bool = True, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.target = target
        self.value = value
        self.show = show
        self.line, self.col, self.file = line, col, file


class MultiAssign(Node):
    __slots__ = ("targets", "value", "show")
    targets: list[Expr]
    value: Expr
    show: bool

    def __init__(self, targets: list[Expr], value: Expr, show: bool = True, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.targets = targets
        self.value = value
        self.show = show
        self.line, self.col, self.file = line, col, file


class Command(Node):
    """Command syntax: ``hold on`` means ``hold('on')``."""

    __slots__ = ("name", "args", "show")
    name: str
    args: list[str]
    show: bool

    def __init__(self, name: str, args: list[str], show: bool = True, *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.name = name
        self.args = args
        self.show = show
        self.line, self.col, self.file = line, col, file


class If(Node):
    __slots__ = ("clauses", "orelse")
    clauses: list[tuple[Expr, list[Stmt]]]  # if and elseif branches
    orelse: list[Stmt] | None

    def __init__(self, clauses: list[tuple[Expr, list[Stmt]]], orelse: list[Stmt] | None = None, *,
                 line: int = 0, col: int = 0, file: str = "") -> None:
        self.clauses = clauses
        self.orelse = orelse
        self.line, self.col, self.file = line, col, file


class For(Node):
    __slots__ = ("var", "iterable", "body", "parallel", "workers")
    var: Expr
    iterable: Expr
    body: list[Stmt]
    parallel: bool  # parfor
    workers: Expr | None

    def __init__(self, var: Expr, iterable: Expr, body: list[Stmt], parallel: bool = False,
                 workers: Expr | None = None, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.var = var
        self.iterable = iterable
        self.body = body
        self.parallel = parallel
        self.workers = workers
        self.line, self.col, self.file = line, col, file


class While(Node):
    __slots__ = ("cond", "body")
    cond: Expr
    body: list[Stmt]

    def __init__(self, cond: Expr, body: list[Stmt], *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.cond = cond
        self.body = body
        self.line, self.col, self.file = line, col, file


class Switch(Node):
    __slots__ = ("subject", "cases", "otherwise")
    subject: Expr
    cases: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None

    def __init__(self, subject: Expr, cases: list[tuple[Expr, list[Stmt]]],
                 otherwise: list[Stmt] | None = None, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.subject = subject
        self.cases = cases
        self.otherwise = otherwise
        self.line, self.col, self.file = line, col, file


class Try(Node):
    __slots__ = ("body", "catch_var", "catch_body")
    body: list[Stmt]
    catch_var: str | None
    catch_body: list[Stmt] | None

    def __init__(self, body: list[Stmt], catch_var: str | None = None, catch_body: list[Stmt] | None = None,
                 *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.body = body
        self.catch_var = catch_var
        self.catch_body = catch_body
        self.line, self.col, self.file = line, col, file


class Break(Node):
    __slots__ = ()

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file


class Continue(Node):
    __slots__ = ()

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file


class Return(Node):
    __slots__ = ()

    def __init__(self, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.line, self.col, self.file = line, col, file


class Global(Node):
    __slots__ = ("names",)
    names: list[str]

    def __init__(self, names: list[str], *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.names = names
        self.line, self.col, self.file = line, col, file


class Persistent(Node):
    __slots__ = ("names",)
    names: list[str]

    def __init__(self, names: list[str], *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.names = names
        self.line, self.col, self.file = line, col, file


class ArgumentSpec(Node):
    """One line of an ``arguments`` block: ``x (1,:) double {mustBePositive} = 1``."""

    __slots__ = ("name", "size", "cls", "validators", "default")
    name: list[str]  # ['x'] or ['opts', 'Name']
    size: list[Expr] | None  # Number or Colon per dimension
    cls: str | None
    validators: list[Expr]
    default: Expr | None

    def __init__(self, name: list[str], size: list[Expr] | None = None, cls: str | None = None,
                 validators: list[Expr] | None = None, default: Expr | None = None, *, line: int = 0,
                 col: int = 0, file: str = "") -> None:
        self.name = name
        self.size = size
        self.cls = cls
        self.validators = [] if validators is None else validators
        self.default = default
        self.line, self.col, self.file = line, col, file


class ArgumentsBlock(Node):
    __slots__ = ("attributes", "specs")
    attributes: list[str]  # e.g. ['Input'], ['Output'], ['Repeating']
    specs: list[ArgumentSpec]

    def __init__(self, attributes: list[str], specs: list[ArgumentSpec], *, line: int = 0, col: int = 0,
                 file: str = "") -> None:
        self.attributes = attributes
        self.specs = specs
        self.line, self.col, self.file = line, col, file


class Function(Node):
    __slots__ = ("name", "params", "outputs", "body", "functions", "arguments", "has_end")
    name: str
    params: list[str | None]  # None for an ignored input (~)
    outputs: list[str]
    body: list[Stmt]
    functions: list[Function]  # nested functions
    arguments: list[ArgumentsBlock]
    has_end: bool

    def __init__(self, name: str, params: list[str | None], outputs: list[str], body: list[Stmt],
                 functions: list[Function] | None = None, arguments: list[ArgumentsBlock] | None = None,
                 has_end: bool = True, *, line: int = 0, col: int = 0, file: str = "") -> None:
        self.name = name
        self.params = params
        self.outputs = outputs
        self.body = body
        self.functions = [] if functions is None else functions
        self.arguments = [] if arguments is None else arguments
        self.has_end = has_end
        self.line, self.col, self.file = line, col, file


class Program(Node):
    """A whole file: a script (statements, then local functions) or a function file."""

    __slots__ = ("body", "functions", "is_script")
    body: list[Stmt]
    functions: list[Function]
    is_script: bool

    def __init__(self, body: list[Stmt], functions: list[Function], is_script: bool = True, *, line: int = 0,
                 col: int = 0, file: str = "") -> None:
        self.body = body
        self.functions = functions
        self.is_script = is_script
        self.line, self.col, self.file = line, col, file


Stmt = (
    ExprStmt | Assign | MultiAssign | Command | If | For | While | Switch | Try | Break | Continue |
    Return | Global | Persistent
)


# ------------------------------------------------------------------ walking
#
# The list of node types and the fields that hold child nodes are derived
# from the classes above, so a new node class is known everywhere at once.

NODE_TYPES: tuple[type[Node], ...] = tuple(
    value for value in list(globals().values())
    if isinstance(value, type) and issubclass(value, Node) and value is not Node
)
"""Every node class, in the order of their definitions."""

EXPRESSION_TYPES: tuple[type[Node], ...] = typing.get_args(Expr)
"""The expression classes that every visitor of expressions has a method for."""
LOWERED_TYPES: tuple[type[Node], ...] = (NumericMatrix, SumRun)
"""Expressions that a visitor may leave to the general form their ``lower()`` gives."""
STATEMENT_TYPES: tuple[type[Node], ...] = typing.get_args(Stmt)


_NODE_WORDS = frozenset({t.__name__ for t in NODE_TYPES} | {"Expr", "Stmt"})


def _child_fields(cls: type[Node]) -> tuple[str, ...]:
    """The fields whose annotation (a string: annotations are not evaluated) names a node."""
    annotations = cls.__dict__.get("__annotations__", {})
    return tuple(name for name in cls.__slots__
                 if _NODE_WORDS.intersection(re.findall(r"\w+", annotations[name])))


CHILD_FIELDS: dict[type[Node], tuple[str, ...]] = {cls: _child_fields(cls) for cls in NODE_TYPES}
"""For each node class, the fields whose annotation can hold nodes (directly or in
lists and tuples: ``Matrix.rows``, ``If.clauses``)."""


def _nodes_in(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _nodes_in(item)


def children(node: Node) -> Iterator[Node]:
    """The nodes directly below ``node``, in the order of its class's fields."""
    for name in CHILD_FIELDS[type(node)]:
        yield from _nodes_in(getattr(node, name))


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node below it, in pre-order: each node before its children,
    which come in the order of ``children``."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


# Brackets, blocks and anonymous functions nest at most errors.NESTING_LIMIT deep, but
# an operator chain (`1+1+...+1`) is as deep as it is long.  Recursive walks over a
# tree (dump, unparse) get this much room: calls between Python functions do not
# use the C stack, so a high limit is safe for them.
DEEP_RECURSION_LIMIT = 200_000


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Raise Python's recursion limit for a recursive walk over a possibly deep tree."""
    limit = sys.getrecursionlimit()
    if limit < DEEP_RECURSION_LIMIT:
        sys.setrecursionlimit(DEEP_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


class Visitor:
    """A table from node type to method: a subclass defines ``visit_<NodeName>``
    methods (``visit_Binary``) and ``visit(node)`` calls the one for the node's class.

    The table (``visitors``) is built once, when the subclass is defined; a
    ``visit_`` method that names no node class is an error then.
    """

    visitors: ClassVar[dict[type[Node], Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        by_name = {t.__name__: t for t in NODE_TYPES}
        table: dict[type[Node], Callable[..., Any]] = {}
        for attribute in dir(cls):
            if not attribute.startswith("visit_"):
                continue
            node_type = by_name.get(attribute.removeprefix("visit_"))
            if node_type is None:
                raise TypeError(f"{cls.__name__}.{attribute}: there is no node class "
                                f"{attribute.removeprefix('visit_')!r}")
            table[node_type] = getattr(cls, attribute)
        cls.visitors = table

    def visit(self, node: Node) -> Any:
        method = self.visitors.get(type(node))
        if method is None:
            if type(node) in LOWERED_TYPES:  # the general form means the same
                return self.visit(node.lower())
            raise TypeError(f"{type(self).__name__} has no visit_{type(node).__name__}")
        return method(self, node)


# --------------------------------------------------------------------- dump


def dump(node: Node) -> str:
    """A one-line s-expression of ``node``, for tests (see ``sexpr``)."""
    from mlang.syntax.sexpr import dump_tree  # the printer is a Visitor of the classes above
    return dump_tree(node)


def pretty(node: Node, width: int = 100) -> str:
    """The s-expression of ``node`` folded to ``width`` columns, for ``mlang --parse``."""
    from mlang.syntax.sexpr import pretty_tree  # the printer is a Visitor of the classes above
    return pretty_tree(node, width)
