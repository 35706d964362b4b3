"""The page's language: the chooser's cookie, else the browser's ``Accept-Language``, else English.

The texts come from the kiosk's own catalogs (``kiosk.i18n``, no pygame), so the club page speaks
the kiosk's four languages with the same words.
"""

from __future__ import annotations

from kiosk.i18n import LANGUAGES, NATIVE_NAMES, Translator, translator

COOKIE = "sb_lang"
"""The chooser's cookie: one of ``LANGUAGES``."""


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The language to speak: the cookie's when it is one of ours, else the best of the header's, else English."""
    if cookie in LANGUAGES:
        return str(cookie)
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        if code not in LANGUAGES:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, code)
    return best[2] if best is not None else "en"


def languages() -> list[tuple[str, str]]:
    """The chooser's entries: (code, the language's own name)."""
    return [(code, NATIVE_NAMES[code]) for code in LANGUAGES]


def texts(language: str) -> Translator:
    """The translator of ``language``."""
    return translator(language)
