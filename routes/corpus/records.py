"""The records a corpus run writes and reads back, as models: each is checked where it is
read, so a hand-edited cache summary or ``flows.parquet`` is one line, never a traceback.

:class:`Summary` is a cache partition's summary (:mod:`routes.corpus.cache`), with each
drafted story's :class:`Contribution` to the flows; :class:`Flow` is a row of
``flows.parquet`` (its list columns JSON text), with its :class:`Claim`, :class:`Evidence`
and :class:`Source` entries.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from routes._io import parse_json
from routes.scenario import MAX_FIGURE, Day, FigureKind, Qualifier

__all__ = ["Claim", "Contribution", "Evidence", "Flow", "Report", "Source", "Summary"]


def _json_list(value: Any) -> Any:
    """A JSON column's text as its list (lone surrogates refused), for pydantic to check."""
    if not isinstance(value, str):
        raise ValueError("expected JSON text")
    parsed = parse_json(value, "the column")
    if not isinstance(parsed, list):
        raise ValueError("expected a JSON list")
    return parsed


_Text = Annotated[str, Field(min_length=1, max_length=10_000)]
_Optional = Annotated[str | None, Field(max_length=10_000)]
_Lat = Annotated[float, Field(ge=-90, le=90, allow_inf_nan=False)]
_Lon = Annotated[float, Field(ge=-180, le=180, allow_inf_nan=False)]
_Offset = Annotated[int, Field(ge=0, le=MAX_FIGURE)]


class _Row(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Source(_Row):
    """A story that reports a flow: a flow's ``sources`` entry."""

    story: _Text
    publisher: _Optional = None
    url: _Optional = None
    date: Day | None = None
    who: _Optional = None
    focus_country: _Optional = None  # the country the story is mainly about (ISO alpha-2)
    focus_region: _Optional = None


class Claim(_Row):
    """A figure a story gives, with who said it and where in its text."""

    story: _Text
    kind: FigureKind
    value: Annotated[int, Field(ge=0, le=MAX_FIGURE)]
    qualifier: Qualifier | None = None
    according_to: _Optional = None
    publisher: _Optional = None
    start: _Offset | None = None
    end: _Offset | None = None


class Evidence(_Row):
    """Characters of a story's text that report a movement."""

    story: _Text
    start: _Offset
    end: _Offset


def _listed(model: Any, *, at_least: int = 0) -> Any:
    return Annotated[list[model], BeforeValidator(_json_list), Field(min_length=at_least)]


class Flow(_Row):
    """A row of ``flows.parquet`` as ``routes corpus`` writes it: what ``routes map`` reads."""

    flow_id: _Text
    origin: _Text
    dest: _Text
    origin_name: _Text
    dest_name: _Text
    origin_lat: _Lat
    origin_lon: _Lon
    dest_lat: _Lat
    dest_lon: _Lon
    date_start: Day | None
    date_end: Day | None
    dates: _listed(Day)  # type: ignore[valid-type]
    n_stories: Annotated[int, Field(ge=1)]
    n_publishers: Annotated[int, Field(ge=0)]
    stories: _listed(_Text, at_least=1)  # type: ignore[valid-type]
    claims: _listed(Claim)  # type: ignore[valid-type]
    evidence: _listed(Evidence)  # type: ignore[valid-type]
    sources: _listed(Source, at_least=1)  # type: ignore[valid-type]
    focus_country: _Optional = None  # the one most of its stories are about
    focus_region: _Optional = None

    @field_validator("date_start", "date_end", mode="before")
    @classmethod
    def _iso(cls, value: Any) -> Any:
        return dt.date.fromisoformat(value) if isinstance(value, str) else value


class Report(Source):
    """One story's report of a movement, as a cache summary keeps it for merging flows."""

    evidence: list[Evidence]
    claims: list[Claim]


class Contribution(_Row):
    """What one drafted story gives the flows: its places, and reports between them."""

    places: list[tuple[_Text, str, _Lat, _Lon]]
    reports: list[tuple[_Text, _Text, Report]]

    @model_validator(mode="after")
    def _ends_are_places(self) -> Contribution:
        refs = {place[0] for place in self.places}
        for origin, dest, _ in self.reports:
            if origin not in refs or dest not in refs:
                raise ValueError(f"a report's end {origin!r} or {dest!r} is not among its places")
        return self


class Summary(_Row):
    """A cache partition's summary: its lines file's checksum, stories and contributions."""

    sha256: Annotated[str, Field(pattern="^[0-9a-f]{64}$")]
    stories: list[tuple[str, str, bool]]
    flows: list[tuple[Annotated[int, Field(ge=0)], str, Contribution]]

    @model_validator(mode="after")
    def _lines_exist(self) -> Summary:
        if any(line >= len(self.stories) for line, _, _ in self.flows):
            raise ValueError("a contribution names a line the partition does not have")
        return self
