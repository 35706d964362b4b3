"""The kiosk's languages: gettext catalogs, deferred texts, and the catalog compiler.

Every text the kiosk shows is an English message id looked up in a gettext catalog
(``kiosk/locale/<lang>/LC_MESSAGES/spectacular_bid.po``). The ``.po`` files are the sources;
the binary ``.mo`` files are compiled from them by ``python -m kiosk.i18n compile`` (at install
time) or, when a ``.mo`` is missing or older than its ``.po``, by the loader itself into a cache
directory (or in memory if no directory is writable), so a fresh clone runs and tests without a
separate step. Loading uses the standard library's ``gettext.GNUTranslations``.

Texts that are made in one place and shown later, possibly in several languages (the session's
messages, for instance), are ``Text`` objects: a ``str`` holding the English text that also
remembers its message id and parameters, so the screen translates it into whichever language
the player it is meant for has chosen. See docs/i18n.md.

``python -m kiosk.i18n compile [--out DIR]``  compile every catalog
``python -m kiosk.i18n extract``              add new message ids from the code to every ``.po``
``python -m kiosk.i18n check``                report untranslated ids and placeholder mismatches
"""

from __future__ import annotations

import argparse
import ast
import gettext
import hashlib
import io
import os
import re
import struct
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

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
PACKAGE_DIR = Path(__file__).parent.parent
MARKERS = {"_": 1, "T": 1, "N_": 1, "n_": 2, "TN": 2}
"""Call names whose leading string literal arguments are message ids (1: msgid, 2: msgid and plural)."""
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


# -- texts made now and shown later ------------------------------------------------------------


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogs without translating it (translated where it is shown)."""
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


def _format(template: str, params: Mapping[str, Any], translator: Translator | None) -> str:
    if not params:
        return template
    values = {
        k: (translator(v) if translator is not None and isinstance(v, Text) else str(v)) for k, v in params.items()
    }
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template  # a broken translation shows its template rather than crashing the kiosk


def template_regex(template: str) -> re.Pattern[str]:
    """A pattern matching the English text ``template`` makes, capturing its parameters."""
    parts = re.split(r"(\{[A-Za-z_][A-Za-z0-9_]*\})", template)
    out = []
    for part in parts:
        m = PLACEHOLDER.fullmatch(part)
        out.append(f"(?P<{m.group(1)}>.+?)" if m else re.escape(part))
    return re.compile("".join(out) + r"\Z", re.S)


def match_template(templates: Iterable[str], english: str) -> Text | None:
    """The ``Text`` for ``english`` if one of ``templates`` (message ids) makes exactly that text."""
    for template in templates:
        m = _compiled(template).match(english)
        if m:
            return Text(template, m.groupdict())
    return None


@lru_cache(maxsize=256)
def _compiled(template: str) -> re.Pattern[str]:
    return template_regex(template)


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
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def cache_dir() -> Path | None:
    """A writable directory for compiled catalogs, or None."""
    candidates = []
    if os.environ.get("SPECTACULAR_BID_CACHE"):
        candidates.append(Path(os.environ["SPECTACULAR_BID_CACHE"]))
    xdg = os.environ.get("XDG_CACHE_HOME")
    candidates.append(Path(xdg) / "spectacular-bid" if xdg else Path.home() / ".cache" / "spectacular-bid")
    candidates.append(Path(tempfile.gettempdir()) / f"spectacular-bid-{os.getuid() if hasattr(os, 'getuid') else 0}")
    for base in candidates:
        try:
            target = base / "locale"
            target.mkdir(parents=True, exist_ok=True)
            if os.access(target, os.W_OK):
                return target
        except OSError:
            continue
    return None


def load_catalog(language: str, locale_dir: Path = LOCALE_DIR) -> gettext.NullTranslations:
    """``language``'s catalog: the compiled ``.mo`` next to the ``.po`` when it is up to date,
    else one compiled now (kept in the cache directory, or only in memory)."""
    po = po_path(language, locale_dir)
    mo = po.with_suffix(".mo")
    if not po.exists():
        if mo.exists():
            with mo.open("rb") as f:
                return gettext.GNUTranslations(f)
        print(f"kiosk: no catalog for {language!r} ({po}); showing English", file=sys.stderr)
        return gettext.NullTranslations()
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    source = po.read_bytes()
    digest = hashlib.sha1(source).hexdigest()[:16]
    cache = cache_dir()
    cached = cache / f"{DOMAIN}-{language}-{digest}.mo" if cache is not None else None
    if cached is not None and cached.exists():
        with cached.open("rb") as f:
            return gettext.GNUTranslations(f)
    data = compile_po(source.decode("utf-8"))
    if cached is not None:
        try:
            tmp = cached.with_suffix(f".tmp{os.getpid()}")
            tmp.write_bytes(data)
            tmp.replace(cached)
        except OSError:
            pass
    return gettext.GNUTranslations(io.BytesIO(data))


# -- .po reading and .mo writing (the msgfmt algorithm) -----------------------------------------


@dataclass
class Entry:
    """One catalog entry."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values()) and "fuzzy" not in self.flags


