"""The story's days, and what each corridor looks like and says on each of them.

The time bar (:mod:`routes.render.reader`) steps through :func:`story_days`: every
day from the story's first dated fact to its last, so a click is one day. The work is
bounded whatever the dates: a range longer than :data:`MAX_STEPS` days is stepped
through its dated days only, and a corridor's states are listed only on the days they
change (:func:`corridor_states`), never once per day of its range. An end past the
story's last dated fact (plus :data:`END_MARGIN_DAYS`) or none at all is drawn as open.
"""

from __future__ import annotations

import bisect
import datetime as dt
from typing import TYPE_CHECKING, Any

from routes.render.style import status_style
from routes.text import for_display

if TYPE_CHECKING:
    from routes.scenario import Corridor, Figure, Scenario

__all__ = [
    "END_MARGIN_DAYS",
    "MAX_STEPS",
    "corridor_states",
    "day_text",
    "final_text",
    "said_on",
    "story_days",
]

#: The longest range stepped through day by day; longer ones step through dated days only.
MAX_STEPS = 366
#: How far past the story's last dated fact a corridor's or incident's end still counts.
END_MARGIN_DAYS = 7


def story_days(scenario: Scenario) -> list[dt.date]:
    """The days the time bar steps through, in order (none for an undated story).

    From the first day a corridor, phase, claim or incident is dated on to the last (an
    end within :data:`END_MARGIN_DAYS` of it stretches the range to that end), every
    calendar day; past :data:`MAX_STEPS` days, only the dated days.
    """
    dated = scenario.dates()
    if not dated:
        return []
    first, last = dated[0], dated[-1]
    ends = [c.end for c in scenario.corridors if c.end is not None]
    ends += [i.end for i in scenario.incidents if i.end is not None]
    reach = min(_plus(last, END_MARGIN_DAYS), max([last, *ends]))
    span = (reach - first).days + 1
    if span > MAX_STEPS:
        return sorted({*dated, *(e for e in ends if e <= reach)})
    return [first + dt.timedelta(days=i) for i in range(span)]


def day_text(day: dt.date) -> str:
    """A day as the time bar shows it: ``"Thu 15 Dec 2016"``."""
    return f"{day:%a} {day.day} {day:%b %Y}"


def said_on(corridor: Corridor, day: dt.date) -> str:
    """What a corridor's line and its key entry say on ``day``: the claim sizing it that day
    (its source's latest total, "so far" until the corridor ends), and its status when
    planned or suspended; only the status while the source has given no figure yet."""
    status = corridor.status_on(day) if corridor.phases else corridor.status
    _dash, _opacity, status_text = status_style(status)
    claim = corridor.width_on(day)
    if claim is None:
        return for_display(status_text)
    said = claim.text()
    if claim.tally == "cumulative" and (corridor.end is None or day < corridor.end):
        said += " so far"
    if status in {"planned", "suspended"}:
        said += f" · {status_text}"
    return for_display(said)


def final_text(corridor: Corridor) -> str:
    """The figure the line is sized by, apart from the day's: ``"final: 35,000, ICRC"`` for a
    corridor that ended completed, else ``"latest: more than 50 wounded, … (16 Dec)"``."""
    chosen = corridor.width_claim()
    if chosen is None:
        return ""
    who = chosen.by or chosen.according_to
    ended = corridor.end is not None and corridor.status_on(corridor.end) == "completed"
    if ended:
        return for_display(f"final: {_amount(chosen)}, {who}")
    when = f" ({chosen.date.day} {chosen.date:%b})" if chosen.date else ""
    return for_display(f"latest: {_amount(chosen)}, {who}{when}")


def corridor_states(corridor: Corridor, days: list[dt.date]) -> list[list[Any]]:
    """The corridor on the time bar: ``[step, dash, opacity, status, said]`` from each step
    where it changes, ``[step]`` from a step where it is not drawn. Empty: always drawn
    (an undated corridor, or no time bar)."""
    if corridor.date is None or not days:
        return []
    end = None if corridor.end is None or corridor.end > days[-1] else corridor.end  # None: open
    changes = {corridor.date, *(p.date for p in corridor.phases)}
    changes |= {f.date for f in corridor.figures if f.date is not None}
    if end is not None:
        changes.add(_plus(end, 1))
    steps = {bisect.bisect_left(days, day) for day in changes} - {len(days)}
    states: list[list[Any]] = []
    for step in sorted(steps | {0}):
        day = days[step]
        if day < corridor.date or (end is not None and day > end):
            state: list[Any] = [step]
        else:
            status = corridor.status_on(day) if corridor.phases else corridor.status
            dash, opacity, text = status_style(status)
            state = [step, dash, opacity, for_display(text), said_on(corridor, day)]
        if not states or states[-1][1:] != state[1:]:
            states.append(state)
    return states


def _amount(claim: Figure) -> str:
    """``"35,000"`` for people, else with its unit: ``"more than 50 wounded"``."""
    number = " ".join(filter(None, [claim.qualifier, f"{claim.value:,}"]))
    return number if claim.kind == "people" else f"{number} {claim.kind}"


def _plus(day: dt.date, days: int) -> dt.date:
    """``day`` plus ``days``, held at the last representable day instead of overflowing."""
    return day + dt.timedelta(days=min(days, (dt.date.max - day).days))
