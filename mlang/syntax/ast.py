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

import dataclasses
import sys
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(slots=True)
class Node:
    line: int = field(default=0, compare=False, repr=False, kw_only=True)
    col: int = field(default=0, compare=False, repr=False, kw_only=True)
    file: str = field(default="", compare=False, repr=False, kw_only=True)


# ---------------------------------------------------------------- expressions


@dataclass(slots=True)
class Number(Node):
    """A numeric literal.  ``cls`` is 'double' or, for 0x/0b literals, an integer class."""

    value: int | float | complex
    cls: str = "double"
    text: str = field(default="", compare=False, repr=False, kw_only=True)


@dataclass(slots=True)
class Char(Node):
    """A character-vector literal 'like this' (value already unescaped)."""

    value: str


@dataclass(slots=True)
class String(Node):
    """A string-scalar literal "like this" (value already unescaped)."""

    value: str


@dataclass(slots=True)
class Name(Node):
    name: str


@dataclass(slots=True)
class Colon(Node):
    """A bare ``:`` used as an index (``x(:, 1)``)."""


@dataclass(slots=True)
class End(Node):
    """``end`` inside an index: the last index of the array being indexed."""


@dataclass(slots=True)
class Tilde(Node):
    """``~`` in an output list: an ignored output."""


@dataclass(slots=True)
class Unary(Node):
    op: str  # '-', '+', '~'
    operand: Expr


@dataclass(slots=True)
class Postfix(Node):
    op: str  # "'" or ".'"
    operand: Expr


@dataclass(slots=True)
class Binary(Node):
    op: str
    left: Expr
    right: Expr


@dataclass(slots=True)
class Range(Node):
    start: Expr
    step: Expr | None
    stop: Expr


@dataclass(slots=True)
class Index(Node):
    """``base(args)`` (call or index, decided at run time) or ``base{args}``."""

    base: Expr
    args: list[Expr]
    braces: bool = False


@dataclass(slots=True)
class Field(Node):
    base: Expr
    name: str


@dataclass(slots=True)
class DynField(Node):
    base: Expr
    name: Expr


@dataclass(slots=True)
class NamedArg(Node):
    """``Name=value`` in a call's argument list (means ``"Name", value``)."""

    name: str
    value: Expr


@dataclass(slots=True)
class FuncHandle(Node):
    name: str  # possibly dotted: 'pkg.fn'


@dataclass(slots=True)
class Lambda(Node):
    params: list[str | None]  # None for an ignored input (~)
    body: Expr


@dataclass(slots=True)
class Paren(Node):
    """A parenthesised reference ``(x)``: it is a value, not a name (``(x)`` displays as ``ans``).

    Parentheses around any other expression only group and leave no node.
    """

    expr: Expr


@dataclass(slots=True)
class Matrix(Node):
    rows: list[list[Expr]]


@dataclass(slots=True, eq=False)
class NumericMatrix(Node):
    """A big ``[...]`` of plain decimal numbers (see ``matrix_literal``), read at once.

    ``values`` are its rows of values (they may differ in length: concatenating them is
    then an error); ``source`` is its text from ``[`` to ``]``.  It means, and compares
    equal to, the ``Matrix`` that ``lower()`` gives; a ``Visitor`` without a
    ``visit_NumericMatrix`` visits that Matrix instead.
    """

    values: list[list[float]]
    source: str = field(default="", repr=False)

    def lower(self) -> Matrix:
        """The Matrix of Number and Unary nodes that the general path makes of the source."""
        from mlang.syntax.matrix_literal import matrix_rows  # it builds nodes of this module
        return Matrix(matrix_rows(self.source, self.line, self.col, self.file),
                      line=self.line, col=self.col, file=self.file)

    def __eq__(self, other: object) -> bool:
        if type(other) is NumericMatrix:
            other = other.lower()
        return self.lower() == other if type(other) is Matrix else NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(slots=True)
class Cell(Node):
    rows: list[list[Expr]]


