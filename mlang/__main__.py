"""``python -m mlang`` behaves like the ``mlang`` command."""

import sys

from mlang.frontends.cli import main

sys.exit(main())
