"""Graph loading: parsing an OSM file against the parsed-graph cache, and the cache's form.

Stock: :func:`routes.network.from_osm_file` on an empty cache (pyosmium straight into
columns, speeds and travel times, the router compiled, the entry written). Ours: the same
call with the entry the first one stored (the graph's columns and its router's arrays,
one ``.npz``, mapped). Goal: cached ≥ 10× faster, the same graph.

The cache holds data, never pickles (design rule 9); what that costs against a pickle
of the networkx graph is measured here, as is loading the router's arrays against
compiling the router from the graph.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
from conftest import at_least, ms, pick, timed
from osm_support import helsinki_pbf

from routes import network, settings
from routes.network import store
from routes.routing import RoadArrays, RoadNetwork, backend


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

    def cold() -> RoadNetwork:
        monkeypatch.setattr(settings, "cache_dir", tmp_path / f"cold-{next(fresh)}")
        return network.from_osm_file(pbf)

    cold_s, parsed = timed(cold, rounds=pick(3, 1), warmup=0)
    monkeypatch.setattr(settings, "cache_dir", cache_root)
    network.from_osm_file(pbf)  # store the entry
    warm_s, cached = timed(lambda: network.from_osm_file(pbf), rounds=pick(20, 5))
    _same_graph(parsed.to_networkx(), cached.to_networkx())
    compiled, loaded = parsed.router, cached.router
    assert np.array_equal(compiled.indices, loaded.indices)
    assert np.array_equal(compiled.weights["travel_time"], loaded.weights["travel_time"])
    speedup = cold_s / warm_s
    size = sum(p.stat().st_size for p in (cache_root / "graphs").glob("osm-*"))
    report(
        f"graph load: Helsinki .osm.pbf ({pbf.stat().st_size // 1024} KB; "
        f"{parsed.n_nodes} nodes, {parsed.n_edges} edges)",
        f"parse {ms(cold_s)}",
        f"cached {ms(warm_s)} ({size // 1024} KB on disk)",
        f"{speedup:.0f}×",
        "≥ 10×",
        speedup >= 10,
    )
    assert speedup >= at_least(10)


# --- which form the cache keeps ------------------------------------------------------------------


def test_cache_form_pickle_against_columnar(
    helsinki_all: nx.MultiDiGraph, tmp_path: Path, report: Callable[..., None]
) -> None:
    """The cache holds data, never pickles (design rule 9): what that costs on warm load."""
    G = helsinki_all
    pickled = tmp_path / "g.pickle"
    pickled.write_bytes(pickle.dumps(G, pickle.HIGHEST_PROTOCOL))
    columnar = tmp_path / "g.npz"
    store.write_npz(columnar, RoadArrays.from_networkx(G).arrays())
    rounds = pick(10, 3)
    pickle_s, from_pickle = timed(lambda: pickle.loads(pickled.read_bytes()), rounds=rounds)
    columns_s, columns = timed(lambda: store.read_npz(columnar), rounds=rounds)
    columnar_s, from_columns = timed(
        lambda: RoadArrays.from_arrays(store.read_npz(columnar)).to_networkx(),
        rounds=rounds,
    )
    _same_graph(G, from_pickle)
    _same_graph(G, from_columns)
    report(
        f"cache form: full networkx graph, Helsinki all ({G.number_of_edges():,} edges)",
        f"pickle {ms(pickle_s)}, {pickled.stat().st_size // 1024} KB",
        f"columns .npz mapped {ms(columns_s)}; as networkx {ms(columnar_s)}, "
        f"{columnar.stat().st_size // 1024} KB",
        f"networkx from columns {columnar_s / pickle_s:.1f}× pickle's time",
        "data, not code",
        None,
    )
    assert len(columns["edges/u"]) == G.number_of_edges()

    router_file = tmp_path / "r.npz"
    arrays = RoadArrays.from_networkx(G)
    store.write_npz(router_file, RoadNetwork.from_arrays(arrays).router.arrays())
    compile_s, _ = timed(lambda: RoadNetwork.from_arrays(arrays), rounds=rounds)
    load_s, _ = timed(lambda: backend.Router.from_saved(store.read_npz(router_file)), rounds=rounds)
    report(
        "cache form: router of that graph",
        f"compile from the columns {ms(compile_s)}",
        f"load .npz {ms(load_s)}, {router_file.stat().st_size // 1024} KB",
        f"{compile_s / load_s:.0f}×",
        "",
        None,
    )
