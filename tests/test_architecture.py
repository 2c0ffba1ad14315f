"""The house's shape, held by tests: no import cycles, one seam to the engine, thin front ends."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "graphmem"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Every graphmem module and the graphmem modules it imports anywhere: at the top, inside
    functions, under TYPE_CHECKING (a circle through any of them is still a circle)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    found: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            found[name].update(t for t in targets if t in modules and t != name)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycle_anywhere_in_graphmem():
    graph = _imports()
    # a package's __init__ re-exporting its modules is not a dependency of those modules on it
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_nothing_under_the_store_imports_it():
    graph = _imports()
    under = {target for target in graph["graphmem.store"] if target.startswith("graphmem.")}
    reaching = sorted(name for name in under if "graphmem.store" in graph[name])
    assert reaching == [], reaching


def test_only_the_engine_seam_imports_an_engine():
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
        names |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  and not node.level}
        assert not names & {"kuzu", "ladybug"}, f"{path.relative_to(ROOT)} imports an engine"


def test_front_ends_call_the_store_not_the_pieces_under_it():
    """The command line, the MCP server and the explorer parse, call Store, and print: none of them
    runs Cypher, reads a table or writes through the pieces under the Store."""
    graph = _imports()
    under = {"graphmem.engine", "graphmem.writes", "graphmem.reads", "graphmem.cypher", "graphmem.named",
             "graphmem.sandbox", "graphmem.projection", "graphmem.logio", "graphmem.backup", "graphmem.queries",
             "graphmem.tables", "graphmem.records", "graphmem.migrations", "graphmem.purge", "graphmem.review"}
    for name, targets in graph.items():
        if name.startswith(("graphmem.cli", "graphmem.mcp", "graphmem.explorer")):
            assert not targets & under, f"{name} reaches under the Store: {sorted(targets & under)}"
