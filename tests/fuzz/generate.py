"""Random MATLAB programs built as mlang syntax trees and printed with the unparser.

``ProgramGenerator(rng).program()`` returns an ``ast.Program``: statements of
every kind (assignments to names, indices, fields and cells, deletions,
multiple outputs, displays, command syntax, if/for/while/switch/try, break and
continue, global, eval), expressions of every kind (literals of each class,
operators, ranges, matrices, cells, indexing with ``end`` and ``:``, fields,
calls to the real builtins of the registry with random arguments, function
handles, anonymous functions, local functions) and dlarray code (``dlfeval``
of a local loss function that calls ``dlgradient``).

Most statements are wrapped in try/catch so that one MATLAB error does not
end the program before the rest of it has run.
"""

from __future__ import annotations

import math
import random

from mlang.registry import load_all
from mlang.syntax import ast
from mlang.syntax.unparse import unparse

# Builtins never called by generated code: they leave the scratch folder, write
# files, stop the process or wait for a person.
UNSAFE_BUILTINS = frozenset({
    "cd", "run", "print", "saveas", "exportgraphics", "exit", "quit", "input", "pause",
    "keyboard", "addpath", "rmpath", "clc", "beep", "doc", "more",
})

VARIABLES = ["a", "b", "c", "x", "y", "s", "m", "k", "z", "t"]
FIELDS = ["f", "g", "data", "name", "x1"]
BINARY_OPS = ["+", "-", "*", "/", "\\", "^", ".*", "./", ".\\", ".^", "==", "~=", "<", "<=",
              ">", ">=", "&", "|", "&&", "||"]
INTEGER_CLASSES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
# Plain numbers, mostly small; a few at the edges of double's range.
NUMBERS = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.5, 1.5, 10.0, 100.0, 0.1, 7.0]
EDGE_NUMBERS = [1e-300, 1e300, float("inf"), 2.0 ** 53, 2.0 ** 31, 255.0, 256.0, 1e6, 4.9e-324,
                1e15, 0.0]
TEXTS = ["", "a", "abc", "hello world", "x", "all", "omitnan", "double", "int8", "%d %s\\n",
         "%g", "f", "cell", "1 2 3", "é∑", "  pad  ", "rows", "stable", "descend", "like",
         "UniformOutput", "last", "first", "char", "%5.2f|"]
# Texts that builtins often take as options, for a more than random chance of being accepted.
OPTION_TEXTS = ["all", "omitnan", "includenan", "rows", "stable", "sorted", "descend", "ascend",
                "first", "last", "double", "single", "logical", "like", "UniformOutput",
                "ErrorHandler", "native", "default", "linear", "nearest", "legacy", "once"]
DIFFERENTIABLE_UNARY = ["sin", "cos", "exp", "tanh", "sigmoid", "relu", "abs", "sqrt", "log",
                        "gelu", "leakyrelu", "cumsum", "flip", "transpose", "sum", "mean",
                        "max", "min", "prod", "norm", "vecnorm", "squeeze", "erf", "softmax"]
COMMANDS = [("format", ["long"]), ("format", ["short"]), ("format", ["compact"]),
            ("format", ["loose"]), ("hold", ["on"]), ("hold", ["off"]), ("disp", ["hello"]),
            ("warning", ["off"]), ("warning", ["on"]), ("clear", ["x"]), ("close", ["all"]),
            ("grid", ["on"]), ("format", ["longG"]), ("who", ["x"]), ("clear", ["all"])]


def name(text: str) -> ast.Name:
    return ast.Name(text)


def call(function: str, *args: ast.Node) -> ast.Index:
    return ast.Index(ast.Name(function), list(args))


def number(value: float | complex, cls: str = "double") -> ast.Node:
    """A numeric literal; a negative value is written as unary minus on its magnitude."""
    if isinstance(value, float) and math.copysign(1.0, value) < 0:  # -0.0 too
        return ast.Unary("-", ast.Number(-value, cls))
    return ast.Number(value, cls)


