"""The command line as a user meets it: help, version, start-up cost."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from routes import __version__, network, settings
from routes.cli import app


@pytest.mark.parametrize("command", [[], ["map"], ["corridors"], ["geocode"]])
def test_help_on_every_command(command: list[str], runner: Any) -> None:
    result = runner.invoke(app, [*command, "--help"], prog_name="routes")
    assert result.exit_code == 0
    assert "Usage: routes" in result.stdout


def test_version(runner: Any) -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"routes {__version__}"


def test_help_does_not_import_heavy_libraries() -> None:
    """`routes --help` must answer at once: no osmnx, geopandas or folium behind it."""
    code = (
        "import sys\nfrom routes.cli import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in ('osmnx', 'geopandas', 'folium', 'pandas', 'pydantic')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "LOADED []" in out.stdout


def test_missing_osm_file(runner: Any, tmp_path: Any) -> None:
    out = tmp_path / "m.html"
    result = runner.invoke(app, ["map", "--osm", str(tmp_path / "nope.osm"), "--output", str(out)])
    assert result.exit_code == 2
    assert "nope.osm" in result.stderr and "Traceback" not in result.output
    assert not out.exists()


def test_routing_commands_take_the_same_routing_options() -> None:
    """map, corridors and export share one routing option list (export: no alternatives)."""
    from typer.main import get_command

    group: Any = get_command(app)
    routing = {"--osm", "--network", "--offline", "--weight", "--avoid", "--strict", "--max-snap"}
    for name in ("map", "corridors", "export"):
        options = {o for p in group.commands[name].params for o in p.opts}
        assert routing <= options, (name, routing - options)
        assert ("--alternatives" in options) == (name != "export"), name


PROXY_WARNING = "Routing on the offline proxy network"


def test_the_cli_logs_to_stderr_only_while_it_runs(
    runner: Any,
    aleppo: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The CLI turns the library's records into its own stderr lines for one run; then the
    ``routes`` logger is as it was, and a library user (here caplog) gets the records."""
    monkeypatch.setattr(settings, "osm_dir", tmp_path)  # no stored extract: the proxy network
    log = logging.getLogger("routes")
    before = log.handlers[:], log.propagate, log.level
    result = runner.invoke(app, ["corridors", "--offline", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count(PROXY_WARNING) == 1
    quiet = runner.invoke(app, ["--quiet", "corridors", "--offline", "--json"])
    assert quiet.exit_code == 0 and PROXY_WARNING not in quiet.stderr
    assert (log.handlers, log.propagate, log.level) == before
    with caplog.at_level(logging.WARNING, logger="routes"):
        network.choose(aleppo, offline=True)
    assert [r.getMessage() for r in caplog.records if PROXY_WARNING in r.getMessage()]
