"""The project's shape: no import cycles, small modules, each part importing only what it may."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "hardware", "kiosk", "club")
MAX_LINES = 600
MAX_TOP_LEVEL_KIOSK_MODULES = 10


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth: inside functions and ``if TYPE_CHECKING:`` blocks too
    (an import made only for the type checker still ties the two modules together)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, set[str]]:
    """Module → the project modules it imports (a ``from package import module`` names the module)."""
    modules = project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle_through_an_import_inside_a_function_or_for_the_type_checker() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    tree = ast.parse("def f():\n    import kiosk.app\nif TYPE_CHECKING:\n    import kiosk.ui\n")
    assert sorted(ast.unparse(n) for n in _imports(tree)) == ["import kiosk.app", "import kiosk.ui"]


def test_no_import_cycle_between_the_projects_modules() -> None:
    graph = import_graph()
    assert find_cycle(graph) is None


def test_the_engine_imports_nothing_of_the_kiosk_or_the_hardware_and_no_pygame() -> None:
    for name, path in project_modules().items():
        if not name.startswith("engine"):
            continue
        for node in _imports(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            assert not any(n.split(".")[0] in ("kiosk", "hardware", "pygame") for n in names), (name, names)


def test_no_module_of_any_package_is_over_600_lines() -> None:
    long = {
        name: n for name, path in project_modules().items() if (n := len(path.read_text("utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_at_most_ten_modules_directly_in_the_kiosk_package() -> None:
    top = sorted(p.name for p in (ROOT / "kiosk").glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_KIOSK_MODULES, top
