"""AST to MATLAB source: the inverse of the parser.

``unparse(node)`` writes any node back as MATLAB text such that parsing the
text again gives an equal tree (positions aside): ``parse(unparse(p)) == p``
for every tree the parser produces.

* Parentheses appear only where precedence or associativity needs them (and
  around every ``Paren`` node, which stands for parentheses in the source).
* Elements of ``[]``/``{}`` are always separated by ``, `` and rows by ``; ``,
  and binary operators are written with a space on each side, so no rule
  about whitespace inside brackets or command syntax can change the meaning.
* Nested blocks are indented by four spaces.
"""

from __future__ import annotations

from mlang.syntax import ast
from mlang.syntax.ast import Node, Visitor, deep_recursion
from mlang.syntax.build import BINARY_POWER, POSTFIX_POWER, UNARY_POWER
from mlang.syntax.lexer import OPERATORS

INDENT = "    "

# Binding power of every expression node; operands that bind more loosely
# than their slot requires are parenthesised.
ATOM_POWER = 100  # literals, references, brackets
LAMBDA_POWER = 0  # a lambda's body runs to the end of the expression: never an operand
RANGE_POWER = BINARY_POWER["COLON"]
OP_POWER = {op: BINARY_POWER[kind] for op, kind in OPERATORS.items() if kind in BINARY_POWER}

INTEGER_SUFFIX = {
    f"{sign}int{bits}": ("s" if sign == "" else "u") + str(bits)
    for sign in ("", "u") for bits in (8, 16, 32, 64)
}


def unparse(node: Node) -> str:
    """MATLAB source for ``node``: an expression, a statement, a function or a whole program.

    Statements, functions and programs end with a newline; expressions do not.
    """
    with deep_recursion():
        if type(node) in ExpressionWriter.visitors:
            return expr(node)
        writer = _Writer()
        writer.visit(node)
    return "".join(line + "\n" for line in writer.lines)


# ---------------------------------------------------------------- expressions


class ExpressionWriter(Visitor):
    """Writes expressions as source text, spaced (``a + b``, ``[1, 2]``) or compact
    (``a+b``, ``[1,2]``: how func2str shows an anonymous function).

    Parentheses appear only where precedence or associativity needs them.
    """

    def __init__(self, compact: bool = False) -> None:
        self.op = "{}" if compact else " {} "
        self.sep = "," if compact else ", "
        self.row_sep = ";" if compact else "; "
        self.after_params = "" if compact else " "

    def expr(self, node: Node, power: int = 0) -> str:
        """``node`` where the parser reads an operand binding at least as tightly as ``power``.

        ``power`` is 0 where a whole expression stands (an argument, an element, a
        right-hand side).  A slot with a higher ``power`` is either the left operand
        of an operator of that power or the operand of a transpose.
        """
        text = self.visit(node)
        return f"({text})" if _power(node) < power else text

    def operand(self, node: Node, power: int) -> str:
        """``node`` right after an operator, where the parser also accepts prefix operators.

        A unary operator is always allowed there (``a ^ -b``); only its own operand
        must then bind tightly enough (``a ^ -(b ^ c)``).
        """
        if type(node) is ast.Unary:
            return self.unary(node, power)
        return self.expr(node, power)

    # one method per expression node ---------------------------------------

    def visit_Number(self, node: ast.Number) -> str:
        return _number(node)

    def visit_Char(self, node: ast.Char) -> str:
        return _quote(node.value, "'")

    def visit_String(self, node: ast.String) -> str:
        return _quote(node.value, '"')

    def visit_Name(self, node: ast.Name) -> str:
        return node.name

    def visit_Colon(self, node: ast.Colon) -> str:
        return ":"

    def visit_End(self, node: ast.End) -> str:
        return "end"

    def visit_Tilde(self, node: ast.Tilde) -> str:
        return "~"

    def visit_Unary(self, node: ast.Unary) -> str:
        return self.unary(node, 0)

    def visit_Binary(self, node: ast.Binary) -> str:
        power = OP_POWER[node.op]  # left-associative: an equal right operand needs parens
        return (self.expr(node.left, power) + self.op.format(node.op)
                + self.operand(node.right, power + 1))

    def visit_Range(self, node: ast.Range) -> str:
        # Operands that are ranges need parentheses: a:b:c is one range with a step.
        parts = [self.expr(node.start, RANGE_POWER + 1)]
        if node.step is not None:
            parts.append(self.operand(node.step, RANGE_POWER + 1))
        parts.append(self.operand(node.stop, RANGE_POWER + 1))
        return ":".join(parts)

    def visit_Postfix(self, node: ast.Postfix) -> str:
        text = self.expr(node.operand, POSTFIX_POWER)
        if _glues_to_quote(node.operand, text):
            text = f"({text})"
        return text + node.op

    def visit_Index(self, node: ast.Index) -> str:
        opener, closer = "{}" if node.braces else "()"
        return self.expr(node.base, ATOM_POWER) + opener + self.list(node.args) + closer

    def visit_Field(self, node: ast.Field) -> str:
        return f"{self.expr(node.base, ATOM_POWER)}.{node.name}"

    def visit_DynField(self, node: ast.DynField) -> str:
        return f"{self.expr(node.base, ATOM_POWER)}.({self.expr(node.name)})"

    def visit_NamedArg(self, node: ast.NamedArg) -> str:
        return f"{node.name}={self.expr(node.value)}"

    def visit_FuncHandle(self, node: ast.FuncHandle) -> str:
        return "@" + node.name

    def visit_Lambda(self, node: ast.Lambda) -> str:
        return f"@({self.params(node.params)}){self.after_params}{self.expr(node.body)}"

    def visit_Paren(self, node: ast.Paren) -> str:
        return f"({self.expr(node.expr)})"

    def visit_Matrix(self, node: ast.Matrix) -> str:
        return f"[{self.rows(node.rows)}]"

    def visit_Cell(self, node: ast.Cell) -> str:
        return f"{{{self.rows(node.rows)}}}"

    # parts ----------------------------------------------------------------

    def unary(self, node: ast.Unary, power: int) -> str:
        # The parser reads the operand of a prefix operator at unary power or the
        # slot's own power, whichever is higher: 2^-2^2 is (2^(-2))^2.
        return node.op + self.operand(node.operand, max(UNARY_POWER, power))

    def rows(self, rows: list[list[Node]]) -> str:
        return self.row_sep.join(self.list(row) for row in rows)

    def list(self, items: list[Node]) -> str:
        return self.sep.join(self.expr(item) for item in items)

    def params(self, params: list[str | None]) -> str:
        return self.sep.join("~" if p is None else p for p in params)


