"""``routes extract --jsonl``: one line per story in, one line per story out, offsets into the text.

Runs the real CLI in a subprocess, as a batch user would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ARTICLE, shared

from routes import extract

REPO = Path(__file__).resolve().parents[1]

#: Short texts written for this test (no story text is copied into the repository).
STORIES = [
    {"id": "emoji", "text": "🚌🚌 Buses took 500 people from eastern Aleppo to Idlib on Thursday."},
    {"id": 7, "text": "Nothing happened.", "date": "2016-12-15", "publisher": "Nobody"},
    {"id": "accents", "text": "Families left Al-Fu\u2019ah and Kafriya for Aleppo (Ḥalab)."},
]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "routes", "extract", *args],
        input=stdin,
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def test_one_line_per_story_with_offsets_into_the_exact_text(tmp_path: Path) -> None:
    stories = [*STORIES]
    if ARTICLE.exists():
        stories.append({"id": "cnn", "text": shared(ARTICLE).read_text(encoding="utf-8")})
    out = tmp_path / "out.jsonl"
    done = run("--jsonl", str(write_jsonl(tmp_path / "in.jsonl", stories)), "-o", str(out))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == [s["id"] for s in stories]
    keys = {"start", "end", "surface", "type", "lat", "lon", "geonames_id", "feature", "country",
            "confidence"}  # fmt: skip
    for story, line in zip(stories, lines, strict=True):
        for toponym in line["toponyms"]:
            assert set(toponym) == keys
            assert story["text"][toponym["start"] : toponym["end"]] == toponym["surface"]  # type: ignore[index]
        expected = extract.extract(str(story["text"])).all_toponyms()
        assert [(t["start"], t["surface"]) for t in line["toponyms"]] == [
            (t.start, t.text) for t in expected
        ]
    idlib = [t for t in lines[0]["toponyms"] if t["surface"] == "Idlib"]
    assert idlib and idlib[0]["geonames_id"] == 169389 and idlib[0]["country"] == "SY"
    assert lines[1]["toponyms"] == []
    assert {t["surface"] for t in lines[2]["toponyms"]} >= {"Al-Fu\u2019ah", "Kafriya", "Aleppo"}


def test_stdin_to_stdout() -> None:
    done = run("--jsonl", "-", stdin=json.dumps(STORIES[0], ensure_ascii=False) + "\n\n")
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    assert json.loads(line)["id"] == "emoji"


def test_a_bad_line_is_one_error_naming_it_and_nothing_is_written(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(STORIES[0]) + "\n" + '{"id": "no text"}\n', encoding="utf-8")
    out = tmp_path / "out" / "out.jsonl"
    out.parent.mkdir()
    done = run("--jsonl", str(source), "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f'error: {source}:2: each line needs "id" and "text" (a string)'
    ]
    assert not out.exists() and list(out.parent.iterdir()) == []


def test_story_and_jsonl_together_is_a_usage_error(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", STORIES)
    done = run(str(source), "--jsonl", str(source))
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_typed_mentions_come_out_with_their_type_and_place(tmp_path: Path) -> None:
    text = "The Georgian delegation flew to Ohio. The Ohio Supreme Court met in Columbus, Ohio."
    done = run("--jsonl", "-", stdin=json.dumps({"id": "typed", "text": text}) + "\n")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["toponyms"]
    by_span = {(r["surface"], r["start"]): r for r in rows}
    adjective = by_span[("Georgian", text.index("Georgian"))]
    assert (adjective["type"], adjective["country"], adjective["feature"]) == (
        "adjective",
        "GE",
        "country",
    )
    embedded = by_span[("Ohio", text.index("Ohio Supreme"))]
    assert (embedded["type"], embedded["country"]) == ("embedded", "US")
    literal = by_span[("Columbus", text.index("Columbus"))]
    assert literal["type"] == "literal" and literal["geonames_id"] is not None
    assert abs(literal["lat"] - 39.96) < 0.2 and 0 < literal["confidence"] <= 1
    assert [r["start"] for r in rows] == sorted(r["start"] for r in rows)
