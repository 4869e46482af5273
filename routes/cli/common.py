"""What every command shares: the app, its options, and errors and output as one line each."""

from __future__ import annotations

import functools
import inspect
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from routes import __version__
from routes.errors import RoutesError
from routes.options import NetworkChoice, Search, Weight
from routes.text import for_terminal

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


def _records(frame: Any) -> list[dict[str, Any]]:
    """Rows as JSON-ready dicts: missing values become None."""
    records: list[dict[str, Any]] = (
        frame.astype(object).where(frame.notna(), None).to_dict("records")
    )
    return records


def _table(header: list[str], rows: list[list[str]]) -> None:
    """A table on stdout; cells are plain text (never rich markup), controls escaped."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(*header)
    for row in rows:
        table.add_row(*(Text(for_terminal(str(cell))) for cell in row))
    Console().print(table)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"
