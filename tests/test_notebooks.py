"""The notebooks in notebooks/: committed without outputs, and they run top to bottom offline.

Each notebook is executed as a reader would run it (a python3 kernel, the working
folder being notebooks/), with one addition the committed file does not have: a
first cell that makes every attempt to reach the network fail and records it, and
a last one that fails the run if there was any. Offline is the point of these
notebooks, even on a machine that happens to be online.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

if TYPE_CHECKING:
    from playwright.sync_api import Browser

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
EXPECTED = {"01-places.ipynb", "02-corridors.ipynb", "03-your-own-story.ipynb"}

#: Longest a single cell may run, seconds. A whole notebook takes seconds.
CELL_TIMEOUT_S = 600

#: Notebooks that show a map in a cell (``render.view``).
WITH_MAPS = EXPECTED

#: Notebook metadata a committed notebook may carry, and cell metadata.
NOTEBOOK_METADATA = {"kernelspec", "language_info"}
CELL_METADATA = {"tags"}

_BLOCK_NETWORK = """
import socket as _socket

_offline_attempts = []
_local_hosts = {None, "", "localhost", "127.0.0.1", "::1"}
_getaddrinfo, _connect = _socket.getaddrinfo, _socket.socket.connect


def _blocked_getaddrinfo(host, *args, **kwargs):
    if isinstance(host, bytes):
        host = host.decode()
    if host not in _local_hosts:
        _offline_attempts.append(f"name lookup of {host}")
        raise OSError(f"offline: the notebooks must not look up {host}")
    return _getaddrinfo(host, *args, **kwargs)


def _blocked_connect(self, address):
    host = address[0] if isinstance(address, tuple) else None
    if host is not None and host not in _local_hosts:
        _offline_attempts.append(f"connection to {address}")
        raise OSError(f"offline: the notebooks must not connect to {address}")
    return _connect(self, address)


_socket.getaddrinfo = _blocked_getaddrinfo
_socket.socket.connect = _blocked_connect
"""

_CHECK_NETWORK = """
assert not _offline_attempts, f"the notebook tried to reach the network: {_offline_attempts}"
"""


def test_the_notebooks_are_all_there() -> None:
    assert {path.name for path in PATHS} >= EXPECTED


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.name)
def test_committed_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    assert set(nb.metadata) <= NOTEBOOK_METADATA, f"{path.name}: strip it (python -m nbstripout)"
    for cell in nb.cells:
        where = f"{path.name}, cell {cell.get('id')}"
        assert set(cell.metadata) <= CELL_METADATA, f"{where}: metadata {dict(cell.metadata)}"
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{where} has outputs: strip them (python -m nbstripout)"
            assert cell.execution_count is None, f"{where} has an execution count: strip it"
        assert cell.source.strip(), f"{where} is empty"


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.name)
def test_runs_top_to_bottom_offline(path: Path, browser: Browser, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(_BLOCK_NETWORK, id="test-block-network"))
    nb.cells.append(nbformat.v4.new_code_cell(_CHECK_NETWORK, id="test-check-network"))
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    try:
        client.execute()
    except CellExecutionError as exc:
        message = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))  # the traceback's colours
        pytest.fail(f"{path.name} failed:\n{message}", pytrace=False)
    maps = [
        output["data"]["text/html"]
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if "<iframe srcdoc=" in output.get("data", {}).get("text/html", "")
    ]
    assert bool(maps) == (path.name in WITH_MAPS), f"{path.name}: {len(maps)} map cells"
    for n, cell_html in enumerate(maps):
        _shows_the_map_offline(browser, tmp_path / f"cell-{n}.html", cell_html)


def _shows_the_map_offline(browser: Browser, html: Path, cell_html: str) -> None:
    """A map cell's output, opened with every request but the page itself refused, draws
    its markers and lines: the frame carries Leaflet, as ``routes map``'s page does."""
    html.write_text(f"<!doctype html><html><body>{cell_html}</body></html>", encoding="utf-8")
    page = browser.new_page()
    refused: list[str] = []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "about:",
               "data:")) else (refused.append(r.request.url), r.abort()))  # fmt: skip
    page.goto(html.as_uri())
    frame = page.frame_locator("iframe")
    frame.locator("path.leaflet-interactive").first.wait_for(timeout=15_000)
    assert not [url for url in refused if "tile" not in url], refused
    text = frame.locator("body").inner_text()
    assert "Â" not in text and "â€" not in text, "UTF-8 read as Latin-1 in the frame"
    page.close()


def test_notebook_03s_prose_about_its_places_holds() -> None:
    """What 03-your-own-story says of its geocoder's answers (``Geocoder([])``): Aleppo and
    Idlib are the cities at GeoNames' points (170063, 169389), confidence 0.75; Amiriyah
    resolves, to a place outside Syria; al-Rashidin is unknown."""
    from routes.places import Geocoder, UnknownPlaceError

    prose = (NOTEBOOKS / "03-your-own-story.ipynb").read_text(encoding="utf-8")
    assert "confidence 0.75" in prose and "Idlib province" in prose
    geocoder = Geocoder([])
    for name, gid in [("Aleppo", 170063), ("Idlib", 169389)]:
        match = geocoder.resolve(name)
        assert (match.geonames_id, match.kind, match.confidence) == (gid, "city", 0.75)
    assert geocoder.resolve("Idlib province").kind == "admin1"
    assert geocoder.resolve("Amiriyah").country != "SY"
    with pytest.raises(UnknownPlaceError):
        geocoder.resolve("al-Rashidin")
