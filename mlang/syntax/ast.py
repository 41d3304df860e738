"""AST node classes for MATLAB source.

Every node records where it starts (file, line, column).  Positions are left
out of equality so that two trees compare equal when they mean the same
program, wherever they came from (the unparser round-trip relies on this).
"""

from __future__ import annotations

from dataclasses import dataclass, field


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


# --------------------------------------------------------------------- dump
#
# A tree is shown as an s-expression: ``_sx`` builds it as nested lists of
# atoms once; ``dump`` prints it on one line, ``pretty`` folds it to a width.

Sx = str | list  # an atom, or a parenthesised list of Sx


def _num(value: int | float | complex) -> str:
    if isinstance(value, complex):
        return _num(value.imag) + "i"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _quote(text: str, q: str) -> str:
    return q + text.replace(q, q + q) + q


def _sxs(nodes: list | None) -> list[Sx]:
    return [_sx(n) for n in nodes or []]


def _semi(node: Node) -> list[Sx]:
    return [] if node.show else [";"]


def _sx(node: Node) -> Sx:
    t = type(node)
    if t is Number:
        return _num(node.value) + ("" if node.cls == "double" else ":" + node.cls)
    if t is Char:
        return _quote(node.value, "'")
    if t is String:
        return _quote(node.value, '"')
    if t is Name:
        return node.name
    if t is Colon:
        return ":"
    if t is End:
        return "end"
    if t is Tilde:
        return "~"
    if t is Unary or t is Postfix:
        return [node.op, _sx(node.operand)]
    if t is Binary:
        return [node.op, _sx(node.left), _sx(node.right)]
    if t is Range:
        step = [] if node.step is None else [_sx(node.step)]
        return [":", _sx(node.start), *step, _sx(node.stop)]
    if t is Index:
        return ["{}" if node.braces else "()", _sx(node.base), *_sxs(node.args)]
    if t is Field:
        return [".", _sx(node.base), node.name]
    if t is DynField:
        return [".()", _sx(node.base), _sx(node.name)]
    if t is NamedArg:
        return ["=", node.name, _sx(node.value)]
    if t is FuncHandle:
        return "@" + node.name
    if t is Paren:
        return ["paren", _sx(node.expr)]
    if t is Lambda:
        return ["@", ["~" if p is None else p for p in node.params], _sx(node.body)]
    if t is Matrix or t is Cell:
        return ["matrix" if t is Matrix else "cell", *[_sxs(row) for row in node.rows]]
    if t is ExprStmt:
        return ["expr", _sx(node.expr), *_semi(node)]
    if t is Assign:
        return ["assign", _sx(node.target), _sx(node.value), *_semi(node)]
    if t is MultiAssign:
        targets = "[" + " ".join(dump(x) for x in node.targets) + "]"
        return ["assign", targets, _sx(node.value), *_semi(node)]
    if t is Command:
        return ["command", node.name, *[_quote(a, "'") for a in node.args], *_semi(node)]
    if t is If:
        clauses = [[_sx(c), *_sxs(b)] for c, b in node.clauses]
        orelse = [] if node.orelse is None else [["else", *_sxs(node.orelse)]]
        return ["if", *clauses, *orelse]
    if t is For:
        workers = [] if node.workers is None else [["workers", _sx(node.workers)]]
        kw = "parfor" if node.parallel else "for"
        return [kw, _sx(node.var), _sx(node.iterable), *workers, *_sxs(node.body)]
    if t is While:
        return ["while", _sx(node.cond), *_sxs(node.body)]
    if t is Switch:
        cases = [["case", _sx(v), *_sxs(b)] for v, b in node.cases]
        other = [] if node.otherwise is None else [["otherwise", *_sxs(node.otherwise)]]
        return ["switch", _sx(node.subject), *cases, *other]
    if t is Try:
        catch: list[Sx] = []
        if node.catch_body is not None:
            var = [] if node.catch_var is None else [node.catch_var]
            catch = [["catch", *var, *_sxs(node.catch_body)]]
        return ["try", _sxs(node.body), *catch]
    if t is Break or t is Continue or t is Return:
        return [t.__name__.lower()]
    if t is Global or t is Persistent:
        return [t.__name__.lower(), *node.names]
    if t is ArgumentSpec:
        parts: list[Sx] = [".".join(node.name)]
        if node.size is not None:
            parts.append(["size", *_sxs(node.size)])
        if node.cls is not None:
            parts.append(["class", node.cls])
        if node.validators:
            parts.append(["validators", *_sxs(node.validators)])
        if node.default is not None:
            parts.append(["default", _sx(node.default)])
        return parts
    if t is ArgumentsBlock:
        return ["arguments", *node.attributes, *_sxs(node.specs)]
    if t is Function:
        params = ["~" if p is None else p for p in node.params]
        return ["function", node.name, ["in", *params], ["out", *node.outputs],
                *_sxs(node.arguments), *_sxs(node.body), *_sxs(node.functions)]
    if t is Program:
        return ["script" if node.is_script else "functions", *_sxs(node.body), *_sxs(node.functions)]
    raise TypeError(f"dump: unknown node {t.__name__}")


def _flat(sx: Sx) -> str:
    if isinstance(sx, str):
        return sx
    return "(" + " ".join(_flat(x) for x in sx) + ")"


def dump(node: Node) -> str:
    """A one-line s-expression of ``node``, for tests."""
    return _flat(_sx(node))


def pretty(node: Node, width: int = 100) -> str:
    """The s-expression of ``node`` folded to ``width`` columns, for ``mlang --parse``."""
    lines: list[str] = []

    def fold(sx: Sx, indent: int, tail: str) -> None:
        flat = _flat(sx)
        if isinstance(sx, str) or indent + len(flat) + len(tail) <= width:
            lines.append(" " * indent + flat + tail)
            return
        n_head = 1
        while n_head < len(sx) and isinstance(sx[n_head], str):
            n_head += 1  # keep a leading run of atoms (keyword, names) on the first line
        lines.append(" " * indent + "(" + " ".join(sx[:n_head]))
        rest = sx[n_head:]
        for i, child in enumerate(rest):
            fold(child, indent + 2, tail + ")" if i == len(rest) - 1 else "")
        if not rest:
            lines[-1] += ")" + tail

    fold(_sx(node), 0, "")
    return "\n".join(lines)
