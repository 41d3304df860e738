"""A fuzzing campaign: many programs, run in parallel children, failures saved once each.

Program ``i`` of a campaign with seed ``S`` depends on nothing but ``(S, i)``:
it is either generated (``generate``) or a mutated corpus file (``mutate``),
so any program can be made again from its number, and a campaign gives the
same programs however many children run at once.
"""

from __future__ import annotations

import gc
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from mlang.syntax import ast
from mlang.syntax.unparse import unparse
from tests.fuzz.generate import ProgramGenerator
from tests.fuzz.mutate import load_corpus, mutate
from tests.fuzz.runner import (
    FAILURES,
    OUTCOMES,
    Limits,
    Program,
    Result,
    Running,
    finish,
    read_available,
    run_one,
    start,
    wait_any,
    warm_up,
)

GENERATED_SHARE = 0.6  # the rest are mutated corpus files
MINIMISE_RUNS = 150  # runs one minimisation may use


@dataclass(slots=True)
class Case:
    """One program of the campaign, with what is needed to make it again and shrink it."""

    index: int
    program: Program
    tree: ast.Program | None = None  # generated programs: the syntax tree


@dataclass
class Finding:
    signature: str
    first: Case
    result: Result
    count: int = 0
    minimal: bytes | None = None
    folder: Path | None = None


@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    findings: dict[str, Finding] = field(default_factory=dict)
    python_warnings: Counter = field(default_factory=Counter)  # leaked warning: programs
    programs: int = 0
    seconds: float = 0.0
    save_dir: Path | None = None

    @property
    def throughput(self) -> float:
        return self.programs / self.seconds if self.seconds else 0.0

    def failures(self) -> list[Finding]:
        return [f for f in self.findings.values() if f.result.outcome in FAILURES]


def make_case(seed: int, index: int, corpus: list[tuple[str, bytes]]) -> Case:
    """Program ``index`` of the campaign ``seed``."""
    rng = random.Random(f"{seed}/{index}")
    if not corpus or rng.random() < GENERATED_SHARE:
        tree = ProgramGenerator(rng).program()
        text = unparse(tree)
        if rng.random() < 0.15:  # the same program through the file reader
            return Case(index, Program(text.encode(), as_file=True, label="generated"), tree)
        return Case(index, Program(text.encode(), label="generated"), tree)
    origin, data = mutate(rng, corpus)
    return Case(index, Program(data, as_file=rng.random() < 0.5, label=f"mutated {origin}"))


def run_cases(cases: Iterator[Case], limits: Limits, scratch: str, jobs: int,
              deadline: float | None,
              on_result: Callable[[Case, Result], None]) -> int:
    """Run ``cases`` in up to ``jobs`` children at once until they or the time run out."""
    running: dict[int, tuple[Running, Case]] = {}
    started = 0
    exhausted = False
    while running or not exhausted:
        while not exhausted and len(running) < jobs:
            if deadline is not None and time.monotonic() >= deadline:
                exhausted = True
                break
            case = next(cases, None)
            if case is None:
                exhausted = True
                break
            job = start(case.program, limits, scratch)
            running[job.fd] = (job, case)
            started += 1
        if not running:
            break
        now = time.monotonic()
        nearest = min(job.deadline for job, _ in running.values())
        for job in wait_any([job for job, _ in running.values()], nearest - now):
            if read_available(job):
                _, case = running.pop(job.fd)
                on_result(case, finish(job))
        now = time.monotonic()
        for fd, (job, case) in list(running.items()):
            if now >= job.deadline:
                del running[fd]
                on_result(case, finish(job, killed=True))
    return started


def campaign(seed: int = 0, programs: int | None = None, minutes: float | None = None,
             jobs: int = 2, limits: Limits | None = None, save: Path | None = None,
             corpus: list[tuple[str, bytes]] | None = None, minimise: bool = True,
             log: TextIO | None = None) -> Report:
    """Run a campaign: ``programs`` programs, or as many as fit in ``minutes``."""
    limits = limits or Limits()
    corpus = load_corpus() if corpus is None else corpus
    warm_up()
    save = save or Path(tempfile.mkdtemp(prefix="mlang-fuzz-"))
    save.mkdir(parents=True, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="mlang-fuzz-scratch-")
    report = Report(save_dir=save)
    deadline = time.monotonic() + minutes * 60 if minutes else None
    total = programs if programs is not None else (None if minutes else 1000)

    def cases() -> Iterator[Case]:
        index = 0
        while total is None or index < total:
            yield make_case(seed, index, corpus)
            index += 1

    def on_result(case: Case, result: Result) -> None:
        report.counts[result.outcome] += 1
        report.programs += 1
        for warning in result.details.get("python_warnings", []):
            report.python_warnings[warning.split(": ", 1)[0]] += 1
        if result.is_failure:
            finding = report.findings.get(result.signature)
            if finding is None:
                finding = report.findings[result.signature] = Finding(result.signature, case, result)
                if log is not None:
                    log.write(f"[{report.programs}] new {result.signature}: {result.message[:160]}\n")
                    log.flush()
            finding.count += 1
        if log is not None and report.programs % 1000 == 0:
            log.write(f"... {report.programs} programs, {dict(report.counts)}\n")
            log.flush()

    began = time.monotonic()
    run_cases(cases(), limits, scratch, jobs, deadline, on_result)
    report.seconds = time.monotonic() - began
    gc.unfreeze()  # warm_up froze the parent's objects for the children's sake
    for number, finding in enumerate(sorted(report.findings.values(), key=lambda f: f.signature)):
        if minimise and finding.result.outcome in ("internal_error", "traceback", "crash"):
            finding.minimal = minimise_case(finding.first, finding.signature, limits, scratch)
        finding.folder = save_finding(save, number, finding)
    write_summary(report, seed)
    return report


