"""Long runs of ``operator number`` pairs, as in ``1+1+...+1``, read as one token.

The tokenizer finds such a run with one regular expression (the pairs its inline
loop would read one by one) and hands the parser a single OperandRun token that
holds the operators and the numbers' texts.  The parser's driver adds all its pairs
at once to the operator sequence it is growing when its tables take the same step
for every pair (see ``Parser._run``): as a SUM_RUN token that the builder makes one
SumRun node of, when they are many pairs of + and - with plain decimals, else as
their operator tokens and Number nodes.  Anywhere else it opens the run into the
ordinary tokens of its first pair and a run of the rest, so the grammar sees exactly
the tokens the tokenizer would have made.
"""

from __future__ import annotations

import re

from mlang.syntax import ast
from mlang.syntax.literals import number_value
from mlang.syntax.patterns import OPERATOR_NUMBER
from mlang.syntax.tokens import Token, make_token

RUN_KIND = "OPERAND_RUN"  # no terminal of the grammar: the tables never act on it
MIN_PAIRS = 8  # shorter runs are ordinary tokens (a run saves nothing there)
SUM_RUN_KIND = "SUM_RUN"  # the builder's: pairs of a run that make one SumRun node
# Runs of more pairs of + and - become a SumRun node (the evaluator computes chains as
# long as these in one loop either way: see the compiler's binary_chain)
SUM_RUN_PAIRS = 64
_SUM_KINDS = frozenset({"PLUS", "MINUS"})

_RUN_SPAN = re.compile(f"(?:{OPERATOR_NUMBER.pattern})+")
_RUN_CHARACTERS = re.compile(r"[0-9.eEijIJ+\-*/\\^<>=&|~:]*")
_ENDS_RUN = frozenset(" \t\n)]},;'\"%")  # what may follow a number, but not in a run
# OPERATOR_NUMBER's operators but those starting with '.' (which no integer may be followed by)
_OPERATORS = re.compile(r"(==|~=|<=|>=|&&|\|\||[-+*/\\^<>&|:])")
_NOT_INTEGER = re.compile("[.eEijIJ]")
# the characters of the operators of two characters (==, ~=, <=, >=, &&, ||) but < and >
_TWO_CHARACTER_OPERATORS = re.compile("[=~&|]")
_ONE_CHARACTER_OPERATORS = "+-*/\\^<>:"
_OPERATORS_TO_PLUS = str.maketrans(dict.fromkeys(_ONE_CHARACTER_OPERATORS, "+"))
_DROP_OPERATORS = str.maketrans(dict.fromkeys(_ONE_CHARACTER_OPERATORS))
_DROP_DIGITS = str.maketrans(dict.fromkeys("0123456789"))
_NOT_PLAIN_DECIMAL = frozenset("ijIJ")  # last characters of imaginary literals

_new_str = str.__new__
_new_object = object.__new__


class OperandRun(Token):
    """Pairs ``first`` onwards of the run of operators ``ops`` and numbers ``numbers``
    (texts, all on one line, starting at column ``start_pos - line_start + 1``), with
    ``op_tokens`` the operator token of each operator text and ``kinds`` the set of the
    operators' token types.  ``items``, the operator tokens and Number nodes of all its
    pairs in order, are made when first asked for (a run that becomes a SumRun never
    needs them)."""

    __slots__ = ("ops", "numbers", "made_items", "first", "kinds", "line_start", "op_tokens", "file",
                 "origin", "integers")
    ops: list[str]
    numbers: list[str]
    made_items: list  # (shared by the runs open_run makes of one run, filled once)
    first: int
    kinds: frozenset[str]
    line_start: int
    op_tokens: dict[str, Token]
    file: str
    origin: int  # where the first pair starts in the text
    integers: bool  # every number is an integer (read by _integer_run)

    @property
    def items(self) -> list:
        made = self.made_items
        if not made:
            made += _items(self)
        return made


