"""The benchmark suite in its quick mode, so CI checks every speed claim holds (at half the
goals of docs/performance.md) and that the fast paths give the stock paths' results."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_benchmarks_pass() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "benchmarks", "-q", "--benchmark-disable"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "ROUTES_BENCH_QUICK": "1"},
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