# ------------------------------------------------------------ minimising


def minimise_case(case: Case, signature: str, limits: Limits, scratch: str,
                  budget: int = MINIMISE_RUNS) -> bytes:
    """A smaller program with the same failure: whole statements first (generated
    programs), then line-wise delta debugging."""
    runs = 0

    def fails(data: bytes) -> bool:
        nonlocal runs
        if runs >= budget:
            return False
        runs += 1
        program = Program(data, as_file=case.program.as_file)
        return run_one(program, limits, scratch).signature == signature

    data = case.program.data
    if case.tree is not None:
        data = _shrink_tree(case.tree, fails) or data
    lines = data.split(b"\n")
    return b"\n".join(_ddmin(lines, lambda kept: fails(b"\n".join(kept))))


def _statement_lists(node: ast.Node) -> Iterator[list]:
    """Every list of statements in the tree (bodies of blocks and functions)."""
    for item in ast.walk(node):
        if isinstance(item, ast.Program | ast.Function | ast.For | ast.While):
            yield item.body
        elif isinstance(item, ast.If):
            yield from (body for _, body in item.clauses)
            if item.orelse is not None:
                yield item.orelse
        elif isinstance(item, ast.Switch):
            yield from (body for _, body in item.cases)
            if item.otherwise is not None:
                yield item.otherwise
        elif isinstance(item, ast.Try):
            yield item.body
            if item.catch_body is not None:
                yield item.catch_body


def _inner_bodies(stmt: ast.Node) -> list[list]:
    if isinstance(stmt, ast.For | ast.While):
        return [stmt.body]
    if isinstance(stmt, ast.If):
        return [body for _, body in stmt.clauses] + ([stmt.orelse] if stmt.orelse else [])
    if isinstance(stmt, ast.Switch):
        return [body for _, body in stmt.cases] + ([stmt.otherwise] if stmt.otherwise else [])
    if isinstance(stmt, ast.Try):
        return [stmt.body] + ([stmt.catch_body] if stmt.catch_body else [])
    return []


def _shrink_tree(tree: ast.Program, fails: Callable[[bytes], bool]) -> bytes | None:
    """Greedily delete statements and functions, or replace a block by one of its bodies,
    while the failure stays the same."""
    best: bytes | None = None
    tried: set[bytes] = set()
    while True:
        text = _one_shrink(tree, fails, tried)
        if text is None:
            return best
        best = text


def _one_shrink(tree: ast.Program, fails: Callable[[bytes], bool], tried: set[bytes]) -> bytes | None:
    """Apply the first deletion or unwrapping that keeps the failure (None: there is none)."""
    for body in [*_statement_lists(tree), tree.functions]:
        for i, original in enumerate(body):
            for replacement in [[], *_inner_bodies(original)]:
                body[i:i + 1] = replacement
                text = unparse(tree).encode()
                if text not in tried:
                    tried.add(text)
                    if fails(text):
                        return text
                body[i:i + len(replacement)] = [original]
    return None


def _ddmin(items: list, fails: Callable[[list], bool]) -> list:
    """Zeller's delta debugging over ``items`` (removing complements)."""
    granularity = 2
    while len(items) >= 2:
        size = max(1, len(items) // granularity)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for i in range(len(chunks)):
            complement = [x for j, chunk in enumerate(chunks) if j != i for x in chunk]
            if fails(complement):
                items = complement
                granularity = max(granularity - 1, 2)
                break
        else:
            if granularity >= len(items):
                break
            granularity = min(len(items), granularity * 2)
    return items


# ------------------------------------------------------------ saving


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80]


def save_finding(save: Path, number: int, finding: Finding) -> Path:
    folder = save / f"{number:03d}-{_slug(finding.signature)}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "program.m").write_bytes(finding.first.program.data)
    if finding.minimal is not None:
        (folder / "minimal.m").write_bytes(finding.minimal)
    result = finding.result
    (folder / "traceback.txt").write_text(
        f"signature: {finding.signature}\noutcome: {result.outcome}\n"
        f"program: #{finding.first.index} ({finding.first.program.label}; "
        f"run {'as a file' if finding.first.program.as_file else 'as source'})\n"
        f"seen: {finding.count} times\nmessage: {result.message}\n\n{result.traceback}\n",
        encoding="utf-8")
    return folder


def write_summary(report: Report, seed: int) -> None:
    assert report.save_dir is not None
    (report.save_dir / "summary.txt").write_text(format_report(report, seed), encoding="utf-8")


def format_report(report: Report, seed: int) -> str:
    lines = [f"seed {seed}: {report.programs} programs in {report.seconds:.1f} s "
             f"({report.throughput:.1f} programs/s)"]
    lines += [f"  {outcome:15} {report.counts.get(outcome, 0)}" for outcome in OUTCOMES]
    failures = report.failures()
    lines.append(f"{len(failures)} distinct failures, saved under {report.save_dir}")
    for finding in sorted(failures, key=lambda f: -f.count):
        lines.append(f"  {finding.count:6}x {finding.signature}  ({finding.folder})")
        lines.append(f"          {finding.result.message[:200]}")
        shown = (finding.minimal or finding.first.program.data)
        if len(shown) <= 400:
            for line in shown.decode("utf-8", "replace").splitlines():
                lines.append(f"          | {line}")
    if report.python_warnings:
        lines.append("Python warnings that reached the error stream (not counted as failures):")
        lines += [f"  {n:6}x {where}" for where, n in report.python_warnings.most_common()]
    return "\n".join(lines) + "\n"
