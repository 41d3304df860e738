"""Parse tree to AST: the callbacks the parser calls on each reduction.

The builder runs inline with the LALR parser (no intermediate tree), takes
positions from tokens, applies MATLAB operator precedence to the flat
operator sequences of the grammar, and makes the checks the grammar leaves
to it (indexing chains, name=value arguments, what may follow a function).
"""

from __future__ import annotations

from mlang.errors import NESTING_LIMIT, MatlabSyntaxError, nesting_too_deep
from mlang.syntax import ast
from mlang.syntax.ast import Node
from mlang.syntax.literals import number_value
from mlang.syntax.operand_runs import SUM_RUN_KIND, sum_run_node
from mlang.syntax.tokens import Token

# Binding power of binary operators, loosest first (MATLAB's precedence table).
BINARY_POWER = {
    "OROR": 1, "ANDAND": 2, "OR": 3, "AND": 4,
    "EQ": 5, "NE": 5, "LT": 5, "LE": 5, "GT": 5, "GE": 5,
    "COLON": 6,
    "PLUS": 7, "MINUS": 7,
    "STAR": 8, "SLASH": 8, "BACKSLASH": 8, "DOTSTAR": 8, "DOTSLASH": 8, "DOTBACKSLASH": 8,
    "CARET": 10, "DOTCARET": 10,
}
BINARY_AT_ONCE = frozenset(BINARY_POWER) - {"COLON"}  # (a:b is a Range)
# The pairs of + and - a SUM_RUN token stands for (see operand_runs) bind as + does
_CLIMB_POWER = {**BINARY_POWER, SUM_RUN_KIND: BINARY_POWER["PLUS"]}
UNARY_POWER = 9  # between multiplication and power: -a^b is -(a^b), -a*b is (-a)*b
POSTFIX_POWER = 10  # transposes share power's level and associate left: a^b' is (a^b)'
POSTFIX = {"TRANSPOSE": "'", "DOTTRANSPOSE": ".'"}

_NOT_PLAIN_DECIMAL = frozenset("ijIJ")  # last characters of imaginary literals
_INTEGER_PREFIXES = frozenset({"0x", "0X", "0b", "0B"})

REFERENCES = (ast.Name, ast.Index, ast.Field, ast.DynField)

new_node = object.__new__


class Splice:
    """Children of a grammar helper rule, spliced into the parent by the parser."""

    __slots__ = ("children",)

    def __init__(self, children: list) -> None:
        self.children = children


def _nodes(children: list) -> list:
    return [c for c in children if type(c) is not Token]


