"""``routes review``: draft a story if given its text, then open the local review page."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from routes.cli.common import _echo, _output, _say, _user_errors, app
from routes.errors import UsageError

__all__ = ["review_command"]


@app.command("review")
def review_command(
    story: Annotated[
        str,
        typer.Argument(
            metavar="STORY_OR_DRAFT",
            help="A story as plain text (- for stdin), drafted first; or a draft's YAML.",
        ),
    ],
    output: Annotated[
        Path | None,
        _output("Where a story's draft goes [default: the story's name with .yaml]."),
    ] = None,
    text: Annotated[
        Path | None,
        typer.Option(
            "--story",
            metavar="FILE",
            dir_okay=False,
            help="The story's text, for a draft [default: the draft's name with .txt].",
        ),
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", metavar="YYYY-MM-DD", help="The day the story was published."),
    ] = None,
    publisher: Annotated[str | None, typer.Option(help="Who published the story.")] = None,
    title: Annotated[str | None, typer.Option(help="The story's headline.")] = None,
    url: Annotated[str | None, typer.Option(help="Where the story was published.")] = None,
    port: Annotated[
        int,
        typer.Option("--port", min=0, max=65535, help="Port on 127.0.0.1 [default: a free one]."),
    ] = 0,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the page's URL; open no browser.")
    ] = False,
) -> None:
    """Check a draft against its story in a local web page, fix it, and save it.

    The page shows the story with every proposal highlighted, the draft's checklist and
    its map; saving writes the draft (YAML) and redraws the map. It listens on 127.0.0.1
    only, with a secret token in its URL; Ctrl-C stops it.
    """
    from routes import review

    with _user_errors():
        draft, story_text = _draft(story, output, text, date, publisher, title, url)
        session = review.Session(draft, story_text)
        session.read()  # a broken draft is one line now, not a page that cannot load
        sock = review.bind(port)
    link = f"http://{review.HOST}:{sock.getsockname()[1]}/?token={session.token}"
    _echo(f"Reviewing {draft}: {link}")
    _say("Ctrl-C stops the page; saved changes are in the draft.", None)
    if not no_browser and not _open(link):
        _say("no browser found to open: open the URL above in one (or pass --no-browser)")
    signal.signal(signal.SIGTERM, _stop)  # `kill` stops it as Ctrl-C does
    try:
        review.serve(session, sock)
    except KeyboardInterrupt:  # uvicorn has stopped cleanly, then passes the signal on
        pass
    finally:
        sock.close()
    _echo(f"Stopped. The draft is {session.draft}")


def _draft(
    story: str,
    output: Path | None,
    text_file: Path | None,
    date: str | None,
    publisher: str | None,
    title: str | None,
    url: str | None,
) -> tuple[Path, str | None]:
    """The draft to review and the story's text: a draft as it is (its text beside it or
    from ``--story``), or a story drafted into ``output`` unless that draft exists."""
    import datetime as dt

    from routes import extract
    from routes import scenario as scenarios
    from routes._io import write_atomically
    from routes.cli.stories import story_text

    if story.endswith((".yaml", ".yml")):
        beside = Path(story).with_suffix(".txt")
        source = text_file or (beside if beside.is_file() else None)
        return Path(story), story_text(str(source)) if source else None
    body = story_text(story)
    target = output or (Path("story.yaml") if story == "-" else Path(story).with_suffix(".yaml"))
    if os.path.lexists(target):
        _say(f"{target} exists: reviewing it as it is (delete it to draft the story again)")
        return target, body
    try:
        day = dt.date.fromisoformat(date) if date else None
    except ValueError:
        raise UsageError(f"--date must look like 2016-12-15, not {date!r}") from None
    draft = extract.draft_scenario(body, story_date=day, publisher=publisher, title=title, url=url)
    write_atomically(target, scenarios.dump(draft).encode("utf-8"))
    kept = target.with_suffix(".txt")
    if story == "-" and not os.path.lexists(kept):  # the text, for a later review
        write_atomically(kept, body.encode("utf-8"))
    _echo(str(target))
    return target, body


def _stop(_signal: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _open(link: str) -> bool:
    """Open ``link`` in a graphical browser; False when there is none (a text browser
    would take over the terminal the server runs in)."""
    import webbrowser

    graphical = sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    try:
        return graphical and webbrowser.open(link)
    except webbrowser.Error:
        return False
