"""The store's shape: small modules, no import cycles between them, no private reach-ins."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import kiosk.store

STORE = Path(kiosk.store.__file__).parent


def _store_imports(path: Path) -> set[str]:
    """The ``kiosk.store`` modules ``path`` imports anywhere (module level, functions, type checking)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "kiosk.store":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("kiosk.store."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith("kiosk.store.")}
    return found


def _graph() -> dict[str, set[str]]:
    return {p.stem: _store_imports(p) for p in sorted(STORE.glob("*.py")) if p.stem != "__init__"}


def test_the_store_modules_import_each_other_without_cycles() -> None:
    graph = _graph()
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle in kiosk.store: {exc.args[1]}") from exc
    assert order.index("errors") < order.index("database") < order.index("journal")
    assert "journal" not in graph["players"] and "journal" not in graph["audit"]


def test_the_cycle_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from kiosk.store.journal import Journal\n    return Journal\n", "utf-8")
    assert _store_imports(module) == {"journal"}


def test_each_module_is_small_and_players_use_no_private_journal_api() -> None:
    for path in STORE.glob("*.py"):
        assert len(path.read_text("utf-8").splitlines()) <= 600, path.name
    players = (STORE / "players.py").read_text("utf-8")
    assert "._read(" not in players and "._write(" not in players and "._conn" not in players
