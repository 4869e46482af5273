"""`routes corpus`: stories to flows on a real Dask LocalCluster, the same for any cluster size."""

from __future__ import annotations

import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from conftest import SHARED, shared
from typer.testing import CliRunner

from routes.cli import app
from routes.corpus import run_corpus
from routes.corpus.mapping import flows_scenario

FIXTURES = Path(__file__).parent / "fixtures" / "corpus"
STORIES = FIXTURES / "stories.jsonl"
LGL = SHARED / "geoparse-dev" / "lgl.jsonl"
OUTPUTS = ("stories.jsonl", "flows.parquet", "flows.csv", "locations.csv", "map.html")


@pytest.fixture(scope="module")
def one_worker() -> Iterator[str]:
    """A real local Dask cluster of one worker process; its scheduler's address."""
    yield from _cluster(1)


@pytest.fixture(scope="module")
def two_workers() -> Iterator[str]:
    yield from _cluster(2)


def _cluster(n: int) -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as cluster:  # fmt: skip
        yield cluster.scheduler_address


def outputs(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in OUTPUTS}


def test_two_workers_write_what_one_writes(tmp_path: Path, one_worker: str) -> None:
    """The default: a LocalCluster of 2 processes made for the run; then a 1-worker cluster."""
    two = run_corpus(STORIES, tmp_path / "two", workers=2)
    one = run_corpus(STORIES, tmp_path / "one", scheduler=one_worker, partition_chars=10**6)
    assert (two.workers, one.workers) == (2, 1)
    assert two.partitions != one.partitions
    assert outputs(tmp_path / "two") == outputs(tmp_path / "one")
    assert (two.stories, two.extracted, two.reused, two.failed) == (6, 6, 0, 1)


