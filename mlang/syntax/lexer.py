"""Context-aware tokenizer for MATLAB source.

MATLAB's lexical structure depends on context that an LALR grammar cannot
see: whitespace separates elements inside ``[]``/``{}`` but not elsewhere, a
quote is a transpose or starts a char literal depending on what precedes it,
``end`` is an index value inside an index and a block end outside, and a
statement like ``hold on`` is command syntax.  This module makes all of those
decisions and hands the grammar a clean token stream:

* zero-width COMMA / SEMI tokens separate elements and rows in literals, so the
  grammar never sees whitespace;
* ``(`` and ``{`` that index or call are INDEX_PAREN / INDEX_BRACE, grouping
  parens and cell literals are LPAREN / LBRACE;
* ``end`` inside an index is END_VAL; command syntax is COMMAND + CMDARG*;
  ``[`` starting a multiple assignment is LHS_LBRACKET; the name after
  ``catch`` is CATCH_ID; ``arguments`` at the top of a function is ARGUMENTS;
* functions in a file written without ``end`` get synthetic END tokens
  (value ``''``) so every function in the grammar ends with END.
"""

from __future__ import annotations

import re

from mlang import errors
from mlang.errors import MatlabSyntaxError
from mlang.syntax import ast
from mlang.syntax.literals import integer_literal
from mlang.syntax.matrix_literal import scan
from mlang.syntax.operand_runs import read_run
from mlang.syntax.patterns import (
    BINARY_OP,
    BLOCK_OPENERS,
    CHAR_LIT,
    KEYWORDS,
    OCTAVE_ENDS,
    OPERATOR_NUMBER,
    OPERATORS,
    STATEMENT_FOLLOWS,
    STRING_LIT,
    TOKEN,
    UNSUPPORTED_KEYWORDS,
    WS,
    assignment_list_at,
)
from mlang.syntax.tokens import Token, make_token

# Tokens after which a value has just ended: a quote right after one is a
# transpose, and whitespace then a new value inside [] or {} starts an element.
VALUE_END = frozenset({
    "NAME", "NUMBER", "CHAR", "STRING", "RPAREN", "RBRACKET", "RBRACE",
    "TRANSPOSE", "DOTTRANSPOSE", "END_VAL", "MATRIX_LITERAL",
})
SEPARATORS = frozenset({"SEMI", "COMMA", "NEWLINE"})
LITERAL_OPENERS = frozenset({"LBRACKET", "LBRACE", "LHS_LBRACKET"})

_CLOSERS = {")": ("(", "RPAREN"), "]": ("[", "RBRACKET"), "}": ("{", "RBRACE")}

# after a plain decimal number these characters need no check (none can continue it)
_AFTER_PLAIN_NUMBER = frozenset(" \t\n+-*/\\^)]},;:=<>&|~'\"%")
# operators that the tokenizer's rules look at (signs in literals, '=', '~', '@')
_OPERATORS_WITH_RULES = frozenset({"=", "~", "@"})


class _Bracket:
    __slots__ = ("kind", "index", "literal", "is_lambda", "outputs", "tok", "lead_dropped")

    def __init__(self, kind: str, index: bool, is_lambda: bool, tok: Token,
                 outputs: bool = False) -> None:
        self.kind = kind  # '(', '[' or '{'
        self.index = index  # an index or call, not grouping or a literal
        self.literal = kind != "(" and not index  # whitespace separates elements
        self.is_lambda = is_lambda  # the parameter list of @(...)
        self.outputs = outputs  # a function's output list: function [a, b] = f
        self.tok = tok
        self.lead_dropped = False


def tokenize(text: str, file: str = "", variables: frozenset[str] | set[str] = frozenset()) -> list[Token]:
    """Tokens of ``text`` for the grammar.

    ``variables`` are names known to be variables before the code runs (the
    REPL's workspace): like names assigned earlier in the same scope, they
    never start command syntax.
    """
    return _Lexer(text, file, variables).run()


