"""Name keys: how two spellings of a place's name are compared.

:func:`normalize` makes the exact key (case, diacritics, apostrophes and Arabic
articles do not matter); :func:`skeleton` the looser one that transliterations of
one name share; :func:`variant` the loosest, the consonants English news keeps of a
name written in another script.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import compress
from operator import not_

__all__ = [
    "AREA_WORDS",
    "DIVISION_WORDS",
    "area_named",
    "normalize",
    "normalize_all",
    "skeleton",
    "skeleton_all",
    "variant",
]

#: Words that mark a name as a region's, not its town's ("Homs province", "the Kherson
#: region", "Khartoum state", "Idlib governorate", "the countryside of Hama").
AREA_WORDS = frozenset(
    [
        *("province", "provinces", "governorate", "governorates", "region", "regions"),
        *("oblast", "oblasts", "state", "states", "countryside", "district", "districts"),
        *("wilayah", "wilaya", "raion", "rayon", "muhafazah", "prefecture", "prefectures"),
    ]
)

#: Words that mark a name asked of the geocoder as a division's beside :data:`AREA_WORDS`
#: ("Migori County", "Potosí Department", "Schaffhausen canton"): ISO 3166-2's kinds of
#: subdivision. Not read in stories, where "county" and "department" start other names.
DIVISION_WORDS = AREA_WORDS | frozenset(
    [
        *("county", "counties", "department", "departments", "canton", "cantons", "parish"),
        *("municipality", "municipalities", "division", "emirate", "voivodeship", "voivodship"),
    ]
)

_APOSTROPHE_CHARS = frozenset("'’‘ʼʻʿʾ`´′")
_SUN_LETTER_ARTICLES = {"ad", "an", "ar", "as", "ash", "at", "ath", "az", "adh", "dh"}
#: A word :func:`_key` may drop or cut (an article), in words separated by spaces or lines.
_ARTICLE_WORD = re.compile(
    r"[ \n](?:al|el|l|" + "|".join(sorted(_SUN_LETTER_ARTICLES)) + r")(?=[ \n])|[ \n]ال"
)


class _KeyCharacters(dict[int, str]):
    """What each character becomes in a name's key, for :meth:`str.translate`: its
    compatibility decomposition (NFKD) in lower case without marks and apostrophes, and
    a space for a character that is no letter or digit (a line break stays). Worked out
    when a character is first met; a name's key is then one pass over its characters."""

    def __missing__(self, code: int) -> str:
        text = unicodedata.normalize("NFKD", chr(code).casefold().replace("ı", "i"))
        kept = (c for c in text if not unicodedata.combining(c) and c not in _APOSTROPHE_CHARS)
        self[code] = found = "".join(c if c.isalnum() or c == "\n" else " " for c in kept)
        return found


_KEY_CHARACTERS = _KeyCharacters()
#: The same for ASCII, as a byte table (:meth:`bytes.translate`) and the bytes it drops.
_ASCII_KEY = bytes(ord(_KEY_CHARACTERS[c] or " ") for c in range(128)) + bytes(range(128, 256))
_ASCII_DROPPED = bytes(c for c in range(128) if not _KEY_CHARACTERS[c])


def normalize(name: str) -> str:
    """A comparison key: ``"Al-Fu'ah"`` → ``"fuah"``, ``"as-Sukkari"`` → ``"sukkari"``.

    Examples
    --------
    >>> normalize("Al-Fu'ah"), normalize("as-Sukkari"), normalize("Reyhanlı")
    ('fuah', 'sukkari', 'reyhanli')
    """
    return _key(name.translate(_KEY_CHARACTERS).split())


def normalize_all(names: Sequence[str]) -> list[str]:
    """:func:`normalize` of each name, done on all of them at once.

    The index's million names: each step runs once over their text joined by line
    breaks (which no step changes), the ASCII names' (two in three) as bytes through one
    table, and only the lines with an article go through :func:`normalize`'s word loop;
    several times faster than one call per name.

    Examples
    --------
    >>> normalize_all(["Al-Fu'ah", "Ḩamāh", "  New  York "])
    ['fuah', 'hamah', 'new york']
    """
    plain = [name.isascii() for name in names]
    ascii_keys = iter(_ascii_keys(list(compress(names, plain))))
    other_keys = iter(_unicode_keys(list(compress(names, map(not_, plain)))))
    return [next(ascii_keys if ascii else other_keys) for ascii in plain]


def _ascii_keys(names: list[str]) -> list[str]:
    """:func:`normalize_all` of ASCII names: one byte table, then runs of spaces cut."""
    text = "\n".join(names).encode("ascii").translate(_ASCII_KEY, _ASCII_DROPPED)
    return _lines_keys(re.sub(rb"  +", b" ", text).decode("ascii"), len(names))


def _unicode_keys(names: list[str]) -> list[str]:
    """:func:`normalize_all` of other names: one pass of the character table."""
    text = "\n".join(names).translate(_KEY_CHARACTERS)
    return _lines_keys(re.sub("  +", " ", text), len(names))