def _unquote(value: str, where: str) -> str:
    value = value.strip()
    if len(value) < 2 or value[0] != '"' or value[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, not {value!r}")
    return ast.literal_eval(value)


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """The entries of a ``.po`` file (header included, as the entry with msgid "")."""
    entries: list[Entry] = []
    entry: Entry | None = None
    section: tuple[str, int] | None = None
    flags: set[str] = set()
    comments: list[str] = []

    def finish() -> None:
        nonlocal entry
        if entry is not None:
            entries.append(entry)
        entry = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if entry is not None and section is not None and section[0] == "msgstr":
                finish()
                section = None
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            else:
                comments.append(line)
            continue
        if line.startswith("msgctxt"):
            finish()
            entry = Entry("", flags=flags, comments=comments, line=number)
            flags, comments = set(), []
            entry.msgctxt = _unquote(line[7:], where)
            section = ("msgctxt", 0)
        elif line.startswith("msgid_plural"):
            if entry is None:
                raise ValueError(f"{where}: msgid_plural without msgid")
            entry.msgid_plural = _unquote(line[12:], where)
            section = ("msgid_plural", 0)
        elif line.startswith("msgid"):
            if entry is None or section is None or section[0] != "msgctxt":
                finish()
                entry = Entry("", flags=flags, comments=comments, line=number)
                flags, comments = set(), []
            entry.msgid = _unquote(line[5:], where)
            section = ("msgid", 0)
        elif line.startswith("msgstr["):
            if entry is None:
                raise ValueError(f"{where}: msgstr without msgid")
            close = line.index("]")
            index = int(line[7:close])
            entry.msgstr[index] = _unquote(line[close + 1 :], where)
            section = ("msgstr", index)
        elif line.startswith("msgstr"):
            if entry is None:
                raise ValueError(f"{where}: msgstr without msgid")
            entry.msgstr[0] = _unquote(line[6:], where)
            section = ("msgstr", 0)
        elif line.startswith('"'):
            if entry is None or section is None:
                raise ValueError(f"{where}: a string outside an entry")
            more = _unquote(line, where)
            kind, index = section
            if kind == "msgid":
                entry.msgid += more
            elif kind == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + more
            elif kind == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + more
            else:
                entry.msgstr[index] += more
        else:
            raise ValueError(f"{where}: cannot read {raw!r}")
    finish()
    return entries


def header_fields(entries: Sequence[Entry]) -> dict[str, str]:
    """The header entry's fields (Content-Type, Plural-Forms, ...)."""
    head = next((e for e in entries if e.msgid == "" and e.msgctxt is None), None)
    out = {}
    if head is not None:
        for line in head.msgstr.get(0, "").splitlines():
            if ":" in line:
                key, value = line.split(":", 1)
                out[key.strip()] = value.strip()
    return out


def compile_po(text: str, name: str = "<po>") -> bytes:
    """The ``.mo`` bytes for a ``.po`` file's text (fuzzy and untranslated entries left out)."""
    messages: dict[bytes, bytes] = {}
    for e in parse_po(text, name):
        if "fuzzy" in e.flags and e.msgid != "":
            continue
        if e.msgid_plural is not None:
            if not e.translated:
                continue
            key = e.msgid + "\0" + e.msgid_plural
            value = "\0".join(e.msgstr[i] for i in sorted(e.msgstr))
        else:
            value = e.msgstr.get(0, "")
            if not value:
                continue
            key = e.msgid
        if e.msgctxt is not None:
            key = e.msgctxt + "\x04" + key
        messages[key.encode("utf-8")] = value.encode("utf-8")
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(messages[k])))
        ids += k + b"\0"
        strs += messages[k] + b"\0"
    count = len(keys)
    keystart = 7 * 4 + 16 * count
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    table = struct.pack(f"{len(koffsets)}i", *koffsets) + struct.pack(f"{len(voffsets)}i", *voffsets)
    return header + table + ids + strs


