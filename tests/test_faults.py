"""Hostile input and faults, rounds three (issue 29, and issue 30's errors) and four (issue 39):
every finding, by number, through the real CLI or the public API.

Each test would have caught its finding on the code before the fix: there it was a
traceback, a hang, a blow-up or a truncated file. Here it is one line and exit 2 (or a
correct result), within 30 s, with nothing half-written and old files left as they were.
Commands that hung or aborted the process before run in a subprocess with a timeout (and,
where memory grew, a limit on it: :data:`MEMORY`).
"""

from __future__ import annotations

import copy
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import write_yaml
from osm_support import helsinki_osm  # noqa: F401  (a pytest fixture)

from routes import datasets, settings
from routes.cli import app

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 30
#: The address space a subprocess may take when it is given a limit, bytes.
MEMORY = 1 << 30
ESC = "\x1b"


def aleppo() -> dict[str, Any]:
    return copy.deepcopy(ALEPPO)


ALEPPO: dict[str, Any] = yaml.safe_load(
    datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8")
)


def refused(result: Any) -> str:
    """A CliRunner result that is one red line and exit 2: that line."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if not line.startswith("warning")]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, lines  # the error; any other lines are the run's warnings
    assert ESC not in result.stderr
    return str(errors[0])


def routes(
    *args: str,
    stdin: bytes | None = None,
    cache: Path | None = None,
    memory: int | None = None,
    timeout: float = TIMEOUT_S,
) -> Any:
    """``python -m routes ARGS`` in a subprocess, bounded by ``timeout`` (and, given
    ``memory``, by that much address space: past it, Python raises MemoryError)."""
    env = {**os.environ, "ROUTES_CACHE_DIR": str(cache or settings.cache_dir)}

    def bounded() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "routes", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
        check=False,
        preexec_fn=bounded,
    )


def refused_proc(done: Any) -> str:
    """A finished subprocess that said one line and exited 2: that line."""
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, (done.returncode, err[-2000:])
    assert "Traceback" not in err and ESC not in err
    lines = [line for line in err.strip().splitlines() if line.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0]


def own_cache(tmp_path: Path) -> Path:
    """A cache folder of the test's own that shares the GeoNames index (no rebuild)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for entry in settings.cache_dir.glob("geonames-*"):
        (cache / entry.name).symlink_to(entry)
    return cache


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """:func:`own_cache` as this process's cache folder."""
    cache = own_cache(tmp_path)
    monkeypatch.setattr(settings, "cache_dir", cache)
    return cache


@pytest.fixture(scope="module")
def one_worker() -> Iterator[str]:
    """A real local Dask cluster of one worker process; its scheduler's address."""
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster:  # fmt: skip
        yield cluster.scheduler_address


# --- 1: a full disk never replaces a good file with a cut one --------------------------------


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1.2 MB tmpfs (root only); skipped with the reason where it cannot be mounted."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mount = shutil.which("mount")
    done = None
    if mount and os.geteuid() == 0:
        command = [mount, "-t", "tmpfs", "-o", "size=1200k", "tmpfs", str(folder)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done is None or done.returncode != 0:
        why = done.stderr.strip() if done is not None else "not root, or no mount(8)"
        pytest.skip(f"cannot mount a small tmpfs here ({why})")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def _fill(folder: Path, leave: int) -> None:
    free = shutil.disk_usage(folder).free
    (folder / "filler").write_bytes(b"\0" * max(0, free - leave))


@pytest.mark.parametrize("fmt", ["kml", "geojson"])
def test_1_a_full_disk_leaves_the_old_export(fmt: str, tiny_disk: Path, runner: Any) -> None:
    """Room for the small layers only, then about the size of the largest: GDAL either says
    it could not write, or (its KML and GeoJSON drivers, at the last flush) says nothing and
    leaves a cut file, which must never replace the old one."""
    args = ["export", "--offline", "--network", "proxy", "-f", fmt, "-o", str(tiny_disk)]
    assert runner.invoke(app, args).exit_code == 0
    before = {p.name: p.read_bytes() for p in tiny_disk.iterdir()}
    largest = max(map(len, before.values()))
    for leave in (80_000, *(largest + extra for extra in range(-1024, 4097, 1024))):
        _fill(tiny_disk, leave)
        result = runner.invoke(app, args)
        if result.exit_code != 0:
            refused(result)  # GDAL's error, or ours when the file read back cut
        (tiny_disk / "filler").unlink()
        after = {p.name: p.read_bytes() for p in tiny_disk.iterdir()}
        assert after == before, f"{leave:,} bytes free: a file was cut or a temporary left"


def test_1_a_full_disk_leaves_the_old_page(tiny_disk: Path, runner: Any) -> None:
    page = tiny_disk / "m.html"
    page.write_text("the old page", encoding="utf-8")
    _fill(tiny_disk, 20_000)
    assert "needs" in refused(runner.invoke(app, ["map", "--offline", "-o", str(page)]))
    assert page.read_text(encoding="utf-8") == "the old page"
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["filler", "m.html"]


# --- 2: a YAML alias bomb in an id is quoted as a short prefix -------------------------------


def test_2_an_alias_bomb_as_an_id_is_one_short_line(tmp_path: Path) -> None:
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"] + [
        f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 9)
    ]
    data = aleppo()
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    first = f"- id: {data['places'][0]['id']}\n"
    assert first in text
    text = text.replace(first, "- id: *a8\n", 1)
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(levels) + "\n" + text, encoding="utf-8")
    done = routes("scenario", "check", str(path))
    err = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in err
    assert len(err) < 4000 and all(len(line) < 600 for line in err.splitlines()), err[:2000]


# --- 3: dates beyond a sane range are refused when the scenario is read ----------------------


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d["corridors"][0].update(end="9999-12-31"),
        lambda d: d["corridors"][0].update(date="9999-12-31"),
        lambda d: d["corridors"][0]["phases"][0].update(end="9999-12-31"),
        lambda d: d["story"].update(date="0001-01-01"),
    ],
    ids=["open-end", "corridor-date", "phase-end", "year-one"],
)
def test_3_dates_beyond_the_sane_range_are_refused_at_load(spoil: Any, tmp_path: Path) -> None:
    data = aleppo()
    data["corridors"][0].setdefault("phases", [{"date": "2016-12-15", "status": "under way",
                                                "source": data["sources"][0]["id"]}])  # fmt: skip
    spoil(data)
    path = tmp_path / "far.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    out = tmp_path / "m.html"
    line = refused_proc(routes("map", "--offline", "-s", str(path), "-o", str(out)))
    assert "1800-01-01..2100-12-31" in line
    assert not out.exists()


# --- 4: bytes are decoded once, strictly, with the file and offset ---------------------------


@pytest.mark.parametrize("command", [["scenario", "check", "-"], ["map", "--offline", "-s", "-"]])
def test_4_non_utf8_on_stdin_names_the_offset(command: list[str], runner: Any) -> None:
    text = datasets.get_path("aleppo-2016-12").read_bytes()
    result = runner.invoke(app, command, input=text[:100] + b"\xff\xfe" + text[100:])
    assert result.exit_code == 2 and "Traceback" not in result.output
    line = result.stderr.splitlines()[0]  # scenario check adds the count of problems: 1
    assert "<stdin>" in line and "byte 100" in line