Expr = (
    Number | Char | String | Name | Colon | End | Tilde | Unary | Postfix | Binary | Range | Index |
    Field | DynField | NamedArg | FuncHandle | Lambda | Paren | Matrix | Cell
)

# ----------------------------------------------------------------- statements


@dataclass(slots=True)
class ExprStmt(Node):
    expr: Expr
    show: bool = True  # False when the statement ends with ';'


@dataclass(slots=True)
class Assign(Node):
    target: Expr
    value: Expr
    show: bool = True


@dataclass(slots=True)
class MultiAssign(Node):
    targets: list[Expr]
    value: Expr
    show: bool = True


@dataclass(slots=True)
class Command(Node):
    """Command syntax: ``hold on`` means ``hold('on')``."""

    name: str
    args: list[str]
    show: bool = True


@dataclass(slots=True)
class If(Node):
    clauses: list[tuple[Expr, list[Stmt]]]  # if and elseif branches
    orelse: list[Stmt] | None = None


@dataclass(slots=True)
class For(Node):
    var: Expr
    iterable: Expr
    body: list[Stmt]
    parallel: bool = False  # parfor
    workers: Expr | None = None


@dataclass(slots=True)
class While(Node):
    cond: Expr
    body: list[Stmt]


@dataclass(slots=True)
class Switch(Node):
    subject: Expr
    cases: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None = None


@dataclass(slots=True)
class Try(Node):
    body: list[Stmt]
    catch_var: str | None = None
    catch_body: list[Stmt] | None = None


@dataclass(slots=True)
class Break(Node):
    pass


@dataclass(slots=True)
class Continue(Node):
    pass


@dataclass(slots=True)
class Return(Node):
    pass


@dataclass(slots=True)
class Global(Node):
    names: list[str]


@dataclass(slots=True)
class Persistent(Node):
    names: list[str]


@dataclass(slots=True)
class ArgumentSpec(Node):
    """One line of an ``arguments`` block: ``x (1,:) double {mustBePositive} = 1``."""

    name: list[str]  # ['x'] or ['opts', 'Name']
    size: list[Expr] | None = None  # Number or Colon per dimension
    cls: str | None = None
    validators: list[Expr] = field(default_factory=list)
    default: Expr | None = None


@dataclass(slots=True)
class ArgumentsBlock(Node):
    attributes: list[str]  # e.g. ['Input'], ['Output'], ['Repeating']
    specs: list[ArgumentSpec]


@dataclass(slots=True)
class Function(Node):
    name: str
    params: list[str | None]  # None for an ignored input (~)
    outputs: list[str]
    body: list[Stmt]
    functions: list[Function] = field(default_factory=list)  # nested functions
    arguments: list[ArgumentsBlock] = field(default_factory=list)
    has_end: bool = True


@dataclass(slots=True)
class Program(Node):
    """A whole file: a script (statements, then local functions) or a function file."""

    body: list[Stmt]
    functions: list[Function]
    is_script: bool = True


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
LOWERED_TYPES: tuple[type[Node], ...] = (NumericMatrix,)
"""Expressions that a visitor may leave to the general form their ``lower()`` gives."""
STATEMENT_TYPES: tuple[type[Node], ...] = typing.get_args(Stmt)


def _mentions_node(hint: Any) -> bool:
    if isinstance(hint, type) and issubclass(hint, Node):
        return True
    return any(_mentions_node(arg) for arg in typing.get_args(hint))