def _power(node: Node) -> int:
    t = type(node)
    if t is ast.Binary:
        return OP_POWER[node.op]
    if t is ast.SumRun:  # (a chain of + and -)
        return OP_POWER["+"]
    if t is ast.Range:
        return RANGE_POWER
    if t is ast.Postfix:
        return POSTFIX_POWER
    if t is ast.Unary:  # as a left operand: (-a)^b and (-a)', since -a^b is -(a^b)
        return UNARY_POWER
    if t is ast.Lambda:
        return LAMBDA_POWER
    return ATOM_POWER


def _glues_to_quote(operand: Node, text: str) -> bool:
    """Would a transpose right after ``text`` be read as part of its last literal?

    ``'abc''`` continues the char literal (an escaped quote) and ``1.'`` reads
    as ``1 .'``; both need parentheses before the transpose.
    """
    if text.endswith("."):
        return True
    if not text.endswith("'"):
        return False
    while True:
        t = type(operand)
        if t is ast.Unary:
            operand = operand.operand
        elif t is ast.Binary:
            operand = operand.right
        elif t is ast.Range:
            operand = operand.stop
        else:
            return t is ast.Char


def _number(node: ast.Number) -> str:
    if node.text:
        return node.text
    value = node.value
    if node.cls != "double":
        return _integer_literal(int(value), node.cls)
    if isinstance(value, complex):
        if value.real != 0:
            raise ValueError(f"unparse: a numeric literal cannot be complex with a real part: {value!r}")
        return _real(value.imag) + "i"
    return _real(value)


def _real(value: float) -> str:
    if value != value or value < 0:
        raise ValueError(f"unparse: no numeric literal has the value {value!r}")
    if value == float("inf"):
        return "1e999"
    return repr(value)


def _integer_literal(value: int, cls: str) -> str:
    """A hexadecimal literal of an integer class: uint8 31 is 0x1Fu8, int8 -1 is 0xFFs8."""
    suffix = INTEGER_SUFFIX.get(cls)
    if suffix is None:
        raise ValueError(f"unparse: no numeric literal has the class {cls!r}")
    bits = int(suffix[1:])
    return f"0x{value % 2 ** bits:X}{suffix}"


def _quote(text: str, quote: str) -> str:
    return quote + text.replace(quote, quote * 2) + quote


_SPACED = ExpressionWriter()
COMPACT = ExpressionWriter(compact=True)
expr = _SPACED.expr
_list = _SPACED.list
_params = _SPACED.params


# ----------------------------------------------------------------- statements


def _end(show: bool) -> str:
    return "" if show else ";"


