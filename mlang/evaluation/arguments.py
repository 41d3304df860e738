"""``arguments`` blocks: defaults for missing inputs, then size, class and validator checks."""

from __future__ import annotations

from typing import Any

from mlang.errors import error
from mlang.syntax import ast


def compile_arguments(compiler: Any, blocks: list[ast.ArgumentsBlock], params: list) -> Any:
    """Code run after a call binds its inputs: fills defaults and validates."""
    specs = [s for b in blocks if "Output" not in b.attributes for s in b.specs]
    steps = []
    for spec in specs:
        if len(spec.name) != 1:
            continue  # opts.Name name=value options: handled with the evaluator's options support
        name = spec.name[0]
        default = compiler.expr(spec.default) if spec.default is not None else None
        validators = [(v, compiler.expr(v)) for v in spec.validators]
        steps.append((name, default, validators))
    interp = compiler.interp

    def run(frame: Any, args: list) -> None:
        vars = frame.vars
        for name, default, validators in steps:
            if name not in vars:
                if default is None:
                    if name in params:
                        continue
                    continue
                vars[name] = default(frame)
            for node, _ in validators:
                fn = node.base.name if type(node) is ast.Index else getattr(node, "name", None)
                if fn is None:
                    continue
                call_args = [vars[name]]
                if type(node) is ast.Index:
                    from mlang.evaluation.compiler import Compiler  # noqa: F401

                    call_args = [vars[name]] + [compiler.expr(a)(frame) for a in node.args[1:]]
                target = interp.resolve(fn)
                if target is None:
                    raise error("MATLAB:UndefinedFunction", f"Unrecognized function or variable '{fn}'.")
                interp.invoke(target, call_args, 0, frame)

    return run
