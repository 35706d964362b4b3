"""Shared helpers for the hardware tests: time units and the message ids in the code and the catalogs."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

MS = 1_000_000
"""Nanoseconds per millisecond."""

ROOT = Path(__file__).resolve().parents[1]


@cache
def hardware_msgids() -> frozenset[str]:
    """Every message template marked with ``N_("...")`` in ``hardware/``; a non-literal ``N_`` argument is an error."""
    found: set[str] = set()
    for path in sorted((ROOT / "hardware").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
                (arg,) = node.args
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    raise AssertionError(f"{path}:{node.lineno}: N_() needs a literal message id")
                found.add(arg.value)
    return frozenset(found)


def _po_string(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


@cache
def catalog_msgids() -> dict[str, frozenset[str]]:
    """The message ids of each kiosk translation catalog, by the catalog's path (relative to the repository)."""
    out: dict[str, frozenset[str]] = {}
    for path in sorted(ROOT.glob("kiosk/**/LC_MESSAGES/spectacular_bid.po")):
        ids: set[str] = set()
        current: list[str] | None = None
        for raw in [*path.read_text("utf-8").splitlines(), ""]:
            line = raw.strip()
            if current is not None and line.startswith('"'):
                current.append(line)
                continue
            if current is not None:
                ids.add(_po_string(current))
                current = None
            if line.startswith("msgid "):
                current = [line[len("msgid "):]]
        out[str(path.relative_to(ROOT))] = frozenset(ids - {""})
    return out