def _lines_keys(text: str, count: int) -> list[str]:
    """The keys of ``count`` lines of words separated by single spaces: each line's words,
    and :func:`_key` of the few lines (a few thousand) with an article."""
    if not count:
        return []
    text = text.replace(" \n", "\n").replace("\n ", "\n").strip(" ")
    lines = text.split("\n")
    assert len(lines) == count
    line, at, cut = 0, 0, -1
    for found in _ARTICLE_WORD.finditer(f"\n{text}\n"):  # text[found.start()]: the word
        line += text.count("\n", at, found.start())
        at = found.start()
        if line != cut:  # each line once: _key of a cut line may cut it again
            lines[line], cut = _key(lines[line].split()), line
    return lines


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


def area_named(name: str, words: frozenset[str] = AREA_WORDS) -> str | None:
    """The region's name in a name marked as a region's (one of ``words``), else None.

    Examples
    --------
    >>> area_named("Homs province"), area_named("the countryside of Hama"), area_named("Homs")
    ('Homs', 'Hama', None)
    >>> area_named("Migori County"), area_named("Migori County", DIVISION_WORDS)
    (None, 'Migori')
    """
    split = name.split()
    if split[:1] and split[0].casefold() == "the":
        split = split[1:]
    if len(split) >= 2 and split[-1].casefold() in words:
        return " ".join(split[:-1])
    if len(split) >= 3 and split[0].casefold() in words and split[1].casefold() == "of":
        return " ".join(split[2:])
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
    return skeleton_all([key])[0]


def skeleton_all(keys: Iterable[str]) -> list[str]:
    """:func:`skeleton` of each key, done at once: the index's 200,000 town names without
    a call each, and a one-word key (most) without splitting and joining its words.

    Examples
    --------
    >>> skeleton_all(["kafraya", "new york", ""])
    ['KFRY', 'N YRK', '']
    """
    import jellyfish

    sound = jellyfish.metaphone
    return [sound(key) if key.isalnum() else " ".join(map(sound, key.split())) for key in keys]


#: Letters English news writes in several ways for one sound of Arabic, Persian, Kurdish,
#: Ukrainian or Russian, each to one letter: "kh"/"h" (Khan, Han), "q"/"k", "zh"/"j"
#: (Zaporizhzhia), "ch"/"sh" (French and English), "th"/"t", "dh"/"d", "ph"/"f".
_SOUNDS = re.compile(r"tch|dzh|ch|sh|kh|gh|zh|dj|dh|th|ph|ck|q|c|x")
_SOUND_LETTER = {
    **{"tch": "x", "ch": "x", "sh": "x", "dzh": "j", "zh": "j", "dj": "j", "kh": "h"},
    **{"gh": "g", "dh": "d", "th": "t", "ph": "f", "ck": "k", "q": "k", "c": "k", "x": "ks"},
}
#: An article joined to the sun letter it sounds as ("ez Zor", "es Suweida", "er Raqqa").
_SUN_ARTICLE = re.compile(r"\b[aeiu]([dlnrstz]) (?=\1)")
#: A final "h" after a vowel (Arabic's ta marbuta: "Raqqah", "Raqqa").
_FINAL_H = re.compile(r"(?<=[aeiouy])h\b")
#: Vowels (and "y", "w", which are vowels as often: "Ayn", "Hawl") and the breaks between words.
_VOWELS = re.compile(r"[aeiouyw ]+")
_DOUBLED = re.compile(r"(.)\1+")


def variant(key: str) -> str:
    """The consonants of a name key that its transliterations share (``key`` is
    :func:`normalize`-d): articles, vowels, "y" and "w", doubled letters and the breaks
    between words dropped, and each of the letters English news writes in several ways
    for one sound taken as one ("kh" and "h", "q" and "k", "zh" and "j", "ch" and "sh").

    Arabic, Persian, Kurdish and Cyrillic names reach English news in many spellings
    ("Ain Issa", "Ein Issa" and GeoNames' "‘Ayn ‘Īsá"; "Deir Al-Balah" and "Dayr al
    Balaḩ"; "Zaporizhia" and "Zaporizhzhya"), which :func:`skeleton` (Metaphone, made
    for English) tells apart by their first vowel or their "zh". A key this loose
    matches many names, so callers use it only among a few places: the towns of a
    country the story names (:mod:`routes.places.spellings`).

    Examples
    --------
    >>> variant(normalize("Ein Issa")) == variant(normalize("‘Ayn ‘Īsá")), variant("zaporizhia")
    (True, 'zprj')
    >>> variant(normalize("Deir ez-Zor")) == variant(normalize("Dayr az Zawr"))
    True
    """
    text = _FINAL_H.sub("", _SUN_ARTICLE.sub("", key))
    text = _SOUNDS.sub(lambda found: _SOUND_LETTER[found.group()], text)
    return _DOUBLED.sub(r"\1", _VOWELS.sub("", text))
