"""The README's recipes run as written, and CI runs the README's test command.

Each recipe (a ``###`` section of "Recipes") is run as one bash script, ``set -e``, in a
folder laid out like a clone (``geodata/`` and ``output/``), with the input files a
reader would bring: the tests' corpus as ``stories.jsonl``, the CNN story as
``story.txt``. A comment ``# edit FILE: …`` is a step a person does in an editor; the
test does it (a figure's value, in ``FILE``). Every file a comment names after ``→``
must exist and not be empty afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ARTICLE, shared

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"

#: Files a reader brings to a recipe, by the name the recipe uses.
INPUTS = {
    "stories.jsonl": lambda: ROOT / "tests" / "fixtures" / "corpus" / "stories.jsonl",
    "story.txt": lambda: shared(ARTICLE),
}


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def _recipes() -> dict[str, str]:
    """Each recipe's title and its first bash block."""
    part = _section(README.read_text(encoding="utf-8"), "Recipes")
    found = {}
    sections = r"^### ([^\n]+)\n(.*?)(?=^### |\Z)"
    for title, body in re.findall(sections, part, re.MULTILINE | re.DOTALL):
        block = re.search(r"```bash\n(.*?)```", body, re.DOTALL)
        assert block, f"recipe {title!r} has no bash block"
        found[title] = block.group(1)
    return found


RECIPES = _recipes()


def test_the_readme_has_its_five_recipes() -> None:
    assert len(RECIPES) == 5, list(RECIPES)


def _edit_a_figure(path: Path) -> str:
    """What a person would do in an editor: correct the value of the first corridor's
    line-width claim. Returns the new value as the map writes it ("35,001")."""
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    claim_id = data["corridors"][0]["line_width"]
    value = next(f["value"] for f in data["corridors"][0]["figures"] if f.get("id") == claim_id)
    start = text.index(f"id: {claim_id}\n")
    line = re.compile(rf"^(\s*value: ){value}$", re.MULTILINE)
    match = line.search(text, start)
    assert match, f"no 'value: {value}' after the claim {claim_id}"
    text = text[: match.start()] + f"{match.group(1)}{value + 1}" + text[match.end() :]
    path.write_text(text, encoding="utf-8")
    return f"{value + 1:,}"


#: ``routes review`` serves its page until Ctrl-C: the test starts it, waits for the
#: address it prints, and stops it (SIGTERM: a script's background job ignores SIGINT),
#: as a person does once the draft is saved.
_REVIEW = re.compile(r"^(routes review [^#\n]*?)\s*(#.*)?$", re.MULTILINE)
_STOPPED = (
    r"\1 --no-browser > .review.out & pid=$!; "
    r"until grep -q token= .review.out || ! kill -0 $pid 2>/dev/null; do sleep 0.2; done; "
    r"kill -TERM $pid 2>/dev/null || true; wait $pid"
)


def _run(script: str, cwd: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)  # the environment's `routes`
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _REVIEW.sub(_STOPPED, script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"{script}\nexit {done.returncode}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("title", RECIPES)
def test_recipe_runs_as_written(title: str, tmp_path: Path) -> None:
    script = RECIPES[title]
    (tmp_path / "geodata").symlink_to(ROOT / "geodata")
    (tmp_path / "output").mkdir()  # a clone has it (output/.gitkeep)
    for name, source in INPUTS.items():
        if re.search(rf"\b{re.escape(name)}\b", script):
            shutil.copyfile(source(), tmp_path / name)
    # Run up to each editor step, do it, go on.
    steps = re.split(r"^# edit (\S+):.*$", script, flags=re.MULTILINE)
    edited = []
    _run(steps[0], tmp_path)
    for file, rest in zip(steps[1::2], steps[2::2], strict=True):
        edited.append(_edit_a_figure(tmp_path / file))
        _run(rest, tmp_path)
    written = [w for line in script.splitlines() if "→" in line for w in line.split("→")[1].split()]
    assert written, f"recipe {title!r} names no file it writes"
    for name in written:
        path = tmp_path / name
        assert path.is_file() and path.stat().st_size > 0, f"{title}: {name} was not written"
    for value in edited:  # the redrawn map shows the corrected figure
        pages = [tmp_path / w for w in written if w.endswith(".html")]
        assert any(value in page.read_text(encoding="utf-8") for page in pages), value


def test_ci_runs_the_readmes_test_command() -> None:
    install = _section(README.read_text(encoding="utf-8"), "Install")
    blocks = re.findall(r"```bash\n(.*?)```", install, re.DOTALL)
    tests = next(b for b in blocks if "pytest" in b)
    ci = CI.read_text(encoding="utf-8").splitlines()
    for line in tests.strip().splitlines():
        assert line in ci, f".ci/run does not run the README's line: {line}"