def test_flows_merge_stories_and_keep_every_claim(tmp_path: Path, one_worker: str) -> None:
    run_corpus(STORIES, tmp_path, scheduler=one_worker)
    records = [json.loads(line) for line in (tmp_path / "stories.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == sorted(r["id"] for r in records)
    failed = {r["id"]: r for r in records if r["status"] == "error"}
    assert list(failed) == ["desk-004"] and failed["desk-004"]["error"].startswith("ExtractError")
    flows = gpd.read_parquet(tmp_path / "flows.parquet")
    assert flows.crs.to_epsg() == 4326 and set(flows.geom_type) == {"LineString"}
    aleppo = flows[flows.origin_name == "Eastern Aleppo"].iloc[0]
    assert aleppo.dest_name == "Idlib"
    assert (aleppo.n_stories, aleppo.n_publishers) == (2, 2)
    claims = json.loads(aleppo.claims)
    assert [(c["value"], c["qualifier"], c["story"]) for c in claims] == [
        (3000, "about", "desk-001"),
        (8000, "more than", "desk-002"),
    ]
    assert claims[0]["according_to"] == "Red Crescent"
    text = json.loads(STORIES.read_text().splitlines()[0])["text"]
    assert text[claims[0]["start"] : claims[0]["end"]].startswith("About 3,000")
    evidence = json.loads(aleppo.evidence)
    assert {e["story"] for e in evidence} == {"desk-001", "desk-002"}
    mosul = flows[flows.origin_name == "Mosul"].iloc[0]
    assert (mosul.date_start, mosul.date_end) == ("2016-12-16", "2017-03-02")
    assert (mosul.people_min, mosul.people_max) == (1200, 4000)
    csv = pd.read_csv(tmp_path / "flows.csv")
    assert list(csv.columns[:4]) == ["origin", "dest", "count", "time"]
    assert len(csv[csv.flow_id == mosul.flow_id]) == 2  # one row a day
    locations = pd.read_csv(tmp_path / "locations.csv")
    assert list(locations.columns) == ["id", "name", "lat", "lon"]
    assert set(csv.origin) | set(csv.dest) <= set(locations.id)


def test_a_move_within_one_town_is_a_flow_with_no_arc(tmp_path: Path, one_worker: str) -> None:
    text = "Thousands of civilians fled Malakal on Monday. Many fled to the U.N. base nearby."
    stories = tmp_path / "stories.jsonl"
    stories.write_text(json.dumps({"id": "within-1", "text": text, "date": "2014-01-03"}) + "\n")
    run_corpus(stories, tmp_path / "out", scheduler=one_worker)
    flows = gpd.read_parquet(tmp_path / "out" / "flows.parquet")
    (flow,) = flows.itertuples()
    assert (flow.origin_name, flow.dest_name) == ("Malakal", "U.N. base")
    assert flow.geometry.length == 0  # both ends at the town's point
    page = (tmp_path / "out" / "map.html").read_text(encoding="utf-8")
    assert "routes-flow-line" not in page  # no arc drawn, and the page is written
    # `routes map -s flows.parquet` has nothing to route: one line, no page
    result = CliRunner().invoke(app, ["map", "-s", str(tmp_path / "out" / "flows.parquet"),
                                      "-o", str(tmp_path / "m.html"), "--offline"])  # fmt: skip
    assert result.exit_code != 0 and "move within one town" in result.output
    assert not (tmp_path / "m.html").exists()
    # beside a flow between two towns, it is left out of the routes and named for review
    other = {"id": "apart-1", "text": "Thousands fled Mosul to Erbil.", "date": "2017-03-02"}
    with stories.open("a") as more:
        more.write(json.dumps(other) + "\n")
    run_corpus(stories, tmp_path / "out2", scheduler=one_worker)
    scenario = flows_scenario(tmp_path / "out2" / "flows.parquet")
    assert [c.name for c in scenario.corridors] == ["Mosul to Erbil"]
    assert any("move within one town" in r for r in scenario.review)


def test_lgl_on_two_workers_is_lgl_on_one(
    tmp_path: Path, one_worker: str, two_workers: str
) -> None:
    """LGL's 588 articles (local news, few movements): the same files from 1 and 2 workers."""
    source = shared(LGL)
    two = run_corpus(source, tmp_path / "two", scheduler=two_workers)
    one = run_corpus(source, tmp_path / "one", scheduler=one_worker, partition_chars=400_000)
    assert (two.workers, one.workers) == (2, 1) and two.partitions != one.partitions
    assert two.stories == one.stories == 588
    assert two.extracted == 588 and two.failed < 588
    assert outputs(tmp_path / "two") == outputs(tmp_path / "one")


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, runner: CliRunner) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "x"}\n{"text": "no id"}\n')
    result = runner.invoke(app, ["corpus", str(bad), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "story 2: no id" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
    result = runner.invoke(app, ["corpus", str(tmp_path / "none.jsonl"), "-o", str(tmp_path)])
    assert result.exit_code == 2 and "no such file" in result.output


def test_a_jsonl_corpus_is_scanned_without_keeping_its_texts(tmp_path: Path) -> None:
    """The driver keeps a story's id, hash, length and line offset; texts are read back."""
    from routes.corpus.stories import read_stories, scan_stories

    lines = STORIES.read_text(encoding="utf-8").splitlines()
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(("\r\n".join([lines[3], "", *reversed(lines[:3])]) + "\r\n").encode())
    for path in (STORIES, crlf):
        corpus = scan_stories(path, "code", sample=4)
        assert all(isinstance(e.where, int) for e in corpus.entries)
        assert [e.id for e in corpus.entries] == sorted(e.id for e in corpus.entries)
        assert corpus.load(corpus.entries[::-1]) == read_stories(path, sample=4)[::-1]
    parquet = tmp_path / "stories.parquet"
    pd.DataFrame([json.loads(line) for line in lines]).to_parquet(parquet)
    held = scan_stories(parquet, "code").entries  # Parquet: the stories are kept whole
    assert [e.hash for e in held] == [e.hash for e in scan_stories(STORIES, "code").entries]
    assert all(isinstance(e.where, dict) for e in held)


def test_a_folder_of_text_files_and_a_parquet_file_are_stories(
    tmp_path: Path, one_worker: str
) -> None:
    records = [json.loads(line) for line in STORIES.read_text().splitlines()]
    folder = tmp_path / "texts"
    folder.mkdir()
    for r in records[:2]:
        (folder / f"{r['id']}.txt").write_text(r["text"])
    pd.DataFrame(records[:2]).to_parquet(tmp_path / "stories.parquet")
    a = run_corpus(folder, tmp_path / "a", scheduler=one_worker)
    b = run_corpus(tmp_path / "stories.parquet", tmp_path / "b", scheduler=one_worker)
    assert a.flows == b.flows == 1
    assert pd.read_csv(tmp_path / "a" / "flows.csv").time.isna().all()  # .txt: no dates
    assert pd.read_csv(tmp_path / "b" / "flows.csv").time.notna().all()


def test_a_killed_run_resumes_and_redoes_only_unfinished_work(
    tmp_path: Path, one_worker: str
) -> None:
    """SIGKILL the command (and its cluster) at a random moment; the rerun finishes the rest.

    The moment: once a random number of its 8 partitions (1 to 6) are cached, polled every
    20 ms, so the kill lands mid-run however fast the machine drafts.
    """
    source, n = shared(LGL), 60
    k = random.randint(1, 6)
    reference = run_corpus(source, tmp_path / "reference", scheduler=one_worker, sample=n)
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "routes", "corpus", str(source), "-o", str(out)]
    command += ["--workers", "2", "--sample", str(n)]
    log = (tmp_path / "killed.log").open("w")
    run = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while len(list(out.glob("cache/*/part-*.jsonl"))) < k and time.monotonic() < deadline:
            assert run.poll() is None, (tmp_path / "killed.log").read_text()
            time.sleep(0.02)
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the command, its scheduler and its workers
        run.wait()
        log.close()
    finished = sum(len(f.read_text().splitlines()) for f in out.glob("cache/*/part-*.jsonl"))
    assert 0 < finished < n, f"killed after {k} partitions, yet {finished} of {n} stories done"
    assert not (out / "stories.jsonl").exists()
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    counts = re.search(r"reused (\d+), extracted (\d+)", again.stderr)
    assert counts, again.stderr
    assert re.search(r"Dask dashboard: http://127\.0\.0\.1:\d+/status", again.stderr)
    assert again.stdout.split() == [str(out / name) for name in OUTPUTS]
    assert (int(counts[1]), int(counts[2])) == (finished, n - finished)
    assert outputs(out) == outputs(tmp_path / "reference")
    assert reference.extracted == n


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_an_existing_cluster_of_scheduler_and_two_workers(tmp_path: Path, one_worker: str) -> None:
    """`dask scheduler` and two `dask worker` processes, as a deployment runs them."""
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "dask"]
    log = (tmp_path / "cluster.log").open("w")
    scheduler = [*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    started = [subprocess.Popen(scheduler, stdout=log, stderr=log)]
    try:
        for _ in range(2):
            worker = [*dask, "worker", address, "--nthreads", "1", "--no-dashboard"]
            started.append(subprocess.Popen(worker, stdout=log, stderr=log))
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=60)
        command = [sys.executable, "-m", "routes", "corpus", str(STORIES)]
        command += ["-o", str(tmp_path / "remote"), "--scheduler", address]
        run = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        assert "on 2 workers" in run.stderr
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            process.wait(timeout=30)
        log.close()
    run_corpus(STORIES, tmp_path / "local", scheduler=one_worker)
    assert outputs(tmp_path / "remote") == outputs(tmp_path / "local")


