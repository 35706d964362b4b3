"""The translation catalogs as a developer works on them: extract, update, compile, check (Babel).

Babel is a development tool here (the ``test`` extra): the kiosk itself loads the compiled ``.mo``
files with the standard library's ``gettext``. Message ids are found in the engine, the hardware
layer and the kiosk, wherever a marker is called with a literal: ``_``, ``N_``, ``T`` (a msgid),
``n_``, ``TN`` (singular and plural).
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from kiosk.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, PLACEHOLDER, PLURAL_FORMS, po_path

ROOT = Path(__file__).resolve().parents[2]
SOURCES: tuple[str, ...] = ("engine", "hardware", "kiosk", "club")
"""The packages whose code holds message ids (folders under the repository's root); the club hub's
page (club/web) speaks the kiosk's languages from the same catalogs."""
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "T": None, "n_": (1, 2), "TN": (1, 2)}
"""Marker names and which arguments are the message id (and its plural)."""
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")]
OPTIONS = {"**.py": {"encoding": "utf-8"}, "**/templates/**.html": {"encoding": "utf-8", "trim_blocks": "true",
                                                                     "lstrip_blocks": "true"}}


@dataclass(frozen=True, slots=True)
class Found:
    """A message id in the code and where it is."""

    msgid: str
    plural: str | None
    where: str


def extract(root: Path = ROOT, sources: Sequence[str] = SOURCES) -> list[Found]:
    """Every message id in ``sources`` (in order of appearance)."""
    found: list[Found] = []
    for package in sources:
        folder = root / package
        for filename, lineno, message, _comments, _context in extract_from_dir(
            str(folder), METHODS, OPTIONS, KEYWORDS
        ):
            where = f"{package}/{filename}:{lineno}"
            if isinstance(message, tuple):
                if message[0]:
                    found.append(Found(message[0], message[1] or None, where))
            elif message:
                found.append(Found(message, None, where))
    return found


def _places(found: Sequence[Found]) -> dict[str, list[tuple[str, int]]]:
    """Each message id's places in the code: (file, line), in order of appearance."""
    places: dict[str, list[tuple[str, int]]] = {}
    for f in found:
        path, line = f.where.rsplit(":", 1)
        places.setdefault(f.msgid, []).append((path, int(line)))
    return places


def stale_locations(message: Message, places: dict[str, list[tuple[str, int]]]) -> list[str]:
    """The files a catalog entry's source comments (``#: file:line``) name that do not hold its id
    (the text moved, or the file is gone); [] for an id the code does not use."""
    here = {path for path, _ in places.get(_ids(message)[0], [])}
    if not here:
        return []
    return [str(path) for path, _ in message.locations if path not in here]


