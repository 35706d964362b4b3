"""Where each table and key of a TOML text is first written: the lines the configuration's warnings name.

``line_index(text)`` maps every key path (``("match",)``, ``("match", "bank_seconds")``,
``("buttons", "player0", "raise")``) to the 1-based line where it is first written, in every form
TOML allows: ``[table]`` headers (dotted ones too), ``key = value`` lines, dotted keys
(``match.bank_seconds = 90``, at the top or inside a table) and inline tables
(``match = { bank_seconds = 90 }``). A table's line is the first of its header and everything
written under it. The text is read by tomlkit's parser, which notes where each key-value and
each header starts; a text tomlkit cannot read gives an empty index (the warnings then name no line).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from typing import Any

from tomlkit.container import Container
from tomlkit.items import AoT, InlineTable, Item, Key, Table
from tomlkit.parser import Parser

Path = tuple[str, ...]


class _NotingParser(Parser):
    """tomlkit's parser, noting where each value (by identity) and each table header (by its path) starts."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.value_starts: dict[int, int] = {}
        self.header_starts: list[tuple[Path, int]] = []
        self._header_at: int | None = None

    def _parse_key_value(self, parse_comment: bool = False) -> tuple[Key, Item]:
        start = self._idx
        key, value = super()._parse_key_value(parse_comment)
        self.value_starts.setdefault(id(value), start)
        return key, value

    def _parse_table(self, parent_name: Key | None = None, parent: Table | None = None) -> tuple[Key, Table | AoT]:
        self._header_at = self._idx  # the next key parsed is this header's
        return super()._parse_table(parent_name, parent)

    def _parse_key(self) -> Key:
        key = super()._parse_key()
        if self._header_at is not None:
            self.header_starts.append((_parts(key), self._header_at))
            self._header_at = None
        return key


def _parts(key: Key) -> Path:
    """A key's parts as written (``a."b c".d``: ``("a", "b c", "d")``)."""
    return tuple(part.key for part in key)


def line_index(text: str) -> dict[Path, int]:
    """Every key path of ``text`` and the 1-based line where it is first written ({} when tomlkit cannot read it)."""
    parser = _NotingParser(text)
    try:
        document = parser.parse()
    except Exception:  # e.g. tomlkit refuses what tomllib took, or recursion on deep nesting: no lines
        return {}
    breaks = [i for i, c in enumerate(text) if c == "\n"]
    index: dict[Path, int] = {}

    def note(path: Path, offset: int) -> None:
        line = bisect.bisect_left(breaks, offset) + 1
        for depth in range(1, len(path) + 1):  # a table is written where anything under it first is
            if index.get(path[:depth], line + 1) > line:
                index[path[:depth]] = line

    for path, offset in parser.header_starts:
        note(path, offset)
    for path, value in _values(document, ()):
        start = parser.value_starts.get(id(value))
        if start is not None:
            note(path, start)
    return index


def _values(container: Container, prefix: Path) -> Iterator[tuple[Path, Any]]:
    """Every item under ``container`` with its key path, tables' items included (in the order written)."""
    for key, item in container.body:
        if key is None:
            continue
        path = prefix + _parts(key)
        yield path, item
        yield from _inside(item, path)


def _inside(item: Any, path: Path) -> Iterable[tuple[Path, Any]]:
    if isinstance(item, Table | InlineTable):
        yield from _values(item.value, path)
    elif isinstance(item, AoT):
        for table in item.body:
            yield from _values(table.value, path)

