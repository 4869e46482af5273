"""Former names: what towns and countries were called, in which years, and what they are now.

A story of 1985 about Leningrad is about today's Saint Petersburg, then in the Soviet
Union; one of 1975 about Salisbury is about today's Harare. The table is
``geodata/former-names.yaml`` (towns, and countries no ISO list has: each record with the
page its years were read on) and ISO 3166-3's formerly used country names from
``pycountry`` (a country renamed as a whole: the former code's numeric code is the
successor's, as Burma's 104 is Myanmar's). :func:`routes.places.index.as_of` picks a
name's reading by the story's date.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import Any

from routes.places.names import normalize

__all__ = ["FormerName", "former_names"]

ISO_3166_3 = "ISO 3166-3 formerly used country name (pycountry {version}), withdrawn {withdrawn}"


@dataclass(frozen=True)
class FormerName:
    """A name a place had: the years it was in use, the place today, and where it came from."""

    name: str
    until: int  # the last year it was in use
    today: str  # "geonames:<id>" or "country:<ISO 3166-1 alpha-2>"
    source: str  # the record's source, as a line of text
    since: int | None = None  # the first year (None: before the records that say)
    then: str | None = None  # the country it lay in under that name, when another
    #: It was a part of ``then`` (a province, a region), not yet a country of its own
    part: bool = False

    def in_use(self, year: int) -> bool:
        """Whether the name was the place's in ``year``."""
        return (self.since is None or self.since <= year) and year <= self.until

    @property
    def years(self) -> str:
        """Its years, as a label says them ("1924–1991", "until 1995")."""
        return f"{self.since}–{self.until}" if self.since else f"until {self.until}"


@cache
def former_names() -> dict[str, tuple[FormerName, ...]]:
    """Former names by their :func:`~routes.places.names.normalize`-d key.

    Examples
    --------
    >>> [(f.today, f.years) for f in former_names()["leningrad"]]
    [('geonames:498817', '1924–1991')]
    >>> [(f.today, f.until) for f in former_names()["zaire"]]
    [('country:CD', 1997)]
    """
    found: dict[str, list[FormerName]] = defaultdict(list)
    for record in [*_table(), *_iso_3166_3()]:
        found[normalize(record.name)].append(record)
    return {key: tuple(records) for key, records in found.items()}


def _table() -> list[FormerName]:
    """The records of ``geodata/former-names.yaml``."""
    import yaml

    from routes import datasets

    data = yaml.safe_load(datasets.get_path("former-names").read_text(encoding="utf-8"))
    sources = {s["id"]: s for s in data["sources"]}
    return [_record(row, sources[row["source"]]) for row in data["names"]]


def _record(row: dict[str, Any], source: dict[str, str]) -> FormerName:
    today = row["today"]
    where = f"geonames:{today}" if isinstance(today, int) else f"country:{today}"
    cites = f"{source['title']}, {source['publisher']} ({source['url']}): {row['detail']}"
    return FormerName(
        row["name"], row["until"], where, cites, row.get("since"), row.get("then"),
        bool(row.get("part")),
    )  # fmt: skip


def _iso_3166_3() -> list[FormerName]:
    """ISO 3166-3's names of countries renamed as a whole, by their successor's code."""
    from importlib.metadata import version

    import pycountry

    release = version("pycountry")
    found = []
    for old in pycountry.historic_countries:
        now = pycountry.countries.get(alpha_2=old.alpha_4[2:])
        if now is None or now.numeric != getattr(old, "numeric", None):
            continue  # no one successor of the whole (USSR, Yugoslavia, East Germany)
        withdrawn = str(old.withdrawal_date)
        name = old.name.split(",")[0].strip()
        if " and " in name:
            continue  # "French Afars and Issas": a story's "X and Y" is read as two places
        source = ISO_3166_3.format(version=release, withdrawn=withdrawn)
        found.append(FormerName(name, int(withdrawn[:4]), f"country:{now.alpha_2}", source))
    return found
