"""Test-wide settings: parsed-AST cache entries go to a throwaway folder, and
property tests draw a fixed sequence of examples (so CI cannot meet a new
failing case by chance); MLANG_HYPOTHESIS_RANDOM=1 draws fresh ones."""

import os
import tempfile

from hypothesis import settings

os.environ.setdefault("MLANG_CACHE_DIR", tempfile.mkdtemp(prefix="mlang-test-cache-"))

settings.register_profile("fixed", derandomize=True)
settings.register_profile("random", derandomize=False)
settings.load_profile("random" if os.environ.get("MLANG_HYPOTHESIS_RANDOM") else "fixed")
