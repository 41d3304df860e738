"""The front end: MATLAB source → tokens → AST.

``lexer`` makes every context-dependent decision and emits tokens; ``parser``
parses them with the LALR tables of the grammar in ``matlab.lark`` (written to
``lalr_tables.py`` by ``make_tables``); ``build`` turns reductions into the
nodes of ``ast``; ``cache`` keeps parsed files on disk; ``unparse`` turns a
tree back into source.
"""

from mlang.syntax.cache import parse_file
from mlang.syntax.parser import Parser, parse

__all__ = ["Parser", "parse", "parse_file"]
