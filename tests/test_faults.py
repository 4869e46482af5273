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
    *args: str, stdin: bytes | None = None, cache: Path | None = None, memory: int | None = None
) -> Any:
    """``python -m routes ARGS`` in a subprocess, bounded by :data:`TIMEOUT_S` (and, given
    ``memory``, by that much address space: past it, Python raises MemoryError)."""
    env = {**os.environ, "ROUTES_CACHE_DIR": str(cache or settings.cache_dir)}

    def bounded() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "routes", *args],
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT_S,
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
    args = ["export", "--offline", "-f", fmt, "-o", str(tiny_disk)]
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


@pytest.mark.parametrize("router", ["dijkstra", "ch"])
def test_a_graph_cache_entry_that_is_not_a_graph_is_rebuilt(router: str, tmp_path: Path) -> None:
    import numpy as np

    from routes.network.store import read_npz, write_npz

    cache = own_cache(tmp_path)
    args = ("corridors", "--network", "proxy", "--router", router, "--json")
    first = routes(*args, cache=cache)
    assert first.returncode == 0, first.stderr.decode()[-2000:]
    [entry] = [p for p in (cache / "graphs").glob("proxy-*.npz") if ".ch-" not in p.name]
    arrays = {k: np.array(v) for k, v in read_npz(entry).items() if not k.startswith("blocks/")}
    n = len(arrays["router/ids"])
    arrays["router/indices"] = arrays["router/indices"] + n  # written by our own writer
    arrays["router/indptr"] = arrays["router/indptr"][::-1].copy()
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
    """"Az" (an Arabic article) alone as a place's name ran the article-skipping off the end
    of the story: an IndexError traceback (found by the one-paragraph benchmark)."""
    story = tmp_path / "s.txt"
    story.write_text("Buses left Aleppo for Idlib. Convoys went to Az", encoding="utf-8")
    result = runner.invoke(app, ["extract", str(story), "-o", str(tmp_path / "d.yaml")])
    assert result.exit_code == 0, result.output
