"""SIGKILL during a write leaves the previous file or the new one, both readable, and the
next run leaves no temporary file: `routes export -f gpkg` and `routes map`, as subprocesses.

Each command is killed ``ROUTES_KILL_RUNS`` times (default 3, to keep this module near a
minute on a busy machine; the issue's 50: ``ROUTES_KILL_RUNS=50 python -m pytest
tests/test_kill_writes.py``). Runs alternate between two scenarios that differ in one
corridor name, so every file on disk can be told apart as the previous or the new one.
Kills take turns: at a seeded random moment of a run; a seeded random few milliseconds
after the temporary file appears; at a seeded random step of the write (an audit hook in
the killed process), so the write itself is hit even when it lasts a millisecond.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import write_yaml

from routes import datasets

RUNS = int(os.environ.get("ROUTES_KILL_RUNS", "3"))
SEED = 20161215

#: How runs are killed, in turn (see :func:`_kill`).
MODES = ("any", "write", "hook")

#: The longest a run may take (a killed one ends sooner).
TIMEOUT_S = 120.0


def _variants(folder: Path) -> list[Path]:
    """Two copies of the bundled scenario whose first corridor is named ``variant 0`` / ``1``."""
    raw = yaml.safe_load(datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8"))
    paths = []
    for v in range(2):
        raw["corridors"][0]["name"] = f"variant {v}"
        paths.append(write_yaml(folder / f"variant-{v}.yaml", raw))
    return paths


def _gpkg_variant(path: Path) -> int:
    """Which variant a GeoPackage holds, read through GDAL (every layer must open)."""
    import pyogrio

    names = [str(name) for name, _ in pyogrio.list_layers(path)]
    assert names == ["places", "corridors", "network", "claims", "story"], names
    for name in names:
        assert pyogrio.read_info(path, layer=name)["features"] > 0, name
    corridors = pyogrio.read_dataframe(path, layer="corridors")
    return int(str(corridors["name"].iloc[0]).removeprefix("variant "))


def _html_variant(path: Path) -> int:
    """Which variant a map page holds; the page must be whole."""
    html = path.read_text(encoding="utf-8")
    assert html.rstrip().endswith("</html>"), html[-200:]
    found = [v for v in range(2) if f"variant {v}" in html]
    assert len(found) == 1, found
    return found[0]


COMMANDS: dict[str, tuple[Callable[[Path, Path], list[str]], str, Callable[[Path], int]]] = {
    "export-gpkg": (
        lambda scenario, out: ["export", "-f", "gpkg", "--offline", "-s", str(scenario),
                               "-o", str(out)],
        "aleppo-2016-12.gpkg",
        _gpkg_variant,
    ),
    "map": (
        lambda scenario, out: ["map", "--offline", "-s", str(scenario),
                               "-o", str(out / "aleppo-2016-12.html")],
        "aleppo-2016-12.html",
        _html_variant,
    ),
}  # fmt: skip


#: Run `routes` with an audit hook that SIGKILLs the process at the ``stage``-th step of
#: writing ``target`` Python sees (open the temporary file, reopen it to fsync, chmod,
#: os.replace): the worst moments, which a kill from outside rarely hits for a small file.
HOOK = """
import os, runpy, signal, sys
stage, target = int(sys.argv.pop(1)), sys.argv.pop(1)
steps = []
def hook(event, args):
    if event in ("open", "os.chmod", "os.rename") and f".{target}." in str(args[0]):
        steps.append(event)
        if len(steps) == stage:
            os.kill(os.getpid(), signal.SIGKILL)
sys.addaudithook(hook)
sys.argv[0] = "routes"
runpy.run_module("routes", run_name="__main__", alter_sys=True)
"""


def _start(args: list[str], hook: tuple[int, str] | None = None) -> subprocess.Popen[bytes]:
    """``python -m routes ARGS``; with ``hook=(stage, target)``, killed at that write step."""
    head = ["-c", HOOK, str(hook[0]), hook[1]] if hook else ["-m", "routes"]
    return subprocess.Popen(
        [sys.executable, *head, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _run(args: list[str]) -> float:
    """Run to the end; its wall time in seconds."""
    began = time.monotonic()
    proc = _start(args)
    _, err = proc.communicate(timeout=TIMEOUT_S)
    assert proc.returncode == 0, err.decode()
    return time.monotonic() - began


def _temporaries(out: Path, target: str) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name != target)


def _writer(name: str, target: str) -> int | None:
    """The process id a temporary file of ``target`` names, or None if it is not one."""
    match = re.match(rf"\.{re.escape(target)}\.(\d+)\.[0-9a-f]{{8}}\.tmp", name)
    return int(match[1]) if match else None


def _kill(args: list[str], out: Path, target: str, how: str, rng: Any, t: float) -> str:
    """Run ``args`` and SIGKILL it: at a random moment (``how="any"``), a random few ms
    after its temporary file appears (``"write"``), or at a random step of the write
    (``"hook"``). Say what it was doing: ``"writing"`` (its temporary file existed),
    ``"running"`` or ``"done"`` (it ended before the kill)."""
    if how == "hook":
        proc = _start(args, hook=(rng.randint(1, 4), target))
        proc.wait(timeout=TIMEOUT_S)
        return "writing" if proc.returncode == -signal.SIGKILL else "done"
    proc = _start(args)
    if how == "any":
        time.sleep(rng.uniform(0.2 * t, 1.1 * t))
    else:
        time.sleep(0.4 * t)  # then watch for the temporary file, a fraction of a ms apart
        deadline = time.monotonic() + TIMEOUT_S
        while proc.poll() is None and not _temporaries(out, target):
            if time.monotonic() > deadline:
                break
            time.sleep(0.0002)
        time.sleep(rng.uniform(0.0, 0.005))
    doing = "running" if proc.poll() is None else "done"
    if doing == "running" and _temporaries(out, target):
        doing = "writing"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=TIMEOUT_S)
    return doing


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_sigkill_leaves_the_old_file_or_the_new_one(command: str, tmp_path: Path) -> None:
    argv, target, variant = COMMANDS[command]
    scenarios = _variants(tmp_path)
    out = tmp_path / "out"
    out.mkdir()  # -o names a file in a folder that exists (issue 30)
    t = _run(argv(scenarios[0], out))
    assert variant(out / target) == 0
    assert _temporaries(out, target) == []

    rng = random.Random(SEED)
    on_disk, seen = 0, Counter[str]()
    for i in range(RUNS):
        new = 1 - on_disk
        doing = _kill(argv(scenarios[new], out), out, target, MODES[i % 3], rng, t)
        got = variant(out / target)  # whole and readable, whichever it is
        assert got in (on_disk, new)
        seen[f"{doing}, {'new' if got == new else 'old'} file"] += 1
        on_disk = got
        leftovers = _temporaries(out, target)  # only temporary files of earlier runs
        assert all(_writer(name, target) for name in leftovers), leftovers

    new = 1 - on_disk
    _run(argv(scenarios[new], out))
    assert variant(out / target) == new
    assert _temporaries(out, target) == [], "the next run left temporary files"
    if RUNS >= 3:  # the hook (and for the GeoPackage the watch) must hit a write
        assert any(key.startswith("writing") for key in seen), seen
    print(f"{command}: {RUNS} kills: {dict(seen)}")
