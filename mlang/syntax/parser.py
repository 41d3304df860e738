"""MATLAB source to AST: the tokenizer feeding Lark's LALR parser."""

from __future__ import annotations

import threading
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from mlang import errors
from mlang.errors import MatlabSyntaxError
from mlang.syntax import ast
from mlang.syntax.build import Builder
from mlang.syntax.lexer import KEYWORDS, normalize_newlines, tokenize_for_parser

GRAMMAR = Path(__file__).with_name("matlab.lark")

_CLOSERS = {"RPAREN", "RBRACKET", "RBRACE"}
_ENDS_OF_STATEMENT = {"NEWLINE", "SEMI", "COMMA", "$END"}


class TokenList(Lexer):
    """Lark 'lexer' that hands over the tokens our own tokenizer already made."""

    def __init__(self, lexer_conf: object) -> None:
        pass

    def lex(self, data: list[Token]):  # type: ignore[override]
        return iter(data)


def make_lark(transformer: Builder | None = None, debug: bool = False) -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", lexer=TokenList,
                transformer=transformer, cache=not debug, debug=debug)


class Parser:
    """A reusable parser: one Lark automaton and its AST builder."""

    def __init__(self, fast_literals: bool = True) -> None:
        self._builder = Builder()
        self._lark = make_lark(self._builder)
        self.fast_literals = fast_literals  # False: every [...] through the grammar (for tests)

    def parse(self, text: str, file: str = "",
              variables: frozenset[str] | set[str] = frozenset()) -> ast.Program:
        """Parse a whole file or code fragment; raise MatlabSyntaxError on bad input."""
        try:
            tokens, matrices = tokenize_for_parser(text, file, variables, self.fast_literals)
            builder = self._builder
            builder.file = file
            builder.lambda_depths.clear()
            builder.matrices = matrices
            builder.next_matrix = 0
            return self._lark.parse(tokens)  # type: ignore[arg-type]
        except MatlabSyntaxError as exc:
            if exc.source_line is None:
                exc.source_line = _source_line(text, exc.line)
            raise
        except UnexpectedInput as exc:
            raise _syntax_error(exc, text, file) from None


def _source_line(text: str, line: int) -> str:
    lines = normalize_newlines(text).split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _syntax_error(exc: UnexpectedInput, text: str, file: str) -> MatlabSyntaxError:
    tok = exc.token if isinstance(exc, UnexpectedToken) else None
    if tok is None or tok.line is None:
        lines = normalize_newlines(text).split("\n")
        line = len(lines)
        return MatlabSyntaxError(errors.INVALID_EXPRESSION, file, line, len(lines[-1]) + 1, lines[-1])
    kind = tok.type
    if kind in _ENDS_OF_STATEMENT or kind == "END_VAL":
        message = errors.INVALID_EXPRESSION
    elif kind in _CLOSERS:
        message = errors.UNBALANCED
    elif kind == "ASSIGN":
        message = errors.BAD_ASSIGN
    elif kind in KEYWORDS.values() or kind == "ARGUMENTS":
        message = errors.reserved_keyword(tok.value)
    elif kind in ("NAME", "NUMBER", "CHAR", "STRING", "LPAREN", "LBRACKET", "LBRACE",
                  "CMDARG", "COMMAND", "MATRIX_LITERAL"):
        message = errors.INVALID_EXPRESSION
    else:
        message = errors.parse_error_at(tok.value or kind)
    return MatlabSyntaxError(message, file, tok.line, tok.column, _source_line(text, tok.line))


_local = threading.local()


def default_parser() -> Parser:
    """This thread's shared parser (a parser holds per-parse state, so threads get their own)."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser()
    return parser


def parse(text: str, file: str = "", variables: frozenset[str] | set[str] = frozenset()) -> ast.Program:
    """Parse MATLAB source text into a Program."""
    return default_parser().parse(text, file, variables)
