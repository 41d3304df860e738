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


def _num(value: int | float | complex) -> str:
    if isinstance(value, complex):
        return _num(value.imag) + "i"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _quote(text: str, q: str) -> str:
    return q + text.replace(q, q + q) + q


def _words(tag: str, words: list[str]) -> str:
    return "(" + " ".join([tag, *words]) + ")"


def _body(stmts: list[Stmt] | None) -> str:
    return "".join(" " + dump(s) for s in stmts or [])


def dump(node: Node) -> str:
    """A compact s-expression of ``node``, for tests and ``mlang --parse``."""
    t = type(node)
    semi = "" if getattr(node, "show", True) else " ;"
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
        return f"({node.op} {dump(node.operand)})"
    if t is Binary:
        return f"({node.op} {dump(node.left)} {dump(node.right)})"
    if t is Range:
        step = "" if node.step is None else " " + dump(node.step)
        return f"(: {dump(node.start)}{step} {dump(node.stop)})"
    if t is Index:
        head = "{}" if node.braces else "()"
        return f"({head} {dump(node.base)}" + "".join(" " + dump(a) for a in node.args) + ")"
    if t is Field:
        return f"(. {dump(node.base)} {node.name})"
    if t is DynField:
        return f"(.() {dump(node.base)} {dump(node.name)})"
    if t is NamedArg:
        return f"(= {node.name} {dump(node.value)})"
    if t is FuncHandle:
        return "@" + node.name
    if t is Paren:
        return f"(paren {dump(node.expr)})"
    if t is Lambda:
        params = " ".join("~" if p is None else p for p in node.params)
        return f"(@ ({params}) {dump(node.body)})"
    if t is Matrix or t is Cell:
        rows = "".join(" (" + " ".join(dump(e) for e in row) + ")" for row in node.rows)
        return f"({'matrix' if t is Matrix else 'cell'}{rows})"
    if t is ExprStmt:
        return f"(expr {dump(node.expr)}{semi})"
    if t is Assign:
        return f"(assign {dump(node.target)} {dump(node.value)}{semi})"
    if t is MultiAssign:
        targets = " ".join(dump(x) for x in node.targets)
        return f"(assign [{targets}] {dump(node.value)}{semi})"
    if t is Command:
        return f"(command {node.name}" + "".join(" " + _quote(a, "'") for a in node.args) + f"{semi})"
    if t is If:
        clauses = "".join(f" ({dump(c)}{_body(b)})" for c, b in node.clauses)
        orelse = "" if node.orelse is None else f" (else{_body(node.orelse)})"
        return f"(if{clauses}{orelse})"
    if t is For:
        kw = "parfor" if node.parallel else "for"
        workers = "" if node.workers is None else f" (workers {dump(node.workers)})"
        return f"({kw} {dump(node.var)} {dump(node.iterable)}{workers}{_body(node.body)})"
    if t is While:
        return f"(while {dump(node.cond)}{_body(node.body)})"
    if t is Switch:
        cases = "".join(f" (case {dump(v)}{_body(b)})" for v, b in node.cases)
        other = "" if node.otherwise is None else f" (otherwise{_body(node.otherwise)})"
        return f"(switch {dump(node.subject)}{cases}{other})"
    if t is Try:
        catch = ""
        if node.catch_body is not None:
            var = "" if node.catch_var is None else " " + node.catch_var
            catch = f" (catch{var}{_body(node.catch_body)})"
        return f"(try ({_body(node.body).strip()}){catch})"
    if t is Break or t is Continue or t is Return:
        return f"({t.__name__.lower()})"
    if t is Global or t is Persistent:
        return f"({t.__name__.lower()} {' '.join(node.names)})"
    if t is ArgumentSpec:
        parts = [".".join(node.name)]
        if node.size is not None:
            parts.append("(size " + " ".join(dump(d) for d in node.size) + ")")
        if node.cls is not None:
            parts.append(f"(class {node.cls})")
        if node.validators:
            parts.append("(validators " + " ".join(dump(v) for v in node.validators) + ")")
        if node.default is not None:
            parts.append(f"(default {dump(node.default)})")
        return "(" + " ".join(parts) + ")"
    if t is ArgumentsBlock:
        attrs = "".join(f" {a}" for a in node.attributes)
        return f"(arguments{attrs}" + "".join(" " + dump(s) for s in node.specs) + ")"
    if t is Function:
        params = ["~" if p is None else p for p in node.params]
        head = f"(function {node.name} {_words('in', params)} {_words('out', node.outputs)}"
        args = "".join(" " + dump(a) for a in node.arguments)
        nested = "".join(" " + dump(f) for f in node.functions)
        return f"{head}{args}{_body(node.body)}{nested})"
    if t is Program:
        kind = "script" if node.is_script else "functions"
        return f"({kind}{_body(node.body)}" + "".join(" " + dump(f) for f in node.functions) + ")"
    raise TypeError(f"dump: unknown node {t.__name__}")
