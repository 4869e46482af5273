"""User text made safe for where it lands: on screen, on a terminal, in messages, in CSV cells.

Text from a story, a scenario or a file is data. On screen it loses the characters that
change how it reads without being seen (bidi controls and marks, zero-width characters:
:func:`for_display`); on a terminal its control characters are shown as escapes, never
sent (:func:`for_terminal`, :func:`visible`); in a message it is a short escaped prefix
(:func:`brief`); in a CSV cell it never starts a formula (:func:`safe_cell`). The map's
HTML and JavaScript escaping lives in :func:`routes.render.escape`, which applies
:func:`for_display` first.
"""

from __future__ import annotations

import json
import re
import reprlib
import unicodedata

__all__ = ["BIDI_CONTROLS", "BRIEF_CHARS", "INVISIBLE", "brief", "for_display", "for_terminal",
           "safe_cell", "terminal_json", "visible"]  # fmt: skip

#: Unicode bidirectional embedding, override and isolate controls (U+202A–U+202E,
#: U+2066–U+2069): they can make a name read backwards ("Trojan Source").
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")

#: Characters that change how text reads without being seen: the bidi controls, the bidi
#: marks (LRM, RLM, ALM), zero-width space, word joiner and invisible operators, the
#: zero-width no-break space (BOM), the Mongolian vowel separator; and the zero-width
#: (non-)joiners except between two letters, where Persian, Indic scripts and emoji need them.
INVISIBLE = re.compile(
    "[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u2060-\u2064\ufeff\u180e]"
    "|(?<!\\w)[\u200c\u200d]|[\u200c\u200d](?!\\w)"
)

#: Characters a terminal acts on: C0 controls, DEL, C1 controls (ESC, BEL, CSI…), and
#: lone surrogates (``\ud800`` from a JSON escape), which no terminal encoding can write.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

#: What spreadsheets read as the start of a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

#: At most this many characters of a value are quoted in a message.
BRIEF_CHARS = 80

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 2, 4, 4, 60, 60


def for_display(text: str) -> str:
    """``text`` without the characters of :data:`INVISIBLE`: it shows as it was written."""
    return INVISIBLE.sub("", text)


def for_terminal(text: str) -> str:
    """``text`` for a terminal line: :func:`for_display`, then every control character
    (and lone surrogate) written as an escape (``\\x1b``, ``\\n``, ``\\ud800``), never sent."""
    return _CONTROL.sub(_escape, for_display(text))


def visible(text: str) -> str:
    """``text`` with each character :func:`for_terminal` would escape or drop replaced by
    one visible character (C0 controls by their Control Pictures, ``␛``; the rest by
    ``�``), line feeds kept: the same length, so offsets into it still hold."""
    return INVISIBLE.sub("\ufffd", _CONTROL.sub(_picture, text))


def brief(value: object, limit: int = BRIEF_CHARS) -> str:
    """A short, escaped, quoted prefix of ``value`` for a message: never the whole of a
    large or deeply nested value (a YAML alias bomb), never a control character."""
    shown = repr(value[: limit + 1]) if isinstance(value, str) else _SHORT.repr(value)
    shown = for_terminal(shown)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def terminal_json(value: object) -> str:
    """``value`` as indented JSON for a terminal: non-ASCII text as it is, but every control,
    invisible, line-separator or lone surrogate character as a ``\\uXXXX`` escape (JSON
    still, and the same data)."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_UNSAFE_IN_JSON = re.compile(f"[\x7f-\x9f\ud800-\udfff\u2028\u2029]|{INVISIBLE.pattern}")


def safe_cell(value: object) -> object:
    """A CSV cell no spreadsheet runs: text whose first visible character starts a formula
    (after spaces, no-break spaces, line feeds or zero-width characters, or in its
    full-width form, ``＝``) gets a leading ``'``."""
    if not isinstance(value, str):
        return value
    value = for_display(value)
    head = unicodedata.normalize("NFKC", value.lstrip()[:1])
    return "'" + value if value.startswith(_FORMULA_START) or head in _FORMULA_START else value


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\n" if code == 0x0A else chr(0x2400 + code) if code < 0x20 else "\ufffd"
