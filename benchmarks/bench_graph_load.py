"""Graph loading: parsing an OSM file against the parsed-graph cache, and the cache's form.

Stock: :func:`routes.network.from_osm_file` on an empty cache (pyosmium → OSM XML →
``osmnx.graph_from_xml`` → speeds and travel times). Ours: the same call with the entry
the first one stored (a pickled graph and its router's arrays). Goal: cached ≥ 10×
faster, the same graph.

How the cache stores a graph was chosen here: a pickle of the networkx graph against a
columnar form (node and edge columns in ``.npz``, geometry as WKB, the other attributes
as JSON) that rebuilds the graph; and the router's arrays (``.npz``) against compiling
the router from the graph.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
from conftest import at_least, ms, pick, timed
from osm_support import helsinki_pbf

from routes import network, settings
from routes.routing import backend

#: Edge attributes the columnar form keeps as float columns.
FLOATS = ("length", "speed_kph", "travel_time")


def _same_graph(a: nx.MultiDiGraph, b: nx.MultiDiGraph) -> None:
    assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))
    assert sorted(a.edges(keys=True)) == sorted(b.edges(keys=True))
    for u, v, k, data in a.edges(keys=True, data=True):
        assert b.edges[u, v, k] == data


def test_cached_load_against_parsing(
    cache_root: Path, tmp_path: Path, monkeypatch: Any, report: Callable[..., None]
) -> None:
    pbf = helsinki_pbf()
    fresh = iter(range(100))

    def cold() -> nx.MultiDiGraph:
        monkeypatch.setattr(settings, "cache_dir", tmp_path / f"cold-{next(fresh)}")
        return network.from_osm_file(pbf)

    cold_s, parsed = timed(cold, rounds=pick(3, 1), warmup=0)
    monkeypatch.setattr(settings, "cache_dir", cache_root)
    network.from_osm_file(pbf)  # store the entry
    warm_s, cached = timed(lambda: network.from_osm_file(pbf), rounds=pick(20, 5))
    _same_graph(parsed, cached)
    compiled, loaded = backend.Router.from_graph(parsed), backend.for_graph(cached)
    assert np.array_equal(compiled.indices, loaded.indices)
    assert np.array_equal(compiled.weights["travel_time"], loaded.weights["travel_time"])
    speedup = cold_s / warm_s
    size = sum(p.stat().st_size for p in (cache_root / "graphs").glob("osm-*"))
    report(
        f"graph load: Helsinki .osm.pbf ({pbf.stat().st_size // 1024} KB; "
        f"{len(parsed)} nodes, {parsed.number_of_edges()} edges)",
        f"parse {ms(cold_s)}",
        f"cached {ms(warm_s)} ({size // 1024} KB on disk)",
        f"{speedup:.0f}×",
        "≥ 10×",
        speedup >= 10,
    )
    assert speedup >= at_least(10)


# --- which form the cache keeps ------------------------------------------------------------------


def _columnar_save(G: nx.MultiDiGraph, path: Path) -> None:
    import shapely

    nodes = list(G.nodes(data=True))
    edges = list(G.edges(keys=True, data=True))
    geometry = [d.get("geometry") for *_, d in edges]
    has = np.array([g is not None for g in geometry])
    wkb = shapely.to_wkb(np.array([g for g in geometry if g is not None], dtype=object))
    rest = [{k: v for k, v in d.items() if k not in FLOATS and k != "geometry"} for *_, d in edges]
    node_rest = [{k: v for k, v in d.items() if k not in ("x", "y")} for _, d in nodes]
    arrays: dict[str, Any] = dict(
        ids=np.array([n for n, _ in nodes], dtype=np.int64),
        x=np.array([d["x"] for _, d in nodes]),
        y=np.array([d["y"] for _, d in nodes]),
        u=np.array([e[0] for e in edges], dtype=np.int64),
        v=np.array([e[1] for e in edges], dtype=np.int64),
        k=np.array([e[2] for e in edges], dtype=np.int64),
        **{name: np.array([d.get(name, np.nan) for *_, d in edges]) for name in FLOATS},
        has_geometry=has,
        wkb=np.frombuffer(b"".join(wkb), dtype=np.uint8),
        wkb_sizes=np.array([len(b) for b in wkb], dtype=np.int64),
        attrs=np.frombuffer(json.dumps([rest, node_rest, G.graph]).encode(), dtype=np.uint8),
    )
    with path.open("wb") as f:
        np.savez(f, **arrays)


def _columnar_load(path: Path) -> nx.MultiDiGraph:
    import shapely

    z = np.load(path)
    rest, node_rest, graph = json.loads(z["attrs"].tobytes())
    blob, sizes = z["wkb"].tobytes(), z["wkb_sizes"]
    ends = np.cumsum(sizes)
    wkb = [blob[e - s : e] for s, e in zip(sizes.tolist(), ends.tolist(), strict=True)]
    shapes = iter(shapely.from_wkb(np.array(wkb, dtype=object)))
    floats = {name: z[name].tolist() for name in FLOATS}
    G = nx.MultiDiGraph(**graph)
    G.add_nodes_from(
        (n, {"y": y, "x": x, **extra})
        for n, x, y, extra in zip(
            z["ids"].tolist(), z["x"].tolist(), z["y"].tolist(), node_rest, strict=True
        )
    )
    has = z["has_geometry"].tolist()
    for i, (u, v, k) in enumerate(
        zip(z["u"].tolist(), z["v"].tolist(), z["k"].tolist(), strict=True)
    ):
        data = dict(rest[i])
        data.update(
            {name: floats[name][i] for name in FLOATS if floats[name][i] == floats[name][i]}
        )
        if has[i]:
            data["geometry"] = next(shapes)
        G.add_edge(u, v, key=k, **data)
    return G


def test_cache_form_pickle_against_columnar(
    helsinki_all: nx.MultiDiGraph, tmp_path: Path, report: Callable[..., None]
) -> None:
    G = helsinki_all
    pickled = tmp_path / "g.pickle"
    pickled.write_bytes(pickle.dumps(G, pickle.HIGHEST_PROTOCOL))
    columnar = tmp_path / "g.npz"
    _columnar_save(G, columnar)
    rounds = pick(10, 3)
    pickle_s, from_pickle = timed(lambda: pickle.loads(pickled.read_bytes()), rounds=rounds)
    columnar_s, from_columns = timed(lambda: _columnar_load(columnar), rounds=rounds)
    _same_graph(G, from_pickle)
    assert from_columns.number_of_edges() == G.number_of_edges()
    report(
        f"cache form: full networkx graph, Helsinki all ({G.number_of_edges():,} edges)",
        f"columnar .npz {ms(columnar_s)}, {columnar.stat().st_size // 1024} KB",
        f"pickle {ms(pickle_s)}, {pickled.stat().st_size // 1024} KB",
        f"pickle {columnar_s / pickle_s:.1f}× faster",
        "choose the faster",
        None,
    )
    assert pickle_s < columnar_s

    router_file = tmp_path / "r.npz"
    backend.Router.from_graph(G).save(router_file)
    compile_s, _ = timed(lambda: backend.Router.from_graph(G), rounds=rounds)
    load_s, _ = timed(lambda: backend.Router.load(router_file), rounds=rounds)
    report(
        "cache form: router of that graph",
        f"compile from networkx {ms(compile_s)}",
        f"load .npz {ms(load_s)}, {router_file.stat().st_size // 1024} KB",
        f"{compile_s / load_s:.0f}×",
        "",
        None,
    )
