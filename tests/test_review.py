"""``routes review`` and the draft's way to a map: the page's server, its edits, its loop in
a real browser, and the CLI around it.

The story (``fixtures/review/storm.txt``) is one of our own, shaped like the hurricane case
of issue 36; ``storm.yaml`` is what ``routes extract`` drafted from it: the movement to
Nassau has no origin, Nassau (the capital of the Bahamas) is placed in the United States,
and the figure of the dead is attached to that movement.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import CHROMIUM_ARGS  # noqa: F401  (the browser fixture's arguments)
from typer.testing import CliRunner

from routes import pipeline, review
from routes import scenario as scenarios
from routes.cli import app
from routes.distance import great_circle_km
from routes.network import CIRCUITY

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

FIXTURES = Path(__file__).parent / "fixtures" / "review"
REPO = Path(__file__).resolve().parents[1]
SCREENSHOT = REPO / "output" / "test-artifacts" / "review-page.png"


@pytest.fixture
def storm(tmp_path: Path) -> Path:
    """The storm draft and its story, copied into a folder of their own."""
    for name in ("storm.txt", "storm.yaml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / "storm.yaml"


@pytest.fixture
def client(storm: Path) -> Iterator[Any]:
    """The review app on the storm draft, through Starlette's test client (no port)."""
    from starlette.testclient import TestClient

    session = review.Session(storm, (storm.parent / "storm.txt").read_text(encoding="utf-8"))
    with TestClient(review.app(session, 8000), base_url="http://127.0.0.1:8000") as test:
        test.session = session
        yield test


def _token(client: Any) -> dict[str, str]:
    return {"X-Routes-Token": client.session.token, "Content-Type": "application/json"}


def _version(client: Any) -> str:
    answer = client.get("/api/draft", headers=_token(client))
    assert answer.status_code == 200, answer.text
    return str(answer.json()["version"])


# --- security ----------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "0" * 48, "wrong"])
def test_requests_without_the_token_get_403_and_change_nothing(
    client: Any, storm: Path, token: str | None
) -> None:
    before = storm.read_bytes()
    headers = {"Content-Type": "application/json"} | ({"X-Routes-Token": token} if token else {})
    query = f"?token={token}" if token else ""
    for path in ("/", "/api/draft", "/map", "/static/review.js", "/api/candidates?name=Nassau"):
        assert client.get(path + query).status_code == 403, path
    body = {"version": _version(client), "edits": [{"op": "swap", "record": "to-nassau"}]}
    for path in ("/api/save", "/api/preview"):
        assert client.post(path, json=body, headers=headers).status_code == 403
    # the token in the URL does not make a write: a cross-site form could send that
    url = f"/api/save?token={client.session.token}"
    assert client.post(url, json=body).status_code == 403
    assert storm.read_bytes() == before


def test_writes_need_json_from_the_page_itself(client: Any, storm: Path) -> None:
    before = storm.read_bytes()
    body = json.dumps({"version": _version(client), "edits": []})
    form = _token(client) | {"Content-Type": "text/plain"}
    assert client.post("/api/save", content=body, headers=form).status_code == 403
    other = _token(client) | {"Origin": "http://evil.example"}
    assert client.post("/api/save", content=body, headers=other).status_code == 403
    rebound = _token(client) | {"Host": "evil.example"}  # DNS rebinding
    assert client.get("/api/draft", headers=rebound).status_code == 400
    assert storm.read_bytes() == before


@pytest.mark.parametrize("name", ["../outside.yaml", "/tmp/outside.yaml", "sub/x.yaml", "x.txt"])
def test_a_save_outside_the_drafts_folder_is_refused(client: Any, storm: Path, name: str) -> None:
    body = {"version": _version(client), "edits": [], "path": name}
    answer = client.post("/api/save", json=body, headers=_token(client))
    assert answer.status_code == 403, answer.text
    assert not (storm.parent.parent / "outside.yaml").exists()
    assert sorted(p.name for p in storm.parent.iterdir()) == ["storm.txt", "storm.yaml"]


def test_the_server_listens_on_127_0_0_1_only_and_a_busy_port_is_one_line() -> None:
    sock = review.bind(0)
    try:
        host, port = sock.getsockname()
        assert host == "127.0.0.1"
        result = CliRunner().invoke(app, ["review", str(FIXTURES / "storm.yaml"), "--port",
                                          str(port), "--no-browser"])  # fmt: skip
        assert result.exit_code == 2
        assert result.output.strip() == (
            f"error: port {port} is in use; pass another --port, or leave it out for a free one"
        )
    finally:
        sock.close()