def read_catalog(language: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    """``language``'s ``.po`` file as a Babel catalog."""
    with po_path(language, locale_dir).open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def write_catalog(catalog: Catalog, language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Write ``catalog`` as ``language``'s ``.po`` file (no line wrapping)."""
    path = po_path(language, locale_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, sort_output=False)
    path.write_bytes(buf.getvalue())
    return path


def update(locale_dir: Path = LOCALE_DIR, root: Path = ROOT, drop_obsolete: bool = False) -> dict[str, int]:
    """Add the code's new message ids to every catalog (English filled in, others empty), point the
    source comments that name a file without the id at where the code has it now and, with
    ``drop_obsolete``, delete the entries the code no longer uses; returns the changes per language."""
    found = extract(root)
    wanted = {f.msgid for f in found}
    places = _places(found)
    added: dict[str, int] = {}
    for language in LANGUAGES:
        catalog = read_catalog(language, locale_dir)
        count = 0
        if drop_obsolete:
            for m in list(catalog):
                if m.id and _ids(m)[0] not in wanted:
                    catalog.delete(m.id)
                    count += 1
        for m in catalog:
            if m.id and stale_locations(m, places):
                m.locations = list(places[_ids(m)[0]])
                count += 1
        for f in found:
            key = f.msgid
            if key in catalog:
                continue
            msgid: str | tuple[str, str] = f.msgid if f.plural is None else (f.msgid, f.plural)
            string: str | tuple[str, ...] = "" if f.plural is None else ("",) * catalog.num_plurals
            if language == "en":
                string = f.msgid if f.plural is None else (f.msgid, f.plural)
            catalog.add(msgid, string, locations=[(f.where.rsplit(":", 1)[0], int(f.where.rsplit(":", 1)[1]))])
            count += 1
        if count:
            write_catalog(catalog, language, locale_dir)
        added[language] = count
    return added


def compile_catalogs(locale_dir: Path = LOCALE_DIR, out: Path | None = None) -> list[Path]:
    """Compile every ``.po`` into its ``.mo`` (next to it, or under ``out``); fuzzy entries are left out."""
    written = []
    for language in LANGUAGES:
        if not po_path(language, locale_dir).exists():
            continue
        target = (out or locale_dir) / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compiled(language, locale_dir))
        written.append(target)
    return written


def compiled(language: str, locale_dir: Path = LOCALE_DIR) -> bytes:
    """``language``'s catalog compiled to ``.mo`` bytes."""
    buf = io.BytesIO()
    write_mo(buf, read_catalog(language, locale_dir), use_fuzzy=False)
    return buf.getvalue()


def stale_mo(locale_dir: Path = LOCALE_DIR) -> list[str]:
    """Languages whose shipped ``.mo`` is missing or says something else than its ``.po``."""
    stale = []
    for language in LANGUAGES:
        mo = po_path(language, locale_dir).with_suffix(".mo")
        if not mo.exists():
            stale.append(language)
            continue
        with mo.open("rb") as f:
            shipped = gettext.GNUTranslations(f)
        fresh = gettext.GNUTranslations(io.BytesIO(compiled(language, locale_dir)))
        if _messages(shipped) != _messages(fresh):
            stale.append(language)
    return stale


def _messages(catalog: gettext.GNUTranslations) -> dict[object, str]:
    """A compiled catalog's messages (its header left out: Babel stamps dates into it)."""
    found: dict[object, str] = catalog._catalog  # type: ignore[attr-defined]
    return {k: v for k, v in found.items() if k != ""}


def _ids(message: Message) -> tuple[str, str | None]:
    if isinstance(message.id, tuple | list):
        return str(message.id[0]), str(message.id[1])
    return str(message.id), None


def _strings(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return [str(s or "") for s in message.string]
    return [str(message.string or "")]


def check(
    locale_dir: Path = LOCALE_DIR, obsolete: bool = False, root: Path = ROOT, sources: Sequence[str] = SOURCES,
    locations: bool = True,
) -> list[str]:
    """Every problem with the catalogs: a message id of the code missing or untranslated in a
    catalog (so a changed English id fails until its translations follow), placeholder
    mismatches, missing plural forms, headers, stale ``.mo`` files, with ``locations`` source
    comments naming a file that does not hold the id (``extract`` points them right), and (with
    ``obsolete``) entries the code no longer uses."""
    problems: list[str] = []
    found = extract(root, sources)
    wanted = {f.msgid: f for f in found}
    places = _places(found)
    for language in LANGUAGES:
        po = po_path(language, locale_dir)
        if not po.exists():
            problems.append(f"{po}: missing")
            continue
        catalog = read_catalog(language, locale_dir)
        if catalog.plural_forms != PLURAL_FORMS[language]:
            problems.append(f"{po}: Plural-Forms should be {PLURAL_FORMS[language]!r}")
        by_id = {_ids(m)[0]: m for m in catalog if m.id}
        for msgid, f in wanted.items():
            m = by_id.get(msgid)
            if m is None:
                problems.append(f"{po}: no entry for {msgid!r} ({f.where})")
                continue
            if locations:
                problems += [f"{po}:{m.lineno}: {msgid!r}: its source comment names {path}, which does not hold it "
                             "(run python -m kiosk.i18n extract)" for path in stale_locations(m, places)]
            strings = _strings(m)
            if m.fuzzy or not all(strings):
                problems.append(f"{po}:{m.lineno}: {msgid!r} is not translated")
                continue
            plural = _ids(m)[1]
            if (plural is None) != (f.plural is None):
                problems.append(f"{po}:{m.lineno}: {msgid!r} plural forms differ from the code")
                continue
            if f.plural is not None and len(strings) != catalog.num_plurals:
                problems.append(f"{po}:{m.lineno}: {msgid!r} needs {catalog.num_plurals} plural forms")
            expected = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(f.plural or ""))
            for i, value in enumerate(strings):
                got = set(PLACEHOLDER.findall(value))
                plural_ok = f.plural is not None and got | {"n"} == expected | {"n"}
                if got != expected and not plural_ok:
                    problems.append(
                        f"{po}:{m.lineno}: {msgid!r} form {i} has placeholders {sorted(got)}, the id has {sorted(expected)}"
                    )
        if obsolete:
            problems += [f"{po}:{m.lineno}: {msgid!r} is not used by the code (obsolete)"
                         for msgid, m in by_id.items() if msgid not in wanted]
    problems += [f"{po_path(lang, locale_dir).with_suffix('.mo')}: out of date: run python -m kiosk.i18n compile"
                 for lang in stale_mo(locale_dir)]
    return problems


def iter_translations(language: str, locale_dir: Path = LOCALE_DIR) -> Iterator[tuple[str, str]]:
    """(msgid, each translated form) of a catalog, for tests that render every text."""
    for m in read_catalog(language, locale_dir):
        if m.id:
            for value in _strings(m):
                yield _ids(m)[0], value
