"""Name keys: how two spellings of a place's name are compared.

:func:`normalize` makes the exact key (case, diacritics, apostrophes and Arabic
articles do not matter); :func:`skeleton` the looser one that transliterations of
one name share.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["normalize", "skeleton"]

_APOSTROPHES = re.compile("['’‘ʼʻʿʾ`´′]")
_SUN_LETTER_ARTICLES = {"ad", "an", "ar", "as", "ash", "at", "ath", "az", "adh", "dh"}


def normalize(name: str) -> str:
    """A comparison key: ``"Al-Fu'ah"`` → ``"fuah"``, ``"as-Sukkari"`` → ``"sukkari"``.

    Examples
    --------
    >>> normalize("Al-Fu'ah"), normalize("as-Sukkari"), normalize("Reyhanlı")
    ('fuah', 'sukkari', 'reyhanli')
    """
    text = name.casefold().replace("ı", "i")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _APOSTROPHES.sub("", text)
    words = re.sub(r"[\W_]+", " ", text).split()
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
