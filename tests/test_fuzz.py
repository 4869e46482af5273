"""Fuzzing (hypothesis, bounded runs): hostile values in every input format `routes` reads.

Scenario values through the CLI, ``flows.parquet`` columns, OSM node coordinates and way
tags, ``--avoid`` GeoJSON geometry and properties, planted graph cache entries and
hierarchies (issue 39), and the text helpers. Whatever comes
in, the answer is a result or a :class:`routes.errors.RoutesError` (one short line on the
terminal, no control character), never another exception. Each strategy would have found
the findings of issue 29 it is named after.
"""

from __future__ import annotations

import copy
import json
import math
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import ALEPPO, PATHS

from routes.cli import app
from routes.errors import RoutesError

BOUNDED = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)

#: Text an attacker or an unlucky user writes: terminal escapes, rich markup, bidi and
#: zero-width characters, formula starts, full-width forms, very long runs.
HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "\x1b]0;pwned\x07",
            "\x1b[2J",
            "[/bold]",
            "[link=https://evil.example]x[/link]",
            "[red]",
            "\u202eevil",
            "\u200f\u061c\u200b",
            '=HYPERLINK("x")',
            "\uff1d1+1",
            " \u00a0=1",
            "{{ 7*7 }}",
            "</script>",
            "9999-12-31",
            "x" * 5000,
        ]
    ),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs"]), max_size=12),
)
#: Numbers and dates at and past every range a field has.
HOSTILE_SCALARS = st.one_of(
    HOSTILE_TEXT,
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e30, 1e308, -999.0, 85.06, -90.0001, 10**10 + 1]),
    st.dates(),
)
HOSTILE_VALUES = st.recursive(
    HOSTILE_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _terminal_safe(output: str) -> None:
    assert "Traceback" not in output
    assert not any(unicodedata.category(c) == "Cc" and c not in "\n" for c in output), output
    assert all(len(line) < 800 for line in output.splitlines()), max(output.splitlines(), key=len)


FIELDS = PATHS  # every key path of the bundled scenario


# --- scenario values (findings 2, 3, 10, terminal escapes, one pass) -------------------------


@BOUNDED
@given(edits=st.lists(st.tuples(st.sampled_from(FIELDS), HOSTILE_VALUES), min_size=1, max_size=4))
def test_scenario_values_are_checked_and_shown_inert(
    edits: list[tuple[tuple[Any, ...], Any]], runner: Any, tmp_path: Path
) -> None:
    data = copy.deepcopy(ALEPPO)
    for path, value in edits:
        target = data
        try:
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = runner.invoke(app, ["scenario", "check", str(scenario)])
    assert result.exit_code in (0, 2), result.output
    _terminal_safe(result.output)


# --- flows.parquet columns (finding 5) --------------------------------------------------------


@pytest.fixture(scope="module")
def flows_rows(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, list[dict[str, Any]]]:
    import pyarrow.parquet as pq

    from routes.corpus.flows import merge_flows, write_outputs
    from routes.corpus.stories import read_stories
    from routes.corpus.work import extract_story

    folder = tmp_path_factory.mktemp("flows")
    stories = read_stories(Path(__file__).parent / "fixtures" / "corpus" / "stories.jsonl")
    write_outputs(folder, merge_flows(extract_story(s) for s in stories))
    table = pq.read_table(folder / "flows.parquet")
    return table.schema, table.to_pylist()


JSON_TEXT = st.one_of(
    HOSTILE_TEXT,
    HOSTILE_VALUES.map(lambda v: json.dumps(v, default=str)),
    st.lists(
        st.fixed_dictionaries(
            {"story": HOSTILE_TEXT, "kind": st.sampled_from(["people", "buses", "unicorns"]),
             "value": HOSTILE_SCALARS, "start": HOSTILE_SCALARS, "end": HOSTILE_SCALARS,
             "date": st.one_of(st.none(), HOSTILE_TEXT, st.dates().map(str))}
        ),
        max_size=3,
    ).map(lambda v: json.dumps(v, default=str)),
)  # fmt: skip


@BOUNDED
@given(data=st.data())
def test_flows_columns_are_validated(
    data: Any, flows_rows: tuple[Any, list[dict[str, Any]]], tmp_path: Path
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from routes.corpus import flows_scenario

    schema, rows = flows_rows
    rows = copy.deepcopy(rows)
    for name in data.draw(st.lists(st.sampled_from(schema.names[:-1]), min_size=1, max_size=4)):
        kind = schema.field(name).type
        values = (
            st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True))
            if pa.types.is_floating(kind)
            else st.one_of(st.none(), st.integers(-(2**62), 2**62))
            if pa.types.is_integer(kind)
            else st.one_of(st.none(), JSON_TEXT)
        )
        rows[data.draw(st.integers(0, len(rows) - 1))][name] = data.draw(values)
    path = tmp_path / "flows.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    try:
        flows_scenario(path)
    except RoutesError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 2000


