"""A corpus of stories to displacement flows, on Dask.distributed.

``routes corpus STORIES -o DIR`` drafts each story (:mod:`routes.extract`) on a Dask
cluster, caches every finished partition, merges the stories' movements into flows
(one per origin–destination pair of places, with every source's claims side by side)
and writes ``stories.jsonl``, ``flows.parquet``, ``flows.csv`` and ``locations.csv``.

Modules: :mod:`~routes.corpus.stories` (reading, hashing, partitions),
:mod:`~routes.corpus.work` (what a worker runs), :mod:`~routes.corpus.flows`
(merging and the output files), :mod:`~routes.corpus.run` (the driver).
"""

from __future__ import annotations

from routes.corpus.flows import merge_flows, write_outputs
from routes.corpus.mapping import flows_scenario
from routes.corpus.run import Report, run_corpus
from routes.corpus.stories import read_stories

__all__ = ["Report", "flows_scenario", "merge_flows", "read_stories", "run_corpus", "write_outputs"]