class ProgramGenerator:
    """Builds random programs from ``rng``; the same seed gives the same program."""

    def __init__(self, rng: random.Random, max_depth: int = 4) -> None:
        self.rng = rng
        self.max_depth = max_depth
        registry = load_all()
        self.builtins = sorted(n for n in registry if n not in UNSAFE_BUILTINS and n.isidentifier())
        self.registry = registry
        self.multi_output = sorted(n for n in self.builtins
                                   if registry[n].max_out is None or registry[n].max_out >= 2)
        self.assigned: list[str] = []
        self.functions: list[tuple[str, int, int]] = []  # local functions: name, inputs, outputs
        self.loop_depth = 0
        self.counter = 0

    # ------------------------------------------------------------ programs

    def program(self) -> ast.Program:
        """A script: some statements, then local functions (ordinary ones and a dlarray loss)."""
        self.assigned = []
        functions = [self.local_function(f"fz_f{i}") for i in range(self.rng.randint(0, 2))]
        loss = self.loss_function() if self.rng.random() < 0.25 else None
        body = [self.statement(0) for _ in range(self.rng.randint(1, 10))]
        if loss is not None:
            body.insert(self.rng.randint(0, len(body)), self.wrapped(self.dlfeval_statement()))
            functions.append(loss)
        return ast.Program(body, functions)

    def program_text(self) -> tuple[ast.Program, str]:
        tree = self.program()
        return tree, unparse(tree)

    def local_function(self, fname: str) -> ast.Function:
        params = [f"p{i}" for i in range(self.rng.randint(0, 3))]
        outputs = [f"o{i}" for i in range(self.rng.randint(0, 2))]
        saved = self.assigned
        self.assigned = list(params)
        body = [self.statement(1) for _ in range(self.rng.randint(1, 4))]
        for out in outputs:
            if self.rng.random() < 0.9:  # now and then an output is left unset
                body.append(ast.Assign(name(out), self.expr(2), show=False))
        self.assigned = saved
        self.functions.append((fname, len(params), len(outputs)))
        return ast.Function(fname, list(params), outputs, body)

    def loss_function(self) -> ast.Function:
        """``[loss, grad] = fz_loss(w)``: a differentiable expression of ``w`` and its gradient."""
        w = name("w")
        value: ast.Node = w
        for _ in range(self.rng.randint(1, 4)):
            roll = self.rng.random()
            if roll < 0.5:
                value = call(self.rng.choice(DIFFERENTIABLE_UNARY), value)
            elif roll < 0.8:
                op = self.rng.choice(["+", "-", ".*", "*", "./", ".^"])
                other = self.rng.choice([w, number(self.rng.choice(NUMBERS)), self.matrix(1)])
                value = ast.Binary(op, value, other)
            else:  # a call's result cannot be indexed: index the input
                value = call(self.rng.choice(DIFFERENTIABLE_UNARY), ast.Index(w, [self.index_arg(3)]))
        body: list[ast.Node] = [
            ast.Assign(name("loss"), call("sum", value, ast.Char("all")), show=False),
            ast.Assign(name("grad"), call("dlgradient", name("loss"), w), show=False),
        ]
        if self.rng.random() < 0.3:
            body.insert(1, ast.Assign(name("loss"), call(self.rng.choice(["double", "extractdata",
                                                                         "stripdims"]),
                                                         name("loss")), show=False))
        return ast.Function("fz_loss", ["w"], ["loss", "grad"], body)

    def dlfeval_statement(self) -> ast.Node:
        data = self.rng.choice([self.matrix(1), call("rand", number(2.0), number(3.0)),
                                number(self.rng.choice(NUMBERS)), self.expr(2)])
        arg: ast.Node = call("dlarray", data)
        if self.rng.random() < 0.2:
            arg = call("dlarray", data, ast.Char(self.rng.choice(["SSCB", "CB", "SS", "B"])))
        target_a, target_b = self.fresh_target(), self.fresh_target()
        return ast.MultiAssign([target_a, target_b],
                               call("dlfeval", ast.FuncHandle("fz_loss"), arg),
                               show=self.rng.random() < 0.5)

    # ------------------------------------------------------------ statements

    def wrapped(self, stmt: ast.Node) -> ast.Node:
        """``stmt`` inside try/catch (usually), so that its error does not end the program."""
        if self.rng.random() < 0.2:
            return stmt
        catch = [] if self.rng.random() < 0.7 else [self.catch_use("err")]
        return ast.Try([stmt], "err" if catch else None, catch)

    def catch_use(self, var: str) -> ast.Node:
        what = self.rng.choice([ast.Field(name(var), "message"), ast.Field(name(var), "identifier"),
                                ast.Field(name(var), "stack"),
                                ast.Index(ast.Field(name(var), "getReport"), []),
                                call("getReport", name(var))])
        return ast.Assign(name("msg"), what, show=self.rng.random() < 0.3)

    def statement(self, depth: int) -> ast.Node:
        roll = self.rng.random()
        if depth >= self.max_depth - 1 or roll < 0.65:
            stmt = self.simple_statement(depth)
        else:
            stmt = self.compound_statement(depth)
        return self.wrapped(stmt) if depth == 0 else stmt

    def simple_statement(self, depth: int) -> ast.Node:
        show = self.rng.random() < 0.35
        kind = self.rng.choices(
            ["assign", "index", "field", "cell", "delete", "multi", "expr", "command", "eval",
             "grow", "global", "control"],
            weights=[24, 10, 7, 6, 3, 6, 10, 2, 2, 4, 1, 2 if self.loop_depth else 0])[0]
        if kind == "assign":
            value = self.expr(depth)
            return ast.Assign(self.fresh_target(), value, show=show)
        if kind == "index":
            base = self.some_variable()
            args = [self.index_arg(depth + 1) for _ in range(self.rng.randint(1, 3))]
            return ast.Assign(ast.Index(base, args), self.expr(depth + 1), show=show)
        if kind == "field":
            target: ast.Node = self.fresh_target()
            for _ in range(self.rng.randint(1, 3)):
                # x(i)(j) is not MATLAB: an index is followed by a field, never another index
                if type(target) is ast.Index or self.rng.random() < 0.85:
                    target = ast.Field(target, self.rng.choice(FIELDS))
                else:
                    target = ast.Index(target, [self.index_arg(depth + 1)])
            return ast.Assign(target, self.expr(depth + 1), show=show)
        if kind == "cell":
            base = self.some_variable()
            return ast.Assign(ast.Index(base, [self.index_arg(depth + 1)], braces=True),
                              self.expr(depth + 1), show=show)
        if kind == "delete":
            return ast.Assign(ast.Index(self.some_variable(), [self.index_arg(depth + 1)]),
                              ast.Matrix([]), show=show)
        if kind == "multi":
            fn = self.rng.choice(self.multi_output)
            targets = [self.rng.choice([self.fresh_target(), self.fresh_target(), ast.Tilde()])
                       for _ in range(self.rng.randint(2, 3))]
            if all(type(t) is ast.Tilde for t in targets):
                targets[0] = self.fresh_target()
            return ast.MultiAssign(targets, self.builtin_call(depth + 1, fn), show=show)
        if kind == "expr":
            return ast.ExprStmt(self.expr(depth), show=show)
        if kind == "command":
            cmd, args = self.rng.choice(COMMANDS)
            return ast.Command(cmd, list(args), show=show)
        if kind == "eval":
            inner = unparse(self.simple_statement(self.max_depth)).strip()
            return ast.ExprStmt(call("eval", ast.Char(inner)), show=show)
        if kind == "grow":
            target = ast.Index(self.some_variable(), [ast.Binary("+", ast.End(), number(1.0))],
                               braces=self.rng.random() < 0.3)
            return ast.Assign(target, self.expr(depth + 1), show=show)
        if kind == "global":
            return ast.Global([self.rng.choice(VARIABLES)])
        return self.rng.choice([ast.Break(), ast.Continue()])

    def compound_statement(self, depth: int) -> ast.Node:
        kind = self.rng.choice(["if", "for", "while", "switch", "try"])
        if kind == "if":
            clauses = [(self.condition(depth + 1), self.block(depth + 1))
                       for _ in range(self.rng.randint(1, 3))]
            orelse = self.block(depth + 1) if self.rng.random() < 0.5 else None
            return ast.If(clauses, orelse)
        if kind == "for":
            var = self.fresh_target()
            iterable = self.rng.choice([
                ast.Range(number(1.0), None, number(float(self.rng.randint(0, 6)))),
                ast.Range(number(float(self.rng.randint(-2, 3))), number(self.rng.choice([0.5, -1.0, 2.0])),
                          number(float(self.rng.randint(-3, 5)))),
                self.matrix(depth + 1), self.cell(depth + 1), self.expr(depth + 1)])
            return ast.For(var, iterable, self.loop_body(depth + 1))
        if kind == "while":
            # A counter bounds every loop: a generated program must not loop forever by itself.
            self.counter += 1
            guard = name(f"fz_n{self.counter}")
            limit = number(float(self.rng.randint(1, 5)))
            body = [ast.Assign(guard, ast.Binary("+", guard, number(1.0)), show=False),
                    *self.loop_body(depth + 1)]
            cond = ast.Binary("&&", ast.Binary("<", guard, limit), self.condition(depth + 1))
            loop = ast.While(cond, body)
            return ast.If([(number(1.0), [ast.Assign(guard, number(0.0), show=False), loop])])
        if kind == "switch":
            subject = self.expr(depth + 1)
            cases = [(self.case_value(depth + 1), self.block(depth + 1))
                     for _ in range(self.rng.randint(1, 3))]
            otherwise = self.block(depth + 1) if self.rng.random() < 0.5 else None
            return ast.Switch(subject, cases, otherwise)
        var = "err" if self.rng.random() < 0.6 else None
        catch_body = self.block(depth + 1)
        if var is not None:
            catch_body.insert(0, self.catch_use(var))
        return ast.Try(self.block(depth + 1), var, catch_body if var or catch_body else None)

    def loop_body(self, depth: int) -> list[ast.Node]:
        self.loop_depth += 1
        try:
            return self.block(depth)
        finally:
            self.loop_depth -= 1

    def block(self, depth: int) -> list[ast.Node]:
        return [self.statement(depth) for _ in range(self.rng.choice([1, 1, 2, 3]))]

    def condition(self, depth: int) -> ast.Node:
        if self.rng.random() < 0.5:
            op = self.rng.choice(["==", "~=", "<", ">", "<=", ">=", "&&", "||", "&", "|"])
            return ast.Binary(op, self.expr(depth + 1), self.expr(depth + 1))
        return self.expr(depth)

    def case_value(self, depth: int) -> ast.Node:
        return self.rng.choice([number(self.rng.choice(NUMBERS)), ast.Char(self.rng.choice(TEXTS)),
                                ast.Cell([[number(1.0), ast.Char("a")]]), self.expr(depth)])

    # ------------------------------------------------------------ names

    def fresh_target(self) -> ast.Name:
        """A variable to assign: usually a new or existing one from a small pool."""
        var = self.rng.choice(VARIABLES)
        if var not in self.assigned:
            self.assigned.append(var)
        return name(var)

    def some_variable(self) -> ast.Name:
        if self.assigned and self.rng.random() < 0.85:
            return name(self.rng.choice(self.assigned))
        return self.fresh_target()

    # ------------------------------------------------------------ expressions

    def expr(self, depth: int) -> ast.Node:
        if depth >= self.max_depth:
            return self.leaf()
        kind = self.rng.choices(
            ["leaf", "binary", "unary", "postfix", "range", "matrix", "cell", "call", "index",
             "field", "lambda", "handle", "paren", "local", "dl", "deep", "struct"],
            weights=[20, 16, 4, 3, 5, 8, 4, 18, 8, 3, 3, 2, 1, 2 if self.functions else 0, 2, 0.3, 2])[0]
        d = depth + 1
        if kind == "leaf":
            return self.leaf()
        if kind == "binary":
            return ast.Binary(self.rng.choice(BINARY_OPS), self.expr(d), self.expr(d))
        if kind == "unary":
            return ast.Unary(self.rng.choice(["-", "+", "~"]), self.expr(d))
        if kind == "postfix":
            return ast.Postfix(self.rng.choice(["'", ".'"]), self.expr(d))
        if kind == "range":
            step = self.expr(d) if self.rng.random() < 0.3 else None
            return ast.Range(self.expr(d), step, self.expr(d))
        if kind == "matrix":
            return self.matrix(d)
        if kind == "cell":
            return self.cell(d)
        if kind == "call":
            return self.builtin_call(d)
        if kind == "index":
            # Only a name can be indexed: MATLAB rejects (expr)(i) and literal{i}.
            base: ast.Node = self.some_variable()
            args = [self.index_arg(d) for _ in range(self.rng.randint(0, 3))]
            return ast.Index(base, args, braces=self.rng.random() < 0.25)
        if kind == "field":
            base = self.some_variable()
            if self.rng.random() < 0.2:
                return ast.DynField(base, ast.Char(self.rng.choice(FIELDS)))
            return ast.Field(base, self.rng.choice(FIELDS))
        if kind == "lambda":
            params = self.rng.sample(["u", "v", "q"], self.rng.randint(0, 2))
            saved = self.assigned
            self.assigned = [*saved, *params]
            body = self.expr(d)
            self.assigned = saved
            handle = ast.Lambda(params, body)
            if self.rng.random() < 0.5:  # called at once, or handed to a function that calls it
                args = [self.expr(d) for _ in params]
                return self.rng.choice([call("feval", handle, *args),
                                        call("arrayfun", handle, *(args or [self.matrix(d)])),
                                        call("cellfun", handle, *(args or [self.cell(d)]),
                                             ast.Char("UniformOutput"), name("false"))])
            return handle
        if kind == "handle":
            return ast.FuncHandle(self.rng.choice(self.builtins))
        if kind == "paren":
            return ast.Paren(self.some_variable())
        if kind == "local":
            fname, n_in, _ = self.rng.choice(self.functions)
            n_args = max(0, n_in + self.rng.choice([0, 0, 0, -1, 1]))
            return call(fname, *[self.expr(d) for _ in range(n_args)])
        if kind == "dl":
            inner = self.rng.choice([self.matrix(d), self.expr(d)])
            value = call("dlarray", inner)
            return self.rng.choice([value, call(self.rng.choice(DIFFERENTIABLE_UNARY), value),
                                    ast.Binary(self.rng.choice(BINARY_OPS), value, self.expr(d)),
                                    call("extractdata", value)])
        if kind == "deep":
            return self.deep(self.rng.randint(10, 40))  # deeper text: the mutator
        fields: list[ast.Node] = []
        for field_name in self.rng.sample(FIELDS, self.rng.randint(0, 2)):
            fields += [ast.Char(field_name), self.expr(d)]
        return call("struct", *fields)

    def deep(self, levels: int) -> ast.Node:
        """A long chain of one kind of nesting (unary minus, brackets, cells, calls)."""
        wrap = self.rng.choice(["unary", "matrix", "cell", "call", "binary"])
        node: ast.Node = number(1.0)
        for _ in range(levels):
            if wrap == "unary":
                node = ast.Unary("-", node)
            elif wrap == "matrix":
                node = ast.Matrix([[node]])
            elif wrap == "cell":
                node = ast.Cell([[node]])
            elif wrap == "call":
                node = call("abs", node)
            else:
                node = ast.Binary("+", node, number(1.0))
        return node

    def leaf(self) -> ast.Node:
        roll = self.rng.random()
        if roll < 0.35:
            return number(self.rng.choice(NUMBERS))
        if roll < 0.6 and self.assigned:
            return name(self.rng.choice(self.assigned))
        if roll < 0.68:
            return ast.Char(self.rng.choice(TEXTS))
        if roll < 0.72:
            return ast.String(self.rng.choice(TEXTS))
        if roll < 0.78:
            return number(self.rng.choice(EDGE_NUMBERS) * self.rng.choice([1.0, -1.0]))
        if roll < 0.82:
            return ast.Number(self.rng.randint(0, 127), self.rng.choice(INTEGER_CLASSES))
        if roll < 0.85:
            return ast.Number(complex(0, self.rng.choice(NUMBERS)))
        if roll < 0.9:
            return name(self.rng.choice(["true", "false", "pi", "NaN", "Inf", "eps", "i"]))
        if roll < 0.95:
            return ast.Matrix([])
        return ast.Cell([])

    def matrix(self, depth: int) -> ast.Matrix:
        rows = self.rng.randint(0, 3)
        cols = self.rng.randint(1, 4)
        ragged = self.rng.random() < 0.05
        return ast.Matrix([[self.element(depth) for _ in range(cols + (ragged and r == 1))]
                           for r in range(rows)])

    def cell(self, depth: int) -> ast.Cell:
        rows = self.rng.randint(0, 2)
        cols = self.rng.randint(1, 3)
        return ast.Cell([[self.expr(depth + 1) for _ in range(cols)] for _ in range(rows)])

    def element(self, depth: int) -> ast.Node:
        if self.rng.random() < 0.7:
            return number(self.rng.choice(NUMBERS) * self.rng.choice([1.0, -1.0]))
        return self.expr(depth + 1)

    def index_arg(self, depth: int) -> ast.Node:
        roll = self.rng.random()
        if roll < 0.35:
            return number(float(self.rng.randint(1, 4)))
        if roll < 0.45:
            return ast.Colon()
        if roll < 0.55:
            return self.rng.choice([ast.End(), ast.Binary("-", ast.End(), number(1.0)),
                                    ast.Range(number(1.0), None, ast.End())])
        if roll < 0.62:
            return ast.Range(number(1.0), None, number(float(self.rng.randint(0, 4))))
        if roll < 0.68:
            return self.rng.choice([name("true"), name("false"), ast.Matrix([[name("true"), name("false")]])])
        if roll < 0.72:
            return number(self.rng.choice([0.0, -1.0, 1.5, 1e20, float("inf"), 2.0 ** 40]))
        if roll < 0.76:
            return ast.Char(self.rng.choice(FIELDS + ["", ":"]))
        return self.expr(depth)

    def builtin_call(self, depth: int, function: str | None = None) -> ast.Node:
        fn = function or self.rng.choice(self.builtins)
        spec = self.registry[fn]
        low = spec.min_in
        high = spec.max_in if spec.max_in is not None else low + 3
        count = self.rng.randint(low, min(high, low + 3))
        if self.rng.random() < 0.08:
            count = max(0, count + self.rng.choice([-1, 1]))
        args = [self.argument(depth) for _ in range(count)]
        if self.rng.random() < 0.05:
            args.append(ast.NamedArg(self.rng.choice(OPTION_TEXTS), self.expr(depth)))
        return call(fn, *args)

    def argument(self, depth: int) -> ast.Node:
        roll = self.rng.random()
        if roll < 0.25:
            return number(float(self.rng.randint(-1, 4)))
        if roll < 0.35:
            return ast.Char(self.rng.choice(OPTION_TEXTS))
        if roll < 0.5:
            return self.matrix(depth)
        return self.expr(depth)