def test_no_scheduler_there_is_one_line_and_exit_2(tmp_path: Path, runner: CliRunner) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    args = ["corpus", str(STORIES), "-o", str(tmp_path), "--scheduler", address]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.output
    assert not (tmp_path / "stories.jsonl").exists()


def test_a_garbled_cache_file_is_redone(
    tmp_path: Path, one_worker: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A cache file that no longer parses costs a warning and a redo, never the run."""
    first = run_corpus(STORIES, tmp_path, scheduler=one_worker, partition_chars=10**6)
    before = outputs(tmp_path)
    part = sorted((tmp_path / "cache").glob("*/part-*.jsonl"))[0]
    lost = len(part.read_text(encoding="utf-8").splitlines())
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2] + b"\xff{garbled")
    with caplog.at_level(logging.WARNING, logger="routes"):
        again = run_corpus(STORIES, tmp_path, scheduler=one_worker, partition_chars=10**6)
    assert "unreadable" in caplog.text
    assert (again.reused, again.extracted) == (first.extracted - lost, lost)
    assert outputs(tmp_path) == before


def test_a_run_on_some_stories_then_on_all_streams_what_a_fresh_run_writes(
    tmp_path: Path, one_worker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cache files from two runs whose stories interleave by id, one file open at a time,
    and a cache holding more stories than the input: the files of a fresh run."""
    from routes.corpus import cache, flows

    monkeypatch.setattr(cache, "OPEN_FILES", 1)
    stories = [json.loads(line) for line in STORIES.read_text(encoding="utf-8").splitlines()]
    stories += [s | {"id": f"{s['id']}-again"} for s in stories]  # ids interleave by sort
    stories.sort(key=lambda s: s["id"])
    for name, part in (("all", stories), ("some", stories[::2])):
        text = "".join(json.dumps(s) + "\n" for s in part)
        (tmp_path / f"{name}.jsonl").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    some = run_corpus(tmp_path / "some.jsonl", out, scheduler=one_worker)
    every = run_corpus(tmp_path / "all.jsonl", out, scheduler=one_worker)
    fresh = run_corpus(tmp_path / "all.jsonl", tmp_path / "fresh", scheduler=one_worker)
    assert (some.extracted, every.reused, every.extracted, every.partitions) == (6, 6, 6, 3)
    assert outputs(out) == outputs(tmp_path / "fresh") and every.failed == fresh.failed == 2
    records = [json.loads(line) for line in (out / "stories.jsonl").read_text().splitlines()]
    parts = [(r["id"], c) for r in reversed(records) if (c := cache.contribution(r))]
    assert flows.merge_contributions(parts) == flows.merge_flows(records)
    fewer = run_corpus(tmp_path / "all.jsonl", out, scheduler=one_worker, sample=4)
    assert (fewer.reused, fewer.extracted) == (4, 0)
    head = [json.dumps(r, ensure_ascii=False) for r in records[:4]]
    assert (out / "stories.jsonl").read_text(encoding="utf-8").splitlines() == head
    assert fewer.flows == len(flows.merge_flows(records[:4]))


def test_each_people_figure_is_tallied_by_the_stories_reporting_it(
    tmp_path: Path, one_worker: str
) -> None:
    """A second desk repeats desk-001's "about 3,000": that figure has two stories."""
    lines = STORIES.read_text(encoding="utf-8").splitlines()
    again = json.loads(lines[0]) | {"id": "desk-101", "publisher": "Second Desk"}
    (tmp_path / "stories.jsonl").write_text("\n".join([*lines, json.dumps(again)]) + "\n")
    run_corpus(tmp_path / "stories.jsonl", tmp_path / "out", scheduler=one_worker)
    flows = gpd.read_parquet(tmp_path / "out" / "flows.parquet")
    aleppo = flows[flows.origin_name == "Eastern Aleppo"].iloc[0]
    assert json.loads(aleppo.people_figures) == [
        {"value": 3000, "n_stories": 2, "stories": ["desk-001", "desk-101"],
         "qualifiers": ["about"]},
        {"value": 8000, "n_stories": 1, "stories": ["desk-002"], "qualifiers": ["more than"]},
    ]  # fmt: skip
    csv = pd.read_csv(tmp_path / "out" / "flows.csv")
    rows = csv[csv.flow_id == aleppo.flow_id]
    assert set(rows.people_figures) == {"3000 (2 stories); 8000 (1 story)"}
    html = (tmp_path / "out" / "map.html").read_text(encoding="utf-8")
    assert "People, by stories" in html and "3,000 (2 stories); 8,000 (1 story)" in html


def test_a_corpus_run_never_fetches_roads(tmp_path: Path, one_worker: str) -> None:
    """Its map draws straight flow lines: no process of the run imports osmnx or
    routes.network (so no Overpass query, however wide the corpus), and with every proxy
    at a closed port it still writes all its files."""
    from distributed import Client

    code = (
        "import sys\n"
        "from routes.corpus import run_corpus\n"
        "if __name__ == '__main__':\n"
        "    run_corpus(sys.argv[1], sys.argv[2], scheduler=sys.argv[3])\n"
        "    print(sorted(m for m in ('osmnx', 'routes.network') if m in sys.modules))\n"
    )
    closed = f"http://127.0.0.1:{free_port()}"
    proxies = {name: closed for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")}
    env = os.environ | proxies | {k.lower(): v for k, v in proxies.items()}
    command = [sys.executable, "-c", code, str(STORIES), str(tmp_path / "out"), one_worker]
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split()[-1] == "[]"
    assert all((tmp_path / "out" / name).is_file() for name in OUTPUTS)
    with Client(one_worker, timeout="30s") as client:
        imported = client.run(
            lambda: [m for m in ("osmnx", "routes.network") if m in sys.modules]
        )  # fmt: skip
    assert imported and all(found == [] for found in imported.values()), imported


def test_routes_map_maps_a_corpus_flows_file(
    tmp_path: Path, one_worker: str, runner: CliRunner
) -> None:
    """``routes map -s DIR/flows.parquet``: each flow a corridor with its claims and sources."""
    run_corpus(STORIES, tmp_path / "out", scheduler=one_worker)
    page = tmp_path / "flows.html"
    result = runner.invoke(
        app, ["map", "-s", str(tmp_path / "out" / "flows.parquet"), "--offline", "-o", str(page)]
    )
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "Eastern Aleppo to Idlib" in html and "Mosul to Erbil" in html
    assert "more than 8,000" in html and "the United Nations" in html
    assert "desk-002" in html and "DRAFT" in html
    not_flows = tmp_path / "stories.parquet"
    pd.DataFrame([{"id": "a", "text": "x"}]).to_parquet(not_flows)
    result = runner.invoke(app, ["map", "-s", str(not_flows), "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "not a routes corpus flows file" in result.output
    assert not (tmp_path / "x.html").exists()
