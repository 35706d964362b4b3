"""No import cycle among the kiosk's modules, counting the imports made only for the type checker
(the graph and the finder are ``tests/test_structure.py``'s, which checks the whole project)."""

from __future__ import annotations

from test_structure import find_cycle, import_graph


def kiosk_graph() -> dict[str, set[str]]:
    """Each kiosk module and the kiosk modules it imports (anywhere: in functions, under TYPE_CHECKING)."""
    whole = import_graph()
    return {name: {t for t in targets if t.startswith("kiosk")} for name, targets in whole.items()
            if name.startswith("kiosk")}


def test_the_finder_sees_a_cycle_through_a_type_checking_import() -> None:
    assert find_cycle({"a": {"b"}, "b": {"a"}, "c": set()}) == ["a", "b", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_among_the_kiosk_modules_counting_type_checking_imports() -> None:
    graph = kiosk_graph()
    assert "kiosk.table.controller" in graph and "kiosk.table.owner_screens" in graph["kiosk.table.controller"]
    assert find_cycle(graph) is None