def test_4_non_utf8_in_a_jsonl_line_names_file_line_and_offset(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    second = b'{"id": "b", "text": "Id\xfflib"}\n'
    source.write_bytes(b'{"id": "a", "text": "Aleppo"}\n' + second)
    line = refused_proc(routes("extract", "--jsonl", str(source)))
    offset = second.index(b"\xff")
    assert f"{source} line 2" in line and f"byte {offset}" in line


@pytest.mark.parametrize("where", ["text", "publisher"])
def test_4_a_lone_surrogate_escape_is_refused(where: str, tmp_path: Path, runner: Any) -> None:
    story = {"id": "a", "text": "Buses left Aleppo for Idlib.", "publisher": "Desk"}
    story[where] += "\ud800"
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(story) + "\n", encoding="ascii")  # "\ud800" as an escape
    assert "surrogate" in refused(runner.invoke(app, ["extract", "--jsonl", str(source)]))
    line = refused(runner.invoke(app, ["corpus", str(source), "-o", str(tmp_path / "out")]))
    assert "surrogate" in line and not (tmp_path / "out").exists()


def test_4_a_corpus_file_name_that_is_not_utf8(tmp_path: Path, runner: Any) -> None:
    folder = tmp_path / "stories"
    folder.mkdir()
    (folder / "ok.txt").write_text("Buses left Aleppo for Idlib.", encoding="utf-8")
    (Path(os.fsdecode(bytes(folder) + b"/caf\xe9.txt"))).write_text("Homs.", encoding="utf-8")
    line = refused(runner.invoke(app, ["corpus", str(folder), "-o", str(tmp_path / "out")]))
    assert "not UTF-8" in line and "\\udce9" in line


# --- 5: flows.parquet with the right columns and wrong values --------------------------------


