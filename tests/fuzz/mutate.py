"""Byte-level mutation of real MATLAB files.

The corpus is every .m file of the repository's tests/golden, examples,
bench/matlab and stdlib folders (and ../shared/conformance when it exists).
``mutate(rng, corpus)`` picks a file and applies a few mutations: deleting,
duplicating, swapping and shuffling spans and lines; inserting operators,
brackets, quotes, keywords, continuations and comments; truncating; splicing
two files; replacing numbers by extreme ones; deep nesting; very long lines;
invalid UTF-8, NUL bytes, CR and CRLF line ends.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
# Not bench/matlab: its scripts are sized to run for seconds, so their mutants would time out.
CORPUS_FOLDERS = ("tests/golden", "examples", "stdlib")
SHARED_CONFORMANCE = REPOSITORY.parent / "shared" / "conformance"

TOKENS = [
    b"+", b"-", b"*", b"/", b"\\", b"^", b".^", b".*", b"'", b".'", b"==", b"~=", b"~", b"&&",
    b"||", b"&", b"|", b"<", b">=", b":", b"=", b",", b";", b".", b"@", b"!", b"?", b"$", b"#",
    b"(", b")", b"[", b"]", b"{", b"}", b"'", b'"', b"''", b'""', b"end", b"if ", b"else",
    b"elseif ", b"for ", b"while ", b"switch ", b"case ", b"otherwise", b"try", b"catch ",
    b"function ", b"return", b"break", b"continue", b"global ", b"persistent ", b"arguments",
    b"parfor ", b"...", b"%", b"%{\n", b"\n%}\n", b"\n", b" ", b"\t", b"end)", b"x(end+1)",
    b"0", b"1e309", b"-0", b"NaN", b"Inf", b"1i", b"0x7Fs8", b"0b101", b"1e-320", b"2^1024",
    b"9007199254740993", b"[]", b"{}", b"''", b"@(x)", b"dlarray(", b"dlgradient(", b"eval('",
    b"a(false)", b"(:)", b"{:}", b".(", b"zeros(", b"cell(", b"struct(", b"1:0", b"end+1",
]
EXTREME_NUMBERS = [b"0", b"-1", b"1e308", b"1e309", b"-1e309", b"1e-320", b"NaN", b"Inf", b"1e20",
                   b"2^63", b"0.5", b"eps(0)", b"-0", b"1e10", b"intmax('int64')", b"1i"]
INVALID_BYTES = [b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80",
                 b"\x00", b"\x00\x00", b"\x1b[31m", b"\x7f", b"\xef\xbb\xbf", b"\r", b"\x0c"]
NUMBER = re.compile(rb"(?<![A-Za-z_0-9.])\d+(\.\d*)?([eE][-+]?\d+)?")


def load_corpus(folders: list[Path] | None = None) -> list[tuple[str, bytes]]:
    """(name, content) of every .m file under ``folders`` (default: the repository's
    corpus folders, plus the shared conformance suite if present), in a fixed order."""
    if folders is None:
        folders = [REPOSITORY / f for f in CORPUS_FOLDERS]
        if SHARED_CONFORMANCE.is_dir():
            folders.append(SHARED_CONFORMANCE)
    files: list[tuple[str, bytes]] = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.m")):
            try:
                files.append((str(path.relative_to(folder.parent)), path.read_bytes()))
            except (OSError, ValueError):
                continue
    return files


def _span(rng: random.Random, data: bytes, longest: int = 40) -> tuple[int, int]:
    start = rng.randint(0, len(data))
    return start, min(len(data), start + rng.randint(1, longest))


def _delete(rng: random.Random, data: bytes) -> bytes:
    start, stop = _span(rng, data)
    return data[:start] + data[stop:]


def _duplicate(rng: random.Random, data: bytes) -> bytes:
    start, stop = _span(rng, data)
    at = rng.randint(0, len(data))
    return data[:at] + data[start:stop] + data[at:]


def _swap(rng: random.Random, data: bytes) -> bytes:
    a, b = sorted(rng.sample(range(len(data) + 1), 2)) if len(data) > 1 else (0, 0)
    length = rng.randint(1, 20)
    first, second = data[a:a + length], data[b:b + length]
    if a + length > b:
        return data
    return data[:a] + second + data[a + length:b] + first + data[b + length:]


def _insert_token(rng: random.Random, data: bytes) -> bytes:
    at = rng.randint(0, len(data))
    return data[:at] + rng.choice(TOKENS) + data[at:]


def _replace_byte(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + rng.choice(TOKENS)[:1] + data[at + 1:]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[:rng.randint(0, len(data))]


def _shuffle_lines(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    if len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _drop_line(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _extreme_number(rng: random.Random, data: bytes) -> bytes:
    matches = list(NUMBER.finditer(data))
    if not matches:
        return _insert_token(rng, data)
    m = rng.choice(matches)
    return data[:m.start()] + rng.choice(EXTREME_NUMBERS) + data[m.end():]


def _deep_nesting(rng: random.Random, data: bytes) -> bytes:
    depth = rng.choice([50, 200, 1000, 5000])
    opener, closer = rng.choice([(b"(", b")"), (b"[", b"]"), (b"{", b"}"), (b"-(", b")"),
                                 (b"abs(", b")"), (b"@()", b""), (b"~", b"")])
    balanced = rng.random() < 0.7
    nested = opener * depth + b"1" + (closer * depth if balanced else b"")
    at = rng.randint(0, len(data))
    return data[:at] + b"\nx = " + nested + b";\n" + data[at:]


def _long_line(rng: random.Random, data: bytes) -> bytes:
    length = rng.choice([1000, 5000, 20000])
    line = rng.choice([b"y = " + b"1+" * (length // 2) + b"1;",
                       b"s = '" + b"a" * length + b"';",
                       b"v = [" + b"1 " * (length // 2) + b"];",
                       b"% " + b"c" * length,
                       b"z = 1" + b" ...\n" * (length // 100) + b";"])
    at = rng.randint(0, len(data))
    return data[:at] + b"\n" + line + b"\n" + data[at:]


def _invalid_bytes(rng: random.Random, data: bytes) -> bytes:
    at = rng.randint(0, len(data))
    return data[:at] + rng.choice(INVALID_BYTES) + data[at:]


def _line_ends(rng: random.Random, data: bytes) -> bytes:
    return rng.choice([data.replace(b"\n", b"\r\n"), data.replace(b"\n", b"\r"),
                       data.replace(b"\n", b"\r\n", 1), data + b"\r"])


Mutation = Callable[[random.Random, bytes], bytes]
MUTATIONS: list[tuple[Mutation, float]] = [
    (_delete, 8), (_duplicate, 5), (_swap, 3), (_insert_token, 14), (_replace_byte, 6),
    (_truncate, 3), (_shuffle_lines, 3), (_drop_line, 5), (_extreme_number, 8),
    (_deep_nesting, 1.5), (_long_line, 1), (_invalid_bytes, 2), (_line_ends, 2),
]


def mutate(rng: random.Random, corpus: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A mutated corpus file: (a description of its origin, the mutated bytes)."""
    origin, data = rng.choice(corpus)
    if rng.random() < 0.1:  # splice: the head of one file, the tail of another
        other_origin, other = rng.choice(corpus)
        data = data[:rng.randint(0, len(data))] + other[rng.randint(0, len(other)):]
        origin += f" + {other_origin}"
    functions, weights = zip(*MUTATIONS, strict=True)
    for mutation in rng.choices(functions, weights=weights, k=rng.randint(1, 4)):
        data = mutation(rng, data)
    return origin, data
