"""The Aleppo scenario day by day: figures as claims with their sources, phases, corrections."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import pytest
from conftest import ARTICLE, shared

from routes import scenario
from routes.scenario import Figure, Phase, SourceRef


def _figures(aleppo: scenario.Scenario) -> list[Figure]:
    records = [*aleppo.corridors, *aleppo.incidents]
    return [f for r in records for f in r.figures]


def test_the_operation_runs_day_by_day_from_15_to_22_december(aleppo: scenario.Scenario) -> None:
    days = aleppo.dates()
    assert len(days) >= 6
    assert days[0] == dt.date(2016, 12, 15) and days[-1] == dt.date(2016, 12, 22)
    to_idlib = aleppo.corridor("eastern-aleppo-to-idlib")
    statuses = [to_idlib.status_on(dt.date(2016, 12, d)) for d in (15, 16, 17, 18, 22)]
    assert statuses == ["under way", "suspended", "suspended", "resumed", "completed"]
    names = {i.id: i for i in aleppo.incidents}
    assert names["suspension-2016-12-16"].date == dt.date(2016, 12, 16)
    assert names["bus-attack-2016-12-18"].date == dt.date(2016, 12, 18)


def test_every_claim_names_who_said_it_and_a_dated_report_with_url_or_paragraph(
    aleppo: scenario.Scenario,
) -> None:
    figures = _figures(aleppo)
    assert len(figures) >= 40
    for f in figures:
        source = aleppo.source(f.source)
        assert f.according_to, f
        # a claim is dated by the day it counts to; one whose report does not give that
        # day says so, and its report's date stands
        detail = f.detail or ""
        assert f.date or "not given" in detail or "as of" in detail, f
        assert source.publisher and source.date, source.id
        assert source.url or f.paragraph, f"{f.id or f.kind}: neither a URL nor a paragraph"


def test_claims_on_one_quantity_stand_side_by_side(aleppo: scenario.Scenario) -> None:
    to_idlib = aleppo.corridor("eastern-aleppo-to-idlib")
    totals: dict[dt.date, dict[str, int]] = defaultdict(dict)
    for f in to_idlib.figures:
        if f.kind == "people" and f.tally == "cumulative" and f.date and f.by:
            totals[f.date].setdefault(f.by, f.value)
    assert totals[dt.date(2016, 12, 20)] == {"ICRC": 25000, "Turkish government": 37500}
    assert {"ICRC", "SOHR", "Turkish government", "Russian reconciliation centre"} <= {
        by for day in totals.values() for by in day
    }
    final = to_idlib.width_claim()
    assert final is not None and (final.by, final.value, final.qualifier) == ("ICRC", 35000, None)


def test_line_width_grows_with_the_chosen_sources_totals(aleppo: scenario.Scenario) -> None:
    to_idlib = aleppo.corridor("eastern-aleppo-to-idlib")
    widths = [to_idlib.width_on(d) for d in aleppo.dates()]
    values = [w.value if w else 0 for w in widths]
    assert values == sorted(values) and values[0] == 3000 and values[-1] == 35000
    assert {w.by for w in widths if w} == {"ICRC"}


def test_the_second_audit_claims_stand_beside_the_others(aleppo: scenario.Scenario) -> None:
    """OCHA's and the Red Cross's figures (second audit) are claims of their own, beside
    the ones they agree or disagree with; the towns' line is sized by its final figure."""
    towns = aleppo.corridor("foua-kafriya-to-jibreen")
    people = {(f.by, f.value, f.qualifier) for f in towns.figures if f.kind == "people"}
    assert {("ICRC", 750, None), ("ICRC", 1200, "more than"), ("OCHA", 1312, None)} <= people
    final = towns.width_claim()
    assert final is not None and (final.by, final.value) == ("ICRC", 1200)
    assert final.date == max(f.date for f in towns.figures if f.date)
    to_idlib = aleppo.corridor("eastern-aleppo-to-idlib")
    icrc = {(f.date, f.value, f.qualifier) for f in to_idlib.figures if f.by == "ICRC"}
    assert (dt.date(2016, 12, 16), 10000, "about") in icrc
    assert (dt.date(2016, 12, 20), 25000, "more than") in icrc
    turkey = aleppo.corridor("eastern-aleppo-to-turkey")
    assert any(f.value == 200 and f.qualifier == "more than" for f in turkey.figures)
    assert "no source names the city" in (to_idlib.note or "")
    phases = " ".join(p.detail or "" for p in towns.phases)
    assert "night of 18 Dec" in phases and "no other source" not in phases


