"""Writes ``lalr_tables.py``, the parse tables of ``matlab.lark``, so that parsing needs no
grammar analysis and no Lark at run time.

    python -m mlang.syntax.make_tables

Run it after any change to the grammar; tests/syntax/test_tables.py fails until then.
Lark is needed here only (it computes the LALR(1) automaton and checks for conflicts).
"""

from __future__ import annotations

from pathlib import Path

GRAMMAR = Path(__file__).with_name("matlab.lark")
TABLES = Path(__file__).with_name("lalr_tables.py")


def make_lark(debug: bool = False):  # noqa: ANN201 (a lark.Lark; lark is imported here only)
    """Lark's LALR parser of the grammar (``debug`` logs its conflicts)."""
    from lark import Lark  # only building the tables needs Lark
    from lark.lexer import Lexer

    class TokenList(Lexer):
        def __init__(self, lexer_conf: object) -> None:
            pass

        def lex(self, data):  # noqa: ANN001, ANN202
            return iter(data)

    return Lark(GRAMMAR.read_text(), parser="lalr", lexer=TokenList, debug=debug)


def tables_source() -> str:
    """The text of ``lalr_tables.py`` for the grammar as it is now."""
    from lark.parsers.lalr_analysis import Shift  # only building the tables needs Lark

    lark = make_lark()
    table = lark.parser.parser.parser.parse_table
    rules = list(lark.rules)
    index = {rule: i for i, rule in enumerate(rules)}
    lines = [
        '"""Parse tables of matlab.lark, written by make_tables.py: do not edit."""',
        "# ruff: noqa",
        "",
        "# A rule: (name of the rule it makes, how many symbols it takes, name of the builder's",
        "# method, whether one child is passed up as it is (?rule), children to keep as",
        "# (index, splice the child's children) or None for all of them as they are)",
        "RULES = (",
    ]
    for rule in rules:
        options = rule.options
        expansion = rule.expansion
        keep = [(i, not sym.is_term and sym.name.startswith("_")) for i, sym in enumerate(expansion)
                if options.keep_all_tokens or not (sym.is_term and sym.filter_out)]
        plain = len(keep) == len(expansion) and not any(splice for _, splice in keep)
        name = rule.alias or options.template_source or rule.origin.name
        expand1 = bool(options.expand1 and not rule.alias)
        lines.append(f"    ({str(rule.origin.name)!r}, {len(expansion)}, {str(name)!r}, {expand1}, "
                     f"{None if plain else tuple(keep)!r}),")
    lines.append(")")
    lines.append("")
    lines.append("# For each state, symbol -> the next state (shift or go to) when >= 0, else the rule")
    lines.append("# -1 - value to reduce by")
    # Lark numbers the states in an order that changes from run to run (it walks sets):
    # number them in the order a walk from the start state meets them, symbols sorted
    start = table.start_states["start"]
    number = {start: 0}
    order = [start]
    for state in order:  # grows while it is walked
        for symbol in sorted(table.states[state], key=str):
            action, arg = table.states[state][symbol]
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    lines.append("STATES = (")
    for state in order:
        actions = table.states[state]
        items = []
        for symbol in sorted(actions, key=str):
            action, arg = actions[symbol]
            items.append(f"{str(symbol)!r}: {number[arg] if action is Shift else -1 - index[arg]}")
        lines.append("    {" + ", ".join(items) + "},")
    lines.append(")")
    lines.append("START = 0")
    lines.append(f"END = {number[table.end_states['start']]}")
    return "\n".join(lines) + "\n"


def main() -> None:
    TABLES.write_text(tables_source())
    print(f"wrote {TABLES}")


if __name__ == "__main__":
    main()
