"""Name keys: how two spellings of a place's name are compared.

:func:`normalize` makes the exact key (case, diacritics, apostrophes and Arabic
articles do not matter); :func:`skeleton` the looser one that transliterations of
one name share.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["AREA_WORDS", "area_named", "normalize", "normalize_all", "skeleton"]

#: Words that mark a name as a region's, not its town's ("Homs province", "the Kherson
#: region", "Khartoum state", "Idlib governorate", "the countryside of Hama").
AREA_WORDS = frozenset(
    [
        *("province", "provinces", "governorate", "governorates", "region", "regions"),
        *("oblast", "oblasts", "state", "states", "countryside", "district", "districts"),
        *("wilayah", "wilaya", "raion", "rayon", "muhafazah"),
    ]
)

_APOSTROPHE_CHARS = frozenset("'’‘ʼʻʿʾ`´′")
_APOSTROPHES = re.compile(f"[{''.join(_APOSTROPHE_CHARS)}]")
_NOT_WORD = re.compile(r"[\W_]+")
_SUN_LETTER_ARTICLES = {"ad", "an", "ar", "as", "ash", "at", "ath", "az", "adh", "dh"}
#: A word :func:`_key` may drop or cut (an article).
_ARTICLE = re.compile(r"\b(?:al|el|l|" + "|".join(sorted(_SUN_LETTER_ARTICLES)) + r")\b|\bال")


def normalize(name: str) -> str:
    """A comparison key: ``"Al-Fu'ah"`` → ``"fuah"``, ``"as-Sukkari"`` → ``"sukkari"``.

    Examples
    --------
    >>> normalize("Al-Fu'ah"), normalize("as-Sukkari"), normalize("Reyhanlı")
    ('fuah', 'sukkari', 'reyhanli')
    """
    text = name.casefold().replace("ı", "i")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _key(_NOT_WORD.sub(" ", _APOSTROPHES.sub("", text)).split())


def normalize_all(names: Sequence[str]) -> list[str]:
    """:func:`normalize` of each name, done on all of them at once.

    The index's million names: each step runs once over their text joined by line
    breaks (which no step changes), with character classes of only the characters the
    text holds, and only the lines with an article go through :func:`normalize`'s word
    loop; several times faster than one call per name.

    Examples
    --------
    >>> normalize_all(["Al-Fu'ah", "Ḩamāh", "  New  York "])
    ['fuah', 'hamah', 'new york']
    """
    text = "\n".join(names).casefold().replace("ı", "i")
    text = unicodedata.normalize("NFKD", text) if not text.isascii() else text
    held = set(text)
    gone = {c for c in held if unicodedata.combining(c)} | (_APOSTROPHE_CHARS & held)
    text = _drop(text, gone, "")
    text = _drop(text, {c for c in held - gone if not c.isalnum() and c != "\n"} | {"_"}, " ")
    text = text.replace(" \n", "\n").replace("\n ", "\n").strip(" ")
    lines = text.split("\n")
    assert len(lines) == len(names)
    cut = {}
    for found in _ARTICLE.finditer(text):  # the lines of a few thousand names
        start, end = text.rfind("\n", 0, found.start()) + 1, text.find("\n", found.end())
        line = text[start : end if end >= 0 else None]
        cut[line] = _key(line.split())
    return [cut.get(line, line) for line in lines] if cut else lines


def _drop(text: str, chars: set[str], by: str) -> str:
    """``text`` with each run of ``chars`` replaced ``by`` (one class of only those)."""
    return re.sub(f"[{re.escape(''.join(sorted(chars)))}]+", by, text) if chars else text


def _key(words: list[str]) -> str:
    """The key of a name's words: without Arabic articles."""
    kept = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if word in {"al", "el", "l"} and following:
            continue
        if word in _SUN_LETTER_ARTICLES and following.startswith(word[1:]):
            continue  # as-Sukkari, ad-Dana, ar-Ramouseh
        if word.startswith("ال") and len(word) > 3:
            word = word[2:]  # Arabic article
        kept.append(word)
    return " ".join(kept)


def area_named(name: str) -> str | None:
    """The region's name in a name marked as a region's (:data:`AREA_WORDS`), else None.

    Examples
    --------
    >>> area_named("Homs province"), area_named("the countryside of Hama"), area_named("Homs")
    ('Homs', 'Hama', None)
    """
    words = name.split()
    if words[:1] and words[0].casefold() == "the":
        words = words[1:]
    if len(words) >= 2 and words[-1].casefold() in AREA_WORDS:
        return " ".join(words[:-1])
    if len(words) >= 3 and words[0].casefold() in AREA_WORDS and words[1].casefold() == "of":
        return " ".join(words[2:])
    return None


def skeleton(key: str) -> str:
    """The sound of a name key (Metaphone, per word): transliterations of one name share it.

    ``Foah``, ``Fuah`` and ``Foua`` are all ``F``; ``Kafraya`` and ``Kafriya`` are ``KFRY``.
    A short skeleton matches many names, so callers also compare the spellings.

    Examples
    --------
    >>> skeleton("kafraya") == skeleton("kafriya"), skeleton("foah") == skeleton("foua")
    (True, True)
    """
    import jellyfish

    return " ".join(jellyfish.metaphone(word) for word in key.split())
