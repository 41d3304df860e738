"""Round trips through the unparser: ``parse(unparse(tree)) == tree``.

* property tests over random expressions, statements and programs built as
  AST nodes (of shapes the parser can produce);
* every case source of the other syntax test modules (their ``CASES`` lists)
  and every ``.m`` file under ``examples/`` and ``tests/``;
* exact output for the cases where parentheses are tricky.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.syntax
from mlang.errors import MatlabSyntaxError
from mlang.syntax import parse
from mlang.syntax.ast import (
    ArgumentsBlock,
    ArgumentSpec,
    Assign,
    Binary,
    Break,
    Cell,
    Char,
    Colon,
    Command,
    Continue,
    DynField,
    End,
    ExprStmt,
    Field,
    For,
    FuncHandle,
    Function,
    Global,
    If,
    Index,
    Lambda,
    Matrix,
    MultiAssign,
    Name,
    NamedArg,
    Node,
    Number,
    Paren,
    Persistent,
    Postfix,
    Program,
    Range,
    Return,
    String,
    Switch,
    Tilde,
    Try,
    Unary,
    While,
    dump,
    walk,
)
from mlang.syntax.unparse import OP_POWER, unparse

ROOT = Path(__file__).resolve().parents[2]
PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------ strategies

NAMES = ("a", "b", "x", "y", "s", "f")
COMMANDS = ("hold", "format", "warning")  # never used as variables, so always command syntax
BINARY_OPS = tuple(op for op in OP_POWER if op != ":")
INTEGER_CLASSES = {
    f"{sign}int{bits}": (0, 2**bits - 1) if sign else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    for sign in ("", "u") for bits in (8, 16, 32, 64)
}

names = st.sampled_from(NAMES)
shows = st.booleans()
# printable text on one line (no control characters, no line or paragraph separators)
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=6)
reals = st.one_of(
    st.integers(0, 1000).map(float),
    st.floats(min_value=0, allow_nan=False, allow_infinity=False).map(abs),
)
numbers = st.one_of(
    reals.map(Number),
    reals.map(lambda v: Number(complex(0.0, v))),
    st.sampled_from(sorted(INTEGER_CLASSES)).flatmap(
        lambda cls: st.integers(*INTEGER_CLASSES[cls]).map(lambda v: Number(v, cls))),
)
handles = st.lists(names, min_size=1, max_size=2).map(lambda parts: FuncHandle(".".join(parts)))
params = st.lists(st.one_of(names, st.none()), max_size=3)


def leaves(in_index: bool = False) -> st.SearchStrategy[Node]:
    """Operands without sub-expressions; ``end`` only inside an index."""
    options = [
        numbers, texts.map(Char), texts.map(String), names.map(Name), handles,
        st.just(Matrix([])), st.just(Cell([])),
    ]
    if in_index:
        options.append(st.just(End()))
    return st.one_of(options)


@st.composite
def references(draw: st.DrawFn, depth: int = 2, in_index: bool = False, simple: bool = False) -> Node:
    """A name with indexing and field trailers, as the parser builds them.

    No ``()`` or ``{}`` directly after a ``()`` index (the parser rejects
    ``f(1)(2)``); ``simple`` keeps index arguments to names and numbers.
    """
    node = Name(draw(names))
    after_paren = False
    for _ in range(draw(st.integers(0, 3 if depth > 0 else 1))):
        kinds = ["field"] if depth <= 0 else ["field", "dynfield"] + ([] if after_paren else ["()", "{}"])
        kind = draw(st.sampled_from(kinds))
        if kind == "field":
            node = Field(node, draw(names))
        elif kind == "dynfield":
            node = DynField(node, draw(expressions(depth - 1, in_index)))
        else:
            node = Index(node, draw(index_args(depth - 1, kind == "{}", simple)), kind == "{}")
        after_paren = kind == "()"
    return node


@st.composite
def index_args(draw: st.DrawFn, depth: int, braces: bool, simple: bool = False) -> list[Node]:
    arg = st.one_of(names.map(Name), reals.map(Number), st.just(End())) if simple else st.one_of(
        expressions(depth, in_index=True), st.just(Colon()))
    args = draw(st.lists(arg, max_size=3))
    if not braces:  # name=value arguments: only in (), after the positional ones
        value = arg if simple else expressions(depth, in_index=True)
        args += draw(st.lists(st.builds(NamedArg, names, value), max_size=2))
    return args


@st.composite
def rows(draw: st.DrawFn, element: st.SearchStrategy[Node]) -> list[list[Node]]:
    return draw(st.lists(st.lists(element, min_size=1, max_size=3), max_size=3))


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3, in_index: bool = False) -> Node:
    if depth <= 0 or draw(st.integers(0, 4)) == 0:
        return draw(leaves(in_index))
    sub = expressions(depth - 1, in_index)
    kind = draw(st.sampled_from(
        ["binary", "unary", "postfix", "range", "ref", "paren", "lambda", "matrix", "cell"]))
    if kind == "binary":
        return Binary(draw(st.sampled_from(BINARY_OPS)), draw(sub), draw(sub))
    if kind == "unary":
        return Unary(draw(st.sampled_from("-+~")), draw(sub))
    if kind == "postfix":
        return Postfix(draw(st.sampled_from(["'", ".'"])), draw(sub))
    if kind == "range":
        return Range(draw(sub), draw(st.one_of(st.none(), sub)), draw(sub))
    if kind == "ref":
        return draw(references(depth - 1, in_index))
    if kind == "paren":  # parentheses leave a node only around a reference
        return Paren(draw(references(depth - 1, in_index)))
    if kind == "lambda":
        return Lambda(draw(params), draw(sub))
    return (Matrix if kind == "matrix" else Cell)(draw(rows(sub)))


def blocks(depth: int) -> st.SearchStrategy[list[Node]]:
    return st.lists(statements(depth - 1), max_size=3)


@st.composite
def statements(draw: st.DrawFn, depth: int = 2) -> Node:
    simple = ["expr", "assign", "multi", "command", "break", "continue", "return", "global", "persistent"]
    kind = draw(st.sampled_from(simple + (["if", "for", "while", "switch", "try"] if depth > 0 else [])))
    value = expressions(2)
    if kind == "expr":
        return ExprStmt(draw(value), draw(shows))
    if kind == "assign":
        return Assign(draw(references(2)), draw(value), draw(shows))
    if kind == "multi":
        # simple index arguments: quotes inside the targets confuse the lexer (KNOWN_PARSER_BUGS)
        target = st.one_of(references(1, simple=True), st.just(Tilde()))
        return MultiAssign(draw(st.lists(target, min_size=1, max_size=3)), draw(value), draw(shows))
    if kind == "command":
        return Command(draw(st.sampled_from(COMMANDS)), draw(st.lists(texts, min_size=1, max_size=3)),
                       draw(shows))
    if kind in ("break", "continue", "return"):
        return {"break": Break, "continue": Continue, "return": Return}[kind]()
    if kind in ("global", "persistent"):
        return (Global if kind == "global" else Persistent)(draw(st.lists(names, min_size=1, max_size=3)))
    body = blocks(depth)
    if kind == "if":
        clauses = draw(st.lists(st.tuples(value, body), min_size=1, max_size=3))
        return If(clauses, draw(st.one_of(st.none(), body)))
    if kind == "for":
        parallel = draw(st.booleans())
        workers = draw(st.one_of(st.none(), value)) if parallel else None
        return For(Name(draw(names)), draw(value), draw(body), parallel, workers)
    if kind == "while":
        return While(draw(value), draw(body))
    if kind == "switch":
        return Switch(draw(value), draw(st.lists(st.tuples(value, body), max_size=2)),
                      draw(st.one_of(st.none(), body)))
    catch_body = draw(st.one_of(st.none(), body))
    catch_var = None if catch_body is None else draw(st.one_of(st.none(), names))
    return Try(draw(body), catch_var, catch_body)


validators = st.one_of(
    st.sampled_from(["mustBePositive", "mustBeNumeric"]).map(Name),
    st.builds(lambda name, args: Index(Name(name), args), st.just("mustBeLessThan"),
              st.lists(st.one_of(names.map(Name), reals.map(Number)), min_size=1, max_size=2)),
)
argument_specs = st.builds(
    ArgumentSpec,
    st.one_of(names.map(lambda n: [n]), st.lists(names, min_size=2, max_size=2)),
    size=st.one_of(st.none(), st.lists(st.one_of(st.integers(0, 5).map(float).map(Number),
                                                 st.just(Colon())), min_size=1, max_size=3)),
    cls=st.sampled_from([None, "double", "char", "matlab.lang.OnOffSwitchState"]),
    validators=st.lists(validators, max_size=2),
    default=st.one_of(st.none(), expressions(2)),
)
arguments_blocks = st.builds(
    ArgumentsBlock,
    st.lists(st.sampled_from(["Input", "Output", "Repeating"]), max_size=2),
    st.lists(argument_specs, max_size=3),
)


@st.composite
def functions(draw: st.DrawFn, has_end: bool, nested: int = 1) -> Function:
    inner = draw(st.lists(functions(True, nested - 1), max_size=2)) if has_end and nested > 0 else []
    inputs, outputs = draw(params), draw(st.lists(names, max_size=3))
    body = draw(st.lists(statements(1), max_size=3))
    for node in (n for statement in body for n in walk(statement)):
        if type(node) is Persistent:  # MATLAB rejects an argument declared persistent
            node.names = [n for n in node.names if n not in inputs and n not in outputs] or ["kept"]
    return Function(draw(names), inputs, outputs, body, inner,
                    draw(st.lists(arguments_blocks, max_size=2)), has_end)


@st.composite
def programs(draw: st.DrawFn) -> Program:
    """A script (statements, then local functions with ``end``) or a function file."""
    if draw(st.booleans()):
        body = draw(st.lists(statements(), max_size=4))
        local = draw(st.lists(functions(True), max_size=2)) if body else []
        return Program(body, local, True)
    has_end = draw(st.booleans())
    return Program([], draw(st.lists(functions(has_end), min_size=1, max_size=3)), False)


# ------------------------------------------------------------------ properties


def assert_round_trip(prog: Program) -> None:
    text = unparse(prog)
    try:
        again = parse(text, "roundtrip.m")
    except MatlabSyntaxError as exc:
        pytest.fail(f"unparsed text does not parse: {exc}\n--- tree\n{dump(prog)}\n--- text\n{text}")
    assert again == prog, f"--- text\n{text}\n--- before\n{dump(prog)}\n--- after\n{dump(again)}"


@PROPERTY
@given(expressions(), shows)
def test_expression_round_trip(node: Node, show: bool) -> None:
    assert_round_trip(Program([ExprStmt(node, show)], []))


@settings(PROPERTY, max_examples=150)
@given(st.lists(statements(), min_size=1, max_size=4))
def test_statement_round_trip(body: list[Node]) -> None:
    assert_round_trip(Program(body, []))


@settings(PROPERTY, max_examples=100)
@given(programs())
def test_program_round_trip(prog: Program) -> None:
    assert_round_trip(prog)


# ------------------------------------------------- sources of the other tests


def _case_modules() -> list[str]:
    return sorted(
        f"{tests.syntax.__name__}.{info.name}"
        for info in pkgutil.iter_modules(tests.syntax.__path__)
        if info.name.startswith("test_") and f"{tests.syntax.__name__}.{info.name}" != __name__
    )


def _is_case(case: object) -> bool:
    return (isinstance(case, tuple) and len(case) == 2
            and all(isinstance(part, str) for part in case))


def _collect_cases() -> list:
    """(module, index, source) for every case; a bad CASES list becomes one failing parameter."""
    params = []
    for name in _case_modules():
        short = name.rsplit(".", 1)[1]
        try:
            cases = getattr(importlib.import_module(name), "CASES", [])
        except Exception as exc:  # a module being written: report it here, not as a collection error
            params.append(pytest.param(name, -1, f"cannot import: {exc!r}", id=f"{short}-import"))
            continue
        if not isinstance(cases, list) or not all(_is_case(c) for c in cases):
            problem = f"CASES must be a list of (source, expected_dump) string pairs, got {cases!r:.200}"
            params.append(pytest.param(name, -1, problem, id=f"{short}-CASES"))
            continue
        params += [pytest.param(name, i, src, id=f"{short}-{i}") for i, (src, _) in enumerate(cases)]
    return params


@pytest.mark.parametrize(("module", "index", "source"), _collect_cases())
def test_cases_round_trip(module: str, index: int, source: str) -> None:
    if index < 0:
        pytest.fail(f"{module}: {source}")
    try:
        prog = parse(source, "case.m")
    except MatlabSyntaxError as exc:
        pytest.skip(f"the case source itself does not parse: {exc}")
    assert_round_trip(prog)


def _m_files() -> list[Path]:
    return sorted(p for top in ("examples", "tests") for p in (ROOT / top).rglob("*.m"))


@pytest.mark.parametrize("path", _m_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_m_file_round_trip(path: Path) -> None:
    try:
        prog = parse(path.read_text(encoding="utf-8"), str(path))
    except MatlabSyntaxError as exc:
        pytest.skip(f"the file itself does not parse: {exc}")
    assert_round_trip(prog)


# ------------------------------------------------------------- exact output


def _expr_text(src: str) -> str:
    """The unparsed text of the single expression statement ``src``."""
    (stmt,) = parse(src).body
    return unparse(stmt.expr)


@pytest.mark.parametrize(("source", "text"), [
    ("(-a)^b", "(-a) ^ b"),
    ("-a^b", "-a ^ b"),
    ("(-a)'", "(-a)'"),
    ("-a'", "-a'"),
    ("('abc')'", "('abc')'"),
    ("(a^'x')'", "(a ^ 'x')'"),
    ("(1.)'", "(1.)'"),
    ("a:b:c:d", "(a:b:c):d"),
    ("(a:b):c", "(a:b):c"),
    ("a:(b:c)", "a:(b:c)"),
    ("a:-b:c", "a:-b:c"),
    ("a-(b-c)", "a - (b - c)"),
    ("(a-b)-c", "a - b - c"),
    ("a/(b*c)", "a / (b * c)"),
    ("(a+b)*c", "(a + b) * c"),
    ("2^-2^2", "2 ^ -2 ^ 2"),
    ("2^(-2^2)", "2 ^ -(2 ^ 2)"),
    ("2^-(2')", "2 ^ -(2')"),
    ("a*-b^c", "a * -b ^ c"),
    ("a^b'", "a ^ b'"),
    ("a^(b')", "a ^ (b')"),
    ("(@(x) x + 1) + 1", "(@(x) x + 1) + 1"),
    ("-(@() 1)", "-(@() 1)"),
    ("f(@(x, ~) x, 2)", "f(@(x, ~) x, 2)"),
    ("(a)", "(a)"),
    ("((a + b))", "a + b"),
    ("(s.f(1))'", "(s.f(1))'"),
    ("[1 -2; 3 - 4]", "[1, -2; 3 - 4]"),
    ("{}", "{}"),
    ("[]", "[]"),
    ("a < b == c", "a < b == c"),
    ("a | b & c", "a | b & c"),
    ("(a | b) & c", "(a | b) & c"),
    ("a || b && c", "a || b && c"),
    ("x(end, :)", "x(end, :)"),
    ("f(x, Name=1)", "f(x, Name=1)"),
    ("s.(n){2}.g", "s.(n){2}.g"),
    ("@pkg.fn", "@pkg.fn"),
    ("'it''s'", "'it''s'"),
    ('"say ""hi"""', '"say ""hi"""'),
])
def test_expression_text(source: str, text: str) -> None:
    assert _expr_text(source) == text


