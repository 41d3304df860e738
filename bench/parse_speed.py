"""Parse speed of the mlang front end on a generated 10,000-line MATLAB file.

    python bench/parse_speed.py [--lines N] [--runs R]

Prints CPU seconds and lines/second (median of R runs) for: the tokenizer
alone, a cold parse (tokenize + LALR + AST), and a warm load from the on-disk
AST cache; then the CPU seconds and microseconds per token of a cold parse of
long one-line inputs (operator chains, parentheses nested 500 deep).  The
generated file mixes what real scripts contain: assignments, calls, matrix
literals, loops, conditionals, comments, command syntax, local functions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from mlang.syntax import Parser
from mlang.syntax.lexer import tokenize

BLOCKS = [
    "% {i}: update the state\nx{i} = a * b + c{j} .^ 2 - sqrt(abs(d(k, :)));\n",
    "y{i} = [1 -2 3; 4 5 -6] * z' + ones(3, 1);\n",
    "s.field{i} = struct('name', 'item{i}', 'value', {i});\n",
    "for k = 1:n\n    total = total + w(k) * v(end - k + 1);\nend\n",
    "if x > 0 && y < 10 || ~flag\n    r = min(x, y);\nelseif x == 0\n    r = 0;\nelse\n    r = -1;\nend\n",
    "c = {'alpha', \"beta\", 3, @(t) t.^2 + 1};\n",
    "fprintf('%d: %6.3f\\n', k, data(k));\n",
    "while err > tol\n    err = err / 2; iter = iter + 1;\nend\n",
    "[m, idx] = max(values(:));\n",
    "z = reshape(linspace(0, 1, 12), 3, 4)';\n",
    "switch mode\n    case {'fast', 'quick'}\n        n = 10;\n    otherwise\n        n = 100;\nend\n",
    "hold on\n",
    "try\n    q = load_data(path);\ncatch err\n    disp(err.message)\nend\n",
    "g = @(u, v) exp(-(u.^2 + v.^2) / (2 * sigma^2));\n",
    "\n",
]

FUNCTION = """
function [out, count] = helper_{i}(x, y, varargin)
% HELPER_{i} adds things up.
    out = x + y;
    count = numel(varargin);
    for j = 1:count
        out = out + varargin{j};
    end
end
"""


LONG_INPUTS = (
    ("chain 1+1+...+1, 20000 terms", "1" + "+1" * 19999),
    ("chain 1.5*2.5-..., 20000 terms", "1.5" + "*2.5-1.5" * 9999 + "*2.5"),
    ("nesting ((1+1)+1)..., 500 deep", "(" * 500 + "1" + "+1)" * 500),
)


def generate(lines: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    body: list[str] = []
    count = 0
    i = 0
    while count < lines * 0.9:
        block = rng.choice(BLOCKS).replace("{i}", str(i)).replace("{j}", str(i % 7 + 1))
        body.append(block)
        count += block.count("\n")
        i += 1
    functions = []
    while count < lines:
        block = FUNCTION.replace("{i}", str(i))
        functions.append(block)
        count += block.count("\n")
        i += 1
    return "".join(body) + "".join(functions)


def cpu(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    opts = ap.parse_args()

    source = generate(opts.lines)
    nlines = source.count("\n")
    parser = Parser()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MLANG_CACHE_DIR"] = tmp
        os.environ.pop("MLANG_NO_CACHE", None)
        path = Path(tmp) / "generated.m"
        path.write_text(source)
        from mlang.syntax.cache import parse_file

        tok_s = cpu(lambda: tokenize(source, str(path)), opts.runs)
        cold_s = cpu(lambda: parser.parse(source, str(path)), opts.runs)
        parse_file(path, parser)  # fills the cache
        warm_s = cpu(lambda: parse_file(path, parser), opts.runs)

    print(f"generated file: {nlines} lines, {len(source):,} characters "
          f"(median CPU time of {opts.runs} runs)")
    print(f"{'stage':<34}{'CPU s':>10}{'lines/s':>14}")
    for label, secs in (("tokenizer only", tok_s),
                        ("cold parse (tokens + LALR + AST)", cold_s),
                        ("warm (AST cache on disk)", warm_s)):
        print(f"{label:<34}{secs:>10.4f}{nlines / secs:>14,.0f}")

    # the long inputs of bench/matlab/deep_nesting.m: cost per token of a cold parse
    print(f"{'long input (cold parse)':<34}{'CPU s':>10}{'us/token':>14}")
    for label, text in LONG_INPUTS:
        secs = cpu(lambda text=text: parser.parse(text), opts.runs)
        tokens = len(tokenize(text))
        print(f"{label:<34}{secs:>10.4f}{secs / tokens * 1e6:>14.3f}")


if __name__ == "__main__":
    main()