def test_two_tabs_saving_at_once_leave_a_whole_file_and_the_second_is_told(
    client: Any, storm: Path
) -> None:
    version = _version(client)
    edits = {
        "a": [{"op": "set_story", "title": "First tab's title"}],
        "b": [{"op": "set_story", "title": "Second tab's title"}],
    }
    answers: dict[str, Any] = {}
    start = threading.Barrier(2)

    def save(tab: str) -> None:
        start.wait()
        body = {"version": version, "edits": edits[tab]}
        answers[tab] = client.post("/api/save", json=body, headers=_token(client))

    threads = [threading.Thread(target=save, args=(tab,)) for tab in edits]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(a.status_code for a in answers.values())
    assert codes == [200, 409], {k: a.text for k, a in answers.items()}
    told = next(a for a in answers.values() if a.status_code == 409).json()
    assert told["stale"] and "another tab" in told["error"]
    saved = scenarios.load(storm)  # whole: it parses and validates
    winner = next(k for k, a in answers.items() if a.status_code == 200)
    assert saved.story.title == edits[winner][0]["title"]


# --- edits through the model -------------------------------------------------------------


def test_edits_fix_the_draft_and_the_saved_yaml_checks(client: Any, storm: Path) -> None:
    edits = [
        {"op": "choose_place", "place": "nassau", "name": "Nassau", "ref": "geonames:3571824"},
        {"op": "set_ends", "record": "to-nassau", "origin": "fort-lauderdale"},
        {"op": "move_figure", "record": "fort-lauderdale-to-nassau", "index": 1, "to": None},
    ]
    body = {"version": _version(client), "edits": edits}
    answer = client.post("/api/save", json=body, headers=_token(client))
    assert answer.status_code == 200, answer.text
    fixed = scenarios.load(storm)
    nassau = fixed.place("nassau")
    assert (nassau.lat, nassau.lon, nassau.source) == (25.05823, -77.34306, "geonames")
    assert "BS" in (nassau.detail or "")
    corridor = fixed.corridor("fort-lauderdale-to-nassau")
    assert [f.kind for f in corridor.figures] == ["people"]
    assert not any("to-nassau" in item or "'Nassau'" in item for item in fixed.review)
    check = CliRunner().invoke(app, ["scenario", "check", str(storm)])
    assert check.exit_code == 0 and f"{storm}: ok (6 places, 1 corridors)" in check.output
    # routes map draws it: see test_the_whole_loop_in_the_browser


def test_each_edit_goes_through_the_model(storm: Path) -> None:
    draft = scenarios.load(storm)

    def edited(*edits: dict[str, Any]) -> scenarios.Scenario:
        return review.apply_all(draft, list(edits), lookup=lambda *_: None)

    added = edited({"op": "add_movement", "origin": "miami", "destination": "orlando"})
    assert added.corridor("miami-to-orlando").stops == ["miami", "orlando"]
    swapped = edited(
        {"op": "add_movement", "origin": "miami", "destination": "orlando"},
        {"op": "swap", "record": "miami-to-orlando"},
        {"op": "set_record", "record": "miami-to-orlando", "date": "2019-09-04",
         "status": "completed"},
    )  # fmt: skip
    corridor = swapped.corridor("miami-to-orlando")
    assert (corridor.origin, corridor.destination, corridor.status) == (
        "orlando", "miami", "completed")  # fmt: skip
    assert str(corridor.date) == "2019-09-04"
    placed = edited({"op": "place_point", "place": "nassau", "lat": 25.06, "lon": -77.35})
    assert placed.place("nassau").source == "reviewer"  # said so, and left to check
    assert "place nassau: placed by hand; name the source of its point" in placed.review
    story = edited({"op": "set_story", "publisher": "Daily News", "url": "https://x.example/a"})
    assert story.story.publisher == "Daily News"
    assert story.source(story.story.source).url == "https://x.example/a"
    assert not any(item.startswith("story publisher") for item in story.review)
    rejected = edited({"op": "reject", "record": "to-florida"},
                      {"op": "resolve", "item": draft.review[0]})  # fmt: skip
    assert [m.id for m in rejected.movements] == ["to-nassau", "to-orlando"]
    assert rejected.review == [i for i in draft.review[1:] if "to-florida" not in i]


