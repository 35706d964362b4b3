"""The kiosk's languages at run time: deferred texts, translators over the compiled catalogs.

Every text the kiosk shows is an English message id looked up in a gettext catalog
(``kiosk/i18n/locale/<lang>/LC_MESSAGES/spectacular_bid.po``, compiled to the ``.mo`` beside
it, which ships with the package). Loading uses the standard library's ``gettext``; Babel, a
development tool, extracts, updates, compiles and checks the catalogs
(``kiosk.i18n.catalogs``, ``python -m kiosk.i18n``).

Texts that are made in one place and shown later, possibly in several languages (the session's
messages, warnings, refusals), are ``Text`` values: a ``str`` holding the English text that also
remembers its message id and parameters, so the screen translates it into whichever language
the player it is meant for has chosen. See docs/i18n.md.
"""

from __future__ import annotations

import gettext
import re
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from kiosk.i18n import particles

DOMAIN = "spectacular_bid"
LANGUAGES: tuple[str, ...] = ("en", "ko", "uk", "id")
"""The kiosk's languages, in the order the language buttons show them."""
NATIVE_NAMES: Mapping[str, str] = {
    "en": "English",
    "ko": "한국어",
    "uk": "Українська",
    "id": "Bahasa Indonesia",
}
"""Each language's name in that language (the language buttons; not translated on purpose)."""
PLURAL_FORMS: Mapping[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "ko": "nplurals=1; plural=0;",
    "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "id": "nplurals=1; plural=0;",
}
"""The Plural-Forms header each catalog must carry (checked by the tests)."""
LOCALE_DIR = Path(__file__).with_name("locale")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


# -- texts made now and shown later ------------------------------------------------------------


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogs without translating it (translated where it is shown; the kiosk's
    PIN part runs with the system's python3 before any dependency, so this is not the engine's own)."""
    return msgid


class Text(str):
    """An English text that remembers how to say it in another language.

    The ``str`` value is the English text, so code and tests that read it see plain English;
    ``Translator.__call__`` renders it in any language. Parameters may themselves be ``Text``.
    """

    msgid: str
    plural: str | None
    n: int | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, params: Mapping[str, Any] | None = None, plural: str | None = None,
                n: int | None = None) -> Text:
        params = dict(params or {})
        english = msgid if plural is None or n == 1 else plural
        self = super().__new__(cls, _format(english, params, None))
        self.msgid, self.plural, self.n, self.params = msgid, plural, n, params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.msgid, self.params, self.plural, self.n))


def T(msgid: str, **params: Any) -> Text:
    """A text to be shown later in the language of whoever reads it."""
    return Text(msgid, params)


def TN(singular: str, plural: str, n: int, **params: Any) -> Text:
    """A text with a count: the catalog's plural rule picks the form for ``n`` (also a parameter)."""
    params.setdefault("n", n)
    return Text(singular, params, plural, n)


class Number(str):
    """A number shown with its language's decimal separator (``DECIMAL_SEPARATORS``); its ``str`` is the English."""

    places: int

    def __new__(cls, value: float, places: int = 1) -> Number:
        self = super().__new__(cls, f"{value:.{places}f}")
        self.places = places
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Number, (float(self), self.places))

    def shown(self, language: str) -> str:
        """The number in ``language``: "3.5" in English and Korean, "3,5" in Ukrainian and Indonesian."""
        return str(self).replace(".", DECIMAL_SEPARATORS.get(language, "."))


DECIMAL_SEPARATORS: Mapping[str, str] = {"en": ".", "ko": ".", "uk": ",", "id": ","}
"""The decimal separator of each language (a decimal comma in Ukrainian and Indonesian)."""
NS_PER_S = 1_000_000_000


def duration(ns: int) -> Text:
    """A duration as a text: "12 s" from 10 s on (whole seconds), "3.5 s" below; each language writes its
    unit ("12초", "3,5 с", "3,5 detik") and its decimal separator."""
    s = ns / NS_PER_S
    return T("{seconds} s", seconds=Number(s, 0 if s >= 10 else 1))


def _format(template: str, params: Mapping[str, Any], translator: Translator | None) -> str:
    text = template
    if params:
        values = {k: _value(v, translator) for k, v in params.items()}
        try:
            text = template.format(**values)
        except (KeyError, IndexError, ValueError):
            text = template  # a broken translation shows its template rather than crashing the kiosk
    if translator is not None and translator.language == "ko":
        text = particles.attach(text)  # 이(가) after a placeholder: the particle its word takes
    return text


def _value(value: Any, translator: Translator | None) -> str:
    """A parameter in the translator's language: a nested text translated, a number with its separator."""
    if translator is None:
        return str(value)
    if isinstance(value, Text):
        return translator(value)
    if isinstance(value, Number):
        return value.shown(translator.language)
    return str(value)


# -- translators -------------------------------------------------------------------------------


class Translator:
    """One language's catalog: ``t._(msgid)``, ``t.n_(singular, plural, n)``, ``t(text)``."""

    def __init__(self, language: str, catalog: gettext.NullTranslations) -> None:
        self.language = language
        self.catalog = catalog

    def _(self, msgid: str, **params: Any) -> str:
        """``msgid`` in this language, with ``params`` filled in."""
        return _format(self.catalog.gettext(msgid), params, self)

    def lookup(self, msgid: str, **params: Any) -> str:
        """``_`` for a message id held in a variable (marked where it is written, with ``N_``)."""
        return _format(self.catalog.gettext(msgid), params, self)

    def n_(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form for ``n`` in this language (``{n}`` and ``params`` filled in)."""
        params.setdefault("n", n)
        return _format(self.catalog.ngettext(singular, plural, n), params, self)

    def __call__(self, value: str) -> str:
        """A ``Text`` in this language; any other string as it is."""
        if isinstance(value, Text):
            if value.plural is None:
                return _format(self.catalog.gettext(value.msgid), value.params, self)
            return _format(self.catalog.ngettext(value.msgid, value.plural, value.n or 0), value.params, self)
        return value

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"


def normalise(language: str | None) -> str:
    """``language`` if the kiosk speaks it, else English."""
    return language if language in LANGUAGES else "en"


@cache
def translator(language: str) -> Translator:
    """The translator for ``language`` (English for anything unknown); loaded once."""
    language = normalise(language)
    return Translator(language, load_catalog(language))


def next_language(language: str) -> str:
    """The language after ``language`` in the buttons' order (cycling)."""
    i = LANGUAGES.index(normalise(language))
    return LANGUAGES[(i + 1) % len(LANGUAGES)]


# -- loading -----------------------------------------------------------------------------------


def po_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where ``language``'s catalog source (``.po``) is; its compiled ``.mo`` is beside it."""
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(language: str, locale_dir: Path = LOCALE_DIR) -> gettext.NullTranslations:
    """``language``'s compiled catalog (English ids shown as they are when it is missing)."""
    mo = po_path(language, locale_dir).with_suffix(".mo")
    try:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    except (OSError, ValueError) as exc:
        print(f"kiosk: no usable catalog for {language!r} ({mo}: {exc}); showing English", file=sys.stderr)
        return gettext.NullTranslations()
