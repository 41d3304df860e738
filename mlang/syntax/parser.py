"""MATLAB source to AST: the tokenizer feeding an LALR(1) parser.

The parse tables come from ``matlab.lark`` through ``make_tables.py`` (Lark computes
them there); here a small driver runs them and calls the builder on each reduction,
as Lark's own LALR parser with an inline transformer would.
"""

from __future__ import annotations

from _thread import _local as thread_local  # threading.local itself (threading costs at start-up)
from collections.abc import Callable
from gc import disable as gc_disable
from gc import enable as gc_enable
from gc import isenabled as gc_isenabled

from mlang import errors
from mlang.errors import MatlabSyntaxError
from mlang.syntax import ast
from mlang.syntax.build import Builder, Splice
from mlang.syntax.lalr_tables import END, RULES, START, STATES
from mlang.syntax.lexer import KEYWORDS, normalize_newlines, tokenize_for_parser
from mlang.syntax.operand_runs import (
    RUN_KIND,
    OperandRun,
    open_run,
    remaining_items,
    sum_run_marker,
    sum_run_tail,
)
from mlang.syntax.tokens import Token

_CLOSERS = {"RPAREN", "RBRACKET", "RBRACE"}
_ENDS_OF_STATEMENT = {"NEWLINE", "SEMI", "COMMA", "$END"}


_UNKNOWN = object()  # a key not yet in Parser._cycles


