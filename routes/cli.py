"""The `routes` command line. Heavy libraries are imported inside the commands that need them."""

from __future__ import annotations

import functools
import inspect
import json
import logging
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from routes import __version__, settings
from routes.errors import RoutesError, UsageError
from routes.options import ExportFormat, NetworkChoice, Search, Weight
from routes.text import for_terminal, terminal_json

if TYPE_CHECKING:
    from routes.pipeline import Run
    from routes.scenario import Scenario

__all__ = ["app", "main"]


class _Commands(TyperGroup):
    """The command group: the one place a user-facing failure becomes one line and exit 2."""

    def invoke(self, ctx: Any) -> Any:
        with _user_errors():
            return super().invoke(ctx)


app = typer.Typer(
    cls=_Commands,
    help="Map forced displacement from the news: places, corridors and interactive maps.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
network_app = typer.Typer(
    help="Fetch and inspect the road network a scenario routes on.", no_args_is_help=True
)
app.add_typer(network_app, name="network")
scenario_app = typer.Typer(help="Write and check scenario files.", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")

ScenarioOption = Annotated[
    str,
    typer.Option(
        "--scenario",
        "-s",
        metavar="FILE|ID",
        help="Scenario YAML file, or the id of a bundled scenario.",
    ),
]
OsmOption = Annotated[
    Path | None,
    typer.Option(
        "--osm",
        metavar="FILE",
        dir_okay=False,
        help="Route on this OpenStreetMap file (.osm, .osm.bz2, .osm.gz, .osm.pbf).",
    ),
]
_NETWORK_HELP = (
    "auto: OSM file, stored extract, download, else proxy. osm: OSM or fail. "
    "proxy: the offline proxy network."
)
NetworkOption = Annotated[NetworkChoice, typer.Option("--network", help=_NETWORK_HELP)]
OfflineOption = Annotated[bool, typer.Option("--offline", help="Never download (Overpass).")]
WeightOption = Annotated[Weight, typer.Option("--weight", help="What routes minimise.")]
AlternativesOption = Annotated[
    int,
    typer.Option(
        "--alternatives",
        min=0,
        max=10,
        metavar="K",
        help="Also find up to K alternative routes per corridor.",
    ),
]
AvoidOption = Annotated[
    Path | None,
    typer.Option(
        "--avoid",
        metavar="FILE",
        dir_okay=False,
        help="GeoJSON polygons (front lines, closed areas): routes do not enter them.",
    ),
]
StrictOption = Annotated[
    bool, typer.Option("--strict", help="Exit 1 when a corridor has no route.")
]
SearchOption = Annotated[
    Search,
    typer.Option(
        "--router",
        help="auto: a contraction hierarchy for large graphs with many queries, else "
        "Dijkstra. dijkstra or ch: force one (same routes).",
    ),
]
MaxSnapOption = Annotated[
    float,
    typer.Option(
        "--max-snap",
        min=0.001,
        metavar="KM",
        help="A corridor with a stop further than this from the roads gets no route.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
_CDN_HELP = (
    "Write the small page that loads Leaflet and its plugins from their CDNs (it needs the "
    "network). By default the page carries them itself and works offline."
)
CdnOption = Annotated[bool, typer.Option("--cdn", help=_CDN_HELP)]
StaticOption = Annotated[bool, typer.Option("--static", help="Draw corridors without animation.")]
PngOption = Annotated[
    Path | None,
    typer.Option(
        "--png",
        metavar="FILE",
        dir_okay=False,
        help="Also save a PNG of the map (headless Chromium; needs routes[png]).",
    ),
]
PngSizeOption = Annotated[
    str, typer.Option("--png-size", metavar="WxH", help="PNG size in pixels.")
]
DraftOption = Annotated[
    bool,
    typer.Option("--draft", help="Map an undated draft or one with review items; titled DRAFT."),
]


def _output(help: str, *, folder: bool = False) -> Any:
    """Every writing command's ``--output/-o``: one ``FILE``, or with ``folder`` a ``DIR``."""
    if folder:
        return typer.Option("--output", "-o", file_okay=False, metavar="DIR", help=help)
    return typer.Option("--output", "-o", dir_okay=False, metavar="FILE", help=help)


@dataclass(frozen=True)
class _Routing:
    """The routing options ``map``, ``corridors`` and ``export`` share, as one value."""

    osm: Path | None = None
    network: NetworkChoice = NetworkChoice.AUTO
    offline: bool = False
    weight: Weight = Weight.TRAVEL_TIME
    alternatives: int = 0
    avoid: Path | None = None
    router: Search = Search.AUTO
    strict: bool = False
    max_snap: float = 5.0


#: Each routing option's parameter type, in the order ``--help`` lists them.
_ROUTING_OPTIONS: dict[str, Any] = {
    "osm": OsmOption,
    "network": NetworkOption,
    "offline": OfflineOption,
    "weight": WeightOption,
    "alternatives": AlternativesOption,
    "avoid": AvoidOption,
    "router": SearchOption,
    "strict": StrictOption,
    "max_snap": MaxSnapOption,
}


def _routing_options(*, alternatives: bool = True) -> Callable[[Any], Any]:
    """Give a command the routing options where its ``routing: _Routing`` parameter stands.

    Typer reads the options from the signature this writes; the command gets them
    collected into one :class:`_Routing` (so the list is written once, not per command).
    """
    names = [n for n in _ROUTING_OPTIONS if alternatives or n != "alternatives"]
    defaults = _Routing()

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        params: list[inspect.Parameter] = []
        for param in signature.parameters.values():
            if param.name != "routing":
                params.append(param)
                continue
            params += [
                param.replace(name=n, default=getattr(defaults, n), annotation=_ROUTING_OPTIONS[n])
                for n in names
            ]

        @functools.wraps(command)
        def run(**options: Any) -> None:
            routing = _Routing(**{n: options.pop(n) for n in names})
            command(routing=routing, **options)

        run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        return run

    return decorate


@contextmanager
def _user_errors() -> Iterator[None]:
    """Every user-facing failure as one red line (a scenario's: one per problem), exit 2."""
    from routes.errors import ScenarioError

    try:
        yield
    except Exception as exc:
        if isinstance(exc, ScenarioError) and len(exc.problems) > 1:
            _say_problems(exc)
        elif not _for_the_user(exc):
            raise
        else:
            _say(f"error: {_one_line(exc)}", typer.colors.RED)
        raise typer.Exit(2) from None


#: At most this many of a scenario's problems are listed (then how many more there are).
_MAX_PROBLEMS = 100


def _say_problems(exc: Any) -> None:
    """A scenario's problems, one line each (file: record field: what), then their count."""
    for problem in exc.problems[:_MAX_PROBLEMS]:
        _say(f"{exc.path}: {problem}", typer.colors.RED)
    more = len(exc.problems) - _MAX_PROBLEMS
    _say(f"{len(exc.problems)} problem(s) in {exc.path}" + (f" ({more} more not listed)"
         if more > 0 else ""), typer.colors.RED)  # fmt: skip


def _for_the_user(exc: Exception) -> bool:
    """Bad input or a faulty environment (disk, cache, GDAL), not a bug in `routes`."""
    return isinstance(exc, RoutesError | OSError | sqlite3.DatabaseError) or type(
        exc
    ).__module__.startswith(("pyogrio", "osgeo"))


def _one_line(exc: BaseException, limit: int = 400) -> str:
    """The error as one line, cut at ``limit`` characters (GDAL quotes whole SQL scripts)."""
    if isinstance(exc, OSError) and exc.filename and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    line = " ".join(str(exc).split()) or type(exc).__name__
    return line if len(line) <= limit else line[: limit - 1] + "…"


class _SayHandler(logging.Handler):
    """The library's log records as the CLI's lines on stderr; ``progress`` ones as a bar."""

    bar: Any = None
    task: Any = None

    def emit(self, record: logging.LogRecord) -> None:
        done, total = getattr(record, "progress", (None, None))
        if done is not None:
            if self.bar is None:
                from rich import console, progress

                err = console.Console(stderr=True)
                if not err.is_terminal:
                    return  # a log file or a pipe: no bar (it would leave a blank line)
                self.bar = progress.Progress(console=err, transient=True)
                self.bar.start()
                self.task = self.bar.add_task(record.getMessage(), total=total)
            self.bar.update(self.task, completed=done, description=record.getMessage())
            if done >= total:
                self.bar.stop()
                self.bar = None
            return
        _say(self.format(record), typer.colors.YELLOW if record.levelno >= logging.WARNING else "")


def _say(message: str, colour: str | None = typer.colors.YELLOW) -> None:
    """A line on stderr; whatever it quotes has its control characters escaped."""
    typer.secho(for_terminal(message), fg=colour, err=True)


def _echo(line: str) -> None:
    """A line on stdout (a path, a row), its control characters escaped."""
    typer.echo(for_terminal(line))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"routes {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Say more.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors.")] = False,
) -> None:
    """Map forced displacement from the news: places, corridors and interactive maps."""
    level = logging.ERROR if quiet else logging.INFO if verbose else logging.WARNING
    ctx.call_on_close(_log_to_stderr(level))


def _log_to_stderr(level: int) -> Callable[[], None]:
    """Send the ``routes`` logger's records to stderr as the CLI's lines, for this run only;
    the function that puts the logger back as it was (for library users and caplog)."""
    import warnings

    log = logging.getLogger("routes")
    steps = logging.getLogger("routes.progress")  # a bar unless only errors are wanted
    before = log.handlers[:], log.propagate, log.level, steps.level, warnings.showwarning
    log.handlers[:], log.propagate = [_SayHandler()], False
    log.setLevel(level)
    steps.setLevel(logging.INFO if level < logging.ERROR else level)

    def note(message: Any, category: type, filename: str, *_: Any, **__: Any) -> None:
        """A library's warning, as one line at INFO (shown with -v), never raw on stderr."""
        parts = Path(filename).parts
        where = parts[parts.index("site-packages") + 1] if "site-packages" in parts else "python"
        log.info("%s: %s: %s", where.removesuffix(".py"), category.__name__, message)

    warnings.showwarning = note

    def restore() -> None:
        log.handlers[:], log.propagate, warnings.showwarning = before[0], before[1], before[4]
        log.setLevel(before[2])
        steps.setLevel(before[3])

    return restore


def _pipeline_options(routing: _Routing) -> dict[str, Any]:
    """The routing options as :func:`routes.pipeline.route_scenario` names them."""
    return {
        "osm": routing.osm,
        "network": routing.network,
        "offline": routing.offline,
        "weight": routing.weight,
        "alternatives": routing.alternatives,
        "avoid": routing.avoid,
        "max_snap_km": routing.max_snap,
        "search": routing.router,
    }


def _route(scenario: str | Scenario, routing: _Routing) -> Run:
    """Route through the pipeline; say its warnings; under ``--strict`` a gap is exit 1."""
    from routes import pipeline

    run = pipeline.route_scenario(scenario, **_pipeline_options(routing))
    _report(run.warnings, complete=run.complete, strict=routing.strict)
    return run


def _report(warnings: list[str], *, complete: bool, strict: bool) -> None:
    """Say the run's warnings; under ``--strict`` a corridor without a route is exit 1."""
    for warning in warnings:
        _say(f"warning: {warning}")
    if strict and not complete:
        _say("error: --strict: some corridors have no route", typer.colors.RED)
        raise typer.Exit(1)


@app.command("map")
@_routing_options()
def map_command(
    scenario: ScenarioOption = settings.default_scenario,
    output: Annotated[
        Path | None, _output("HTML file to write [default: output/<scenario id>.html].")
    ] = None,
    routing: _Routing = _Routing(),
    cdn: CdnOption = False,
    static: StaticOption = False,
    png: PngOption = None,
    png_size: PngSizeOption = "1600x1000",
    draft: DraftOption = False,
) -> None:
    """Route the scenario's corridors (or a corpus's flows.parquet) and write an HTML map.

    A page whose inputs (scenario, options, network source, code, libraries) have not
    changed since the run that wrote it is left as it is.
    """
    from routes import _io, pipeline

    with _user_errors():
        size, png = _size(png_size), None if png is None else _io.writable(png)  # before work
        page = pipeline.map_page(
            scenario,
            output,
            draft=draft,
            cdn=cdn,
            animate=not static,
            strict=routing.strict,
            **_pipeline_options(routing),
        )
        _report(page.warnings, complete=page.complete, strict=routing.strict)
        assert page.path is not None  # written, or --strict stopped above
        if png is not None:
            from routes import render

            render.save_png(page.path, png, size=size)
    _echo(str(page.path))
    if png is not None:
        _echo(str(png))


@app.command()
@_routing_options()
def corridors(
    scenario: ScenarioOption = settings.default_scenario,
    routing: _Routing = _Routing(),
    as_json: JsonOption = False,
) -> None:
    """Route every corridor; print length, travel time, road mix and the places it passes."""
    with _user_errors():
        run = _route(scenario, routing)
    from routes.columns import SUMMARY

    records = _records(run.corridors[list(SUMMARY)])
    if run.alternatives is not None:
        alts = _records(run.alternatives.drop(columns="geometry"))
        for record in records:
            record["alternatives"] = [a for a in alts if a["corridor_id"] == record["corridor_id"]]
    if as_json:
        typer.echo(terminal_json(records))
        return
    _table(
        ["corridor", "km", "hours", "road mix", "passes", "network_source", "route"],
        [
            [
                r["corridor_id"],
                _fmt(r["length_km"]),
                _fmt(r["travel_time_h"]),
                r["highway_share"],
                r["passes"],
                r["network_source"],
                r["route_status"],
            ]
            for r in records
        ],
    )
    for r in records:
        for a in r.get("alternatives", []):
            _echo(
                f"  {r['corridor_id']} alternative {a['rank']}: {a['length_km']:.1f} km, "
                f"{_fmt(a['travel_time_h'])} h (+{a['extra_cost_pct']:.0f}%), "
                f"{a['differs_share']:.0%} different"
            )


@app.command()
@_routing_options(alternatives=False)
def export(
    fmt: Annotated[ExportFormat, typer.Option("--format", "-f", help="File format.")] = (
        ExportFormat.GPKG
    ),
    scenario: ScenarioOption = settings.default_scenario,
    output: Annotated[Path, _output("Folder to write into.", folder=True)] = settings.output_dir,
    routing: _Routing = _Routing(),
    hxl: Annotated[
        bool, typer.Option("--hxl", help="CSV: add the HXL hashtag row (#loc+name, #date…).")
    ] = False,
) -> None:
    """Write places, corridors, claims and the network used; print the file paths."""
    from routes import _io
    from routes import export as exports

    with _user_errors():
        _io.make_folder(output)  # a mistyped -o is refused before the routing, not after it
        run = _route(scenario, routing)
        layers = exports.layers(run.scenario, run.corridors, run.network, avoided=run.avoided)
        paths = exports.write(layers, fmt.value, output, run.scenario.story.id, hxl=hxl)
    for path in paths:
        _echo(str(path))


@app.command()
def geocode(
    names: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME",
            help='Place names, as a story writes them; "Aleppo, Syria" keeps to that country '
            "or first-level region.",
        ),
    ],
    scenario: Annotated[
        str | None,
        typer.Option(
            "--scenario",
            "-s",
            metavar="FILE|ID",
            help="Also search this scenario's places, and prefer towns in its region.",
        ),
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never ask Nominatim.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Resolve names: curated places, countries and regions, GeoNames, then Nominatim.

    Every name is tried; each unknown one is reported on its own line (exit 1).
    """
    from routes import scenario as scenarios
    from routes.errors import UnknownPlaceError
    from routes.places import Geocoder

    found: list[dict[str, Any]] = []
    with _user_errors():
        geocoder = Geocoder.for_scenario(scenarios.load(scenario)) if scenario else Geocoder()
        for name in names:
            try:
                match = geocoder.resolve(name, offline=offline)
                found.append({"status": "resolved", **match.as_dict(), "kind": match.kind})
            except UnknownPlaceError as exc:
                found.append({"status": "unknown", "query": name, "suggestions": exc.suggestions})
                _say(f"error: {_one_line(exc)}", typer.colors.RED)
    resolved = [row for row in found if row["status"] == "resolved"]
    if as_json:
        typer.echo(terminal_json(found))
    elif resolved:
        _table(
            ["query", "matched", "country", "kind", "lat", "lon", "source", "confidence"],
            [
                [r["query"], r["name"], r["country"] or "", r["kind"], f"{r['lat']:.5f}",
                 f"{r['lon']:.5f}", r["source"], f"{r['confidence']:.2f}" + _rival(r)]
                for r in resolved
            ],
        )  # fmt: skip
    if len(resolved) < len(found):
        raise typer.Exit(1)


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
        text = _story_text(story)
        try:
            draft = extract.draft_scenario(text, story_date=day, publisher=publisher)
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


def _story_text(story: str) -> str:
    """A story's text from a regular file or stdin, decoded once, strictly, as UTF-8."""
    from routes._io import decode, read_input
    from routes.extract import MAX_STORY_CHARS

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


@network_app.command("fetch")
def network_fetch(scenario: ScenarioOption = settings.default_scenario) -> None:
    """Download the scenario's region from Overpass as of the story's date; store it."""
    from routes import network as networks
    from routes import scenario as scenarios

    with _user_errors():
        story = scenarios.load(scenario)
        G = networks.fetch(story)
    _echo(str(networks.extract_path(story)))
    _say(
        f"{G.n_nodes:,} nodes, {G.n_edges:,} edges, "
        f"OpenStreetMap as of {story.story.date or 'today'}",
        typer.colors.GREEN,
    )


@network_app.command("info")
def network_info(
    scenario: ScenarioOption = settings.default_scenario,
    osm: OsmOption = None,
    network: NetworkOption = NetworkChoice.AUTO,
    offline: OfflineOption = False,
    as_json: JsonOption = False,
) -> None:
    """Which network a run would use: source, OSM date, node and edge counts, bounding box."""
    from routes import network as networks
    from routes import scenario as scenarios

    with _user_errors():
        story = scenarios.load(scenario)
        G = networks.choose(story, osm=osm, network=network, offline=offline)
        facts = networks.info(G)
    if as_json:
        typer.echo(terminal_json(facts))
        return
    for key, value in facts.items():
        _echo(f"{key:15} {value if value is not None else '—'}")


@scenario_app.command("schema")
def scenario_schema() -> None:
    """Print the JSON Schema of a scenario file (fields, required ones, allowed values)."""
    from routes import scenario as scenarios

    typer.echo(json.dumps(scenarios.schema(), ensure_ascii=False, indent=2))


@scenario_app.command("check")
def scenario_check(
    path: Annotated[str, typer.Argument(metavar="FILE|ID", help="Scenario YAML, id, or -.")],
) -> None:
    """Report every problem in a scenario at once, one line each (file, record, field)."""
    from routes import scenario as scenarios
    from routes.errors import ScenarioError

    try:
        story = scenarios.load(path)
    except ScenarioError as exc:
        _say_problems(exc)
        raise typer.Exit(2) from None
    _echo(f"{path}: ok ({len(story.places)} places, {len(story.corridors)} corridors)")


def _records(frame: Any) -> list[dict[str, Any]]:
    """Rows as JSON-ready dicts: missing values become None."""
    records: list[dict[str, Any]] = (
        frame.astype(object).where(frame.notna(), None).to_dict("records")
    )
    return records


def _rival(row: dict[str, Any]) -> str:
    """ ", or X (CC), N km away": the runner-up a geocoded name may as well mean."""
    other = row.get("runner_up")
    if not other:
        return ""
    return f", or {other['name']} ({other['country'] or other['level']}), {other['km']:,} km away"


def _table(header: list[str], rows: list[list[str]]) -> None:
    """A table on stdout; cells are plain text (never rich markup), controls escaped."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(*header)
    for row in rows:
        table.add_row(*(Text(for_terminal(str(cell))) for cell in row))
    Console().print(table)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--png-size must look like 1600x1000, not {text!r}") from None
    if not (100 <= width <= 8000 and 100 <= height <= 8000):
        raise UsageError(f"--png-size {text}: each side must be 100 to 8000 pixels")
    return width, height


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