@pytest.mark.parametrize(("node", "text"), [
    (Number(255, "uint8"), "0xFFu8"),
    (Number(-1, "int8"), "0xFFs8"),
    (Number(-32768, "int16"), "0x8000s16"),
    (Number(2.5), "2.5"),
    (Number(complex(0, 3.0)), "3.0i"),
])
def test_number_text(node: Node, text: str) -> None:
    assert unparse(node) == text
    assert parse(text).body[0].expr == node


@pytest.mark.parametrize(("source", "text"), [
    ("disp 'hello world'", "disp 'hello world'\n"),
    ("hold on;", "hold 'on';\n"),
    ("disp 'it''s' it''s", "disp 'it''s' 'its'\n"),
    ("[a, ~, s.f] = f(x);", "[a, ~, s.f] = f(x);\n"),
    ("parfor (i = 1:n, 4), x(i) = i; end",
     "parfor (i = 1:n, 4)\n    x(i) = i;\nend\n"),
    ("try, a, catch err, b, end", "try\n    a\ncatch err\n    b\nend\n"),
    ("switch x, case 1, y, otherwise, z, end",
     "switch x\n    case 1\n        y\n    otherwise\n        z\nend\n"),
    ("if a, b, elseif c, d, else, e, end",
     "if a\n    b\nelseif c\n    d\nelse\n    e\nend\n"),
    ("global a b", "global a b\n"),
])
def test_statement_text(source: str, text: str) -> None:
    assert unparse(parse(source)) == text