def number_node(text: str, line: int, col: int, file: str) -> ast.Number:
    """The Number node of a numeric literal, as the builder's ``number`` makes it."""
    if text[-1] in _NOT_PLAIN_DECIMAL or text[:2] in ("0x", "0X", "0b", "0B"):
        value, cls = number_value(text)
    else:
        value, cls = float(text), "double"
    return ast.Number(value, cls, text=text, line=line, col=col, file=file)


def read_run(text: str, j: int, line: int, line_start: int, file: str,
             operators: dict[str, str], limit: int | None = None) -> OperandRun | None:
    """The run of at least MIN_PAIRS pairs at ``j`` (right after a plain number), or None;
    ``limit``: where the run is known to end."""
    # The run lies within the characters of operators and numbers (one character-class scan
    # instead of a run pattern's backtracking): integers cut at the operators, or else the
    # pairs there one by one (each pattern's look-ahead seeing the character after them too),
    # are the run if they follow one another with no gap
    end = _RUN_CHARACTERS.match(text, j).end() if limit is None else limit
    if end - j < 2 * MIN_PAIRS:
        return None
    split = _integer_run(text, j, end)
    if split is None:
        pairs = OPERATOR_NUMBER.findall(text, j, end + 1)
        ops, numbers = [op for op, _ in pairs], [digits for _, digits in pairs]
    else:
        ops, numbers = split
    if len(ops) < MIN_PAIRS:
        return None
    if split is None and j + sum(map(len, ops)) + sum(map(len, numbers)) != end:
        # a gap between pairs (integers cut apart cover the window): the run ends at the first
        span = _RUN_SPAN.match(text, j)
        return read_run(text, j, line, line_start, file, operators, span.end()) if span else None
    # one operator token per operator: the builder reads only the type and text of a
    # binary operator (a binary node takes its place from its left operand)
    op_tokens = {op: make_token(operators[op], op, j, line, j - line_start + 1, j + len(op))
                 for op in set(ops)}
    run = _new_run(ops, numbers, [], 0, frozenset(tok.type for tok in op_tokens.values()),
                   j, end, line, line_start)
    run.op_tokens, run.file, run.origin, run.integers = op_tokens, file, j, split is not None
    return run


def _items(run: OperandRun) -> list:
    """The operator tokens and Number nodes of all the run's pairs, in order."""
    line, file = run.line, run.file
    items: list = []
    push = items.append
    number = ast.Number
    col = run.origin - run.line_start + 1  # (the column of the first pair's operator)
    # each distinct plain decimal text converted once; imaginary literals (not in values)
    # are made by number_node
    numbers = run.numbers
    values = {digits: float(digits) for digits in set(numbers) if digits[-1] not in _NOT_PLAIN_DECIMAL}
    value_of = values.get
    for op_token, digits in zip(map(run.op_tokens.__getitem__, run.ops), numbers, strict=True):
        push(op_token)
        col += len(op_token)
        value = value_of(digits)
        if value is None:
            push(number_node(digits, line, col, file))
        else:  # the fields Number.__init__ sets, without the class call's cost
            node = _new_object(number)
            node.value = value
            node.cls = "double"
            node.text = digits
            node.line = line
            node.col = col
            node.file = file
            push(node)
        col += len(digits)
    return items


def _integer_run(text: str, j: int, end: int) -> tuple[list[str], list[str]] | None:
    """The operators and numbers of ``text[j:end]`` cut at its operators, when its numbers
    are all integers (no '.', exponent or imaginary unit: the commonest long runs), where
    that reads what the pairs one by one read; else None."""
    if (end < len(text) and text[end] not in _ENDS_RUN) or _NOT_INTEGER.search(text, j, end):
        return None
    window = text[j:end]
    if _TWO_CHARACTER_OPERATORS.search(window) is None:
        # one-character operators only: translating them all to '+' cuts the numbers apart
        # and deleting the digits leaves the operators, both far cheaper than a regex split
        cut = window.translate(_OPERATORS_TO_PLUS)
        # an operator first, and a number after each (searched in the text, not the list)
        if cut[0] != "+" or "++" in cut or cut[-1] == "+" \
                or not window.translate(_DROP_OPERATORS).isdigit():
            return None
        numbers = cut.split("+")
        return list(window.translate(_DROP_DIGITS)), numbers[1:]
    pieces = _OPERATORS.split(window)
    numbers = pieces[2::2]
    # (ASCII digits only: the window holds no others, see _RUN_CHARACTERS)
    if pieces[0] or "" in numbers or not "".join(numbers).isdigit():
        return None
    return pieces[1::2], numbers