class Builder:
    """The method of each grammar rule, called on its reduction with the rule's children;
    ``file`` is set by the parser before each parse."""

    def __init__(self) -> None:
        self.file = ""
        self.lambda_depths: dict[int, int] = {}  # id of a Lambda -> how many it nests; per parse
        self.matrices: list[ast.NumericMatrix] = []  # nodes of the MATRIX_LITERAL tokens; per parse
        self.next_matrix = 0

    def __default__(self, data: str, children: list, meta: object) -> Splice:
        return Splice(children)  # only inlined helper rules (``_x``, generated ``x*``) get here

    def error(self, message: str, line: int, col: int) -> MatlabSyntaxError:
        return MatlabSyntaxError(message, self.file, line, col)

    # ------------------------------------------------------------ program

    def start(self, c: list) -> ast.Program:
        items = c[0]
        is_script = not items or type(items[0]) is not ast.Function
        body: list = []
        functions: list[ast.Function] = []
        for item in items:
            if type(item) is ast.Function:
                functions.append(item)
            elif type(item) is ast.ArgumentsBlock:
                raise self.error("An arguments block is only allowed at the top of a function.",
                                 item.line, item.col)
            elif functions and not is_script:
                # (a script's local functions may stand anywhere in it, since R2024a)
                raise self.error(
                    "This statement is not inside any function. (It follows the END that "
                    f'terminates the definition of the function "{functions[-1].name}".)',
                    item.line, item.col)
            else:
                body.append(item)
        return ast.Program(body, functions, is_script, line=1, col=1, file=self.file)

    def body(self, c: list) -> list:
        return [x for x in c if type(x) is not Token]

    # --------------------------------------------------------- statements

    def expr_stmt(self, c: list) -> ast.ExprStmt:
        e = c[0]
        return ast.ExprStmt(e, c[1].type != "SEMI", line=e.line, col=e.col, file=self.file)

    def assign(self, c: list) -> ast.Assign:
        t = c[0]
        return ast.Assign(t, c[2], c[3].type != "SEMI", line=t.line, col=t.col, file=self.file)

    def multi_assign(self, c: list) -> ast.MultiAssign:
        tok = c[0]
        targets = _nodes(c[1:-3])
        return ast.MultiAssign(targets, c[-2], c[-1].type != "SEMI",
                               line=tok.line, col=tok.column, file=self.file)

    def tilde(self, c: list) -> ast.Tilde:
        return ast.Tilde(line=c[0].line, col=c[0].column, file=self.file)

    def command(self, c: list) -> ast.Command:
        tok = c[0]
        args = [str(a) for a in c[1:-1]]
        return ast.Command(str(tok), args, c[-1].type != "SEMI",
                           line=tok.line, col=tok.column, file=self.file)

    def if_stmt(self, c: list) -> ast.If:
        tok = c[0]
        clauses = [(c[1], c[2])]
        orelse = None
        for clause in c[3:-1]:
            if clause[0] == "else":
                orelse = clause[1]
            else:
                clauses.append(clause)
        return ast.If(clauses, orelse, line=tok.line, col=tok.column, file=self.file)

    def elseif_clause(self, c: list) -> tuple:
        return (c[1], c[2])

    def else_clause(self, c: list) -> tuple:
        return ("else", c[1])

    def for_stmt(self, c: list) -> ast.For:
        tok = c[0]
        var_tok = next(x for x in c if type(x) is Token and x.type == "NAME")
        exprs = [x for x in c[1:-2] if isinstance(x, Node)]
        workers = exprs[1] if len(exprs) > 1 else None
        parallel = tok.type == "PARFOR"
        if workers is not None and not parallel:
            raise self.error("A for loop takes no second expression in its header.",
                             workers.line, workers.col)
        var = ast.Name(str(var_tok), line=var_tok.line, col=var_tok.column, file=self.file)
        return ast.For(var, exprs[0], c[-2], parallel, workers,
                       line=tok.line, col=tok.column, file=self.file)

    def while_stmt(self, c: list) -> ast.While:
        tok = c[0]
        return ast.While(c[1], c[2], line=tok.line, col=tok.column, file=self.file)

    def switch_stmt(self, c: list) -> ast.Switch:
        tok = c[0]
        cases = []
        otherwise = None
        for clause in c[2:-1]:
            if type(clause) is Token:
                continue
            if clause[0] == "otherwise":
                otherwise = clause[1]
            else:
                cases.append(clause)
        return ast.Switch(c[1], cases, otherwise, line=tok.line, col=tok.column, file=self.file)

    def case_clause(self, c: list) -> tuple:
        return (c[1], c[2])

    def otherwise_clause(self, c: list) -> tuple:
        return ("otherwise", c[1])

    def try_stmt(self, c: list) -> ast.Try:
        tok = c[0]
        catch_var, catch_body = (c[2] if len(c) == 4 else (None, None))
        return ast.Try(c[1], catch_var, catch_body, line=tok.line, col=tok.column, file=self.file)

    def catch_clause(self, c: list) -> tuple:
        if len(c) == 3:
            return (str(c[1]), c[2])
        return (None, c[1])

    def _simple(self, cls: type, c: list) -> Node:
        return cls(line=c[0].line, col=c[0].column, file=self.file)

    def break_stmt(self, c: list) -> ast.Break:
        return self._simple(ast.Break, c)

    def continue_stmt(self, c: list) -> ast.Continue:
        return self._simple(ast.Continue, c)


    def return_stmt(self, c: list) -> ast.Return:
        return self._simple(ast.Return, c)

    def global_stmt(self, c: list) -> ast.Global:
        return ast.Global([str(t) for t in c[1:-1]], line=c[0].line, col=c[0].column, file=self.file)

    def persistent_stmt(self, c: list) -> ast.Persistent:
        return ast.Persistent([str(t) for t in c[1:-1]],
                              line=c[0].line, col=c[0].column, file=self.file)

    # ---------------------------------------------------------- functions

    def function_def(self, c: list) -> ast.Function:
        tok = c[0]
        outputs: list[str] = []
        params: list[str | None] = []
        name = ""
        for item in c[1:-2]:
            if type(item) is Token:
                name = str(item)
            elif item[0] == "out":
                outputs = item[1]
            else:
                params = item[1]
        statements: list = []
        nested: list[ast.Function] = []
        arguments: list[ast.ArgumentsBlock] = []
        for item in c[-2]:
            t = type(item)
            if t is ast.Function:
                nested.append(item)
            elif t is ast.ArgumentsBlock:
                arguments.append(item)
            else:
                statements.append(item)
        return ast.Function(name, params, outputs, statements, nested, arguments,
                            c[-1] != "", line=tok.line, col=tok.column, file=self.file)

    def fn_outputs(self, c: list) -> tuple:
        return ("out", [str(t) for t in c if t.type == "NAME"])

    def fn_params(self, c: list) -> tuple:
        return ("in", [None if type(p) is ast.Tilde else str(p) for p in c[1:-1]
                       if type(p) is not Token or p.type == "NAME"])

    def arguments_block(self, c: list) -> ast.ArgumentsBlock:
        tok = c[0]
        attributes = [str(t) for t in c[1:] if type(t) is Token and t.type == "NAME"]
        specs = [x for x in c if type(x) is ast.ArgumentSpec]
        return ast.ArgumentsBlock(attributes, specs, line=tok.line, col=tok.column, file=self.file)

    def arg_spec(self, c: list) -> ast.ArgumentSpec:
        first = c[0]
        spec = ast.ArgumentSpec(first[1], line=first[2].line, col=first[2].column, file=self.file)
        for part in c[1:-1]:
            if type(part) is ast.Cell:
                spec.validators = [e for row in part.rows for e in row]
            elif part[0] == "size":
                spec.size = part[1]
            elif part[0] == "class":
                spec.cls = part[1]
            else:
                spec.default = part[1]
        return spec

    def arg_name(self, c: list) -> tuple:
        return ("name", [str(t) for t in c if t.type == "NAME"], c[0])

    def arg_size(self, c: list) -> tuple:
        dims = []
        for t in c[1:-1]:
            if type(t) is Token and t.type == "NUMBER":
                dims.append(self.number([t]))
            elif type(t) is not Token:
                dims.append(t)
        return ("size", dims)

    def arg_class(self, c: list) -> tuple:
        return ("class", ".".join(str(t) for t in c if t.type == "NAME"))

    def arg_default(self, c: list) -> tuple:
        return ("default", c[1])

    # -------------------------------------------------------- expressions

    def opseq(self, c: list) -> Node:
        if len(c) == 1:
            return c[0]
        if len(c) == 3:  # a op b, as _climb makes it
            left, tok, right = c
            if type(left) is not Token and type(right) is not Token and tok.type in BINARY_AT_ONCE:
                return ast.Binary(tok.value, left, right, line=left.line, col=left.col, file=self.file)
        return self._climb(c)

    def _climb(self, items: list) -> Node:
        """Precedence climbing over [unary* operand (binop unary* operand | postfix)*].

        Iterative, with an explicit stack of pending operators, so that thousands of
        operators in one expression need no deep Python recursion.  A pending entry is
        [kind, binding, token, left, step]: kind 'u' (prefix), 'b' (binary), ':1' (a
        range with its first colon) or ':2' (a range with both); an incoming operator
        of power p completes every entry whose binding exceeds p.
        """
        file = self.file
        binary = ast.Binary
        climb_power = _CLIMB_POWER
        stack: list[list] = []
        pos = 0
        n = len(items)
        while True:
            item = items[pos]
            while type(item) is Token:  # prefix operators bind their operand at UNARY_POWER
                outer = stack[-1][1] if stack else 0
                stack.append(["u", max(UNARY_POWER, outer), item, None, None])
                pos += 1
                item = items[pos]
            operand = item
            pos += 1
            while True:
                if pos == n:
                    for entry in reversed(stack):
                        operand = self._complete(entry, operand)
                    return operand
                tok = items[pos]
                kind = tok.type
                postfix = POSTFIX.get(kind)
                power = POSTFIX_POWER if postfix is not None else climb_power[kind]
                second_colon = False
                while stack and power < stack[-1][1]:
                    top = stack[-1]
                    if kind == "COLON" and top[0] == ":1":
                        top[0], top[4] = ":2", operand  # a:b then :c makes the range a:b:c
                        second_colon = True
                        break
                    stack.pop()
                    if top[0] == "b":  # the common case inline (see _complete)
                        left = top[3]
                        operand = binary(top[2].value, left, operand, line=left.line, col=left.col,
                                         file=file)
                    else:
                        operand = self._complete(top, operand)
                pos += 1
                if second_colon:
                    break
                if kind == SUM_RUN_KIND:  # the run's pairs (but its last) on the operand at once
                    operand = sum_run_node(operand, tok)
                    continue
                if postfix is not None:
                    operand = ast.Postfix(postfix, operand, line=operand.line, col=operand.col,
                                          file=file)
                    continue
                if kind != "COLON":
                    right = items[pos]
                    after = pos + 1
                    following = 0  # the power of the operator after ``right`` (0: none)
                    if type(right) is not Token and (
                            after == n or (following := climb_power.get(items[after].type, 99)) <= power):
                        # the next operator binds no tighter: this one completes at once, and so
                        # does each next one of the same power, as in 1+2-3+...: a left-deep chain
                        # (the fields Binary.__init__ sets, without the class call's cost)
                        line, col = operand.line, operand.col
                        while True:
                            node = new_node(binary)
                            node.op = tok.value
                            node.left = operand
                            node.right = right
                            node.line = line
                            node.col = col
                            node.file = file
                            operand = node
                            pos = after
                            if following != power:  # the end, or a looser operator
                                break
                            tok = items[pos]
                            right = items[pos + 1]
                            if type(right) is Token:
                                break
                            after = pos + 2
                            if after == n:
                                following = 0
                            elif items[after] is not tok:  # (a run's pairs share their operator)
                                following = climb_power.get(items[after].type, 99)
                                if following > power:
                                    break
                        continue
                stack.append([":1" if kind == "COLON" else "b", power + 1, tok, operand, None])
                break

    def _complete(self, entry: list, operand: Node) -> Node:
        """The node of a pending operator (see ``_climb``) given its last operand."""
        kind, _, tok, left, step = entry
        file = self.file
        if kind == "u":
            return ast.Unary(tok.value, operand, line=tok.line, col=tok.column, file=file)
        if kind == "b":
            return ast.Binary(tok.value, left, operand, line=left.line, col=left.col, file=file)
        if kind == ":1":
            return ast.Range(left, None, operand, line=left.line, col=left.col, file=file)
        return ast.Range(left, step, operand, line=left.line, col=left.col, file=file)

    def lambda_(self, c: list) -> ast.Lambda:
        tok = c[0]
        params = [None if type(p) is ast.Tilde else str(p) for p in c[2:-2]
                  if type(p) is not Token or p.type == "NAME"]
        body = c[-1]
        node = ast.Lambda(params, body, line=tok.line, col=tok.column, file=self.file)
        if type(body) is ast.Lambda:  # @() @() ...: nesting that no bracket counts
            depth = self.lambda_depths.pop(id(body), 1) + 1
            if depth >= NESTING_LIMIT:
                raise self.error(nesting_too_deep(), tok.line, tok.column)
            self.lambda_depths[id(node)] = depth
        return node

    def ref(self, c: list) -> Node:
        tok = c[0]
        file = self.file
        node = ast.Name(tok.value, line=tok.line, col=tok.column, file=file)
        after_paren = False
        for kind, arg, where in c[1:]:
            if after_paren and kind in ("()", "{}"):
                raise self.error(
                    "Indexing with parentheses '()' must appear as the last operation of a "
                    "valid indexing expression.", where.line, where.column)
            if kind == "()":
                node = ast.Index(node, arg, False, line=tok.line, col=tok.column, file=file)
            elif kind == "{}":
                node = ast.Index(node, arg, True, line=tok.line, col=tok.column, file=file)
            elif kind == ".":
                node = ast.Field(node, arg, line=tok.line, col=tok.column, file=file)
            else:
                node = ast.DynField(node, arg, line=tok.line, col=tok.column, file=file)
            after_paren = kind == "()"
        return node

    def paren_args(self, c: list) -> tuple:
        args = _nodes(c[1:-1])
        seen_named = False
        for a in args:
            if type(a) is ast.NamedArg:
                seen_named = True
            elif seen_named:
                raise self.error("Name-value arguments must come after all other arguments.",
                                 a.line, a.col)
        return ("()", args, c[0])

    def brace_args(self, c: list) -> tuple:
        args = _nodes(c[1:-1])
        for a in args:
            if type(a) is ast.NamedArg:
                raise self.error(
                    "Name=value syntax is only allowed in function calls.", a.line, a.col)
        return ("{}", args, c[0])

    def field(self, c: list) -> tuple:
        return (".", c[1].value, c[0])

    def dyn_field(self, c: list) -> tuple:
        return (".()", c[2], c[0])

    def colon_arg(self, c: list) -> ast.Colon:
        return ast.Colon(line=c[0].line, col=c[0].column, file=self.file)

    def named_arg(self, c: list) -> ast.NamedArg:
        tok = c[0]
        return ast.NamedArg(tok.value, c[2], line=tok.line, col=tok.column, file=self.file)

    def number(self, c: list) -> ast.Number:
        tok = c[0]
        text = tok.value
        if text[-1] in _NOT_PLAIN_DECIMAL or text[:2] in _INTEGER_PREFIXES:
            value, cls = number_value(text)
            return ast.Number(value, cls, text=text, line=tok.line, col=tok.column, file=self.file)
        # the common case inline (see number_value), with the fields Number.__init__ sets
        node = new_node(ast.Number)
        node.value = float(text)
        node.cls = "double"
        node.text = text
        node.line = tok.line
        node.col = tok.column
        node.file = self.file
        return node

    def char(self, c: list) -> ast.Char:
        tok = c[0]
        return ast.Char(tok.value, line=tok.line, col=tok.column, file=self.file)

    def string(self, c: list) -> ast.String:
        tok = c[0]
        return ast.String(tok.value, line=tok.line, col=tok.column, file=self.file)

    def end_val(self, c: list) -> ast.End:
        return ast.End(line=c[0].line, col=c[0].column, file=self.file)

    def paren(self, c: list) -> Node:
        inner = c[1]
        if isinstance(inner, REFERENCES):
            tok = c[0]
            return ast.Paren(inner, line=tok.line, col=tok.column, file=self.file)
        return inner

    def matrix(self, c: list) -> ast.Matrix:
        tok = c[0]
        return ast.Matrix(_nodes(c[1:-1]), line=tok.line, col=tok.column, file=self.file)

    def matrix_literal(self, c: list) -> ast.NumericMatrix:
        node = self.matrices[self.next_matrix]  # reductions come in the order of the tokens
        self.next_matrix += 1
        return node

    def cell(self, c: list) -> ast.Cell:
        tok = c[0]
        return ast.Cell(_nodes(c[1:-1]), line=tok.line, col=tok.column, file=self.file)

    def row(self, c: list) -> list:
        return _nodes(c)

    def handle(self, c: list) -> ast.FuncHandle:
        tok = c[0]
        name = ".".join(t.value for t in c[1:] if t.type == "NAME")
        return ast.FuncHandle(name, line=tok.line, col=tok.column, file=self.file)