# --- OSM node coordinates and way tags (finding 6) -------------------------------------------

COORDINATE = st.one_of(
    st.floats(min_value=-1000, max_value=1000).map(lambda v: f"{v:.7f}"),
    st.sampled_from(["nan", "inf", "-inf", "-999", "1e308", "", "60.17.1", "0x10", " 60.17"]),
)
MAXSPEED = st.one_of(
    st.sampled_from(["0", "-5", "50 mph", "none", "signals", "inf", "nan", "1e308", "30;50",
                     "RU:urban", "0 knots", "50|70"]),
    st.text(max_size=8),
)  # fmt: skip


@BOUNDED
@given(
    lat=COORDINATE,
    lon=COORDINATE,
    maxspeed=MAXSPEED,
    highway=st.sampled_from(["primary", "residential", "road", "motorway_link", "proxy"]),
)
def test_osm_coordinates_and_tags_give_a_network_or_one_line(
    lat: str, lon: str, maxspeed: str, highway: str, tmp_path: Path, graph_cache: Path
) -> None:
    from xml.sax.saxutils import quoteattr

    import numpy as np

    from routes import network

    nodes = [("1", "60.1700", "24.9400"), ("2", lat, lon), ("3", "60.1720", "24.9500"),
             ("4", "60.1720", "24.9600")]  # fmt: skip
    text = '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="fuzz">\n'
    text += "".join(
        f'<node id={quoteattr(i)} lat={quoteattr(y)} lon={quoteattr(x)} version="1"/>\n'
        for i, y, x in nodes
    )
    text += (
        '<way id="10" version="1"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/>'
        f'<tag k="highway" v={quoteattr(highway)}/><tag k="maxspeed" v={quoteattr(maxspeed)}/>'
        '</way>\n<way id="11" version="1"><nd ref="1"/><nd ref="3"/>'
        '<tag k="highway" v="primary"/></way>\n</osm>\n'
    )
    osm = tmp_path / "fuzz.osm"
    osm.write_text(text, encoding="utf-8")
    try:
        G = network.from_osm_file(osm)
    except RoutesError as exc:
        assert "\n" not in str(exc)
        return
    edges = G.edges(["travel_time", "speed_kph", "length"])[["travel_time", "speed_kph", "length"]]
    assert np.isfinite(edges.to_numpy(dtype=float)).all() and (edges["speed_kph"] > 0).all()


# --- --avoid GeoJSON geometry (finding 7) ----------------------------------------------------

POINT = st.tuples(st.floats(36.9, 37.4), st.floats(36.0, 36.4))
RING = st.lists(POINT, min_size=3, max_size=7).map(lambda ring: [*ring, ring[0]])
NAME = st.one_of(st.none(), HOSTILE_TEXT, HOSTILE_VALUES)


@pytest.fixture(scope="module")
def aleppo_roads() -> Any:
    from routes import network, scenario

    return network.proxy_network(scenario.load("aleppo-2016-12"))


@BOUNDED
@given(rings=st.lists(st.tuples(RING, NAME), min_size=1, max_size=3))
def test_avoid_geometry_is_made_valid_and_names_are_text(
    rings: list[tuple[list[tuple[float, float]], Any]], tmp_path: Path, aleppo_roads: Any
) -> None:
    from routes import network

    features = [
        {"type": "Feature", "properties": {"name": name},
         "geometry": {"type": "Polygon", "coordinates": [[list(p) for p in ring]]}}
        for ring, name in rings
    ]  # fmt: skip
    path = tmp_path / "areas.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}, default=str))
    try:
        areas = network.avoid_areas(path)
    except RoutesError as exc:
        assert "\n" not in str(exc)
        return
    assert areas.geometry.is_valid.all() and areas.geom_type.isin(["Polygon", "MultiPolygon"]).all()
    if "name" in areas:
        assert all(n is None or isinstance(n, str) for n in areas["name"])
    reduced = network.avoiding(aleppo_roads, areas)
    assert reduced.n_edges <= aleppo_roads.n_edges


# --- planted graph cache entries and hierarchies (issue 39, findings 5 and 6) ----------------