def test_an_edit_the_draft_cannot_take_is_one_message(client: Any, storm: Path) -> None:
    before = storm.read_bytes()
    for edit in (
        {"op": "set_ends", "record": "to-nassau", "origin": "atlantis"},
        {"op": "choose_place", "place": "nassau", "name": "Nassau", "ref": "geonames:1"},
        {"op": "rm -rf"},
        {"op": "set_record", "record": "to-nassau", "date": "yesterday"},
    ):
        body = {"version": _version(client), "edits": [edit]}
        answer = client.post("/api/save", json=body, headers=_token(client))
        assert answer.status_code == 400 and answer.json()["error"], edit
    assert storm.read_bytes() == before


def test_the_proxy_distance_of_a_corridor_without_stops_is_the_straight_line_x_circuity(
    storm: Path,
) -> None:
    draft = scenarios.load(storm)
    draft = review.apply(
        draft,
        {"op": "set_ends", "record": "to-orlando", "origin": "west-palm-beach"},
        lookup=lambda *_: None,
    )
    run = pipeline.route_scenario(draft, network="proxy")
    row = run.corridors.set_index("corridor_id").loc["west-palm-beach-to-orlando"]
    a, b = draft.place("west-palm-beach"), draft.place("orlando")
    assert row["length_km"] == pytest.approx(great_circle_km(a.lat, a.lon, b.lat, b.lon) * CIRCUITY)


# --- drafts that map, and their names ----------------------------------------------------


def test_a_draft_with_no_complete_movement_maps_its_open_movements(
    storm: Path, tmp_path: Path
) -> None:
    assert not scenarios.load(storm).corridors
    page = tmp_path / "open.html"
    result = CliRunner().invoke(app, ["map", "-s", str(storm), "--draft", "--offline",
                                      "-o", str(page)])  # fmt: skip
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "To Nassau: origin not stated" in html
    assert "Open movement: one end not stated" in html  # the key says what the arrow is
    assert html.count("DRAFT") == 2  # once in the head's title, once in the title box


def test_scenario_check_lists_what_keeps_a_draft_from_a_final_map(storm: Path) -> None:
    result = CliRunner().invoke(app, ["scenario", "check", str(storm)])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    draft = scenarios.load(storm)
    assert (
        lines[1] == f"{storm}: a draft; {len(draft.review)} item(s) keep it from being a final map:"
    )
    assert lines[2:] == [f"  review: {item}" for item in draft.review]


def test_two_stories_of_one_date_get_two_pages(tmp_path: Path) -> None:
    text = (FIXTURES / "storm.txt").read_text(encoding="utf-8")
    other = text.replace("300 people", "400 people")
    pages = set()
    for n, story in enumerate([text, other]):
        (tmp_path / f"s{n}.txt").write_text(story, encoding="utf-8")
        draft = tmp_path / f"s{n}.yaml"
        result = CliRunner().invoke(app, ["extract", str(tmp_path / f"s{n}.txt"), "--date",
                                          "2019-09-03", "-o", str(draft)])  # fmt: skip
        assert result.exit_code == 0, result.output
        page = pipeline.map_page(draft, draft=True, offline=True)
        pages.add(page.path)
    assert len(pages) == 2
    assert all(re.fullmatch(r"a-story-about-nassau-2019-09-03-[0-9a-f]{8}\.html", p.name)
               for p in pages)  # fmt: skip
    for path in pages:
        path.unlink()


def test_a_web_address_is_refused_with_what_to_do() -> None:
    for command in (["extract"], ["review"]):
        result = CliRunner().invoke(app, [*command, "https://globalnews.ca/news/1/storm/"])
        assert result.exit_code == 2
        assert result.output.startswith("error: 'https://globalnews.ca/news/1/storm/' is a web")
        assert "save the story's text to a file first" in result.output
        assert len(result.output.strip().splitlines()) == 1


# --- the CLI: a story drafted and served; Ctrl-C ------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str], Path]]:
    """``routes review storm.txt --no-browser`` running: its URL, process and folder."""
    shutil.copy(FIXTURES / "storm.txt", tmp_path / "storm.txt")
    env = os.environ | {"PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "routes", "review", "storm.txt", "--no-browser"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    lines = [process.stdout.readline() for _ in range(2)]
    found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{48})", lines[-1])
    assert found, (lines, process.stderr.read() if process.poll() is not None else "")
    yield found.group(1), process, tmp_path
    if process.poll() is None:
        process.kill()
        process.wait()


