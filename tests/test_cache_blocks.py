"""The graph cache checks what a run reads, block by block (:mod:`routes.network.store`).

A member larger than one block carries the CRC-32 of each of its blocks: reading some rows
checks, and pages in, only the blocks that hold them; a damaged block nobody reads goes
unnoticed, one that is read stops the run as a damaged column always did (one line, the
entry removed, built again by the next run). Rows read are also checked against the other
columns (codes have values, geometry offsets run forwards), as whole columns are.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import pytest
from osm_support import helsinki_pbf
from synthetic_osm import write_grid_scenario, write_road_grid

from routes import network
from routes.cli import app
from routes.network import store
from routes.network.osmfile import road_arrays
from routes.network.store import BLOCK, read_npz, write_npz
from routes.routing import RoadNetwork
from routes.routing.arrays import RoadArrays
from routes.scenario import Scenario


def _data_start(path: Path, name: str) -> int:
    """Where member ``name``'s bytes (its ``.npy`` header, then its data) start in the file."""
    with zipfile.ZipFile(path) as z:
        member = z.getinfo(f"{name}.npy")
    with path.open("rb") as f:
        f.seek(member.header_offset + 26)
        names, extra = struct.unpack("<2H", f.read(4))
    return member.header_offset + 30 + names + extra


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def test_rows_are_checked_in_the_blocks_that_hold_them(tmp_path: Path) -> None:
    values = np.arange(40 * BLOCK // 8, dtype=np.float64)  # 40 blocks of data
    path = tmp_path / "arrays.npz"
    write_npz(path, {"big": values, "small": np.arange(3)})
    with np.load(path, allow_pickle=False) as plain:  # still numpy's format, sums beside
        assert set(plain.files) == {"big", "small", "blocks/big"}
        np.testing.assert_array_equal(plain["big"], values)
    header = zipfile.ZipFile(path).getinfo("big.npy").file_size - values.nbytes
    mapped = read_npz(path, lazy=True)
    assert list(mapped) == ["big", "small"] and mapped.shape("big") == values.shape
    assert mapped.checked("big").tolist() == [True] + [False] * 40  # the header's block
    rows = np.array([5, 6, len(values) - 1])
    np.testing.assert_array_equal(mapped.take("big", rows), values[rows])
    assert np.flatnonzero(mapped.checked("big")).tolist() == [0, 40]

    _flip(path, _data_start(path, "big") + 20 * BLOCK + 7)  # a byte of block 21 of 41
    mapped = read_npz(path, lazy=True)
    np.testing.assert_array_equal(mapped.take("big", rows), values[rows])  # not noticed
    inside = np.array([(20 * BLOCK + 7 - header) // 8])
    with pytest.raises(ValueError, match=r"^big\.npy: checksum mismatch \(block 21 of 41\)$"):
        mapped.take("big", inside)
    with pytest.raises(ValueError, match="checksum mismatch"):
        mapped["big"]  # the whole member: every block
    with pytest.raises(ValueError, match="checksum mismatch"):
        read_npz(path)  # everything, now


@pytest.mark.parametrize("dtype", ["<f8", "<i4", "u1"])
def test_exactly_the_blocks_a_read_touches(tmp_path: Path, dtype: str) -> None:
    """Rows of (n, 3) arrays, which straddle blocks: the blocks checked are those holding
    a byte of some row read, and the header's."""
    rng = np.random.default_rng(7)
    values = rng.integers(0, 100, (9 * BLOCK // 7, 3)).astype(dtype)
    path = tmp_path / "arrays.npz"
    write_npz(path, {"xyz": values})
    header = zipfile.ZipFile(path).getinfo("xyz.npy").file_size - values.nbytes
    row = values.itemsize * 3
    for count in (1, 5, 40):
        rows = rng.integers(0, len(values), count)
        mapped = read_npz(path, lazy=True)
        np.testing.assert_array_equal(mapped.take("xyz", rows), values[rows])
        touched = {0} | {
            b
            for r in rows.tolist()
            for b in range((header + r * row) // BLOCK, (header + (r + 1) * row - 1) // BLOCK + 1)
        }
        assert set(np.flatnonzero(mapped.checked("xyz")).tolist()) == touched


def test_members_without_block_sums_are_checked_whole(tmp_path: Path) -> None:
    """A file numpy wrote (no ``blocks/`` members) is read as before: a member at a time."""
    path = tmp_path / "plain.npz"
    values = np.arange(4 * BLOCK, dtype=np.int64)
    np.savez(path, big=values)
    mapped = read_npz(path, lazy=True)
    np.testing.assert_array_equal(mapped.take("big", np.array([3])), [3])
    assert mapped.checked("big").tolist() == [True]
    _flip(path, _data_start(path, "big") + 3 * BLOCK)
    with pytest.raises(ValueError, match=r"big\.npy: checksum mismatch"):
        read_npz(path, lazy=True).take("big", np.array([3]))


def test_garbled_block_sums_refuse_their_member(tmp_path: Path) -> None:
    path = tmp_path / "arrays.npz"
    write_npz(path, {"big": np.zeros(3 * BLOCK, dtype=np.uint8)})
    _flip(path, _data_start(path, "blocks/big") + 130)  # a checksum, past the .npy header
    mapped = read_npz(path, lazy=True)
    assert list(mapped) == ["big"]
    with pytest.raises(ValueError, match=r"blocks/big\.npy: checksum mismatch"):
        mapped.take("big", np.array([1]))


def _stop(exc: ValueError) -> NoReturn:
    raise RuntimeError(f"damaged: {exc}")


def test_rows_read_are_checked_against_the_other_columns(tmp_path: Path) -> None:
    """An entry with good checksums but columns that do not fit (planted, or written by a
    bug) fails where those rows are read, like a whole column that does not fit."""
    grid = write_road_grid(tmp_path / "grid.osm.pbf", 12)
    speeds = network.HIGHWAY_SPEEDS_KPH
    roads = road_arrays(grid, highways=network.DRIVABLE, speeds=speeds, fallback=25.0)
    arrays = roads.arrays()
    codes = arrays["edges/code:highway"].copy()
    codes[3] = 10**6
    offsets = arrays["edges/geometry_offsets"].copy()
    drawn = int(np.flatnonzero(np.diff(offsets) > 1)[5])
    offsets[drawn + 1] = offsets[drawn] - 1  # runs backwards
    path = tmp_path / "entry.npz"
    write_npz(path, {**arrays, "edges/code:highway": codes, "edges/geometry_offsets": offsets})
    lazy = RoadArrays.from_arrays(read_npz(path, lazy=True), lazy=True, damaged=_stop)
    fine = np.array([2, 4, drawn + 5])
    assert lazy.column("highway", fine).tolist() == roads.column("highway", fine).tolist()
    for got, want in zip(lazy.runs(fine), roads.runs(fine), strict=True):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(RuntimeError, match="damaged: column code:highway has codes without"):
        lazy.column("highway", np.array([3]))
    with pytest.raises(RuntimeError, match="damaged: geometry offsets do not fit"):
        lazy.runs(np.array([drawn]))


def test_a_warm_run_checks_only_the_blocks_it_reads(
    tmp_path: Path, graph_cache: Path, runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``routes corridors --osm`` on a warm cache pages in a few blocks of the geometry; a
    damaged block it does not read changes nothing, one it reads stops it with one line."""
    side = 100
    grid = write_road_grid(tmp_path / "grid.osm.pbf", side)
    scenario = write_grid_scenario(tmp_path / "grid.yaml", side, blocks=5)
    args = ["corridors", "--osm", str(grid), "-s", str(scenario), "--json"]
    cold = runner.invoke(app, args)
    assert cold.exit_code == 0, cold.output
    [entry] = (graph_cache / "graphs").glob("osm-*.npz")
    opened: list[store.MappedNpz] = []

    def recorded(path: Path, *, lazy: bool = False) -> store.MappedNpz:
        opened.append(read_npz(path, lazy=lazy))
        return opened[-1]

    monkeypatch.setattr(store, "read_npz", recorded)
    warm = runner.invoke(app, args)
    assert warm.exit_code == 0 and warm.stdout == cold.stdout
    [mapped] = opened
    read = mapped.checked("edges/geometry_xy")
    assert len(read) >= 15 and 0 < read.sum() <= len(read) // 3, read
    columns = [n for n in mapped if n.startswith("edges/") and len(mapped.checked(n)) > 1]
    blocks = [mapped.checked(n) for n in columns]
    assert sum(b.sum() for b in blocks) <= sum(len(b) for b in blocks) // 2
    assert not mapped.checked("edges/code:maxspeed").any()  # a column no one reads

    start = _data_start(entry, "edges/geometry_xy")
    _flip(entry, start + int(np.flatnonzero(~read)[-1]) * BLOCK + 100)
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and again.stdout == cold.stdout and entry.is_file()

    _flip(entry, start + int(np.flatnonzero(read)[-1]) * BLOCK + 100)
    stopped = runner.invoke(app, args)
    assert stopped.exit_code == 2 and "Traceback" not in stopped.output
    [line] = stopped.stderr.strip().splitlines()
    assert f"{entry.name} is damaged" in line and "geometry_xy" in line and "run again" in line
    assert not entry.exists()
    rebuilt = runner.invoke(app, args)
    assert rebuilt.exit_code == 0 and rebuilt.stdout == cold.stdout and entry.is_file()


def test_edges_near_a_box_are_found_without_reading_every_column(
    tmp_path: Path, graph_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The edges within a box (the map's roads near the routes, areas to avoid) are those
    whose bounds meet it, found from the stored boxes of runs of edges: a warm lookup
    near the middle of the grid pages in at most half the blocks of each column it reads
    (a third of the geometry's)."""
    grid = write_road_grid(tmp_path / "grid.osm.pbf", 160)
    cold = network.from_osm_file(grid)
    opened: list[store.MappedNpz] = []

    def recorded(path: Path, *, lazy: bool = False) -> store.MappedNpz:
        opened.append(read_npz(path, lazy=lazy))
        return opened[-1]

    monkeypatch.setattr(store, "read_npz", recorded)
    warm = network.from_osm_file(grid)
    west, south, east, north = (float(v) for v in cold.edges().total_bounds)
    middle = ((west + east) / 2, (south + north) / 2)
    box = (middle[0] - 0.004, middle[1] - 0.003, middle[0] + 0.002, middle[1] + 0.004)
    near = warm.edges(["highway", "name"], within=box)
    [mapped] = opened
    for name in ("u", "v", "geometry_offsets", "geometry_xy"):
        read = mapped.checked(f"edges/{name}")
        share = 3 if name == "geometry_xy" else 2
        assert len(read) >= 4 and read.sum() <= len(read) // share, (name, read)
    np.testing.assert_array_equal(warm.arrays.boxes(), cold.arrays.boxes())
    every = cold.edges(["highway", "name"])
    bounds = every.geometry.bounds
    meets = (bounds.maxx >= box[0]) & (bounds.minx <= box[2])
    meets &= (bounds.maxy >= box[1]) & (bounds.miny <= box[3])
    assert 0 < meets.sum() < len(every) // 20
    assert near.to_json() == every[meets].to_json()


def _same_as_every_bounds(cold: RoadNetwork, warm: RoadNetwork) -> None:
    """Random boxes find the edges whose bounds meet them, warm and cold."""
    every = cold.edges()
    bounds = every.geometry.bounds
    west, south, east, north = every.total_bounds
    rng = np.random.default_rng(3)
    for _ in range(20):
        x0, x1 = sorted(rng.uniform(west, east, 2))
        y0, y1 = sorted(rng.uniform(south, north, 2))
        meets = (
            (bounds.maxx >= x0) & (bounds.minx <= x1) & (bounds.maxy >= y0) & (bounds.miny <= y1)
        )
        for G in (cold, warm):
            assert G.edges(within=(x0, y0, x1, y1)).index.tolist() == every.index[meets].tolist()


def test_edges_near_random_boxes_of_helsinki(graph_cache: Path) -> None:
    """On real roads, edges in no spatial order."""
    _same_as_every_bounds(
        network.from_osm_file(helsinki_pbf()), network.from_osm_file(helsinki_pbf())
    )


def test_edges_near_random_boxes_of_the_proxy(aleppo: Scenario) -> None:
    """On the proxy network: no edge has a geometry, a box bounds the edges' nodes."""
    cached = network.proxy_network(aleppo)  # boxes from the cache entry
    _same_as_every_bounds(cached, RoadNetwork.from_networkx(cached.to_networkx()))  # made anew
