"""The rebuilt reader's speed against the nearness grammar it replaced (0d8b805), in one run.

Both extract the same stories (the movement stories of ``../shared/movements-dev``, read
at run time, else the test fixture texts), each in a fresh process on its own source tree:
this checkout, and a worktree of :data:`BASELINE` made for the run (or the tree given by
``ROUTES_BASELINE_TREE``), in five turns. Reported: median ms per 1,000 words over the
rounds, start-up and the parser's loading not timed, each on one thread (no BLAS thread
on a second core). Goal (issue 34): at most :data:`GOAL` times the grammar.

Run: ``python -m pytest benchmarks/bench_reader_vs_grammar.py -s``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import ROOT, at_most, pick

#: The last commit of the nearness grammar.
BASELINE = "0d8b805"
#: The reader may take at most this many times the grammar's time per 1,000 words.
GOAL = 3.0
STORIES = ROOT.parent / "shared" / "movements-dev" / "dev-stories.jsonl"
TEXTS = ROOT / "tests" / "fixtures" / "texts"
#: Both on one core: no BLAS thread of the parser's on the second.
_ONE_THREAD = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}

_PROBE = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from routes.extract import extract
texts = json.load(open(sys.argv[2], encoding="utf-8"))
for text in texts[:3]:
    extract(text)  # start-up, the parser's load: not timed
words = sum(len(t.split()) for t in texts)
rounds = []
for _ in range(int(sys.argv[3])):
    began = time.perf_counter()
    for text in texts:
        extract(text)
    rounds.append((time.perf_counter() - began) * 1e6 / words)
print(json.dumps(statistics.median(rounds)))
"""


def _texts() -> list[str]:
    if STORIES.is_file():
        with STORIES.open(encoding="utf-8") as lines:
            return [json.loads(line)["text"] for line in lines]
    return [p.read_text(encoding="utf-8") for p in sorted(TEXTS.glob("*.txt"))]


@contextmanager
def _baseline_tree() -> Iterator[Path]:
    given = os.environ.get("ROUTES_BASELINE_TREE")
    if given:
        yield Path(given)
        return
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "baseline"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", str(tree), BASELINE], check=True,
                       capture_output=True)  # fmt: skip
        try:
            yield tree
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=False)


def _ms_per_1000_words(tree: Path, texts: Path, rounds: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tree), str(texts), str(rounds)],
        capture_output=True, text=True, check=True, timeout=1800, cwd=tree, env=_ONE_THREAD,
    )  # fmt: skip
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def test_reader_against_the_grammar(tmp_path: Path, report: Callable[..., None]) -> None:
    texts = tmp_path / "texts.json"
    stories = _texts()
    texts.write_text(json.dumps(stories), encoding="utf-8")
    rounds, turns = pick(3, 1), pick(5, 1)
    grammars, readers = [], []
    with _baseline_tree() as tree:
        for _ in range(turns):  # in turns, so that a busy spell of the machine hits both
            grammars.append(_ms_per_1000_words(tree, texts, rounds))
            readers.append(_ms_per_1000_words(ROOT, texts, rounds))
    grammar, reader = statistics.median(grammars), statistics.median(readers)
    ratio = reader / grammar
    words = sum(len(t.split()) for t in stories)
    report(
        f"extraction per 1,000 words, {len(stories)} stories ({words:,} words), median",
        f"grammar ({BASELINE}) {grammar:.0f} ms",
        f"reader {reader:.0f} ms",
        f"{ratio:.1f}× the grammar",
        f"≤ {GOAL:g}×",
        ratio <= GOAL,
    )
    assert ratio <= at_most(GOAL), (reader, grammar)
