"""The front end: MATLAB source → tokens → AST.

``lexer`` makes every context-dependent decision and emits tokens; the LALR
grammar in ``matlab.lark`` parses them; ``build`` turns reductions into the
nodes of ``ast``; ``cache`` keeps parsed files on disk; ``unparse`` turns a
tree back into source.
"""

from mlang.syntax.cache import parse_file
from mlang.syntax.parser import Parser, parse

__all__ = ["Parser", "parse", "parse_file"]
