"""The documents say what the code does: the command reference is the commands' own
``--help``, every command line they show uses options that exist, the scenario page names
every field of the model, links lead somewhere, and the README stays short."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from pydantic import BaseModel

from routes import scenario
from routes.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
#: Every page a reader may follow a link from.
PAGES = [README, ROOT / "ARCHITECTURE.md", ROOT / "benchmarks" / "README.md",
         ROOT / "geodata" / "README.md", ROOT / "notebooks" / "README.md", *DOCS]  # fmt: skip

#: "A README a newcomer reads in five minutes" (issue 30): at most about 15 KB.
README_MAX_BYTES = 15 * 1024


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_command_reference_is_the_commands_own_help() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "cli_docs.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr


def test_the_readme_stays_short() -> None:
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size:,} bytes: move detail to docs/"


# --- command lines ---------------------------------------------------------------------------


def _command_lines(text: str) -> Iterator[str]:
    """``routes …`` as the page shows it: lines of shell blocks, and inline code."""
    for block in re.findall(r"```(?:bash|sh|console)\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            for part in re.split(r"&&|\|\||;|\|", line.split(" #")[0]):
                if part.strip().startswith("routes "):
                    yield part.strip()
    for span in re.findall(r"`(routes [^`]+)`", text):
        yield span.split("|")[0].strip()


def _options(command: typer.core.TyperCommand | typer.core.TyperGroup) -> set[str]:
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}


def _unknown_options(line: str) -> list[str]:
    """The options of ``line`` that its command does not take (global ones before it)."""
    words = shlex.split(line.replace("…", ""))[1:]
    command = typer.main.get_command(app)
    ctx = typer.Context(command, info_name="routes")
    unknown = []
    for word in words:
        if isinstance(command, typer.core.TyperGroup) and not word.startswith("-"):
            sub = command.get_command(ctx, word)
            if sub is None and word.isupper():
                return []  # a placeholder: "routes COMMAND --help"
            if sub is None:
                return [f"no command {word!r}"]
            command = sub
        elif word.startswith("-") and word != "-" and word.split("=")[0] not in _options(command):
            unknown.append(word)
    return [w for w in unknown if w != "--help"]


@pytest.mark.parametrize("page", [README, *DOCS], ids=_name)
def test_every_command_line_uses_options_that_exist(page: Path) -> None:
    wrong = {}
    for line in _command_lines(page.read_text(encoding="utf-8")):
        if bad := _unknown_options(line):
            wrong[line] = bad
    assert not wrong, f"{_name(page)}: {wrong}"


def test_a_global_option_after_the_command_is_caught() -> None:
    assert _unknown_options("routes map -v") == ["-v"]
    assert _unknown_options("routes -v map --offline") == []
    assert _unknown_options("routes scenario frobnicate") == ["no command 'frobnicate'"]


# --- the scenario page -----------------------------------------------------------------------


def _fields(model: type[BaseModel], seen: set[type[BaseModel]]) -> Iterator[str]:
    """Every field name of ``model`` and of the models its fields hold."""
    if model in seen:
        return
    seen.add(model)
    for name, field in model.model_fields.items():
        yield name
        for inner in re.findall(r"\b[A-Z]\w+\b", str(field.annotation)):
            nested = getattr(scenario, inner, None)
            if isinstance(nested, type) and issubclass(nested, BaseModel):
                yield from _fields(nested, seen)


def test_the_scenario_page_names_every_field_of_the_model() -> None:
    text = (ROOT / "docs" / "scenario.md").read_text(encoding="utf-8")
    fields = set(_fields(scenario.Scenario, set()))
    assert {"story", "line_width", "according_to", "evidence", "geonames_id"} <= fields
    missing = sorted(f for f in fields if f"`{f}`" not in text)
    assert not missing, f"docs/scenario.md does not name {missing}"


# --- links -----------------------------------------------------------------------------------


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_link_leads_somewhere(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'src="([^"]+)"', text)
    broken = []
    for target in targets:
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md":
            headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
            if anchor not in {_anchor(h) for h in headings}:
                broken.append(target)
    assert not broken, f"{_name(page)}: {broken}"