@pytest.fixture(scope="module")
def flows_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A flows.parquet as routes corpus writes it, from the test corpus (no cluster)."""
    from routes.corpus.flows import merge_flows, write_outputs
    from routes.corpus.stories import read_stories
    from routes.corpus.work import extract_story

    folder = tmp_path_factory.mktemp("flows")
    stories = read_stories(ROOT / "tests" / "fixtures" / "corpus" / "stories.jsonl")
    write_outputs(folder, merge_flows(extract_story(s) for s in stories))
    return folder / "flows.parquet"


def _claims(row: dict[str, Any], **change: Any) -> str:
    return json.dumps([json.loads(row["claims"])[0] | change])


FLOW_SPOILS: dict[str, Any] = {
    "nan-lat": lambda r: r.update(origin_lat=float("nan")),
    "inf-lon": lambda r: r.update(dest_lon=float("inf")),
    "1e308-lat": lambda r: r.update(dest_lat=1e308),
    "list-not-json": lambda r: r.update(claims="[{not json"),
    "list-not-a-list": lambda r: r.update(stories='{"a": 1}'),
    "no-sources": lambda r: r.update(sources="[]"),
    "unknown-kind": lambda r: r.update(claims=_claims(r, kind="unicorns")),
    "1e30-people": lambda r: r.update(claims=_claims(r, value=1e30)),
    "null-reference": lambda r: r.update(origin=None),
    "null-flow-id": lambda r: r.update(flow_id=None),
    "bad-date": lambda r: r.update(date_start="2016-13-45"),
    "far-date": lambda r: r.update(dates='["9999-12-31"]'),
    "surrogate": lambda r: r.update(
        sources=r["sources"].replace('"story": "', '"story": "\\ud800')
    ),
}


@pytest.mark.parametrize("spoil", sorted(FLOW_SPOILS))
def test_5_flows_with_bad_values_are_one_line(
    spoil: str, flows_file: Path, tmp_path: Path, runner: Any
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(flows_file)
    rows = table.to_pylist()
    FLOW_SPOILS[spoil](rows[0])
    bad = tmp_path / "flows.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), bad)
    out = tmp_path / "m.html"
    line = refused(runner.invoke(app, ["map", "--offline", "-s", str(bad), "-o", str(out)]))
    assert str(bad) in line and not out.exists()


def test_5_the_flows_file_as_written_still_maps(flows_file: Path, tmp_path: Path) -> None:
    from routes.corpus import flows_scenario

    assert len(flows_scenario(flows_file).corridors) >= 3


# --- 6: OSM files with nodes nowhere and maxspeed=0 ------------------------------------------


def _osm(path: Path, lat: str = "60.1710", maxspeed: str = "50", ring: bool = False) -> Path:
    """Two primary roads: 1-2-3-4 (with ``maxspeed``) and 1-3; or, with ``ring``, 1-2-3, 3-1."""
    nodes = [("1", "60.1700", "24.9400"), ("2", lat, "24.9450"), ("3", "60.1720", "24.9500"),
             ("4", "60.1720", "24.9600")]  # fmt: skip
    first, second = (["1", "2", "3"], ["3", "1"]) if ring else (["1", "2", "3", "4"], ["1", "3"])
    way = '<way id="{}" version="1">{}<tag k="highway" v="primary"/>{}</way>'
    refs = ["".join(f'<nd ref="{n}"/>' for n in nodes_) for nodes_ in (first, second)]
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n'
        + "".join(f'<node id="{i}" lat="{y}" lon="{x}" version="1"/>\n' for i, y, x in nodes)
        + way.format(10, refs[0], f'<tag k="maxspeed" v="{maxspeed}"/>')
        + way.format(11, refs[1], "")
        + "\n</osm>\n",
        encoding="utf-8",
    )
    return path


def test_6_a_ring_of_roads_that_simplifies_to_nothing_is_one_line(
    tmp_path: Path, runner: Any, graph_cache: Path
) -> None:
    osm = _osm(tmp_path / "ring.osm", ring=True)
    assert "no drivable road" in refused(runner.invoke(app, ["network", "info", "--osm", str(osm)]))


@pytest.mark.parametrize("lat", ["nan", "inf", "-999"])
def test_6_an_osm_node_nowhere_is_one_line(
    lat: str, tmp_path: Path, runner: Any, graph_cache: Path
) -> None:
    osm = _osm(tmp_path / "roads.osm", lat=lat)
    line = refused(runner.invoke(app, ["network", "info", "--osm", str(osm)]))
    assert "roads.osm" in line and "valid position" in line


@pytest.mark.parametrize("maxspeed", ["0", "0 mph", "inf", "nan"])
def test_6_maxspeed_zero_takes_the_road_class_speed(
    maxspeed: str, tmp_path: Path, graph_cache: Path
) -> None:
    import numpy as np

    from routes import network

    G = network.from_osm_file(_osm(tmp_path / "roads.osm", maxspeed=maxspeed))
    edges = G.edges(["speed_kph", "travel_time"])
    assert np.isfinite(edges["travel_time"]).all() and (edges["travel_time"] > 0).all()
    assert set(edges["speed_kph"]) == {network.HIGHWAY_SPEEDS_KPH["primary"]}


# --- 7: --avoid polygons that cross themselves, names that are lists, FIFOs ------------------


def _areas(path: Path, name: Any = "front line") -> Path:
    """Two overlapping bow-ties (each crosses itself) around Aleppo."""
    bowtie = [[37.0, 36.1], [37.3, 36.3], [37.3, 36.1], [37.0, 36.3], [37.0, 36.1]]
    shifted = [[x + 0.1, y + 0.05] for x, y in bowtie]
    features = [
        {"type": "Feature", "properties": {"name": name},
         "geometry": {"type": "Polygon", "coordinates": [ring]}}
        for ring in (bowtie, shifted)
    ]  # fmt: skip
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}), "utf-8")
    return path


def test_7_overlapping_self_intersecting_areas_are_avoided(tmp_path: Path, runner: Any) -> None:
    areas = _areas(tmp_path / "areas.geojson")
    result = runner.invoke(app, ["corridors", "--offline", "--json", "--avoid", str(areas)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout), "no corridors"


def test_7_a_name_that_is_a_list_becomes_text(tmp_path: Path, runner: Any) -> None:
    areas = _areas(tmp_path / "areas.geojson", name=["east", "west"])
    args = ["export", "--offline", "-f", "geojson", "--avoid", str(areas), "-o", str(tmp_path)]
    assert runner.invoke(app, args).exit_code == 0
    avoided = json.loads(next(tmp_path.glob("*-avoided.geojson")).read_text(encoding="utf-8"))
    assert [f["properties"]["name"] for f in avoided["features"]] == ['["east", "west"]'] * 2


def test_7_a_fifo_given_as_areas_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "areas.geojson"
    os.mkfifo(fifo)
    line = refused_proc(routes("corridors", "--offline", "--avoid", str(fifo)))
    assert "not a regular file" in line


# --- 8: valid scenarios the proxy could not triangulate --------------------------------------


def _moved(data: dict[str, Any], points: list[tuple[float, float]]) -> dict[str, Any]:
    for place, (lat, lon) in zip(data["places"], points, strict=False):
        place.update(lat=lat, lon=lon)
    return data


@pytest.mark.parametrize(
    "points",
    [
        [(-40.0 + i * 0.01, -130.0) for i in range(40)],  # a row at sea, no town near
        [(84.9, -30.0 + i * 0.5) for i in range(40)],  # near the edge of a web map
    ],
    ids=["in-a-row-at-sea", "near-85"],
)
def test_8_places_the_proxy_could_not_triangulate_are_routed(
    points: list[tuple[float, float]], tmp_path: Path, runner: Any
) -> None:
    scenario = write_yaml(tmp_path / "s.yaml", _moved(aleppo(), points))
    result = runner.invoke(app, ["corridors", "--offline", "--json", "-s", str(scenario)])
    assert result.exit_code == 0, result.output
    assert {r["route_status"] for r in json.loads(result.stdout)} == {"ok"}


def test_8_stops_a_hair_apart_are_one_point(tmp_path: Path, runner: Any) -> None:
    data = aleppo()
    corridor = data["corridors"][0]
    places = {p["id"]: p for p in data["places"]}
    origin = places[corridor["origin"]]
    for stop in [*corridor.get("waypoints", []), corridor["destination"]]:
        places[stop].update(lat=origin["lat"] + 1e-11, lon=origin["lon"])
    scenario = write_yaml(tmp_path / "s.yaml", data)
    assert "one point" in refused(
        runner.invoke(app, ["corridors", "--offline", "-s", str(scenario)])
    )


# --- 9: a runaway story is an error line ------------------------------------------------------


def test_9_a_story_past_its_time_limit_is_an_error_line(tmp_path: Path, one_worker: str) -> None:
    from routes.corpus import run_corpus

    folder = tmp_path / "stories"
    folder.mkdir()
    long = "Buses left Aleppo for Idlib. Families fled from Homs to Hama.\n" * 7_500  # ~4 s
    (folder / "long.txt").write_text(long, encoding="utf-8")
    (folder / "short.txt").write_text("Buses left Aleppo for Idlib.", encoding="utf-8")
    report = run_corpus(folder, tmp_path / "out", scheduler=one_worker, story_seconds=1.0)
    lines = (tmp_path / "out" / "stories.jsonl").read_text(encoding="utf-8").splitlines()
    records = {r["id"]: r for r in map(json.loads, lines)}
    assert records["short"]["status"] == "ok", records["short"]
    assert report.failed == 1
    assert records["long"]["status"] == "error" and "StoryTimeout" in records["long"]["error"]
    # The limit is the machine's as much as the story's: the next run drafts it again.
    report = run_corpus(folder, tmp_path / "out", scheduler=one_worker)
    assert (report.reused, report.extracted, report.failed) == (1, 1, 0), report


# --- 10: rich markup in ids and names is text -------------------------------------------------


def test_10_markup_in_ids_is_shown_as_text(tmp_path: Path, runner: Any) -> None:
    data = aleppo()
    marked = "a[/bold][red]b[link=https://evil.example]c"
    data["corridors"][0]["id"] = marked
    data["incidents"] = [i | {"corridor": None} for i in data.get("incidents", [])]
    scenario = write_yaml(tmp_path / "s.yaml", data)
    args = ["corridors", "--offline", "-s", str(scenario)]
    result = runner.invoke(app, args, env={"COLUMNS": "400"})  # one row a line
    assert result.exit_code == 0, result.output
    assert marked in result.stdout and "\x1b]8;" not in result.stdout  # no hyperlink escape


# --- Medium: text is inert on the terminal ---------------------------------------------------


def test_terminal_escapes_are_escaped_in_errors_warnings_and_explain(
    tmp_path: Path, runner: Any
) -> None:
    data = aleppo()
    data["corridors"][0]["id"] = "c\x1b]0;pwned\x07\x1b[2J"
    data["incidents"] = [i | {"corridor": None} for i in data.get("incidents", [])]
    scenario = write_yaml(tmp_path / "s.yaml", data)
    origin = next(p for p in data["places"] if p["id"] == data["corridors"][0]["origin"])
    lat, lon = origin["lat"], origin["lon"]
    ring = [[lon - 0.05, lat - 0.05], [lon + 0.05, lat - 0.05], [lon + 0.05, lat + 0.05],
            [lon - 0.05, lat + 0.05], [lon - 0.05, lat - 0.05]]  # fmt: skip
    areas = tmp_path / "around.geojson"
    areas.write_text(json.dumps({"type": "Polygon", "coordinates": [ring]}), encoding="utf-8")
    args = ["corridors", "--offline", "--avoid", str(areas), "-s", str(scenario)]
    warned = runner.invoke(app, args)  # the corridor has no route: a warning names it
    assert warned.exit_code == 0 and "warning: corridor c\\x1b]0;pwned" in warned.stderr
    data["corridors"][1]["origin"] = "p\x1b[2J"  # an unknown place, named in the problem
    scenario = write_yaml(tmp_path / "s.yaml", data)
    result = runner.invoke(app, ["scenario", "check", str(scenario)])
    assert result.exit_code == 2 and "\\x1b[2J" in result.stderr
    story = tmp_path / "story.txt"
    story.write_text("Buses left Aleppo\x1b]0;pwned\x07 for Idlib on 15 December 2016.\n")
    result = runner.invoke(
        app, ["extract", str(story), "--explain", "-o", str(tmp_path / "d.yaml")]
    )
    assert result.exit_code == 0, result.output
    assert "Idlib" in result.output
    for output in (warned.output, result.output):
        assert ESC not in output and "\x07" not in output


@pytest.mark.parametrize(
    "address", ["notanaddress", "tls://127.0.0.1:8786", "tcp://127.0.0.1:99999", "tcp://:8786"]
)
def test_scheduler_is_checked_before_connecting(address: str, tmp_path: Path, runner: Any) -> None:
    stories = ROOT / "tests" / "fixtures" / "corpus" / "stories.jsonl"
    args = ["corpus", str(stories), "-o", str(tmp_path / "out"), "--scheduler", address]
    assert "--scheduler" in refused(runner.invoke(app, args))


def test_a_hand_edited_corpus_cache_summary_is_redone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, one_worker: str
) -> None:
    from routes.corpus import run_corpus

    stories = ROOT / "tests" / "fixtures" / "corpus" / "stories.jsonl"
    options = {"scheduler": one_worker, "partition_chars": 10**6}
    first = run_corpus(stories, tmp_path, **options)
    summaries = sorted((tmp_path / "cache").glob("*/part-*.json"))
    summary = next(p for p in summaries if json.loads(p.read_text())["flows"])
    data = json.loads(summary.read_text())
    data["flows"][0][2]["places"][0][2] = "north"  # the lines' checksum still matches
    data["stories"].append(["0" * 64, "ghost", True])
    summary.write_text(json.dumps(data))
    with caplog.at_level("WARNING", logger="routes"):
        again = run_corpus(stories, tmp_path, **options)
    assert "unreadable" in caplog.text and again.extracted == len(data["stories"]) - 1
    assert again.stories == first.stories


def _not_a_graph(arrays: dict[str, Any]) -> None:
    n = len(arrays["router/ids"])
    arrays["router/indices"] = arrays["router/indices"] + n  # written by our own writer
    arrays["router/indptr"] = arrays["router/indptr"][::-1].copy()


def _without_a_weight(arrays: dict[str, Any]) -> None:
    """Issue 39, finding 6: a KeyError traceback when the hierarchy of the weight was asked."""
    for name in [k for k in arrays if k.startswith("router/") and k.endswith(":travel_time")]:
        del arrays[name]


@pytest.mark.parametrize(
    ("router", "spoil"),
    [("dijkstra", _not_a_graph), ("ch", _not_a_graph), ("ch", _without_a_weight)],
    ids=["dijkstra", "ch", "ch-without-a-weight"],
)
def test_a_graph_cache_entry_that_is_not_a_graph_is_rebuilt(
    router: str, spoil: Any, tmp_path: Path
) -> None:
    import numpy as np

    from routes.network.store import read_npz, write_npz

    cache = own_cache(tmp_path)
    args = ("corridors", "--network", "proxy", "--router", router, "--json")
    first = routes(*args, cache=cache)
    assert first.returncode == 0, first.stderr.decode()[-2000:]
    [entry] = [p for p in (cache / "graphs").glob("proxy-*.npz") if ".ch-" not in p.name]
    arrays = {k: np.array(v) for k, v in read_npz(entry).items() if not k.startswith("blocks/")}
    spoil(arrays)
    write_npz(entry, arrays)
    again = routes(*args, cache=cache)
    err = again.stderr.decode()
    assert again.returncode == 0 and "building it again" in err, err[-2000:]
    assert json.loads(again.stdout) == json.loads(first.stdout)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_corpus_txt_that_is_no_file_is_refused(kind: str, tmp_path: Path) -> None:
    folder = tmp_path / "stories"
    folder.mkdir()
    (folder / "a.txt").write_text("Buses left Aleppo for Idlib.", encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(folder / "b.txt")
    else:
        (folder / "b.txt").symlink_to("/dev/zero")
    line = refused_proc(routes("corpus", str(folder), "-o", str(tmp_path / "out")))
    assert "b.txt" in line and "not a regular file" in line


def test_the_up_to_date_shortcut_hashes_the_bytes_it_maps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_cache: Path
) -> None:
    """The scenario is edited just after it is first opened: the page and its record must
    both be of the bytes that were read, so a later run never keeps a page of other bytes."""
    import builtins

    from routes import pipeline

    scenario = write_yaml(tmp_path / "s.yaml", aleppo())
    original = scenario.read_bytes()
    edited = original.replace(b"title: ", b"title: EDITED ", 1)
    assert edited != original
    real_open, opened = open, []

    def open_then_edit(path: Any, *args: Any, **kwargs: Any) -> Any:
        f = real_open(path, *args, **kwargs)
        if Path(path) == scenario and not opened:
            opened.append(path)
            (tmp_path / "swap").write_bytes(edited)
            os.replace(tmp_path / "swap", scenario)  # the open file keeps the old bytes
        return f

    out = tmp_path / "m.html"
    with monkeypatch.context() as patched:
        patched.setattr(builtins, "open", open_then_edit)
        pipeline.map_page(scenario, out, network="proxy")
    scenario.write_bytes(original)
    page = pipeline.map_page(scenario, out, network="proxy")
    assert b"EDITED" not in out.read_bytes(), "the page is of bytes the record does not name"
    assert page.path == out


@pytest.mark.parametrize("kind", ["link-to-a-device", "fifo"])
def test_an_output_that_is_not_a_regular_file_is_refused(
    kind: str, tmp_path: Path, runner: Any
) -> None:
    target = tmp_path / "out.html"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/null")  # as /dev/stdout links to a terminal or a pipe
    assert "not a regular file" in refused(
        runner.invoke(app, ["map", "--offline", "-o", str(target)])
    )
    assert target.is_symlink() if kind != "fifo" else target.is_fifo()


# --- issue 30: errors, remembered failures, third-party warnings ----------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["map", "--offline", "--osm", "{story}.osm", "-o", "{missing}/x.html"],
        ["map", "--offline", "--osm", "{story}.osm", "--png", "{missing}/x.png"],
        ["extract", "{story}", "-o", "{missing}/x.yaml"],
        ["export", "--offline", "--osm", "{story}.osm", "-f", "csv", "-o", "{missing}/deeper"],
    ],
    ids=["map", "map-png", "extract", "export"],
)
def test_output_into_a_missing_folder_is_one_line(
    command: list[str], tmp_path: Path, runner: Any
) -> None:
    story = tmp_path / "story.txt"
    story.write_text("Buses left Aleppo for Idlib on 15 December 2016.", encoding="utf-8")
    missing = tmp_path / "no" / "such"
    args = [a.format(missing=missing, story=story) for a in command]
    # checked before any work: the missing OSM file ({story}.osm) would be refused after it
    assert "does not exist" in refused(runner.invoke(app, args))
    assert not (tmp_path / "no").exists()


def test_a_scenario_s_problems_are_all_listed_one_per_line(tmp_path: Path, runner: Any) -> None:
    data = aleppo()
    data["places"][1]["role"] = "capital"  # an enum problem
    data["corridors"][0]["origin"] = "nowhere"  # a reference problem
    data["corridors"][0]["date"] = "9999-12-31"  # a range problem
    scenario = write_yaml(tmp_path / "s.yaml", data)
    for command in (
        ["map", "--offline", "-s", str(scenario)],
        ["scenario", "check", str(scenario)],
    ):
        result = runner.invoke(app, command)
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) >= 4, lines
        assert any("field role" in line for line in lines)
        assert any("unknown place id 'nowhere'" in line for line in lines)
        assert any("field date" in line and "2100" in line for line in lines)
        assert lines[-1] == f"{len(lines) - 1} problem(s) in {scenario}"
        assert all(len(line) < 400 for line in lines)


@pytest.fixture
def cut_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No network: every name lookup and connection fails at once, and is counted."""
    attempts: list[str] = []

    def refuse(what: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            attempts.append(what)
            raise OSError(101, "Network is unreachable (cut by the test)")

        return fail

    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setattr(socket, "gethostbyname", refuse("gethostbyname"))
    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    return attempts


def test_a_failed_download_is_remembered(
    tmp_path: Path, runner: Any, fresh_cache: Path, cut_network: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr(settings, "osm_dir", tmp_path / "osm")
    scenario = write_yaml(tmp_path / "s.yaml", aleppo())
    first = runner.invoke(app, ["map", "-s", str(scenario), "-o", str(tmp_path / "1.html")])
    assert first.exit_code == 0, first.output
    assert cut_network, "the first run did not try the network"
    cut_network.clear()
    second = runner.invoke(app, ["map", "-s", str(scenario), "-o", str(tmp_path / "2.html")])
    assert second.exit_code == 0, second.output
    assert cut_network == [], f"the second run tried the network again: {cut_network}"
    [said] = second.stderr.strip().splitlines()
    assert "routes network fetch" in said and "--network osm" in said
    retry = runner.invoke(
        app, ["map", "--network", "osm", "-s", str(scenario), "-o", str(tmp_path / "3.html")]
    )
    assert retry.exit_code == 2 and cut_network, "--network osm must try again"


def test_third_party_warnings_are_log_lines_shown_with_v(
    runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import warnings

    from routes import scenario as scenarios

    load = scenarios.load

    def load_and_warn(source: Any) -> Any:
        where = "/usr/lib/python3/site-packages/osmnx/graph.py"
        warnings.warn_explicit("a library grumbles", UserWarning, where, 12)
        return load(source)

    monkeypatch.setattr(scenarios, "load", load_and_warn)
    quiet = runner.invoke(app, ["scenario", "check", "aleppo-2016-12"])
    assert quiet.exit_code == 0 and "grumbles" not in quiet.output
    told = runner.invoke(app, ["-v", "scenario", "check", "aleppo-2016-12"])
    assert "osmnx: UserWarning: a library grumbles" in told.stderr
    assert "site-packages" not in told.stderr


# --- Low: CSV formulas, invisible characters, duplicate keys ---------------------------------


@pytest.mark.parametrize(
    "cell", [" =1+1", "\u00a0=1+1", "\n=1+1", "\u200b=1+1", "\uff1d1+1", "\u200e@SUM(A1)"]
)
def test_csv_cells_never_start_a_formula_after_invisible_lead_ins(cell: str) -> None:
    from routes.text import safe_cell

    assert str(safe_cell(cell)).startswith("'")


def test_display_drops_bidi_marks_and_zero_width_characters() -> None:
    from routes.text import for_display

    assert for_display("Al\u200eep\u200fpo\u061c\u200b\u2060\ufeff") == "Aleppo"
    assert for_display("می\u200cخواهم") == "می\u200cخواهم"  # a joiner between letters stays


def test_duplicate_yaml_keys_are_an_error(tmp_path: Path, runner: Any) -> None:
    text = datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8")
    path = tmp_path / "twice.yaml"
    assert "  - id: aleppo\n" in text
    path.write_text(text.replace("  - id: aleppo\n", "  - id: aleppo\n    id: homs\n", 1), "utf-8")
    result = runner.invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    line = text[: text.index("  - id: aleppo\n")].count("\n") + 2  # the second 'id'
    assert f"line {line}: not valid YAML (key 'id' given twice" in result.stderr.splitlines()[0]


def test_an_osm_file_edited_while_it_is_read_is_not_cached(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    graph_cache: Path,
    helsinki_osm: Path,  # noqa: F811
) -> None:
    """The file is hashed, then parsed: an edit in between would keep the new roads under
    the old file's key. The run stops with one line and caches nothing; the next run reads
    the file as it is."""
    from routes import network
    from routes.errors import NetworkError
    from routes.network import osmfile

    osm = shutil.copy(helsinki_osm, tmp_path / "roads.osm")
    real = osmfile.road_arrays

    def read_then_edit(path: Any, **kwargs: Any) -> Any:
        arrays = real(path, **kwargs)
        with open(path, "a", encoding="utf-8") as f:
            f.write("<!-- edited -->\n")
        return arrays

    with monkeypatch.context() as patched:
        patched.setattr(osmfile, "road_arrays", read_then_edit)
        with pytest.raises(NetworkError, match="changed while it was read"):
            network.from_osm_file(osm)
    assert not list(graph_cache.rglob("osm-*")), "an entry of roads that were not hashed"
    assert network.from_osm_file(osm).graph["network_source"] == "osm"


# === Round four (issue 39) ===================================================================

# --- 1: a figure belongs to one movement; a draft grows with its story -----------------------


def test_r4_1_a_thousand_movements_in_one_sentence_are_linear(tmp_path: Path) -> None:
    """Every movement took every figure of its sentence: 1,000 movements with a number each
    took 286 s and 7.3 GB and wrote a 176 MB draft (and ``--explain`` showed the sentence
    again for each of the million figures)."""
    story = tmp_path / "q.txt"
    story.write_text(" ".join(f"People fled Aleppo to Idlib {i}" for i in range(1000)) + ".")
    draft = tmp_path / "q.yaml"
    done = routes("extract", str(story), "--explain", "-o", str(draft), memory=MEMORY)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert draft.stat().st_size < 1_000_000 and len(done.stdout) < 2_000_000
    data = yaml.safe_load(draft.read_text(encoding="utf-8"))
    records = [r for key in ("corridors", "movements", "vehicles") for r in data.get(key) or []]
    spans = [(f["evidence"]["start"], f["evidence"]["end"]) for r in records for f in r["figures"]]
    assert len(spans) == len(set(spans)), "a figure belongs to more than one movement"
    assert 0 < len(spans) <= 1000


# --- 4: splitting sentences, and --explain, are linear in a paragraph ------------------------


def test_r4_4_one_long_paragraph_is_split_in_linear_time(tmp_path: Path) -> None:
    """Splitting searched the paragraph's whole beginning at every sentence end: 165,000
    characters of short sentences in one paragraph ran past 100 s (``--explain`` splits
    again); linear, they take a few seconds."""
    story = tmp_path / "rain.txt"
    story.write_text("Buses left Aleppo for Idlib on 15 December 2016. " + "It rained. " * 15_000)
    draft = tmp_path / "d.yaml"
    done = routes("extract", str(story), "--explain", "-o", str(draft), memory=MEMORY)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert b"aleppo-to-idlib" in draft.read_bytes()


def test_r4_4_a_name_that_is_only_an_article_is_a_name(runner: Any, tmp_path: Path) -> None:
    """ "Az" (an Arabic article) alone as a place's name ran the article-skipping off the end
    of the story: an IndexError traceback (found by the one-paragraph benchmark)."""
    story = tmp_path / "s.txt"
    story.write_text("Buses left Aleppo for Idlib. Convoys went to Az", encoding="utf-8")
    result = runner.invoke(app, ["extract", str(story), "-o", str(tmp_path / "d.yaml")])
    assert result.exit_code == 0, result.output


# --- 2: cache entries are replaced where they are, never written through a link ----------


def _victim(tmp_path: Path, name: str = "victim.txt") -> Path:
    """A file of the user's that a planted link leads to: it must stay as it is."""
    victim = tmp_path / name
    victim.write_bytes(b"the user's own file\n")
    victim.chmod(0o640)
    return victim


def _plant(entry: Path, target: Path) -> None:
    """A link to ``target`` in place of the cache entry ``entry``."""
    entry.unlink(missing_ok=True)
    entry.symlink_to(target)


def _untouched(victim: Path) -> None:
    assert victim.read_bytes() == b"the user's own file\n", f"{victim} was written through"
    assert victim.stat().st_mode & 0o777 == 0o640, f"{victim} was chmod-ed"


def test_r4_2_a_page_record_planted_as_a_link_is_replaced(
    tmp_path: Path, fresh_cache: Path, runner: Any
) -> None:
    scenario = write_yaml(tmp_path / "s.yaml", aleppo())
    page = tmp_path / "p.html"
    args = ["map", "--network", "proxy", "-s", str(scenario), "-o", str(page)]
    assert runner.invoke(app, args).exit_code == 0
    [record] = (fresh_cache / "pages").glob("*.json")
    victim = _victim(tmp_path)
    page.unlink()  # so the next run draws the page again and writes its record
    _plant(record, victim)
    assert runner.invoke(app, args).exit_code == 0
    _untouched(victim)
    assert not record.is_symlink() and json.loads(record.read_bytes())["story"]


def test_r4_2_graph_and_hierarchy_entries_planted_as_links_are_replaced(tmp_path: Path) -> None:
    cache = own_cache(tmp_path)
    args = ("corridors", "--network", "proxy", "--router", "ch", "--json")
    first = routes(*args, cache=cache)
    assert first.returncode == 0, first.stderr.decode()[-2000:]
    entries = sorted((cache / "graphs").glob("proxy-*.npz"))
    assert len(entries) == 2 and any(".ch-" in p.name for p in entries)  # graph, hierarchy
    victims = [_victim(tmp_path, f"victim-{n}.npz") for n in range(len(entries))]
    for entry, victim in zip(entries, victims, strict=True):
        _plant(entry, victim)
    again = routes(*args, cache=cache)
    assert again.returncode == 0, again.stderr.decode()[-2000:]
    assert json.loads(again.stdout) == json.loads(first.stdout)
    for entry, victim in zip(entries, victims, strict=True):
        _untouched(victim)
        assert entry.is_file() and not entry.is_symlink()


def test_r4_2_a_note_of_a_failure_planted_as_a_link_is_replaced(
    remembered: tuple[list[str], Path], runner: Any, tmp_path: Path
) -> None:
    args, note = remembered
    victim = _victim(tmp_path)
    _plant(note, victim)  # not a note: ignored, so the server is tried and the note written
    assert runner.invoke(app, args).exit_code == 0
    _untouched(victim)
    assert not note.is_symlink() and json.loads(note.read_bytes())["what"].startswith("overpass")


def test_r4_2_links_in_osmnx_s_response_cache_are_removed_before_it_writes(
    tmp_path: Path, fresh_cache: Path
) -> None:
    """osmnx writes a response where its cache file is, through a link if one is there."""
    folder = fresh_cache / "osmnx"
    folder.mkdir()
    victim = _victim(tmp_path)
    (folder / "0123abcd.json").symlink_to(victim)
    (folder / "kept.json").write_text("{}", encoding="utf-8")
    settings.configure_osmnx()
    assert sorted(p.name for p in folder.iterdir()) == ["kept.json"]
    _untouched(victim)


def test_r4_2_corpus_cache_entries_planted_as_links_are_replaced(
    tmp_path: Path, one_worker: str
) -> None:
    from routes.corpus import run_corpus

    stories = ROOT / "tests" / "fixtures" / "corpus" / "stories.jsonl"
    first = run_corpus(stories, tmp_path / "out", scheduler=one_worker)
    entries = sorted((tmp_path / "out" / "cache").glob("*/part-*"))
    assert entries
    victims = [_victim(tmp_path, f"victim-{n}") for n in range(len(entries))]
    for entry, victim in zip(entries, victims, strict=True):
        _plant(entry, victim)
    again = run_corpus(stories, tmp_path / "out", scheduler=one_worker)
    assert again.stories == first.stories and again.extracted == first.extracted
    for entry, victim in zip(entries, victims, strict=True):
        _untouched(victim)
        assert not entry.is_symlink()


def test_r4_6_a_cache_folder_planted_as_a_link_is_neither_followed_nor_chmod_ed(
    tmp_path: Path, fresh_cache: Path, runner: Any
) -> None:
    """With a cache folder others can write to, a planted ``pages`` link got its target
    chmod-ed to 0700 and the record written into it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    elsewhere.chmod(0o755)
    (fresh_cache / "pages").symlink_to(elsewhere)
    scenario = write_yaml(tmp_path / "s.yaml", aleppo())
    args = ["map", "--network", "proxy", "-s", str(scenario), "-o", str(tmp_path / "m.html")]
    assert runner.invoke(app, args).exit_code == 0
    assert elsewhere.stat().st_mode & 0o777 == 0o755 and not list(elsewhere.iterdir())
    pages = fresh_cache / "pages"
    assert pages.is_dir() and not pages.is_symlink() and list(pages.glob("*.json"))


# --- 3: the failed-download memory trusts nothing it reads ------------------------------------


@pytest.fixture
def remembered(
    tmp_path: Path, runner: Any, fresh_cache: Path, cut_network: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[list[str], Path]:  # fmt: skip
    """A run that could not reach Overpass: its ``routes map`` arguments and its note."""
    monkeypatch.setattr(settings, "osm_dir", tmp_path / "osm")
    scenario = write_yaml(tmp_path / "s.yaml", aleppo())
    args = ["map", "-s", str(scenario), "-o", str(tmp_path / "m.html")]
    assert runner.invoke(app, args).exit_code == 0
    [note] = (fresh_cache / "unreachable").glob("*.json")
    return args, note


def test_r4_3_a_note_without_a_utc_offset_is_ignored(
    remembered: tuple[list[str], Path], runner: Any
) -> None:
    args, note = remembered
    record = json.loads(note.read_bytes())
    note.write_text(json.dumps(record | {"at": "2026-12-05T10:00:00"}), encoding="utf-8")
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output


def test_r4_3_a_long_reason_with_escapes_is_cut_and_escaped(
    remembered: tuple[list[str], Path], runner: Any
) -> None:
    args, note = remembered
    record = json.loads(note.read_bytes())
    reason = ("\x1b]0;pwned\x07\x1b[2J" * 100_000)[:1_000_000]
    note.write_text(json.dumps(record | {"reason": reason}), encoding="utf-8")
    result = runner.invoke(app, ["-v", *args])
    assert result.exit_code == 0, result.output
    assert ESC not in result.stderr and all(len(line) < 1000 for line in result.stderr.splitlines())


def test_r4_3_a_note_that_cannot_be_written_does_not_stop_the_run(
    remembered: tuple[list[str], Path], runner: Any
) -> None:
    """A run that cannot note the failure (here a folder where the note goes) still routes
    on the proxy network, as any run that cannot reach Overpass does."""
    args, note = remembered
    note.unlink()
    note.mkdir()
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "proxy network" in result.stderr


def test_r4_3_nominatim_s_note_without_a_utc_offset_is_ignored(
    fresh_cache: Path, runner: Any, cut_network: list[str]
) -> None:
    args = ["geocode", "Nowhereville-on-Sea"]
    assert runner.invoke(app, args).exit_code == 1  # unknown, and Nominatim unreachable
    [note] = (fresh_cache / "unreachable").glob("*.json")
    record = json.loads(note.read_bytes())
    note.write_text(json.dumps(record | {"at": "2026-12-05T10:00:00"}), encoding="utf-8")
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "unknown place" in result.stderr and "Traceback" not in result.output


def _offline_namespace() -> list[str]:
    """``unshare -n``: a command's own network namespace, where no server resolves (skip
    where it cannot be made: not root, no unshare)."""
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "-n", "true"], capture_output=True, check=False)
    if unshare is None or probe.returncode != 0:
        pytest.skip(f"no network namespace to run without a network ({probe.stderr!r})")
    return [unshare, "-n"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_r4_3_a_note_that_is_no_file_is_ignored(
    kind: str, remembered: tuple[list[str], Path], fresh_cache: Path
) -> None:
    """A FIFO in the note's place hung every run; a link to /dev/zero filled the memory."""
    args, note = remembered
    note.unlink()
    if kind == "fifo":
        os.mkfifo(note)
    else:
        note.symlink_to("/dev/zero")
    scenario = args[args.index("-s") + 1]
    done = subprocess.run(
        [*_offline_namespace(), sys.executable, "-m", "routes", "corridors", "-s", scenario],
        capture_output=True, timeout=TIMEOUT_S, cwd=ROOT, check=False,
        env={**os.environ, "ROUTES_CACHE_DIR": str(fresh_cache)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()[-2000:]


# --- 5: a planted GeoNames index is checked as data, its version on every run --------------

#: Seconds a run that rebuilds the GeoNames index may take (about 5 s alone, more on a
#: loaded machine).
REBUILD_S = 120


def _index_cache(tmp_path: Path) -> tuple[Path, Path]:
    """A cache folder of the test's own, with nothing in it yet, and where its GeoNames
    index goes."""
    from routes.places import geonames

    cache = tmp_path / "cache"
    cache.mkdir()
    return cache, cache / geonames.index_path().name


def test_r4_5_an_index_whose_towns_have_no_names_is_rebuilt(tmp_path: Path) -> None:
    """The right version and row counts, and NULL town names: an AttributeError on every
    run. Planted as links (the index, its stamp, its lock), which the rebuild replaces."""
    import sqlite3
    from contextlib import closing

    from routes._io import file_sha256
    from routes.places import geonames

    planted = tmp_path / "planted.sqlite"
    shutil.copy(geonames.index_path(), planted)
    with closing(sqlite3.connect(planted)) as db:
        db.execute("UPDATE cities SET name = NULL")
        db.commit()
    before = file_sha256(planted)
    cache, index = _index_cache(tmp_path)
    index.symlink_to(planted)
    stamp, lock = _victim(tmp_path, "stamp"), _victim(tmp_path, "lock")
    index.with_name(index.name + ".verified").symlink_to(stamp)
    index.with_name(index.name + ".lock").symlink_to(lock)
    done = routes("geocode", "--offline", "Tartus", cache=cache, timeout=REBUILD_S)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert b"rows of cities hold what no build writes" in done.stderr
    assert file_sha256(planted) == before and not index.is_symlink()
    _untouched(stamp)
    _untouched(lock)


def test_r4_5_an_old_index_with_a_matching_stamp_is_checked(tmp_path: Path) -> None:
    """An index of another schema version beside a stamp of its own size, inode and time
    was never checked again: its version is read from its header on every run."""
    import sqlite3
    from contextlib import closing

    from routes.places import geonames

    cache, index = _index_cache(tmp_path)
    shutil.copy(geonames.index_path(), index)
    with closing(sqlite3.connect(index)) as db:
        db.execute(f"PRAGMA user_version = {geonames.INDEX_VERSION - 1}")
        db.commit()
    st = index.stat()
    stamp = index.with_name(index.name + ".verified")
    stamp.write_text(json.dumps([st.st_ino, st.st_size, st.st_mtime_ns]), encoding="utf-8")
    done = routes("geocode", "--offline", "Tartus", cache=cache, timeout=REBUILD_S)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert f"schema version {geonames.INDEX_VERSION - 1}".encode() in done.stderr
    with closing(sqlite3.connect(index)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == geonames.INDEX_VERSION


# --- 6: still failing from round three ------------------------------------------------------


def _gzip_bomb(path: Path, gib: int = 1) -> Path:
    """An ``.osm.gz`` of about 1 MB holding ``gib`` GiB of XML comment: one member of 1 MiB
    of text, compressed once and repeated (gzip readers read member after member)."""
    import gzip

    head = b'<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="t">\n<!-- '
    tail = b' -->\n<node id="1" lat="60.17" lon="24.94" version="1"/>\n</osm>\n'
    member = gzip.compress(b"x" * (1 << 20), 9)
    with path.open("wb") as f:
        f.write(gzip.compress(head))
        for _ in range(1024 * gib):
            f.write(member)
        f.write(gzip.compress(tail))
    return path


def test_r4_6_a_compressed_osm_file_holding_a_gigabyte_is_refused(tmp_path: Path) -> None:
    bomb = _gzip_bomb(tmp_path / "bomb.osm.gz")
    assert bomb.stat().st_size < 2_000_000
    done = routes("network", "info", "--osm", str(bomb), cache=own_cache(tmp_path), memory=MEMORY)
    line = refused_proc(done)
    assert "bomb.osm.gz" in line and "100× its size" in line


def test_r4_6_alternatives_over_a_thousand_waypoints_are_refused(tmp_path: Path) -> None:
    data = aleppo()
    source = data["sources"][0]["id"]
    corridor = data["corridors"][0]
    stops = [f"stop-{i}" for i in range(1000)]
    data["places"] += [
        {"id": stop, "name": f"Stop {i}", "role": "waypoint", "source": source,
         "lat": 36.0 + i / 5000, "lon": 37.0 + (i % 2) / 50}
        for i, stop in enumerate(stops)
    ]  # fmt: skip
    corridor["waypoints"] = stops
    data["corridors"], data["incidents"] = [corridor], []
    scenario = write_yaml(tmp_path / "s.yaml", data)
    args = ("corridors", "--network", "proxy", "--alternatives", "10", "-s", str(scenario))
    line = refused_proc(routes(*args))
    assert "1,001 legs" in line and "at most 400" in line


def test_r4_6_a_stored_extract_swapped_for_one_of_its_size_is_not_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_cache: Path
) -> None:
    from routes import pipeline

    monkeypatch.setattr(settings, "osm_dir", tmp_path / "osm")
    settings.osm_dir.mkdir()
    stored = settings.osm_dir / "elsewhere.graphml"
    stored.write_bytes(b"A" * 100)
    scenario = write_yaml(tmp_path / "s.yaml", aleppo())
    out = tmp_path / "m.html"
    pipeline.map_page(scenario, out, network="proxy")
    assert pipeline.map_page(scenario, out, network="proxy").unchanged
    before = stored.stat()
    stored.write_bytes(b"B" * 100)
    os.utime(stored, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert stored.stat().st_mtime_ns == before.st_mtime_ns
    assert not pipeline.map_page(scenario, out, network="proxy").unchanged


# --- 7: flows that keep their word -------------------------------------------------------------


def _flows(tmp_path: Path, runner: Any, figures: list[dict[str, Any]]) -> list[dict[str, str]]:
    """``flows.csv`` of the bundled scenario with the first corridor's figures replaced by
    ``figures`` (the last one sizes its line)."""
    import csv

    data = aleppo()
    corridor = data["corridors"][0]
    corridor["figures"], corridor["line_width"] = figures, figures[-1]["id"]
    data["incidents"] = [i | {"corridor": None} for i in data.get("incidents", [])]
    scenario = write_yaml(tmp_path / "s.yaml", data)
    args = ["export", "-f", "csv", "--network", "proxy", "-s", str(scenario), "-o", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    with (tmp_path / "aleppo-2016-12-flows.csv").open(encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["corridor_id"] == corridor["id"]]


def _total(value: int, **more: Any) -> dict[str, Any]:
    return {"id": f"total-{value}", "kind": "people", "value": value, "tally": "cumulative",
            "according_to": "the ICRC", "source": ALEPPO["sources"][0]["id"], **more}  # fmt: skip


def test_r4_7_a_falling_running_total_is_a_conflict_not_a_negative_count(
    tmp_path: Path, runner: Any
) -> None:
    rows = _flows(tmp_path, runner, [_total(3000, date="2016-12-15"),
                                     _total(2000, date="2016-12-16")])  # fmt: skip
    assert [r["count"] for r in rows] == ["3000", ""]
    assert all(not r["count"].startswith("-") for r in rows)
    assert "falls from 3,000 to 2,000" in rows[1]["note"] and rows[1]["cumulative"] == "2000"


def test_r4_7_an_undated_line_width_claim_gives_its_corridor_a_row(
    tmp_path: Path, runner: Any
) -> None:
    rows = _flows(tmp_path, runner, [_total(3000)])
    assert [r["count"] for r in rows] == ["3000"]
    assert rows[0]["time"] == ALEPPO["corridors"][0]["date"].isoformat()


# --- 8: the small ones --------------------------------------------------------------------------


def test_r4_8_a_site_citing_an_unlisted_source_is_left_out_with_a_warning(
    tmp_path: Path, runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A contributor's typo in ``geodata/sites.yaml`` was a KeyError in every command that
    geocodes; the tests catch it (tests/test_sites.py), the user is told and goes on."""
    from routes.places import curated

    data = shutil.copytree(datasets.DATA_DIR, tmp_path / "geodata")
    sites = yaml.safe_load((data / "sites.yaml").read_text(encoding="utf-8"))
    sites["places"][0]["source"] = "no-such-source"
    write_yaml(data / "sites.yaml", sites)
    monkeypatch.setattr(datasets, "DATA_DIR", data)
    for cached in (curated.curated_places, curated.curated_gazetteer):
        cached.cache_clear()
        monkeypatch.setattr(curated, cached.__name__, cached)  # cleared again after the test
    try:
        result = runner.invoke(app, ["geocode", "--offline", "Aleppo"])
    finally:
        curated.curated_places.cache_clear()
        curated.curated_gazetteer.cache_clear()
    assert result.exit_code == 0, result.output
    assert f"place {sites['places'][0]['id']} cites the source 'no-such-source'" in result.stderr


@pytest.mark.parametrize("fmt", ["gpkg", "geojson", "kml"])
def test_r4_8_hxl_with_a_format_that_has_no_hashtag_row_is_refused(
    fmt: str, tmp_path: Path, runner: Any
) -> None:
    args = ["export", "--network", "proxy", "-f", fmt, "--hxl", "-o", str(tmp_path / "out")]
    assert "--hxl" in refused(runner.invoke(app, args))
    assert not (tmp_path / "out").exists()


def test_r4_8_a_legal_250_character_output_name_is_written(tmp_path: Path, runner: Any) -> None:
    page = tmp_path / ("m" * 245 + ".html")
    result = runner.invoke(app, ["map", "--network", "proxy", "-o", str(page)])
    assert result.exit_code == 0, result.output
    assert page.read_bytes().rstrip().endswith(b"</html>")
    assert [p.name for p in tmp_path.iterdir()] == [page.name]


def test_r4_8_the_notebook_frame_runs_its_scripts_in_an_origin_of_its_own(
    browser: Any, tmp_path: Path
) -> None:
    """The map drawn in a notebook cell: its scripts run, but cannot reach the notebook."""
    from IPython.core.formatters import format_display_data

    from routes import render, scenario

    story = scenario.load("aleppo-2016-12")
    cell = format_display_data(render.view(render.build_map(story, _routed(story))))[0]
    outer = tmp_path / "notebook.html"  # the cell's HTML, as Jupyter shows it
    outer.write_text(f"<!doctype html><title>notebook</title><body>{cell['text/html']}",
                     encoding="utf-8")  # fmt: skip
    page = browser.new_page()
    try:
        page.goto(outer.as_uri())
        frame = page.frame_locator("iframe")
        frame.locator("path.leaflet-interactive").first.wait_for(timeout=15_000)
        inner = page.frames[1]
        reached = inner.evaluate("() => { try { return parent.document.title; } "
                                 "catch (e) { return 'blocked'; } }")  # fmt: skip
        assert reached == "blocked", "the frame's scripts reached the notebook's page"
    finally:
        page.close()


def _routed(story: Any) -> Any:
    from routes import pipeline

    return pipeline.route_scenario(story, network="proxy").corridors


# --- found on the way: a water body at no point ----------------------------------------------


def test_r4_every_bundled_area_is_a_point_on_the_globe(runner: Any) -> None:
    """The Southern Ocean's centroid in geodata/sea-points.csv was lat inf, lon nan: `routes
    geocode "Southern Ocean"` was a TypeError traceback (and the index's rows check would
    refuse such a row)."""
    import math

    from routes.places import features

    for area in features.all_areas():
        assert math.isfinite(area.lat) and math.isfinite(area.lon), area.name
    result = runner.invoke(app, ["geocode", "--offline", "Southern Ocean"])
    assert result.exit_code == 1 and "unknown place" in result.stderr, result.output


# --- 9: the tables of docs/security.md name tests that exist ----------------------------------


def test_r4_9_every_test_the_security_tables_name_exists() -> None:
    """Each test named in docs/security.md's tables of findings (a pattern like ``test_4_*``
    names several) is a test function of the suite or the benchmarks."""
    import ast
    import fnmatch
    import re

    page = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    tables = page[page.index("## Findings, fixes and tests") :]
    named = set(re.findall(r"`(?:[\w/.]+::)?(test_[\w*]+)(?:\[[^\]]*\])?`", tables))
    files = [*ROOT.glob("tests/test_*.py"), *ROOT.glob("benchmarks/bench_*.py")]
    defined = {
        node.name
        for path in files
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }
    assert len(named) > 40
    missing = [name for name in sorted(named) if not fnmatch.filter(defined, name)]
    assert not missing, missing
