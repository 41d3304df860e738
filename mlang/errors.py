"""Errors that mlang reports to users, rendered in MATLAB's layout."""

from __future__ import annotations

import os

# MATLAB's wording for the syntax errors users meet most often.
INVALID_EXPRESSION = (
    "Invalid expression. Check for missing multiplication operator, missing or unbalanced "
    "delimiters, or other syntax error. To construct matrices, use brackets instead of parentheses."
)
UNBALANCED = "Unbalanced or unexpected parenthesis or bracket."
INVALID_OPERATOR = "Invalid use of operator."
INVALID_CHARACTER = "The input character is not valid in MATLAB statements or expressions."
MISSING_END = "At least one END is missing: the statement may begin here."
BAD_ASSIGN = (
    "Incorrect use of '=' operator. To assign a value to a variable, use '='. "
    "To compare values for equality, use '=='."
)


def reserved_keyword(word: str) -> str:
    return f'Illegal use of reserved keyword "{word}".'


def parse_error_at(text: str) -> str:
    return f"Parse error at '{text}': usage might be invalid MATLAB syntax."


class MatlabSyntaxError(Exception):
    """A syntax error with the place it was found.

    ``str()`` gives MATLAB's layout: a ``File: … Line: … Column: …`` header
    (for code from a file), the message, then the offending line with a caret.
    """

    def __init__(self, message: str, file: str = "", line: int = 0, col: int = 0,
                 source_line: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.source_line = source_line

    def __str__(self) -> str:
        parts = []
        if self.file:
            name = os.path.basename(self.file)
            parts.append(f"Error: File: {name} Line: {self.line} Column: {self.col}")
            parts.append(self.message)
        else:
            parts.append(f"Error: {self.message}")
        if self.source_line is not None:
            text = self.source_line.expandtabs(1)
            parts.append(text)
            parts.append(" " * max(self.col - 1, 0) + "^")
        return "\n".join(parts)
