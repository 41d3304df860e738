"""The tokens the tokenizer hands the parser: strings that know their type and place."""

from __future__ import annotations


class Token(str):
    """A token's text with its ``type`` (a terminal of matlab.lark) and position: ``start_pos``
    and ``end_pos`` index the text, ``line``/``column`` count from 1 (as Lark's tokens)."""

    __slots__ = ("type", "start_pos", "value", "line", "column", "end_line", "end_column", "end_pos")
    type: str
    value: str

    def __new__(cls, type: str, value: str, start_pos: int | None = None,  # noqa: A002
                line: int | None = None, column: int | None = None, end_line: int | None = None,
                end_column: int | None = None, end_pos: int | None = None) -> Token:
        token = str.__new__(cls, value)
        token.type = type
        token.value = value
        token.start_pos = start_pos
        token.line = line
        token.column = column
        token.end_line = end_line
        token.end_column = end_column
        token.end_pos = end_pos
        return token

    @classmethod
    def new_borrow_pos(cls, type: str, value: str, borrow: Token) -> Token:  # noqa: A002
        """A token of ``type`` and ``value`` at the place of ``borrow``."""
        return cls(type, value, borrow.start_pos, borrow.line, borrow.column,
                   borrow.end_line, borrow.end_column, borrow.end_pos)

    def __reduce__(self) -> tuple:
        return (type(self), (self.type, self.value, self.start_pos, self.line, self.column,
                             self.end_line, self.end_column, self.end_pos))

    def __deepcopy__(self, memo: dict) -> Token:
        return self

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"


_new_str = str.__new__


def make_token(type_: str, value: str, start_pos: int, line: int, column: int, end_pos: int) -> Token:
    """A one-line token, as ``Token(...)`` makes it but without the class call's cost (the
    tokenizer makes one per token)."""
    token = _new_str(Token, value)
    token.type = type_
    token.value = value
    token.start_pos = start_pos
    token.line = token.end_line = line
    token.column = column
    token.end_column = column + end_pos - start_pos
    token.end_pos = end_pos
    return token