def _new_run(ops: list[str], numbers: list[str], items: list, first: int, kinds: frozenset[str],
             start: int, end: int, line: int, line_start: int) -> OperandRun:
    run = _new_str(OperandRun, ops[first])
    run.type = RUN_KIND
    run.value = ops[first]
    run.start_pos = start
    run.end_pos = end
    run.line = run.end_line = line
    run.column = start - line_start + 1
    run.end_column = end - line_start + 1
    run.ops, run.numbers, run.made_items, run.first = ops, numbers, items, first
    run.kinds, run.line_start = kinds, line_start
    return run


def open_run(run: OperandRun) -> list[Token]:
    """The ordinary tokens of the run's first pair, then a run of the rest (if any)."""
    first = run.first
    op, digits = run.ops[first], run.numbers[first]
    line, line_start = run.line, run.line_start
    i = run.start_pos
    k = i + len(op)
    end = k + len(digits)
    out = [make_token(run.op_tokens[op].type, op, i, line, i - line_start + 1, k),
           make_token("NUMBER", digits, k, line, k - line_start + 1, end)]
    if first + 1 < len(run.ops):
        rest = _new_run(run.ops, run.numbers, run.made_items, first + 1, run.kinds, end, run.end_pos,
                        line, line_start)
        rest.op_tokens, rest.file, rest.origin, rest.integers = (run.op_tokens, run.file, run.origin,
                                                                 run.integers)
        out.append(rest)
    return out


def remaining_items(run: OperandRun) -> list:
    """The operator tokens and Number nodes of the run's pairs, in order."""
    first = run.first
    return run.items[2 * first:] if first else run.items


def sum_run_marker(run: OperandRun) -> Token | None:
    """When the run's remaining pairs are more than SUM_RUN_PAIRS of ``+`` and ``-`` with
    plain decimal numbers: a SUM_RUN token standing for all of them but the last, whose
    ``value`` is the run (the builder makes them a SumRun node, see ``Builder._climb``);
    else None."""
    first = run.first
    if len(run.ops) - first <= SUM_RUN_PAIRS or not run.kinds <= _SUM_KINDS:
        return None
    if not run.integers:  # (a run of integers has no imaginary literal to look for)
        numbers = run.numbers[first:-1] if first else run.numbers[:-1]
        if any(digits[-1] in _NOT_PLAIN_DECIMAL for digits in set(numbers)):
            return None
    marker = make_token(SUM_RUN_KIND, "", run.start_pos, run.line, run.column, run.end_pos)
    marker.value = run  # type: ignore[assignment]
    return marker


def sum_run_tail(run: OperandRun) -> tuple[Token, ast.Number]:
    """The operator token and Number node of the run's last pair (after a SUM_RUN token)."""
    ops, numbers = run.ops, run.numbers
    op, digits = ops[-1], numbers[-1]
    col = run.end_pos - len(digits) - run.line_start + 1
    return run.op_tokens[op], number_node(digits, run.line, col, run.file)


def sum_run_node(first: ast.Node, marker: Token) -> ast.SumRun:
    """The SumRun of ``first`` and the pairs a SUM_RUN token stands for."""
    run: OperandRun = marker.value  # type: ignore[assignment]
    skip = run.first
    ops = "".join(run.ops[skip:-1])
    numbers = run.numbers[skip:-1]
    texts = set(numbers)
    if len(texts) == 1:  # one number throughout, as in 1+1+...+1
        values = [float(numbers[0])] * len(numbers)
    else:  # each distinct text converted once
        value_of = {digits: float(digits) for digits in texts}
        values = list(map(value_of.__getitem__, numbers))
    return ast.SumRun(first, ops, numbers, values, run.line, run.start_pos - run.line_start + 1,
                      line=first.line, col=first.col, file=run.file)
