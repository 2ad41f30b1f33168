"""citebot's benchmarks (``python -m bench``, or one of them as ``python -m bench.NAME``).

Every run keeps citebot's embedded store (where state lives when ``STATE_URL`` is unset) in a
folder of its own, shared with the worker processes it starts and deleted when it ends: a
benchmark never writes in the user's data directory, and never meets what an earlier run left
there. The simulators' ids repeat from run to run, so a Slack event a run within the claims'
lifetime before had answered was not answered again, and the rate-limit bench waited fifteen
minutes for fifty answers that never came.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

_DATA_HOME = "CITEBOT_BENCH_DATA_HOME"
_TESTS_DATA_HOME = "CITEBOT_TESTS_DATA_HOME"
"""Set by the tests (tests/conftest.py), whose data home is private already: a test that
imports a benchmark's data keeps it."""

if _TESTS_DATA_HOME not in os.environ:
    if _DATA_HOME not in os.environ:
        os.environ[_DATA_HOME] = tempfile.mkdtemp(prefix="citebot-bench-")
        atexit.register(shutil.rmtree, os.environ[_DATA_HOME], True)
    os.environ["XDG_DATA_HOME"] = os.environ[_DATA_HOME]
