"""mlang's layers, checked from the source: each module imports only from its own layer
or the layers below it, no import circle crosses a folder, and an import deferred into a
function body says why on its line or the line above.

``python tests/test_layering.py`` prints the module graph's figures.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mlang"

# Bottom to top.  A module belongs to the longest prefix that names it.
LAYERS = [
    ("mlang.errors", "mlang"),
    ("mlang.syntax",),
    ("mlang.values",),
    ("mlang.autodiff",),
    ("mlang.registry",),
    ("mlang.evaluation",),
    ("mlang.display",),
    ("mlang.builtins",),
    ("mlang.frontends", "mlang.__main__", "mlang.api", "mlang.kernel"),
]


def layer_of(module: str) -> int:
    best, best_len = -1, -1
    for number, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = number, len(prefix)
    if best < 0:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return best


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the mlang module imported ("" for a module outside mlang)
    line: int
    deferred: bool  # inside a function body
    explained: bool  # a comment on its line or the line above


def module_files() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")
            base = base[:len(base) - node.level + (1 if is_package else 0)]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        names = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem
                 for alias in node.names]
    found = []
    for name in names:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        found.append(name if name in modules else "")
    return found


def _explained(lines: list[str], index: int) -> bool:
    """A comment on the import's line, or on the line above the block of imports it is in
    (or on any line of that block)."""
    while True:
        if "#" in lines[index]:
            return True
        if index == 0:
            return False
        index -= 1
        text = lines[index].strip()
        if not text.startswith(("from ", "import ")):
            return text.startswith("#")


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports() -> list[Import]:
    modules = module_files()
    found: list[Import] = []
    for module, path in modules.items():
        text = path.read_text()
        lines = text.splitlines()
        is_package = path.name == "__init__.py"

        def visit(node: ast.AST, deferred: bool, module: str = module,
                  lines: list[str] = lines, is_package: bool = is_package) -> None:
            for child in ast.iter_child_nodes(node):
                if _is_type_checking(child):
                    continue  # annotations only: never imported at run time
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    explained = _explained(lines, child.lineno - 1)
                    for target in _targets(child, module, is_package, modules):
                        if target != module:
                            found.append(Import(module, target, child.lineno, deferred, explained))
                inner = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                visit(child, inner)

        visit(ast.parse(text), False)
    return found


def import_circles(edges: list[Import]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for edge in edges:
        if edge.target:
            graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[set[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(component)

    for v in list(graph):
        if v not in index:
            connect(v)
    return circles


def _folder(module: str) -> str:
    path = module_files()[module]
    return str(path.parent)


# ---------------------------------------------------------------- tests


def test_every_module_is_in_a_layer() -> None:
    for module in module_files():
        layer_of(module)


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = [f"{e.source} (layer {layer_of(e.source)}) imports {e.target} "
              f"(layer {layer_of(e.target)}) at line {e.line}"
              for e in imports() if e.target and layer_of(e.target) > layer_of(e.source)]
    assert upward == []


def test_no_import_circle_crosses_a_folder() -> None:
    crossing = [sorted(c) for c in import_circles(imports()) if len({_folder(m) for m in c}) > 1]
    assert crossing == []


def test_deferred_imports_say_why() -> None:
    silent = [f"{e.source} line {e.line}" for e in imports() if e.deferred and not e.explained]
    assert silent == []


def test_the_checks_catch_what_they_are_for() -> None:
    # An upward edge, a crossing circle and a layer lookup, on made-up modules.
    assert layer_of("mlang.values.core") < layer_of("mlang.autodiff.ops")
    assert layer_of("mlang.registry") < layer_of("mlang.evaluation.interpreter")
    assert layer_of("mlang.builtins.anything") == len(LAYERS) - 2
    circle = import_circles([Import("a.x", "b.y", 1, False, False),
                             Import("b.y", "a.x", 1, False, False),
                             Import("a.x", "c", 1, False, False)])
    assert circle == [{"a.x", "b.y"}]


# ---------------------------------------------------------------- report


def report() -> str:
    edges = imports()
    circles = import_circles(edges)
    largest = max(circles, key=len, default=set())
    deferred = {(e.source, e.line) for e in edges if e.deferred}
    deferred_mlang = {(e.source, e.line) for e in edges if e.deferred and e.target}
    sizes = sorted(((len(p.read_text().splitlines()), m) for m, p in module_files().items()),
                   reverse=True)
    lines = [
        f"modules: {len(module_files())}",
        f"largest import circle: {len(largest)} modules {sorted(largest)}",
        f"import circles: {len(circles)} ({sum(len(c) for c in circles)} modules)",
        f"deferred imports: {len(deferred)} ({len(deferred_mlang)} of mlang modules)",
        "largest files: " + ", ".join(f"{m} {n}" for n, m in sizes[:5]),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
