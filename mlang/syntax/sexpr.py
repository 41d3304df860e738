"""Trees shown as s-expressions: ``dump_tree`` (one line, for tests) and ``pretty_tree``
(folded to a width, for ``mlang --parse``); ``ast.dump`` and ``ast.pretty`` call these."""

from __future__ import annotations

from mlang.syntax import ast

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


def _semi(node: ast.Node) -> list[Sx]:
    return [] if node.show else [";"]  # type: ignore[attr-defined]


class SExpression(ast.Visitor):
    def all(self, nodes: list | None) -> list[Sx]:
        return [self.visit(n) for n in nodes or []]

    def visit_Number(self, node: ast.Number) -> Sx:
        return _num(node.value) + ("" if node.cls == "double" else ":" + node.cls)

    def visit_Char(self, node: ast.Char) -> Sx:
        return _quote(node.value, "'")

    def visit_String(self, node: ast.String) -> Sx:
        return _quote(node.value, '"')

    def visit_Name(self, node: ast.Name) -> Sx:
        return node.name

    def visit_Colon(self, node: ast.Colon) -> Sx:
        return ":"

    def visit_End(self, node: ast.End) -> Sx:
        return "end"

    def visit_Tilde(self, node: ast.Tilde) -> Sx:
        return "~"

    def visit_Unary(self, node: ast.Unary | ast.Postfix) -> Sx:
        return [node.op, self.visit(node.operand)]

    visit_Postfix = visit_Unary

    def visit_Binary(self, node: ast.Binary) -> Sx:
        return [node.op, self.visit(node.left), self.visit(node.right)]

    def visit_Range(self, node: ast.Range) -> Sx:
        step = [] if node.step is None else [self.visit(node.step)]
        return [":", self.visit(node.start), *step, self.visit(node.stop)]

    def visit_Index(self, node: ast.Index) -> Sx:
        return ["{}" if node.braces else "()", self.visit(node.base), *self.all(node.args)]

    def visit_Field(self, node: ast.Field) -> Sx:
        return [".", self.visit(node.base), node.name]

    def visit_DynField(self, node: ast.DynField) -> Sx:
        return [".()", self.visit(node.base), self.visit(node.name)]

    def visit_NamedArg(self, node: ast.NamedArg) -> Sx:
        return ["=", node.name, self.visit(node.value)]

    def visit_FuncHandle(self, node: ast.FuncHandle) -> Sx:
        return "@" + node.name

    def visit_Paren(self, node: ast.Paren) -> Sx:
        return ["paren", self.visit(node.expr)]

    def visit_Lambda(self, node: ast.Lambda) -> Sx:
        return ["@", ["~" if p is None else p for p in node.params], self.visit(node.body)]

    def visit_Matrix(self, node: ast.Matrix | ast.Cell) -> Sx:
        kind = "matrix" if type(node) is ast.Matrix else "cell"
        return [kind, *[self.all(row) for row in node.rows]]

    visit_Cell = visit_Matrix

    def visit_NumericMatrix(self, node: ast.NumericMatrix) -> Sx:
        return self.visit_Matrix(node.lower())

    def visit_SumRun(self, node: ast.SumRun) -> Sx:
        return self.visit_Binary(node.lower())

    def visit_ExprStmt(self, node: ast.ExprStmt) -> Sx:
        return ["expr", self.visit(node.expr), *_semi(node)]

    def visit_Assign(self, node: ast.Assign) -> Sx:
        return ["assign", self.visit(node.target), self.visit(node.value), *_semi(node)]

    def visit_MultiAssign(self, node: ast.MultiAssign) -> Sx:
        targets = "[" + " ".join(dump_tree(x) for x in node.targets) + "]"
        return ["assign", targets, self.visit(node.value), *_semi(node)]

    def visit_Command(self, node: ast.Command) -> Sx:
        return ["command", node.name, *[_quote(a, "'") for a in node.args], *_semi(node)]

    def visit_If(self, node: ast.If) -> Sx:
        clauses = [[self.visit(c), *self.all(b)] for c, b in node.clauses]
        orelse = [] if node.orelse is None else [["else", *self.all(node.orelse)]]
        return ["if", *clauses, *orelse]

    def visit_For(self, node: ast.For) -> Sx:
        workers = [] if node.workers is None else [["workers", self.visit(node.workers)]]
        keyword = "parfor" if node.parallel else "for"
        return [keyword, self.visit(node.var), self.visit(node.iterable), *workers,
                *self.all(node.body)]

    def visit_While(self, node: ast.While) -> Sx:
        return ["while", self.visit(node.cond), *self.all(node.body)]

    def visit_Switch(self, node: ast.Switch) -> Sx:
        cases = [["case", self.visit(v), *self.all(b)] for v, b in node.cases]
        other = [] if node.otherwise is None else [["otherwise", *self.all(node.otherwise)]]
        return ["switch", self.visit(node.subject), *cases, *other]

    def visit_Try(self, node: ast.Try) -> Sx:
        catch: list[Sx] = []
        if node.catch_body is not None:
            var = [] if node.catch_var is None else [node.catch_var]
            catch = [["catch", *var, *self.all(node.catch_body)]]
        return ["try", self.all(node.body), *catch]

    def visit_Break(self, node: ast.Break | ast.Continue | ast.Return) -> Sx:
        return [type(node).__name__.lower()]

    visit_Continue = visit_Return = visit_Break

    def visit_Global(self, node: ast.Global | ast.Persistent) -> Sx:
        return [type(node).__name__.lower(), *node.names]

    visit_Persistent = visit_Global

    def visit_ArgumentSpec(self, node: ast.ArgumentSpec) -> Sx:
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

    def visit_ArgumentsBlock(self, node: ast.ArgumentsBlock) -> Sx:
        return ["arguments", *node.attributes, *self.all(node.specs)]

    def visit_Function(self, node: ast.Function) -> Sx:
        params = ["~" if p is None else p for p in node.params]
        return ["function", node.name, ["in", *params], ["out", *node.outputs],
                *self.all(node.arguments), *self.all(node.body), *self.all(node.functions)]

    def visit_Program(self, node: ast.Program) -> Sx:
        return ["script" if node.is_script else "functions", *self.all(node.body),
                *self.all(node.functions)]


_S_EXPRESSION = SExpression()


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


def dump_tree(node: ast.Node) -> str:
    """A one-line s-expression of ``node``, for tests."""
    with ast.deep_recursion():
        return _flat(_S_EXPRESSION.visit(node))


MAX_INDENT = 60


def pretty_tree(node: ast.Node, width: int = 100) -> str:
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

    with ast.deep_recursion():
        fold(_S_EXPRESSION.visit(node), 0, "")
    return "\n".join(lines)
