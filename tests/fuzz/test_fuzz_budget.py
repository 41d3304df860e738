"""A fixed fuzzing budget for CI: the same programs every time, none may expose a bug.

Fails on any internal error, Python traceback, crash or hang, and prints every
failure with its (minimised) reproducer and the folder where it was saved.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tests.fuzz.campaign import campaign, format_report
from tests.fuzz.mutate import CORPUS_FOLDERS, REPOSITORY, load_corpus
from tests.fuzz.runner import Limits

SEED = 20240601
PROGRAMS = 2000
JOBS = 2
LIMITS = Limits(seconds=10.0, memory_mb=1024)  # generous: a hang here is a real one


def test_fuzz_budget_finds_no_bugs():
    # Only the repository's own files: the budget must not change with what lies beside it.
    corpus = load_corpus([REPOSITORY / folder for folder in CORPUS_FOLDERS])
    save = Path(tempfile.mkdtemp(prefix="mlang-fuzz-ci-"))
    report = campaign(seed=SEED, programs=PROGRAMS, jobs=min(JOBS, os.cpu_count() or 1),
                      limits=LIMITS, save=save, corpus=corpus)
    text = format_report(report, SEED)
    print(text)
    assert report.programs == PROGRAMS
    assert not report.failures(), text