def tokenize_for_parser(text: str, file: str = "", variables: frozenset[str] | set[str] = frozenset(),
                        fast_literals: bool = True, operand_runs: bool = True,
                        ) -> tuple[list[Token], list[ast.NumericMatrix]]:
    """Tokens of ``text`` as ``tokenize`` makes them, except that a big ``[...]`` of plain
    numbers is one MATRIX_LITERAL token whose node is built already (see ``matrix_literal``)
    and a long run of operators and plain numbers is one OperandRun token (see
    ``operand_runs``); returns the tokens and the MATRIX_LITERAL nodes, in order."""
    lexer = _Lexer(text, file, variables)
    lexer.fast_literals = fast_literals
    lexer.operand_runs = operand_runs
    return lexer.run(), lexer.matrices


def needs_more_input(text: str, variables: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether ``text`` stops short of a whole statement that more lines could finish.

    True for an open block (``for``, ``if``, ``while``, ``switch``, ``try``), an open
    ``[`` or ``{``, a trailing ``...`` or an open ``%{`` comment: the Command Window then
    reads another line.  Code starting with ``function`` counts as finished, so the
    prompt reports at once that functions cannot be defined there, as MATLAB does.
    """
    lexer = _Lexer(text, "", variables)
    try:
        lexer.run()
        incomplete = False
    except MatlabSyntaxError as exc:
        incomplete = exc.incomplete
    incomplete = incomplete or lexer.continued  # f(1, ... is unbalanced only until the next line
    return incomplete and not (lexer.toks and lexer.toks[0].type == "FUNCTION")


def normalize_newlines(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class _Lexer:
    fast_parentheses = True  # False: every ( and ) through punctuation (for tests)

    def __init__(self, text: str, file: str, variables: frozenset[str] | set[str]) -> None:
        self.text = normalize_newlines(text)
        self.file = file
        self.toks: list[Token] = []
        self.stack: list[_Bracket] = []
        self.blocks: list[Token] = []  # open block keywords
        self.line = 1
        self.line_start = 0
        self.ws = False  # whitespace just before the current token
        self.prev_type = ""
        self.value_end = False  # the previous token ended a value
        self.stmt_start = True
        self.stmt_name: str | None = None  # a statement's leading name (assigned by '=')
        self.outer_variables = set(variables)
        self.assigned = set(variables)  # variables of the current scope
        self.outer_scopes: list[set[str]] = []  # scopes of the functions enclosing this one
        self.pending = ""  # 'catch', 'for', 'decl', 'signature' until the line's context ends
        self.fn_header = False  # at the top of a function body: 'arguments' allowed
        self.args_block = False
        self.args_default = False  # after '=' on an arguments-block line: an ordinary expression
        self.is_script: bool | None = None
        self.fn_closed_by_end = False
        self.fn_nested_at: list[int] = []  # token indices of FUNCTIONs opened inside a function
        self.continued = False  # the text ends inside a ... continuation or a %{ comment
        self.fast_literals = False  # build numeric [...] at once (tokenize_for_parser)
        self.operand_runs = False  # long operator-number runs as one token (tokenize_for_parser)
        self.matrices: list[ast.NumericMatrix] = []  # nodes of the MATRIX_LITERAL tokens, in order

    # ------------------------------------------------------------ utilities

    def error(self, message: str, pos: int, incomplete: bool = False) -> MatlabSyntaxError:
        line = self.text.count("\n", 0, pos) + 1
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        source = self.text[start: end if end >= 0 else len(self.text)]
        return MatlabSyntaxError(message, self.file, line, pos - start + 1, source, incomplete)

    def emit(self, type_: str, value: str, start: int, end: int) -> Token:
        col = start - self.line_start + 1
        tok = make_token(type_, value, start, self.line, col, end)
        self.toks.append(tok)
        self.prev_type = type_
        self.value_end = type_ in VALUE_END
        self.ws = False
        return tok

    def begin_statement(self) -> None:
        """Called when the first token of a statement is emitted."""
        self.stmt_start = False
        if self.is_script is None:
            self.is_script = True
        self.fn_header = False

    def new_line(self, pos: int) -> None:
        self.line += 1
        self.line_start = pos + 1

    # ------------------------------------------------------------ main loop

    def run(self) -> list[Token]:
        text = self.text
        n = len(text)
        i = 0
        match = TOKEN.match
        stack = self.stack
        append = self.toks.append
        operators = OPERATORS
        operator_number = OPERATOR_NUMBER.match
        while i < n:
            m = match(text, i)
            if m is None:
                if text[i] == "!" and self.stmt_start and not stack:
                    i = self.shell_escape(i)
                    continue
                raise self.bad_character(i)
            kind = m.lastgroup
            j = m.end()
            if kind == "ws":
                self.ws = True
            elif kind == "num":
                # the common case inline: a decimal number that no rule below needs to see
                if ((j < n and text[j] not in _AFTER_PLAIN_NUMBER) or text[i + 1: i + 2] in "xXbB"
                        or self.stmt_start or (self.ws and self.value_end and stack and stack[-1].literal)):
                    self.number(m.group(), i, j)
                else:
                    line_start = self.line_start
                    line = self.line
                    append(make_token("NUMBER", m.group(), i, line, i - line_start + 1, j))
                    # then each binary operator and plain number that follow without spaces,
                    # as in 1+2*3: the rules above leave every one of them as it is
                    pair = operator_number(text, j)
                    if pair is not None and self.operand_runs:
                        run = read_run(text, j, line, line_start, self.file, operators)
                        if run is not None:  # a long run, as in 1+1+...+1: one token
                            append(run)
                            j = run.end_pos
                            pair = None
                    while pair is not None:
                        op = pair.group(1)
                        k = pair.end(1)
                        append(make_token(operators[op], op, j, line, j - line_start + 1, k))
                        j = pair.end()
                        append(make_token("NUMBER", pair.group(2), k, line, k - line_start + 1, j))
                        pair = operator_number(text, j)
                    self.prev_type = "NUMBER"
                    self.value_end = True
                    self.ws = False
            elif kind == "op":
                op = m.group()
                if (op in _OPERATORS_WITH_RULES or text[j: j + 1] in "+-=" or self.stmt_start
                        or (self.ws and stack and stack[-1].literal)):
                    self.operator(op, i, j)
                else:  # a binary operator, as in the middle of an expression: no rule applies
                    col = i - self.line_start + 1
                    line = self.line
                    type_ = operators[op]
                    append(make_token(type_, op, i, line, col, j))
                    self.prev_type = type_
                    self.value_end = type_ == "DOTTRANSPOSE"
                    self.ws = False
            elif kind == "nl":
                self.newline(i)
            elif kind == "name":
                j = self.name(m.group(), i, j)
            elif kind == "punct":
                c = text[i]
                if not self.fast_parentheses:
                    j = self.punctuation(c, i, j)
                elif c == "(" and not self.value_end and not self.stmt_start \
                        and len(stack) < errors.NESTING_LIMIT:
                    # a grouping (: open_bracket's answer (no index, literal or statement start)
                    tok = make_token("LPAREN", c, i, self.line, i - self.line_start + 1, j)
                    append(tok)
                    stack.append(_Bracket(c, False, self.prev_type == "AT", tok))
                    # each ( right after it gets the same answer (after a ( no value has ended)
                    while j < n and text[j] == "(" and len(stack) < errors.NESTING_LIMIT:
                        tok = make_token("LPAREN", c, j, self.line, j - self.line_start + 1, j + 1)
                        append(tok)
                        stack.append(_Bracket(c, False, False, tok))
                        j += 1
                    self.prev_type = "LPAREN"
                    self.ws = False
                elif c == ")" and stack and stack[-1].kind == "(":
                    top = stack.pop()  # close_bracket's answer for a parenthesis
                    line_start = self.line_start
                    line = self.line
                    append(make_token("RPAREN", c, i, line, i - line_start + 1, j))
                    self.prev_type = "RPAREN"
                    self.value_end = not top.is_lambda  # @(x) y: the body starts here
                    self.ws = False
                    # a binary operator and plain number right after it, as in (a+b)*2: what
                    # the main loop makes of them (a number then goes on as above)
                    pair = operator_number(text, j) if not top.is_lambda else None
                    if pair is not None:
                        op = pair.group(1)
                        k = pair.end(1)
                        append(make_token(operators[op], op, j, line, j - line_start + 1, k))
                        j = pair.end()
                        append(make_token("NUMBER", pair.group(2), k, line, k - line_start + 1, j))
                        self.prev_type = "NUMBER"
                        self.value_end = True
                else:
                    j = self.punctuation(c, i, j)
            elif kind == "comment":
                if text[i + 1: i + 2] == "{" and self.alone_on_line(i, j):
                    j = self.block_comment(j)
            elif kind == "cont":
                self.ws = True
                if text[j - 1] == "\n":
                    self.new_line(j - 1)
                self.continued = j == n
            elif kind == "quote":
                j = self.quote(i)
            else:  # dquote
                j = self.string(i)
            i = j
        return self.finish(n)

    def finish(self, n: int) -> list[Token]:
        if self.stack:
            top = self.stack[-1]  # an open [ or { may go on over lines, an open ( may not
            raise self.error(errors.UNBALANCED, top.tok.start_pos, incomplete=top.literal)
        if self.toks and self.prev_type not in SEPARATORS:
            self.emit("NEWLINE", "", n, n)
        if self.blocks:
            self.close_functions_without_end(n)
        return self.toks

    def close_functions_without_end(self, n: int) -> None:
        """Functions written without ``end``: each ``function`` closes the previous one."""
        open_blocks = self.blocks
        for tok in reversed(open_blocks):
            if tok.type != "FUNCTION":
                raise self.error(errors.MISSING_END, tok.start_pos, incomplete=True)
        if self.fn_closed_by_end:
            raise self.error(errors.MISSING_END, open_blocks[-1].start_pos, incomplete=True)
        if self.is_script:
            raise self.error("All functions in a script must be closed with an 'end'.",
                             open_blocks[0].start_pos)
        toks = self.toks
        out: list[Token] = []
        prev = 0
        for at in self.fn_nested_at:
            out.extend(toks[prev:at])
            out.append(Token.new_borrow_pos("END", "", toks[at]))
            prev = at
        out.extend(toks[prev:])
        last = toks[-1]
        out.append(Token.new_borrow_pos("END", "", last))
        self.toks = out

    # ----------------------------------------------------------- separators

    def newline(self, i: int) -> None:
        stack = self.stack
        if stack:
            top = stack[-1]
            if not top.literal:
                raise self.error(errors.UNBALANCED, top.tok.start_pos)
            self.row_separator(i)
        else:
            self.end_statement()
            if self.toks and self.prev_type not in SEPARATORS:
                self.emit("NEWLINE", "\n", i, i)
        self.new_line(i)

    def end_statement(self) -> None:
        if self.pending == "signature":
            self.fn_header = True
        self.pending = ""
        self.stmt_start = True
        self.stmt_name = None
        self.args_default = False

    def row_separator(self, i: int) -> None:
        toks = self.toks
        if toks[-1].type == "COMMA":
            toks.pop()
        if toks[-1].type in LITERAL_OPENERS or toks[-1].type == "SEMI":
            return
        self.emit("SEMI", "", i, i)
        self.stack[-1].lead_dropped = False

    def element_separator(self, i: int, j: int) -> None:
        top = self.stack[-1]
        last = self.toks[-1].type
        if (last in LITERAL_OPENERS or last == "SEMI") and not top.lead_dropped:
            top.lead_dropped = True  # one leading comma per row is ignored
            self.value_end = False
            self.ws = False
            return
        if last == "COMMA":
            raise self.error(errors.parse_error_at(","), i)
        self.emit("COMMA", ",", i, j)

    def auto_comma(self, i: int) -> None:
        """Whitespace between two values inside [] or {} separates elements."""
        self.emit("COMMA", "", i, i)

    def in_literal_after_space(self) -> bool:
        return self.ws and self.value_end and bool(self.stack) and self.stack[-1].literal

    # -------------------------------------------------------------- names

    def name(self, word: str, i: int, j: int) -> int:
        if self.prev_type == "DOT":  # a field name, even if it is a keyword
            self.emit("NAME", word, i, j)
            return j
        kw = KEYWORDS.get(word)
        if kw is not None:
            return self.keyword(kw, word, i, j)
        if word in UNSUPPORTED_KEYWORDS and not self.stack and self.stmt_start:
            raise self.error(f"'{word}' is not supported yet by mlang.", i)
        if self.in_literal_after_space():
            self.auto_comma(i)
        if self.stmt_start and not self.stack:
            if self.pending == "catch":
                self.emit("CATCH_ID", word, i, j)
                self.assigned.add(word)
                return j
            if word in OCTAVE_ENDS and self.statement_ends_after(j):
                raise self.error(
                    f"'{word}' is not MATLAB syntax: MATLAB closes every block with 'end'.", i)
            if word == "arguments" and self.arguments_keyword_at(j):
                if self.fn_header:
                    return self.arguments_keyword(i, j)
                if self.misplaced_arguments_block(j):
                    raise self.error("Arguments blocks must come before any other statements "
                                     "in a function.", i)
            self.begin_statement()
            if not self.args_block and word not in self.assigned:
                k = self.command_start(j)
                if k >= 0:
                    return self.command(word, i, j, k)
            self.stmt_name = word
        else:
            if self.pending:
                self.note_assigned_name(word)
            top = self.stack[-1] if self.stack else None
            if (top is not None and top.tok.type == "LHS_LBRACKET"
                    and self.prev_type in ("LHS_LBRACKET", "COMMA")):
                self.assigned.add(word)  # [a, b] = ...
        self.emit("NAME", word, i, j)
        return j

    def note_assigned_name(self, word: str) -> None:
        pending = self.pending
        if pending == "for" or pending == "decl":
            self.assigned.add(word)
            if pending == "for":
                self.pending = ""
        elif pending == "signature" and self.stack:
            self.assigned.add(word)  # an output in [...] or a parameter

    def statement_ends_after(self, j: int) -> bool:
        k = WS.match(self.text, j).end()
        return k >= len(self.text) or self.text[k] in "\n;,%"

    def keyword(self, kw: str, word: str, i: int, j: int) -> int:
        if self.stack:
            if kw == "END" and any(b.index for b in self.stack):
                if self.in_literal_after_space():
                    self.auto_comma(i)
                self.emit("END_VAL", word, i, j)
                return j
            raise self.error(errors.reserved_keyword(word), i)
        blocks = self.blocks
        if kw == "END":
            if not blocks:
                raise self.error(errors.reserved_keyword(word), i)
            opener = blocks.pop()
            if opener.type == "FUNCTION":
                self.fn_closed_by_end = True
                self.assigned = self.outer_scopes.pop()
            elif opener.type == "ARGUMENTS":
                self.args_block = False
                self.fn_header = True
            self.emit("END", word, i, j)
            self.stmt_start = False
            return j
        if kw == "FUNCTION":
            if self.is_script is None:
                self.is_script = False
            if blocks and blocks[-1].type != "FUNCTION":
                raise self.error(
                    "Function definitions are not supported in this context. Functions can "
                    "only be created as local or nested functions in code files.", i)
            if blocks:
                self.fn_nested_at.append(len(self.toks))
            # a nested function shares its parent's workspace
            self.outer_scopes.append(self.assigned)
            self.assigned = set(self.assigned if blocks else self.outer_variables)
            self.pending = "signature"
        elif kw in ("ELSEIF", "ELSE"):
            self.expect_block(blocks, "IF", word, i)
        elif kw in ("CASE", "OTHERWISE"):
            self.expect_block(blocks, "SWITCH", word, i)
        elif kw == "CATCH":
            self.expect_block(blocks, "TRY", word, i)
            self.pending = "catch"
        elif kw in ("FOR", "PARFOR"):
            self.pending = "for"
        elif kw in ("GLOBAL", "PERSISTENT"):
            self.pending = "decl"
        if self.stmt_start:
            self.begin_statement()
        tok = self.emit(kw, word, i, j)
        if kw in BLOCK_OPENERS:
            if len(blocks) >= errors.NESTING_LIMIT:
                raise self.error(errors.nesting_too_deep(), i)
            blocks.append(tok)
        self.stmt_start = kw in STATEMENT_FOLLOWS or kw == "CATCH"
        return j

    def expect_block(self, blocks: list[Token], opener: str, word: str, i: int) -> None:
        if not blocks or blocks[-1].type != opener:
            raise self.error(errors.reserved_keyword(word), i)

    def arguments_keyword_at(self, j: int) -> bool:
        k = WS.match(self.text, j).end()
        return k >= len(self.text) or self.text[k] not in "=."

    def misplaced_arguments_block(self, j: int) -> bool:
        """``arguments`` alone on its line inside a function, but not at its top."""
        in_function = any(b.type == "FUNCTION" for b in self.blocks)
        return (in_function and "arguments" not in self.assigned
                and self.statement_ends_after(j) and self.text[j: j + 1] != ";")

    def arguments_keyword(self, i: int, j: int) -> int:
        self.stmt_start = False
        tok = self.emit("ARGUMENTS", "arguments", i, j)
        self.blocks.append(tok)
        self.args_block = True
        self.fn_header = False
        return j

    # ------------------------------------------------------- command syntax

    def command_start(self, j: int) -> int:
        """Where command-syntax arguments begin after a statement's first name, or -1.

        MATLAB's rule: the name is followed by whitespace, and then by something
        that is neither '(' nor '=', nor a binary operator followed by whitespace.
        """
        text = self.text
        if j >= len(text) or text[j] not in " \t":
            return -1
        k = WS.match(text, j).end()
        if k >= len(text):
            return -1
        c = text[k]
        if c in "\n;,%(" or text.startswith("...", k):
            return -1
        if c == "=" and text[k + 1: k + 2] != "=":
            return -1
        op = BINARY_OP.match(text, k)
        if op is not None:
            e = op.end()
            if e < len(text) and text[e] in " \t":
                return -1  # `a - b`: an operator with a space after it reads as an expression
        return k

    def command(self, word: str, i: int, j: int, k: int) -> int:
        self.emit("COMMAND", word, i, j)
        text = self.text
        n = len(text)
        depth = 0
        parts: list[str] | None = None
        start = k
        while k < n:
            c = text[k]
            if c == "\n" or c == "%" or (depth == 0 and c in ",;"):
                break
            if c == "." and text.startswith("...", k):
                if parts is not None:
                    self.emit("CMDARG", "".join(parts), start, k)
                    parts = None
                nl = text.find("\n", k)
                if nl < 0:
                    k = n
                    break
                self.new_line(nl)
                k = nl + 1
                continue
            if c in " \t" and depth == 0:
                if parts is not None:
                    self.emit("CMDARG", "".join(parts), start, k)
                    parts = None
                k += 1
                continue
            if parts is None:
                parts = []
                start = k
            if c == "'":
                m = CHAR_LIT.match(text, k)
                if m is None:
                    raise self.error("Character vector is not terminated properly.", k)
                parts.append(m.group(1).replace("''", "'"))
                k = m.end()
                continue
            if c == '"':
                m = STRING_LIT.match(text, k)
                if m is None:
                    raise self.error("String is not terminated properly.", k)
                parts.append(m.group())
                k = m.end()
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            parts.append(c)
            k += 1
        if parts is not None:
            self.emit("CMDARG", "".join(parts), start, k)
        self.prev_type = "CMDARG"
        return k

    def shell_escape(self, i: int) -> int:
        """``!command`` at the start of a statement: the rest of the line goes to the
        operating system's shell as it is (a COMMAND '!' with the line as its argument)."""
        end = self.text.find("\n", i)
        if end < 0:
            end = len(self.text)
        self.begin_statement()
        self.emit("COMMAND", "!", i, i + 1)
        if self.text[i + 1: end].strip():
            self.emit("CMDARG", self.text[i + 1: end], i + 1, end)
        self.prev_type = "CMDARG"
        return end

    # ----------------------------------------------------- numbers, strings

    def value_token(self, type_: str, value: str, i: int, j: int) -> None:
        """Emit a token that starts a value (a literal or a name)."""
        if self.in_literal_after_space():
            self.auto_comma(i)
        if self.stmt_start and not self.stack:
            self.begin_statement()
        self.emit(type_, value, i, j)

    def number(self, text: str, i: int, j: int) -> None:
        src = self.text
        if j < len(src) and (src[j].isalnum() or src[j] == "_" or
                             (src[j] == "." and src[j + 1: j + 2].isdigit())):
            raise self.error(errors.INVALID_EXPRESSION, j)
        if text[:2] in ("0x", "0X", "0b", "0B"):
            try:
                integer_literal(text)
            except ValueError as exc:
                raise self.error(str(exc), i) from None
        self.value_token("NUMBER", text, i, j)

    def quote(self, i: int) -> int:
        if self.value_end and not self.ws:
            self.emit("TRANSPOSE", "'", i, i + 1)
            return i + 1
        return self.text_literal(i, CHAR_LIT, "CHAR", "'", "Character vector")

    def string(self, i: int) -> int:
        return self.text_literal(i, STRING_LIT, "STRING", '"', "String")

    def text_literal(self, i: int, pattern: re.Pattern[str], type_: str, q: str, what: str) -> int:
        m = pattern.match(self.text, i)
        if m is None:
            raise self.error(f"{what} is not terminated properly.", i)
        self.value_token(type_, m.group(1).replace(q + q, q), i, m.end())
        return m.end()

    # ------------------------------------------------------------ operators

    def operator(self, op: str, i: int, j: int) -> None:
        text = self.text
        if op in "+-" and len(op) == 1:
            nxt = text[j: j + 1]
            if self.in_literal_after_space() and nxt not in (" ", "\t", "\n", ""):
                self.auto_comma(i)  # [1 -2]: a unary sign starts a new element
            if self.value_end and nxt == op and self.after_is_statement_end(j + 1):
                raise self.error(errors.INVALID_OPERATOR, i)  # Octave's x++ / x--
        if nxt_is_compound_assign(text, op, j) and not self.stack:
            raise self.error(errors.INVALID_OPERATOR, i)  # Octave's += -= *= /= ^=
        if op == "~" or op == "@":
            if self.in_literal_after_space():
                self.auto_comma(i)
        elif op == "=":
            if self.args_block and not self.stack:
                self.args_default = True
            if not self.stack and self.stmt_name is not None:
                self.assigned.add(self.stmt_name)
            elif self.pending == "signature" and self.prev_type == "NAME":
                self.assigned.add(self.toks[-1].value)  # function y = f(...)
        if self.stmt_start and not self.stack:
            self.begin_statement()
        self.emit(OPERATORS[op], op, i, j)

    def after_is_statement_end(self, k: int) -> bool:
        k = WS.match(self.text, k).end()
        return k >= len(self.text) or self.text[k] in "\n;,)]}%"

    def punctuation(self, c: str, i: int, j: int) -> int:
        """Handle ``c`` at ``i``; returns where tokenizing goes on."""
        if c == "(" or c == "[" or c == "{":
            return self.open_bracket(c, i, j)
        if c == ")" or c == "]" or c == "}":
            self.close_bracket(c, i, j)
        elif c == ",":
            if self.stack:
                if self.stack[-1].literal:
                    self.element_separator(i, j)
                else:
                    self.emit("COMMA", c, i, j)
            else:
                self.end_statement()
                if self.prev_type not in SEPARATORS and self.toks:
                    self.emit("COMMA", c, i, j)
        else:  # ';'
            if self.stack:
                if self.stack[-1].literal:
                    self.row_separator(i)
                else:
                    self.emit("SEMI", c, i, j)
            else:
                self.end_statement()
                if self.prev_type not in SEPARATORS and self.toks:
                    self.emit("SEMI", c, i, j)
        return j

    def open_bracket(self, c: str, i: int, j: int) -> int:
        stack = self.stack
        separate = self.in_literal_after_space()
        if separate:
            self.auto_comma(i)
        index = (self.value_end and c != "["
                 and not (self.args_block and not stack and not self.args_default))
        is_lambda = False
        outputs = c == "[" and self.prev_type == "FUNCTION"
        if c == "(":
            type_ = "INDEX_PAREN" if index else "LPAREN"
            is_lambda = self.prev_type == "AT"
        elif c == "{":
            type_ = "INDEX_BRACE" if index else "LBRACE"
        elif not stack and (outputs or (self.stmt_start and assignment_list_at(self.text, i))):
            type_ = "LHS_LBRACKET"
        else:
            type_ = "LBRACKET"
        if self.stmt_start and not stack:
            self.begin_statement()
        if len(stack) >= errors.NESTING_LIMIT:
            raise self.error(errors.nesting_too_deep(), i)
        if type_ == "LBRACKET" and self.fast_literals:
            found = scan(self.text, i)
            if found is not None:
                return self.numeric_matrix(i, j, *found)
        tok = self.emit(type_, c, i, j)
        stack.append(_Bracket(c, index, is_lambda, tok, outputs))
        return j

    def numeric_matrix(self, i: int, j: int, values: list[list[float]], end: int,
                       newlines: int) -> int:
        """A ``[...]`` of plain numbers read by ``matrix_literal.scan``: one token."""
        self.matrices.append(ast.NumericMatrix(values, self.text[i:end], line=self.line,
                                               col=i - self.line_start + 1, file=self.file))
        self.emit("MATRIX_LITERAL", "[", i, j)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rfind("\n", i, end) + 1
        return end

    def close_bracket(self, c: str, i: int, j: int) -> None:
        stack = self.stack
        kind, type_ = _CLOSERS[c]
        if not stack or stack[-1].kind != kind:
            raise self.error(errors.UNBALANCED, i)
        top = stack.pop()
        if top.literal:
            toks = self.toks
            if toks[-1].type == "COMMA":
                if top.outputs:  # allowed in [a, b,] = f() but not in a function's outputs
                    raise self.error(errors.parse_error_at(c), i)
                toks.pop()
            if toks[-1].type == "SEMI":
                toks.pop()
        self.emit(type_, c, i, j)
        if top.is_lambda:
            self.value_end = False  # @(x) y: the body starts here, it is no index

    # ------------------------------------------------------------- comments

    def alone_on_line(self, i: int, j: int) -> bool:
        return (self.text[self.line_start:i].strip() == "" and
                self.text[i:j].strip() in ("%{", "%}"))

    def block_comment(self, j: int) -> int:
        """Skip a %{ ... %} block comment (nestable); return the index of its last newline."""
        text = self.text
        depth = 1
        pos = j
        while depth:
            nl = text.find("\n", pos)
            if nl < 0:
                self.continued = True
                return len(text)  # an unterminated block comment runs to the end
            self.new_line(nl)
            pos = nl + 1
            end = text.find("\n", pos)
            body = text[pos: end if end >= 0 else len(text)].strip()
            if body == "%{":
                depth += 1
            elif body == "%}":
                depth -= 1
        end = text.find("\n", pos)
        return end if end >= 0 else len(text)

    def bad_character(self, i: int) -> MatlabSyntaxError:
        c = self.text[i]
        message = errors.INVALID_CHARACTER
        if c == "#":
            message += " Comments start with '%'."
        elif c == "!":
            message += " Use '~' for NOT and '~=' for not-equal."
        return self.error(message, i)


def nxt_is_compound_assign(text: str, op: str, j: int) -> bool:
    return op in ("+", "-", "*", "/", "^") and text[j: j + 1] == "=" and text[j + 1: j + 2] != "="