def test_foua_kafriya_corridor_runs_to_jibreen_from_19_december_with_no_town_order(
    aleppo: scenario.Scenario,
) -> None:
    corridor = aleppo.corridor("foua-kafriya-to-jibreen")
    assert corridor.destination == "jibreen"
    assert not {"al-fuah", "kafriya"} & set(corridor.stops), "an order of the two towns"
    assert corridor.status_on(dt.date(2016, 12, 15)) == "planned"
    assert corridor.status_on(dt.date(2016, 12, 19)) == "under way"
    claim = next(f for f in corridor.figures if f.value == 29)
    assert claim.according_to == "Syrian State TV" and claim.paragraph == 13
    midpoint = aleppo.place(corridor.origin)
    fuah, kafriya = aleppo.place("al-fuah"), aleppo.place("kafriya")
    assert midpoint.lat == pytest.approx((fuah.lat + kafriya.lat) / 2, abs=1e-5)
    assert midpoint.lon == pytest.approx((fuah.lon + kafriya.lon) / 2, abs=1e-5)


def test_the_15_december_pocket_leaves_out_bustan_al_qaser(aleppo: scenario.Scenario) -> None:
    pocket = next(a for a in aleppo.areas if a.id == "eastern-aleppo-pocket")
    assert "bustan-al-qaser" not in pocket.places and len(pocket.places) >= 3
    assert "bustan-al-qaser" in {p.id for p in aleppo.places}  # the place stays


def test_the_15_december_route_is_a_reported_plan(aleppo: scenario.Scenario) -> None:
    assert aleppo.corridor("eastern-aleppo-to-idlib").route_basis == "reported plan"


def test_al_alam_enclave_item_has_its_own_url(aleppo: scenario.Scenario) -> None:
    assert aleppo.source("alalam-2016-12-19-ramouseh").url == "https://en.alalam.ir/news/1899342"


def _counts_in(text: str) -> set[int]:
    """Every count a line writes, in digits ("3,000") or in words ("Twenty-nine", "one")."""
    from num2words import num2words

    found = {int(d.replace(",", "")) for d in re.findall(r"\b\d[\d,]*\b", text)}
    words = set(re.findall(r"[a-z]+(?:-[a-z]+)?", text.lower()))
    found |= {n for n in range(1, 100) if num2words(n) in words}
    return found


def _refs(aleppo: scenario.Scenario) -> list[tuple[str, SourceRef | Phase]]:
    refs: list[tuple[str, SourceRef | Phase]] = []
    for c in aleppo.corridors:
        refs += [(c.id, r) for r in [*c.route_sources, *c.phases]]
    for i in aleppo.incidents:
        refs += [(i.id, r) for r in i.sources]
    return [(record, r) for record, r in refs if r.source == aleppo.story.source and r.paragraph]


def test_paragraph_references_match_the_story(aleppo: scenario.Scenario) -> None:
    """A count is in the line it cites; a cited line shares the reference's words."""
    lines = [ln for ln in shared(ARTICLE).read_text(encoding="utf-8").splitlines() if ln.strip()]
    cited = [f for f in _figures(aleppo) if f.paragraph]
    assert {f.paragraph for f in cited} >= {4, 12, 13, 32}
    for f in cited:
        assert f.paragraph is not None and f.paragraph <= len(lines)
        assert f.value in _counts_in(lines[f.paragraph - 1]), (f.kind, f.value, f.paragraph)
    refs = _refs(aleppo)
    assert {r.paragraph for _, r in refs} >= {28}
    for record, ref in refs:
        words = set(re.findall(r"[a-z][a-z-]{3,}", lines[(ref.paragraph or 1) - 1].lower()))
        mine = set(re.findall(r"[a-z][a-z-]{3,}", (ref.detail or "").lower()))
        assert len(words & mine) >= 3, (record, ref.paragraph, ref.detail)