def _child_fields(cls: type[Node]) -> tuple[str, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(f.name for f in dataclasses.fields(cls) if _mentions_node(hints[f.name]))


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
#
# A tree is shown as an s-expression: ``_SExpression`` builds it as nested
# lists of atoms once; ``dump`` prints it on one line, ``pretty`` folds it to a width.

Sx = str | list  # an atom, or a parenthesised list of Sx


def _num(value: int | float | complex) -> str:
    if isinstance(value, complex):
        return _num(value.imag) + "i"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _quote(text: str, q: str) -> str:
    return q + text.replace(q, q + q) + q


def _semi(node: Node) -> list[Sx]:
    return [] if node.show else [";"]  # type: ignore[attr-defined]


class _SExpression(Visitor):
    def all(self, nodes: list | None) -> list[Sx]:
        return [self.visit(n) for n in nodes or []]

    def visit_Number(self, node: Number) -> Sx:
        return _num(node.value) + ("" if node.cls == "double" else ":" + node.cls)

    def visit_Char(self, node: Char) -> Sx:
        return _quote(node.value, "'")

    def visit_String(self, node: String) -> Sx:
        return _quote(node.value, '"')

    def visit_Name(self, node: Name) -> Sx:
        return node.name

    def visit_Colon(self, node: Colon) -> Sx:
        return ":"

    def visit_End(self, node: End) -> Sx:
        return "end"

    def visit_Tilde(self, node: Tilde) -> Sx:
        return "~"

    def visit_Unary(self, node: Unary | Postfix) -> Sx:
        return [node.op, self.visit(node.operand)]

    visit_Postfix = visit_Unary

    def visit_Binary(self, node: Binary) -> Sx:
        return [node.op, self.visit(node.left), self.visit(node.right)]

    def visit_Range(self, node: Range) -> Sx:
        step = [] if node.step is None else [self.visit(node.step)]
        return [":", self.visit(node.start), *step, self.visit(node.stop)]

    def visit_Index(self, node: Index) -> Sx:
        return ["{}" if node.braces else "()", self.visit(node.base), *self.all(node.args)]

    def visit_Field(self, node: Field) -> Sx:
        return [".", self.visit(node.base), node.name]

    def visit_DynField(self, node: DynField) -> Sx:
        return [".()", self.visit(node.base), self.visit(node.name)]

    def visit_NamedArg(self, node: NamedArg) -> Sx:
        return ["=", node.name, self.visit(node.value)]

    def visit_FuncHandle(self, node: FuncHandle) -> Sx:
        return "@" + node.name

    def visit_Paren(self, node: Paren) -> Sx:
        return ["paren", self.visit(node.expr)]

    def visit_Lambda(self, node: Lambda) -> Sx:
        return ["@", ["~" if p is None else p for p in node.params], self.visit(node.body)]

    def visit_Matrix(self, node: Matrix | Cell) -> Sx:
        kind = "matrix" if type(node) is Matrix else "cell"
        return [kind, *[self.all(row) for row in node.rows]]

    visit_Cell = visit_Matrix

    def visit_NumericMatrix(self, node: NumericMatrix) -> Sx:
        return self.visit_Matrix(node.lower())

    def visit_ExprStmt(self, node: ExprStmt) -> Sx:
        return ["expr", self.visit(node.expr), *_semi(node)]

    def visit_Assign(self, node: Assign) -> Sx:
        return ["assign", self.visit(node.target), self.visit(node.value), *_semi(node)]

    def visit_MultiAssign(self, node: MultiAssign) -> Sx:
        targets = "[" + " ".join(dump(x) for x in node.targets) + "]"
        return ["assign", targets, self.visit(node.value), *_semi(node)]

    def visit_Command(self, node: Command) -> Sx:
        return ["command", node.name, *[_quote(a, "'") for a in node.args], *_semi(node)]

    def visit_If(self, node: If) -> Sx:
        clauses = [[self.visit(c), *self.all(b)] for c, b in node.clauses]
        orelse = [] if node.orelse is None else [["else", *self.all(node.orelse)]]
        return ["if", *clauses, *orelse]

    def visit_For(self, node: For) -> Sx:
        workers = [] if node.workers is None else [["workers", self.visit(node.workers)]]
        keyword = "parfor" if node.parallel else "for"
        return [keyword, self.visit(node.var), self.visit(node.iterable), *workers,
                *self.all(node.body)]

    def visit_While(self, node: While) -> Sx:
        return ["while", self.visit(node.cond), *self.all(node.body)]

    def visit_Switch(self, node: Switch) -> Sx:
        cases = [["case", self.visit(v), *self.all(b)] for v, b in node.cases]
        other = [] if node.otherwise is None else [["otherwise", *self.all(node.otherwise)]]
        return ["switch", self.visit(node.subject), *cases, *other]

    def visit_Try(self, node: Try) -> Sx:
        catch: list[Sx] = []
        if node.catch_body is not None:
            var = [] if node.catch_var is None else [node.catch_var]
            catch = [["catch", *var, *self.all(node.catch_body)]]
        return ["try", self.all(node.body), *catch]

    def visit_Break(self, node: Break | Continue | Return) -> Sx:
        return [type(node).__name__.lower()]

    visit_Continue = visit_Return = visit_Break

    def visit_Global(self, node: Global | Persistent) -> Sx:
        return [type(node).__name__.lower(), *node.names]

    visit_Persistent = visit_Global

    def visit_ArgumentSpec(self, node: ArgumentSpec) -> Sx:
        parts: list[Sx] = [".".join(node.name)]
        if node.size is not None:
            parts.append(["size", *self.all(node.size)])
        if node.cls is not None:
            parts.append(["class", node.cls])
        if node.validators:
            parts.append(["validators", *self.all(node.validators)])
        if node.default is not None:
            parts.append(["default", self.visit(node.default)])
        return parts

    def visit_ArgumentsBlock(self, node: ArgumentsBlock) -> Sx:
        return ["arguments", *node.attributes, *self.all(node.specs)]

    def visit_Function(self, node: Function) -> Sx:
        params = ["~" if p is None else p for p in node.params]
        return ["function", node.name, ["in", *params], ["out", *node.outputs],
                *self.all(node.arguments), *self.all(node.body), *self.all(node.functions)]

    def visit_Program(self, node: Program) -> Sx:
        return ["script" if node.is_script else "functions", *self.all(node.body),
                *self.all(node.functions)]


_S_EXPRESSION = _SExpression()


def _flat(sx: Sx) -> str:
    """``sx`` on one line (an explicit stack: an s-expression can be thousands deep)."""
    parts: list[str] = []
    stack: list[Sx] = [sx]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif item is _CLOSE:
            parts[-1] += ")"
        else:
            parts.append("(")
            stack.append(_CLOSE)
            for i in range(len(item) - 1, -1, -1):
                stack.append(item[i])
                if i:
                    stack.append(_SPACE)
    return "".join(parts)


_CLOSE: list = []  # markers on _flat's stack (compared by identity)
_SPACE = " "


def _fits(sx: Sx, room: int) -> bool:
    """Does ``_flat(sx)`` take at most ``room`` characters?  (Stops counting past it.)"""
    used = 0
    stack: list[Sx] = [sx]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            used += len(item)
        else:
            used += 2 + max(len(item) - 1, 0)  # parentheses, spaces between the items
            stack.extend(item)
        if used > room:
            return False
    return True


def dump(node: Node) -> str:
    """A one-line s-expression of ``node``, for tests."""
    with deep_recursion():
        return _flat(_S_EXPRESSION.visit(node))


MAX_INDENT = 60


def pretty(node: Node, width: int = 100) -> str:
    """The s-expression of ``node`` folded to ``width`` columns, for ``mlang --parse``."""
    lines: list[str] = []

    def fold(sx: Sx, indent: int, tail: str) -> None:
        if isinstance(sx, str) or _fits(sx, width - indent - len(tail)):
            lines.append(" " * indent + _flat(sx) + tail)
            return
        n_head = 0
        while n_head < len(sx) and isinstance(sx[n_head], str):
            n_head += 1  # keep a leading run of atoms (keyword, names) on the first line
        lines.append(" " * indent + "(" + " ".join(sx[:n_head]))
        rest = sx[n_head:]
        inner = min(indent + 2, MAX_INDENT)  # a very deep tree stays within the page
        for i, child in enumerate(rest):
            fold(child, inner, tail + ")" if i == len(rest) - 1 else "")
        if not rest:
            lines[-1] += ")" + tail

    with deep_recursion():
        fold(_S_EXPRESSION.visit(node), 0, "")
    return "\n".join(lines)