# 'lambda' is a Python keyword: the parser looks the rule's callback up by name.
setattr(Builder, "lambda", Builder.lambda_)


def check_loop_exits(statements: list) -> None:
    """MATLAB rejects break and continue outside a for or while loop of the same body (the
    evaluator checks a body before running it, as MATLAB does when it reads the file)."""
    stack = [(statement, False) for statement in statements]
    while stack:  # an explicit stack: blocks may nest deeply
        node, in_loop = stack.pop()
        t = type(node)
        if not in_loop and t is ast.Break:
            raise MatlabSyntaxError("A BREAK statement appeared outside of a loop. Use RETURN "
                                    "instead.", node.file, node.line, node.col)
        if not in_loop and t is ast.Continue:
            raise MatlabSyntaxError("A CONTINUE may only be used within a FOR or WHILE loop.",
                                    node.file, node.line, node.col)
        inside = in_loop or t is ast.For or t is ast.While
        stack.extend((child, inside) for child in ast.children(node)
                     if type(child) in ast.STATEMENT_TYPES)


def check_persistent(function: ast.Function) -> None:
    """MATLAB rejects a use of a persistent variable before its declaration, and so an
    input or output argument declared persistent (the function line uses it)."""
    arguments = {*function.outputs, *function.params}
    declarations: dict[str, ast.Persistent] = {}
    for statement in function.body:
        for node in ast.walk(statement):
            if type(node) is ast.Persistent:
                for name in node.names:
                    if name in arguments:
                        raise _used_before(name, node)
                    declarations.setdefault(name, node)
    if not declarations:
        return
    for statement in function.body:
        for node in ast.walk(statement):
            declared = declarations.get(node.name) if type(node) is ast.Name else None
            if declared is not None and (node.line, node.col) < (declared.line, declared.col):
                raise _used_before(node.name, declared)


def _used_before(name: str, declaration: ast.Persistent) -> MatlabSyntaxError:
    return MatlabSyntaxError(f"The PERSISTENT declaration must precede any use of the variable "
                             f"{name}.", declaration.file, declaration.line, declaration.col)
