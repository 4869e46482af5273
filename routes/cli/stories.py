"""Commands that read stories: extract, corpus."""

from __future__ import annotations

import json
import re
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from routes.cli.common import (
    _echo,
    _output,
    _say,
    _user_errors,
    app,
)
from routes.errors import RoutesError, UsageError
from routes.text import brief

__all__ = ["WEB_ADDRESS", "corpus_command", "extract_command", "story_text"]

#: A story given as a web address rather than a file.
WEB_ADDRESS = re.compile(r"(?i)(https?|ftp)://")


@app.command("extract")
def extract_command(
    story: Annotated[
        str | None, typer.Argument(metavar="STORY", help="A story as plain text; - for stdin.")
    ] = None,
    output: Annotated[
        Path | None, _output("Write the draft scenario here [default: stdout].")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", metavar="YYYY-MM-DD", help="The day the story was published."),
    ] = None,
    publisher: Annotated[str | None, typer.Option(help="Who published the story.")] = None,
    title: Annotated[
        str | None, typer.Option(help="The story's headline [default: drafted from its places].")
    ] = None,
    url: Annotated[str | None, typer.Option(help="Where the story was published.")] = None,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain", help="Show each place, corridor and figure in its sentence, for review."
        ),
    ] = False,
    jsonl: Annotated[
        str | None,
        typer.Option(
            "--jsonl",
            metavar="IN.jsonl",
            help='Batch: one story a line, {"id", "text"} (optional "date", "publisher"); '
            'writes one line a story, {"id", "toponyms"}, to -o or stdout. - for stdin.',
        ),
    ] = None,
) -> None:
    """Draft a scenario from a story: places, movements and figures, each with its evidence."""
    import datetime as dt

    from routes import extract
    from routes import scenario as scenarios

    if jsonl is not None or story is None:
        with _user_errors():
            if (jsonl is None) == (story is None):
                raise UsageError("give one STORY file (- for stdin), or --jsonl FILE for a batch")
        return _extract_jsonl(str(jsonl), output)
    with _user_errors():
        try:
            day = dt.date.fromisoformat(date) if date else None
        except ValueError:
            raise UsageError(f"--date must look like 2016-12-15, not {date!r}") from None
        text = story_text(story)
        try:
            draft = extract.draft_scenario(
                text, story_date=day, publisher=publisher, title=title, url=url
            )
        except RoutesError as exc:
            raise UsageError(f"{story}: {exc}") from None
    document = scenarios.dump(draft)
    if explain:
        from rich.console import Console
        from rich.text import Text

        from routes.text import visible

        review = extract.explain(text, draft)  # its controls shown, never sent (same offsets)
        Console(stderr=output is None).print(Text(visible(review.plain), spans=review.spans))
    if output is not None:
        from routes._io import write_atomically

        with _user_errors():
            write_atomically(output, document.encode("utf-8"))
        _echo(str(output))
    else:
        typer.echo(document, nl=False)


def story_text(story: str) -> str:
    """A story's text from a regular file or stdin, decoded once, strictly, as UTF-8.
    A web address is refused with what to do: nothing here fetches a page."""
    from routes._io import decode, read_input
    from routes.extract import MAX_STORY_CHARS

    if WEB_ADDRESS.match(story):
        raise UsageError(
            f"{brief(story, 80)} is a web address: save the story's text to a file first "
            "(copy it from the browser into story.txt), then pass the file"
        )
    name = "<stdin>" if story == "-" else story
    return decode(read_input(story, limit=4 * MAX_STORY_CHARS, what="story"), name)


def _extract_jsonl(source: str, output: Path | None) -> None:
    """``extract --jsonl``: read, extract and write one story at a time (constant memory)."""
    from routes import extract
    from routes._io import decode, open_atomically, regular_file
    from routes.corpus.stories import story_line

    with _user_errors():
        name = "<stdin>" if source == "-" else source
        lines = sys.stdin.buffer if source == "-" else open(regular_file(source), "rb")  # noqa: SIM115
        with lines, open_atomically(output) if output else nullcontext(sys.stdout) as out:
            for number, raw in enumerate(lines, 1):
                line = decode(raw, f"{name} line {number}")
                if line.strip():
                    story = story_line(line, f"{name}:{number}")
                    found = extract.extract(story["text"], **story["options"])
                    rows = [t.as_dict(jsonl=True) for t in found.all_toponyms()]
                    out.write(json.dumps({"id": story["id"], "toponyms": rows}, ensure_ascii=False))
                    out.write("\n")
    if output is not None:
        _echo(str(output))


@app.command("corpus")
def corpus_command(
    stories: Annotated[
        Path,
        typer.Argument(
            metavar="STORIES",
            help="JSONL or Parquet (id, text, date, publisher, url), or a folder of .txt files.",
        ),
    ],
    output: Annotated[Path, _output("Folder.", folder=True)],
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="Local worker processes [default: the cores]."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Use this Dask cluster (tcp://host:port) instead of a local one.",
        ),
    ] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="Only the first N stories by id.")
    ] = None,
) -> None:
    """Draft every story of a corpus on Dask and merge their movements into flows."""
    from rich.console import Console
    from rich.progress import Progress

    from routes.corpus import run_corpus

    with _user_errors(), Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("drafting stories", total=None)
        report = run_corpus(
            stories, output, workers=workers, scheduler=scheduler, sample=sample,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            on_cluster=lambda link: bar.console.print(f"Dask dashboard: {link}") if link else None,
        )  # fmt: skip
    for path in report.paths:
        _echo(str(path))
    _say(
        f"{report.stories} stories: reused {report.reused}, extracted {report.extracted}, "
        f"failed {report.failed}; {report.flows} flows; {report.rate:.1f} stories/s on "
        f"{report.workers} workers; {report.seconds:.1f} s in all",
        typer.colors.GREEN,
    )
