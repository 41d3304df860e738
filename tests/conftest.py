"""Test-wide settings: parsed-AST cache entries go to a throwaway folder."""

import os
import tempfile

os.environ.setdefault("MLANG_CACHE_DIR", tempfile.mkdtemp(prefix="mlang-test-cache-"))
