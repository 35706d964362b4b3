"""Right-to-left words (a Hebrew or Arabic player name) inside the kiosk's left-to-right lines.

The renderer draws characters in the order they are stored; a name stored in logical order such as
"שרה" would read backwards. ``visual_order`` applies the part of the Unicode bidirectional
algorithm (UAX #9) that a left-to-right line with embedded right-to-left words needs: each run of
right-to-left characters (with the spaces and punctuation between them) is reversed, digits inside
it keep their own order, and paired brackets in it are mirrored. Lines without right-to-left
characters are returned unchanged (the usual case costs one scan).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_RTL = frozenset({"R", "AL"})
"""Strong right-to-left classes."""
_NUMBER = frozenset({"EN", "AN"})
_NEUTRAL = frozenset({"WS", "ON", "CS", "ES", "ET", "NSM", "BN", "S"})
_MIRROR = str.maketrans("()[]{}<>«»", ")(][}{><»«")


def has_rtl(text: str) -> bool:
    """Whether ``text`` has any right-to-left letter."""
    return any(unicodedata.bidirectional(ch) in _RTL for ch in text)


@lru_cache(maxsize=256)
def visual_order(text: str) -> str:
    """``text`` (a left-to-right line) in the order its characters are to be drawn."""
    if not has_rtl(text):
        return text
    classes = [unicodedata.bidirectional(ch) for ch in text]
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if classes[i] not in _RTL:
            out.append(text[i])
            i += 1
            continue
        end = i  # the run: right-to-left letters, numbers and neutrals up to the last strong RTL letter
        j = i
        while j < n and (classes[j] in _RTL or classes[j] in _NUMBER or classes[j] in _NEUTRAL):
            if classes[j] in _RTL or classes[j] in _NUMBER:
                end = j
            j += 1
        out.append(_reversed_run(text[i:end + 1], classes[i:end + 1]))
        i = end + 1
    return "".join(out)


def _reversed_run(run: str, classes: list[str]) -> str:
    """A right-to-left run in drawing order: reversed, its numbers kept left to right."""
    pieces: list[str] = []
    k = 0
    while k < len(run):
        if classes[k] in _NUMBER:
            start = k
            while k < len(run) and (classes[k] in _NUMBER or (classes[k] == "CS" and k + 1 < len(run)
                                                              and classes[k + 1] in _NUMBER)):
                k += 1
            pieces.append(run[start:k])
        else:
            pieces.append(run[k].translate(_MIRROR))
            k += 1
    return "".join(reversed(pieces))