def test_review_drafts_a_story_and_ctrl_c_stops_it_cleanly(
    served: tuple[str, subprocess.Popen[str], Path],
) -> None:
    import httpx2 as httpx

    url, process, folder = served
    assert httpx.get(url, timeout=30).status_code == 200
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "Stopped. The draft is storm.yaml" in out
    assert sorted(p.name for p in folder.iterdir()) == ["storm.txt", "storm.yaml"]  # no temp
    assert scenarios.load(folder / "storm.yaml").movements


# --- the whole loop in a real browser ----------------------------------------------------


class Counted:
    """The page, with every UI action (click, choice, typing) counted."""

    def __init__(self, page: Page) -> None:
        self.page, self.actions = page, 0

    def click(self, selector: str, **where: Any) -> None:
        self.actions += 1
        self.page.locator(selector, **where).first.click()

    def choose(self, selector: str, value: str) -> None:
        self.actions += 1
        self.page.select_option(selector, value)


def _open_page(browser: Browser, url: str) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda route: route.abort())
    page.goto(url)
    page.wait_for_selector("#checklist li")
    return page, problems


def test_the_whole_loop_in_the_browser(browser: Browser, storm: Path) -> None:
    from playwright.sync_api import expect

    session = review.Session(storm, (storm.parent / "storm.txt").read_text(encoding="utf-8"))
    with _running(session) as url:
        page, problems = _open_page(browser, url)
        ui = Counted(page)
        ui.click("#story .hl.place", has_text="Nassau")  # the place in the wrong country
        ui.click("#candidates button[data-country=BS]")  # the Bahamas' capital
        expect(page.locator("#checklist")).not_to_contain_text("check 'Nassau'")
        ui.click("#checklist .item", has_text="movement to-nassau")  # origin not stated
        ui.choose("#origin", "fort-lauderdale")  # the port the story names
        expect(page.locator("#editor h3")).to_have_text("Fort Lauderdale to Nassau")
        # a click while a change is applied is refused ("One moment"): wait it out, as a
        # person waits for the page (a loaded CI machine took longer than the click)
        expect(page.locator("body")).not_to_have_class(re.compile(r"\bbusy\b"))
        ui.click("#editor button[data-figure=killed]")  # the dead are no one moved
        page.locator("#editor button[data-figure=killed]").wait_for(state="detached")
        ui.click("#save")
        page.wait_for_selector("#status:has-text('Saved')")
        frame = page.frame_locator("#map")
        frame.locator(".routes-corridor").first.wait_for(timeout=60_000)
        assert ui.actions <= 15
        tooltip = frame.locator(".routes-title").inner_text()
        assert "DRAFT" in tooltip  # review items are left: still a draft
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
        assert not problems, problems
        page.context.close()
    fixed = scenarios.load(storm)
    corridor = fixed.corridor("fort-lauderdale-to-nassau")
    assert [f.kind for f in corridor.figures] == ["people"]
    assert fixed.place("nassau").lat == pytest.approx(25.05823)
    check = CliRunner().invoke(app, ["scenario", "check", str(storm)])
    assert check.exit_code == 0, check.output
    page = storm.parent / "fixed.html"
    drawn = CliRunner().invoke(app, ["map", "-s", str(storm), "--draft", "--offline",
                                     "-o", str(page)])  # fmt: skip
    assert drawn.exit_code == 0 and "Fort Lauderdale to Nassau" in page.read_text("utf-8")


def test_a_hostile_story_shows_as_text(browser: Browser, storm: Path) -> None:
    hostile = '</script><script>alert("x")</script> "quoted" \'single\' \u202eevil\u202c '
    text = (storm.parent / "storm.txt").read_text(encoding="utf-8")
    session = review.Session(storm, hostile + text[len(hostile) :])  # same offsets after it
    with _running(session) as url:
        page, problems = _open_page(browser, url)
        shown = page.locator("#story").text_content() or ""
        assert shown.startswith(hostile.replace("\u202e", "\ufffd").replace("\u202c", "\ufffd"))
        assert page.locator("#story script").count() == 0
        assert not problems, problems
        page.context.close()


class _running:
    """The review server for ``session`` on a free port, in a thread, for a ``with``."""

    def __init__(self, session: review.Session) -> None:
        import uvicorn

        self.sock = review.bind(0)
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/?token={session.token}"
        config = uvicorn.Config(review.app(session, port), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    def __enter__(self) -> str:
        self.thread.start()
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()
