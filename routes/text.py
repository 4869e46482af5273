"""User text made safe for where it lands: on screen (bidi controls) and in CSV cells (formulas).

The map's HTML and JavaScript escaping lives in :func:`routes.render.escape`, which
applies :func:`for_display` first.
"""

from __future__ import annotations

import re

__all__ = ["BIDI_CONTROLS", "for_display", "safe_cell"]

#: Unicode bidirectional embedding, override and isolate controls (U+202A–U+202E,
#: U+2066–U+2069): they can make a name read backwards ("Trojan Source").
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")

#: What spreadsheets read as the start of a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def for_display(text: str) -> str:
    """``text`` without bidi controls, so it shows in the order it was written."""
    return BIDI_CONTROLS.sub("", text)


def safe_cell(value: object) -> object:
    """A CSV cell no spreadsheet runs: text starting like a formula gets a leading ``'``."""
    if not isinstance(value, str):
        return value
    value = for_display(value)
    return "'" + value if value.startswith(_FORMULA_START) else value