def _argument_spec(spec: ast.ArgumentSpec) -> str:
    text = ".".join(spec.name)
    if spec.size is not None:
        text += " (" + ",".join(expr(d) for d in spec.size) + ")"
    if spec.cls is not None:
        text += " " + spec.cls
    if spec.validators:
        text += " {" + _list(spec.validators) + "}"
    if spec.default is not None:
        text += " = " + expr(spec.default)
    return text


class _Writer(Visitor):
    """Collects indented source lines for statements, functions and programs."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append(INDENT * self.depth + text)

    def block(self, stmts: list[Node]) -> None:
        self.depth += 1
        for stmt in stmts:
            self.visit(stmt)
        self.depth -= 1

    def visit_Program(self, node: ast.Program) -> None:
        for stmt in node.body:
            self.visit(stmt)
        for fn in node.functions:
            if self.lines:
                self.lines.append("")
            self.visit_Function(fn)

    # ------------------------------------------------------------- simple

    def visit_ExprStmt(self, node: ast.ExprStmt) -> None:
        self.line(expr(node.expr) + _end(node.show))

    def visit_Assign(self, node: ast.Assign) -> None:
        self.line(f"{expr(node.target)} = {expr(node.value)}{_end(node.show)}")

    def visit_MultiAssign(self, node: ast.MultiAssign) -> None:
        self.line(f"[{_list(node.targets)}] = {expr(node.value)}{_end(node.show)}")

    def visit_Command(self, node: ast.Command) -> None:
        if node.name == "!":  # a shell escape: the rest of its line as it is
            self.line("!" + "".join(node.args))
            return
        args = "".join(" " + _quote(arg, "'") for arg in node.args)
        self.line(f"{node.name}{args}{_end(node.show)}")

    def visit_Break(self, node: ast.Break | ast.Continue | ast.Return) -> None:
        self.line(type(node).__name__.lower())

    visit_Continue = visit_Return = visit_Break

    def visit_Global(self, node: ast.Global | ast.Persistent) -> None:
        self.line(" ".join([type(node).__name__.lower(), *node.names]))

    visit_Persistent = visit_Global

    # ------------------------------------------------------------- blocks

    def visit_If(self, node: ast.If) -> None:
        for i, (cond, body) in enumerate(node.clauses):
            self.line(("if " if i == 0 else "elseif ") + expr(cond))
            self.block(body)
        if node.orelse is not None:
            self.line("else")
            self.block(node.orelse)
        self.line("end")

    def visit_For(self, node: ast.For) -> None:
        head = f"{expr(node.var)} = {expr(node.iterable)}"
        if node.workers is not None:
            head = f"({head}, {expr(node.workers)})"
        self.line(("parfor " if node.parallel else "for ") + head)
        self.block(node.body)
        self.line("end")

    def visit_While(self, node: ast.While) -> None:
        self.line("while " + expr(node.cond))
        self.block(node.body)
        self.line("end")

    def visit_Switch(self, node: ast.Switch) -> None:
        self.line("switch " + expr(node.subject))
        self.depth += 1
        for value, body in node.cases:
            self.line("case " + expr(value))
            self.block(body)
        if node.otherwise is not None:
            self.line("otherwise")
            self.block(node.otherwise)
        self.depth -= 1
        self.line("end")

    def visit_Try(self, node: ast.Try) -> None:
        self.line("try")
        self.block(node.body)
        if node.catch_body is not None:
            self.line("catch" if node.catch_var is None else "catch " + node.catch_var)
            self.block(node.catch_body)
        self.line("end")

    # ---------------------------------------------------------- functions

    def visit_Function(self, node: ast.Function) -> None:
        outputs = ""
        if len(node.outputs) == 1:
            outputs = node.outputs[0] + " = "
        elif node.outputs:
            outputs = "[" + ", ".join(node.outputs) + "] = "
        params = f"({_params(node.params)})" if node.params else ""
        self.line(f"function {outputs}{node.name}{params}")
        self.depth += 1
        for block in node.arguments:
            self.visit_ArgumentsBlock(block)
        for stmt in node.body:
            self.visit(stmt)
        for nested in node.functions:
            self.visit_Function(nested)
        self.depth -= 1
        if node.has_end:
            self.line("end")

    def visit_ArgumentsBlock(self, node: ast.ArgumentsBlock) -> None:
        attributes = f" ({', '.join(node.attributes)})" if node.attributes else ""
        self.line("arguments" + attributes)
        self.depth += 1
        for spec in node.specs:
            self.visit_ArgumentSpec(spec)
        self.depth -= 1
        self.line("end")

    def visit_ArgumentSpec(self, node: ast.ArgumentSpec) -> None:
        self.line(_argument_spec(node))