def compile_all(locale_dir: Path = LOCALE_DIR, out: Path | None = None) -> list[Path]:
    """Compile every ``.po`` under ``locale_dir`` (next to it, or under ``out``); returns the files."""
    written = []
    for language in LANGUAGES:
        po = po_path(language, locale_dir)
        if not po.exists():
            continue
        target = (out / language / "LC_MESSAGES" / f"{DOMAIN}.mo") if out else po.with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compile_po(po.read_text("utf-8"), str(po)))
        written.append(target)
    return written


# -- message ids in the code --------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    msgid: str
    plural: str | None
    where: str


def extract(paths: Iterable[Path] | None = None) -> list[Found]:
    """Every message id in the kiosk's code: first string arguments of ``_``, ``T``, ``N_``,
    ``n_`` and ``TN`` calls. A marker call whose id is not a literal is reported as an error."""
    found: list[Found] = []
    files = sorted(paths) if paths is not None else sorted(PACKAGE_DIR.rglob("*.py"))
    for path in files:
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            if name not in MARKERS:
                continue
            wanted = MARKERS[name]
            args = node.args[:wanted]
            where = f"{path.relative_to(PACKAGE_DIR.parent)}:{node.lineno}"
            if len(args) < wanted or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                if name == "_" and isinstance(fn, ast.Name):
                    continue  # a throwaway variable called "_", not a marker
                raise ValueError(f"{where}: {name}() needs literal message ids")
            found.append(Found(args[0].value, args[1].value if wanted == 2 else None, where))  # type: ignore[union-attr]
    return found


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def format_entry(e: Entry, nplurals: int) -> str:
    lines = [c for c in e.comments]
    if e.flags:
        lines.append("#, " + ", ".join(sorted(e.flags)))
    if e.msgctxt is not None:
        lines.append("msgctxt " + _quote(e.msgctxt))
    lines.append("msgid " + _quote(e.msgid))
    if e.msgid_plural is not None:
        lines.append("msgid_plural " + _quote(e.msgid_plural))
        for i in range(nplurals):
            lines.append(f"msgstr[{i}] " + _quote(e.msgstr.get(i, "")))
    else:
        lines.append("msgstr " + _quote(e.msgstr.get(0, "")))
    return "\n".join(lines)


def update_catalogs(locale_dir: Path = LOCALE_DIR) -> dict[str, int]:
    """Add the code's new message ids (untranslated) to every catalog; returns how many per language."""
    found = extract()
    added = {}
    for language in LANGUAGES:
        po = po_path(language, locale_dir)
        text = po.read_text("utf-8") if po.exists() else ""
        entries = parse_po(text, str(po)) if text else []
        known = {e.msgid for e in entries}
        nplurals = int(PLURAL_FORMS[language].split(";")[0].split("=")[1])
        new = []
        for f in found:
            if f.msgid in known:
                continue
            known.add(f.msgid)
            e = Entry(f.msgid, f.plural, comments=[f"#: {f.where}"])
            if language == "en":  # the English catalog repeats the ids
                e.msgstr = {0: f.msgid} if f.plural is None else {0: f.msgid, 1: f.plural}
            new.append(e)
        if new:
            po.parent.mkdir(parents=True, exist_ok=True)
            if not text:
                text = _header(language)
            text = text.rstrip("\n") + "\n\n" + "\n\n".join(format_entry(e, nplurals) for e in new) + "\n"
            po.write_text(text, "utf-8")
        added[language] = len(new)
    return added