#: What a member of a planted ``.npz`` may be instead of what was written: gone, of another
#: shape, a scalar, a value out of range, shorter or longer, text, floats, not a number.
MUTATIONS = ("drop", "reshape", "scalar", "value", "shorten", "lengthen", "text", "floats", "nan")


@pytest.fixture(scope="module")
def planted_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Path, bytes]]:
    """A cache of its own holding the bundled scenario's proxy network and its travel-time
    hierarchy: the folder, and each entry's bytes as written."""
    from routes import network, scenario
    from routes import settings as routes_settings

    folder = tmp_path_factory.mktemp("planted")
    for entry in routes_settings.cache_dir.glob("geonames-*"):  # the shared GeoNames index
        (folder / entry.name).symlink_to(entry)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(routes_settings, "cache_dir", folder)
        network.proxy_network(scenario.load("aleppo-2016-12")).router.hierarchy("travel_time")
    return folder, {f: f.read_bytes() for f in sorted((folder / "graphs").glob("*.npz"))}


def _mutated(array: Any, how: str, at: int) -> Any:
    """``array`` spoilt as ``how`` says (element ``at`` of it, where one is)."""
    import numpy as np

    flat = np.array(array).reshape(-1)
    changes = {
        "reshape": lambda: flat.reshape(1, -1),
        "scalar": lambda: np.array(5),
        "value": lambda: np.where(np.arange(len(flat)) == at % max(len(flat), 1),
                                  np.iinfo(np.int64).max if flat.dtype.kind in "iub" else 1e300,
                                  flat.astype(np.float64 if flat.dtype.kind == "f" else np.int64)),
        "shorten": lambda: flat[:-1],
        "lengthen": lambda: np.concatenate([flat, flat[:1]]),
        "text": lambda: flat.astype("U3"),
        "floats": lambda: flat.astype(np.float64) + 0.5,
        "nan": lambda: np.full(len(flat), np.nan),
    }  # fmt: skip
    return changes[how]()


@settings(BOUNDED, max_examples=30)
@given(data=st.data())
def test_a_planted_graph_entry_or_hierarchy_is_read_or_rebuilt(
    data: st.DataObject, planted_cache: tuple[Path, dict[Path, bytes]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """One member of the graph's entry or of its hierarchy changed (written with the
    cache's own writer, so every checksum holds): the network and its hierarchy are read
    if they check out as data, else built again; routing gives a result or a RoutesError,
    never another exception (a missing weight was a KeyError, a scalar a TypeError)."""
    import numpy as np

    from routes import network, pipeline, scenario
    from routes import settings as routes_settings
    from routes.network.store import read_npz, write_npz

    folder, written = planted_cache
    for path, content in written.items():
        path.write_bytes(content)
    target = data.draw(st.sampled_from(sorted(written)))
    arrays = {k: np.array(v) for k, v in read_npz(target).items()}
    name, how = data.draw(st.sampled_from(sorted(arrays))), data.draw(st.sampled_from(MUTATIONS))
    if how == "drop":
        del arrays[name]
    else:
        arrays[name] = _mutated(arrays[name], how, data.draw(st.integers(0, 10**6)))
    write_npz(target, arrays)
    monkeypatch.setattr(routes_settings, "cache_dir", folder)
    story = scenario.load("aleppo-2016-12")
    try:
        network.proxy_network(story).router.hierarchy("travel_time")
        run = pipeline.route_scenario(story, network="proxy", search="ch")
    except RoutesError as exc:
        assert "\n" not in str(exc)
        return
    assert len(run.corridors) == len(story.corridors)


# --- the text helpers (findings 10 and Low) --------------------------------------------------

ANY_TEXT = st.one_of(HOSTILE_TEXT, st.text(alphabet=st.characters(), max_size=30))


@settings(max_examples=300, deadline=None)
@given(text=ANY_TEXT)
def test_text_helpers_leave_nothing_active(text: str) -> None:
    from routes.text import INVISIBLE, brief, for_terminal, safe_cell, visible

    shown = for_terminal(text)
    assert not any(unicodedata.category(c) in {"Cc", "Cs"} for c in shown)
    assert not INVISIBLE.search(shown)
    assert len(visible(text)) == len(text)
    assert len(brief(text)) <= 80 and not any(unicodedata.category(c) == "Cc" for c in brief(text))
    cell = str(safe_cell(text))
    lead = unicodedata.normalize("NFKC", INVISIBLE.sub("", cell).lstrip()[:1])
    assert cell.startswith("'") or lead not in {"=", "+", "-", "@"}
    assert math.isfinite(len(cell))