def test_function_file_text() -> None:
    source = (
        "function [a, b] = f(x, ~)\n"
        "arguments (Input)\n"
        "x (1,:) double {mustBePositive, mustBeLessThan(x, 3)} = 1\n"
        "opts.Name char\n"
        "end\n"
        "a = x;\n"
        "function g\n"
        "end\n"
        "end\n"
        "function y = h\n"
        "y = 1;\n"
        "end\n"
    )
    assert unparse(parse(source)) == (
        "function [a, b] = f(x, ~)\n"
        "    arguments (Input)\n"
        "        x (1,:) double {mustBePositive, mustBeLessThan(x, 3)} = 1\n"
        "        opts.Name char\n"
        "    end\n"
        "    a = x;\n"
        "    function g\n"
        "    end\n"
        "end\n"
        "\n"
        "function y = h\n"
        "    y = 1;\n"
        "end\n"
    )


def test_functions_without_end_text() -> None:
    prog = parse("function f(x)\ndisp(x)\nfunction g\n")
    assert unparse(prog) == "function f(x)\n    disp(x)\n\nfunction g\n"
    assert_round_trip(prog)


# Parser regressions found by round-tripping: each must parse to this tree and round-trip.
REGRESSIONS = [
    # the look-ahead for '[...] =' must read the transpose after a string as a transpose ...
    pytest.param("[a(\"s\"'), b] = f", "(assign [(() a (' \"s\")) b] f)",
                 id="multi-assign-transposed-string"),
    # ... and an escaped '' inside a char literal as part of the literal
    pytest.param("[a('it''s %'), b] = f", "(assign [(() a 'it''s %') b] f)",
                 id="multi-assign-escaped-quote"),
    # a nested function does not make its parent forget its variables: 'x -1' is x - 1
    pytest.param("function f\n    x = 1;\n    function g\n    end\n    x -1\nend",
                 "(function f (in) (out) (assign x 1 ;) (expr (- x 1)) (function g (in) (out)))",
                 id="variables-after-nested-function"),
]


@pytest.mark.parametrize("source, expected", REGRESSIONS)
def test_parser_regressions(source: str, expected: str) -> None:
    prog = parse(source, "regression.m")
    assert dump(prog.body[0] if prog.body else prog.functions[0]) == expected
    assert_round_trip(prog)