def _header(language: str) -> str:
    return (
        'msgid ""\nmsgstr ""\n'
        f'"Project-Id-Version: spectacular-bid\\n"\n"Language: {language}\\n"\n'
        '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Content-Transfer-Encoding: 8bit\\n"\n'
        f'"Plural-Forms: {PLURAL_FORMS[language]}\\n"\n'
    )


def check(locale_dir: Path = LOCALE_DIR, obsolete: bool = False) -> list[str]:
    """Every problem with the catalogs: missing or untranslated ids, placeholder mismatches, headers
    (and, with ``obsolete``, entries the code no longer uses)."""
    problems = []
    wanted = {f.msgid: f for f in extract()}
    for language in LANGUAGES:
        po = po_path(language, locale_dir)
        if not po.exists():
            problems.append(f"{po}: missing")
            continue
        entries = parse_po(po.read_text("utf-8"), str(po))
        head = header_fields(entries)
        if head.get("Plural-Forms") != PLURAL_FORMS[language]:
            problems.append(f"{po}: Plural-Forms should be {PLURAL_FORMS[language]!r}")
        nplurals = int(PLURAL_FORMS[language].split(";")[0].split("=")[1])
        by_id = {e.msgid: e for e in entries if e.msgid}
        for msgid, f in wanted.items():
            e = by_id.get(msgid)
            if e is None:
                problems.append(f"{po}: no entry for {msgid!r} ({f.where})")
                continue
            if not e.translated:
                problems.append(f"{po}:{e.line}: {msgid!r} is not translated")
                continue
            if (e.msgid_plural is None) != (f.plural is None):
                problems.append(f"{po}:{e.line}: {msgid!r} plural forms differ from the code")
                continue
            if f.plural is not None and sorted(e.msgstr) != list(range(nplurals)):
                problems.append(f"{po}:{e.line}: {msgid!r} needs {nplurals} plural forms")
            expected = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(f.plural or ""))
            for i, value in e.msgstr.items():
                got = set(PLACEHOLDER.findall(value))
                plural_ok = f.plural is not None and got | {"n"} == expected | {"n"}
                if got != expected and not plural_ok:
                    problems.append(f"{po}:{e.line}: {msgid!r} form {i} has placeholders {sorted(got)}, "
                                    f"the id has {sorted(expected)}")
        for msgid, e in by_id.items():
            if obsolete and msgid not in wanted:
                problems.append(f"{po}:{e.line}: {msgid!r} is not used by the code (obsolete)")
    return problems


def iter_translations(language: str, locale_dir: Path = LOCALE_DIR) -> Iterator[tuple[str, str]]:
    """(msgid, each translated form) of a catalog, for tests that render every text."""
    for e in parse_po(po_path(language, locale_dir).read_text("utf-8")):
        if e.msgid:
            for value in e.msgstr.values():
                yield e.msgid, value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.i18n", description="The kiosk's translation catalogs.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="compile every .po into a .mo (next to it, or under --out)")
    c.add_argument("--out", type=Path, default=None)
    sub.add_parser("extract", help="add the code's new message ids to every .po (untranslated)")
    sub.add_parser("check", help="report untranslated ids, placeholder mismatches and obsolete entries")
    args = parser.parse_args(argv)
    if args.command == "compile":
        for path in compile_all(out=args.out):
            print(f"wrote {path}")
        return 0
    if args.command == "extract":
        for language, count in update_catalogs().items():
            print(f"{language}: {count} new message ids")
        return 0
    problems = check()
    for p in problems:
        print(p)
    unused = [p for p in check(obsolete=True) if p not in problems]
    for p in unused:
        print(f"warning: {p}")
    print(f"{len(problems)} problems, {len(unused)} obsolete entries")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