class _UnexpectedToken(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__(token.type)
        self.token = token


# How a reduction makes its value (see ``_reductions``).
_CALL = 0  # the rule's function of its children
_PASS = 1  # a ?rule of one symbol: that symbol's value stands for the rule
_GROW = 2  # a helper list rule that extends itself: the list grows in place


def _reductions(builder: Builder) -> list[tuple[str, int, int, Callable[[list], object]]]:
    """For each rule: its name, its length, how it reduces (_CALL, _PASS or _GROW) and the
    function of its children that makes its value (the builder's method, with ?rule and
    helper-rule children handled)."""
    out = []
    for origin, size, name, expand1, keep in RULES:
        method = getattr(builder, name, None)
        if method is None:
            method = _default(builder, name)
            if keep is not None and size > 1 and keep == ((0, True), *((i, False) for i in range(1, size))):
                out.append((origin, size, _GROW, method))
                continue
        if expand1 and size == 1 and keep is None:
            out.append((origin, size, _PASS, method))
            continue
        if expand1:
            method = _single_child_or(method)
        if keep is not None:
            method = _kept_children(keep, method)
        out.append((origin, size, _CALL, method))
    return out


def _default(builder: Builder, name: str) -> Callable[[list], object]:
    if type(builder).__default__ is Builder.__default__:
        return Splice  # what it makes, without the two calls in between
    return lambda children: builder.__default__(name, children, None)


def _single_child_or(method: Callable[[list], object]) -> Callable[[list], object]:
    """A ?rule: one child stands for the rule itself."""
    return lambda children: children[0] if len(children) == 1 else method(children)


def _kept_children(keep: tuple, method: Callable[[list], object]) -> Callable[[list], object]:
    """Children of helper rules spliced in (and dropped terminals left out)."""
    def call(children: list) -> object:
        kept: list = []
        for i, splice in keep:
            if splice:
                if kept:
                    kept += children[i].children
                else:
                    kept = children[i].children  # a left-recursive list grows in place
            else:
                kept.append(children[i])
        return method(kept)
    return call


class Parser:
    """A reusable parser: the parse tables' driver and its AST builder."""

    def __init__(self, fast_literals: bool = True, operand_runs: bool = True) -> None:
        self._builder = Builder()
        self._reductions = _reductions(self._builder)
        self.fast_literals = fast_literals  # False: every [...] through the grammar (for tests)
        self.operand_runs = operand_runs  # False: no OperandRun tokens (for tests)
        self._number = next(reduce for origin, _, _, reduce in self._reductions if origin == "number")
        # (below, state, operator, run's operator kinds, lookahead) -> whether a whole run joins
        # the growing list there (see _run_fits)
        self._run_fits_cache: dict[tuple, bool] = {}
        # (state below, list state, operator, operand, lookahead) -> the operand's rule
        # function when the pair repeats a growing list's step (see _cycle), else None
        self._cycles: dict[tuple, Callable[[list], object] | None] = {}

    def parse(self, text: str, file: str = "",
              variables: frozenset[str] | set[str] = frozenset()) -> ast.Program:
        """Parse a whole file or code fragment; raise MatlabSyntaxError on bad input."""
        # A parse makes a node or token per token and frees almost none of them, with no
        # reference cycles among them: the cyclic collector, run on every few hundred new
        # objects, would walk them again and again (half the time of a long expression).
        # It is paused for the parse and finds them all young once afterwards.
        collecting = gc_isenabled()
        if collecting:
            gc_disable()
        try:
            tokens, matrices = tokenize_for_parser(text, file, variables, self.fast_literals,
                                                   self.operand_runs)
            builder = self._builder
            builder.file = file
            builder.lambda_depths.clear()
            builder.matrices = matrices
            builder.next_matrix = 0
            return self._run(tokens)  # type: ignore[return-value]
        except MatlabSyntaxError as exc:
            if exc.source_line is None:
                exc.source_line = _source_line(text, exc.line)
            raise
        except _UnexpectedToken as exc:
            raise _syntax_error(exc.token, text, file) from None
        finally:
            if collecting:
                gc_enable()

    def _cycle(self, below: int, state: int, operator: str, operand: str,
               lookahead: str) -> Callable[[list], object] | None:
        """The function of the operand's rule if, with ``below`` and ``state`` on top of
        the stack (``state`` holding a helper list that grows itself), the tokens
        ``operator operand`` followed by ``lookahead`` only shift the operator (a ?rule
        passes it on), reduce the operand by a one-symbol rule (and ?rules passing it
        on) and add both to the list, leaving the stack as it was; else None."""
        states = STATES
        reductions = self._reductions
        stack = [below, state]
        steps: list[tuple[int, int, int, Callable[[list], object]]] = []  # (phase, size, how, f)
        for phase, look in enumerate((operator, operand, lookahead)):
            while not (phase == 2 and stack == [below, state] and steps):
                action = states[stack[-1]].get(look)
                if action is None or (action >= 0 and phase == 2):
                    return None
                if action >= 0:
                    stack.append(action)
                    break
                origin, size, how, reduce = reductions[-1 - action]
                steps.append((phase, size, how, reduce))
                if size >= len(stack):
                    return None
                del stack[len(stack) - size:]
                goto = states[stack[-1]].get(origin)
                if goto is None:
                    return None
                stack.append(goto)
        *passing, grow = steps
        calls = [step for step in passing if step[2] != _PASS]
        if (grow[1:3] != (3, _GROW) or len(calls) != 1 or calls[0][:2] != (2, 1)
                or any(step[0] == 0 for step in steps)
                or next(step for step in steps if step[0] == 2) is not calls[0]):
            return None
        return calls[0][3]

    def _run_fits(self, below: int, state: int, operator: str, run: OperandRun, lookahead: str) -> bool:
        """Whether ``operator NUMBER`` then the pairs of ``run`` then ``lookahead`` each take
        the tables round the growing list's step (see _cycle) with the builder's ``number``
        as the operand's rule, for every order of the run's operator kinds."""
        key = (below, state, operator, run.kinds, lookahead)
        fits = self._run_fits_cache.get(key)
        if fits is None:
            cycles = self._cycles
            fits = True
            for before in run.kinds | {operator}:
                for after in run.kinds | {lookahead}:
                    step = (below, state, before, "NUMBER", after)
                    operand = cycles.get(step, _UNKNOWN)
                    if operand is _UNKNOWN:
                        operand = cycles[step] = self._cycle(*step)
                    fits = fits and operand is self._number
            self._run_fits_cache[key] = fits
        return fits

    def _run(self, tokens: list[Token]) -> object:
        # The driver's hot loop: tables, stacks and methods are locals, the current state
        # is kept out of the stack, and ?rules of one symbol reduce without a call.
        states = STATES
        reductions = self._reductions
        state_stack = [START]
        push_state = state_stack.append
        value_stack: list = []
        push_value = value_stack.append
        pop_value = value_stack.pop
        state = START
        row = states[state]
        end = Token.new_borrow_pos("$END", "", tokens[-1]) if tokens else Token("$END", "", 0, 1, 1)
        tokens.append(end)
        cycles = self._cycles
        last = len(tokens) - 1
        at = 0  # index of the token after the lookahead
        try:
            while True:
                token = tokens[at]
                at += 1
                kind = token.type
                while True:
                    action = row.get(kind)
                    if action is None:
                        if kind == RUN_KIND:  # not at a growing list: the run's tokens one pair on
                            tokens[at - 1: at] = open_run(token)
                            last = len(tokens) - 1
                            token = tokens[at - 1]
                            kind = token.type
                            continue
                        raise _UnexpectedToken(token)
                    if action >= 0:  # shift
                        push_state(action)
                        push_value(token)
                        state = action
                        row = states[action]
                        break
                    origin, size, how, reduce = reductions[-1 - action]
                    if how == _PASS:
                        state_stack.pop()
                        state = states[state_stack[-1]][origin]
                        push_state(state)
                        row = states[state]
                        continue
                    if how == _GROW:
                        tail = value_stack[1 - size:]
                        del value_stack[1 - size:]
                        del state_stack[-size:]
                        grown = value_stack[-1]
                        grown.children += tail
                        below = state_stack[-1]
                        state = states[below][origin]
                        push_state(state)
                        row = states[state]
                        # (operator, operand) pairs that take the tables round this same step
                        # again, as in 1+1+...+1, are added to the list here at once
                        while at < last:
                            key = (below, state, kind, tokens[at].type, tokens[at + 1].type)
                            operand = cycles.get(key, _UNKNOWN)
                            if operand is _UNKNOWN:
                                operand = cycles[key] = self._cycle(*key)
                            if operand is None:
                                run = tokens[at + 1]
                                if (run.type != RUN_KIND or at + 2 > last
                                        or not self._run_fits(below, state, kind, run, tokens[at + 2].type)):
                                    break
                                # this pair, then every pair of the run, then on after it
                                grown.children += (token, self._number([tokens[at]]))
                                marker = sum_run_marker(run)
                                if marker is None:
                                    grown.children += remaining_items(run)
                                else:  # a long run of + and -: one SumRun node, its last pair apart
                                    grown.children += (marker, *sum_run_tail(run))
                                token = tokens[at + 2]
                                kind = token.type
                                at += 3
                                continue
                            grown.children += (token, operand([tokens[at]]))
                            token = tokens[at + 1]
                            kind = token.type
                            at += 2
                        continue
                    if size == 1:
                        children = [pop_value()]
                        state_stack.pop()
                    elif size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value = reduce(children)
                    state = states[state_stack[-1]][origin]
                    push_state(state)
                    push_value(value)
                    row = states[state]
                    if state == END and token is end:
                        return value
        finally:
            tokens.pop()
        raise AssertionError("the tables end every parse at END")  # pragma: no cover


def _source_line(text: str, line: int) -> str:
    lines = normalize_newlines(text).split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _syntax_error(tok: Token, text: str, file: str) -> MatlabSyntaxError:
    if tok.line is None:
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


_local = thread_local()


def default_parser() -> Parser:
    """This thread's shared parser (a parser holds per-parse state, so threads get their own)."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser()
    return parser


def parse(text: str, file: str = "", variables: frozenset[str] | set[str] = frozenset()) -> ast.Program:
    """Parse MATLAB source text into a Program."""
    return default_parser().parse(text, file, variables)
