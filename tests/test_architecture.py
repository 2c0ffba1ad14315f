"""The house's shape, held by tests: the bands of docs/architecture.md are folders, each imports only
the bands below it, there are no import cycles, and only the engine seam touches an engine.

The walk covers ``graphmem/`` and ``visualize/``, and every import: at the top, inside functions,
under ``TYPE_CHECKING`` (a circle or a wrong-way arrow through any of them is still one).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("graphmem", "visualize")

#: The bands, top to bottom, each the module prefixes it holds (docs/architecture.md draws them).
BANDS: dict[str, tuple[str, ...]] = {
    "command line": ("graphmem.cli", "graphmem.__main__", "graphmem._launch"),
    "front ends": ("graphmem.mcp", "graphmem.explorer", "visualize"),
    "programs": ("graphmem.ingest", "graphmem.scenario", "graphmem.evaluation", "graphmem.evaluation_aliases",
                 "graphmem.evaluation_relations", "graphmem.spark",
                 "graphmem.recall.evaluate", "graphmem.recall.conversations"),
    "boundary": ("graphmem._store", "graphmem._caches", "graphmem.holding"),
    "pieces": ("graphmem.read", "graphmem.write", "graphmem.query", "graphmem.log", "graphmem.recall"),
    "seams": ("graphmem.engine", "graphmem._openai_api"),
    "pure core": ("graphmem.core", "graphmem.when", "graphmem.extract", "graphmem.extract_rules",
                  "graphmem.extract_llm", "graphmem.models", "graphmem.errors", "graphmem.pages",
                  "graphmem.scenarios"),
}
#: What each band may import besides itself. Above the boundary, graphmem's public modules (the
#: sections of docs/api.md, `graphmem` itself included) are open to all: that is what they are for.
MAY_IMPORT: dict[str, set[str]] = {
    "command line": {"front ends", "programs", "boundary", "pure core"},
    "front ends": {"programs", "boundary", "pure core"},
    "programs": {"boundary", "pure core"},
    "boundary": {"pieces", "seams", "pure core"},
    "pieces": {"seams", "pure core"},
    "seams": {"pure core"},
    "pure core": set(),
}
#: Arrows that run against the bands on purpose, each with its reason.
EXCEPTIONS = {
    ("graphmem._store", "graphmem.explorer"): "Store.explore starts the explorer over the store it is called on",
    ("graphmem._store", "graphmem.explorer.app"): "Store.explore keeps the running explorer",
    ("graphmem.holding.remote", "graphmem.explorer"): "a client's explore serves the explorer from its own process",
    ("graphmem.holding.holder", "graphmem.cli.serving"): "a holder runs its clients' command lines as typed",
    ("graphmem.spark._questions", "graphmem.log.parquet"): "Spark reads an export by the schema it was written with",
    ("graphmem.extract._chat_api", "graphmem._openai_api"): "the LLM extractor asks a model over HTTP "
                                                             "(the rules stay pure)",
}
API = ROOT / "docs" / "api.md"
PUBLIC = set(re.findall(r"^## `([\w.]+)`$", API.read_text(encoding="utf-8"), re.MULTILINE)) | {"graphmem"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


@functools.cache
def _trees() -> dict[str, ast.Module]:
    """Each module's syntax tree, parsed once for the whole module of tests (read, never changed)."""
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in _modules().items()}


def _imports() -> dict[str, set[str]]:
    """Every module of graphmem and visualize and the modules of either it imports anywhere (a new
    graph each call: a test may add arrows to it)."""
    return {name: set(targets) for name, targets in _import_graph().items()}


@functools.cache
def _import_graph() -> dict[str, frozenset[str]]:
    modules, trees = _modules(), _trees()
    found: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(trees[name]):
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
    return {name: frozenset(targets) for name, targets in found.items()}


def band_of(module: str) -> str:
    """The band a module lives in: the longest prefix any band names (``graphmem`` itself, the
    public names re-exported lazily, stands with the boundary)."""
    if module == "graphmem":
        return "boundary"
    best = max(((prefix, band) for band, prefixes in BANDS.items() for prefix in prefixes
                if module == prefix or module.startswith(prefix + ".")), default=None, key=lambda p: len(p[0]))
    if best is None:
        raise AssertionError(f"{module} is in no band: add its folder to BANDS and to docs/architecture.md")
    return best[1]


def wrong_way(graph: dict[str, set[str]]) -> list[str]:
    """Every import that runs against the bands, as ``importer -> imported (band -> band)``."""
    found = []
    for name, targets in sorted(graph.items()):
        if name == "graphmem":  # the package's lazy re-exports of the public names
            continue
        mine = band_of(name)
        for target in sorted(targets):
            theirs = "boundary" if target == "graphmem" else band_of(target)
            open_to_me = target in PUBLIC and mine in ("command line", "front ends", "programs")
            if theirs == mine or theirs in MAY_IMPORT[mine] or open_to_me or (name, target) in EXCEPTIONS:
                continue
            found.append(f"{name} -> {target} ({mine} -> {theirs})")
    return found


def private_reached(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a module named with a leading underscore from outside its own package (the
    boundary, which composes the pieces, aside)."""
    found = []
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            package, _, leaf = target.rpartition(".")
            if not leaf.startswith("_") or leaf.startswith("__"):
                continue
            inside = name == package or name.startswith(package + ".")
            if not inside and band_of(name) != "boundary":
                found.append(f"{name} -> {target}")
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


def test_no_import_cycle_anywhere():
    graph = _imports()
    # a package's __init__ re-exporting its modules is not a dependency of those modules on it
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_every_module_is_in_a_band_and_imports_only_the_bands_below():
    assert wrong_way(_imports()) == []


def test_a_wrong_way_import_would_be_caught():
    graph = _imports()
    graph["graphmem.core.temporal"] = graph["graphmem.core.temporal"] | {"graphmem.engine"}
    graph["graphmem.explorer.api"] = graph["graphmem.explorer.api"] | {"graphmem.read.questions"}
    graph["graphmem.engine"] = graph["graphmem.engine"] | {"visualize"}
    assert wrong_way(graph) == [
        "graphmem.core.temporal -> graphmem.engine (pure core -> seams)",
        "graphmem.engine -> visualize (seams -> front ends)",
        "graphmem.explorer.api -> graphmem.read.questions (front ends -> pieces)",
    ]


def test_one_direction_between_graphmem_and_visualize():
    """The pictures read from graphmem; only the command line, at the top, calls them."""
    reaching = sorted(f"{name} -> {target}" for name, targets in _imports().items() if name.startswith("graphmem")
                      for target in targets if target.partition(".")[0] == "visualize"
                      and band_of(name) != "command line")
    assert reaching == []


def test_private_modules_are_used_only_inside_their_package():
    assert private_reached(_imports()) == []


def test_nothing_under_the_store_imports_it():
    graph = _imports()
    under = {target for target in graph["graphmem._store"] if band_of(target) in ("pieces", "seams",
                                                                                  "pure core")}
    reaching = sorted(name for name in under if "graphmem._store" in graph[name] or "graphmem" in graph[name])
    assert reaching == [], reaching


def _engine_calls(tree: ast.Module) -> set[str]:
    """The engines a module imports, and the engine API it drives (``load_engine()`` and what comes of it)."""
    names: set[str] = set()
    called: set[str] = set()
    driven: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                called.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                driven.add(node.func.attr)
    return (names & {"kuzu", "ladybug"}) | (called & {"load_engine"}) | (
        driven & {"load_engine", "Database", "Connection"})


def test_only_the_engine_seam_touches_an_engine():
    """No module outside graphmem/engine/ imports an engine, loads one or opens its Database or
    Connection: the sandbox's worker, too, asks the seam for its in-memory database."""
    for name, path in _modules().items():
        if not name.startswith("graphmem.engine"):
            touched = _engine_calls(_trees()[name])
            assert not touched, f"{path.relative_to(ROOT)} drives the engine: {sorted(touched)}"


def test_an_engine_call_outside_the_seam_would_be_caught():
    assert _engine_calls(ast.parse("engine = load_engine()\ndb = engine.Database(':memory:')")) == {
        "load_engine", "Database"}


def test_the_bands_are_the_folders_the_docs_draw():
    """docs/architecture.md's picture names every folder and top-level module of graphmem."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "graphmem").iterdir()):
        if path.name.startswith("__") or path.name == "py.typed":
            continue
        shown = f"{path.name}/" if path.is_dir() else path.name
        assert shown in text, f"docs/architecture.md does not show graphmem/{shown}"


def _named_twice(tree: ast.Module) -> set[str]:
    """The module-level names a module binds twice (an assignment, a function or a class), overloads aside."""
    seen: set[str] = set()
    twice: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]  # "A, B = …" too
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names = [node.target.id]
        elif isinstance(node, ast.ImportFrom) or isinstance(node, ast.Import):  # (not "import urllib.error" and
            # "import urllib.request", each binding the package again)
            names = [a.asname or a.name for a in node.names if a.name != "*" and (a.asname or "." not in a.name)]
        else:
            continue
        twice |= seen.intersection(names)
        seen.update(names)
    return twice


def test_no_module_binds_a_name_twice():
    """A constant written again further down a module silently replaces the first for every use above it: the
    fortieth session's ``_LATELY = timedelta(days=35)`` widened the window of another rule's ``_LATELY`` (21
    days), and a second ``_UNDER_WAY`` was caught only by a TypeError."""
    for name, path in _modules().items():
        twice = _named_twice(_trees()[name])
        assert not twice, f"{path.relative_to(ROOT)} binds {sorted(twice)} twice"


def test_a_name_bound_twice_would_be_caught():
    assert _named_twice(ast.parse("A = 1\ndef f(): pass\nA = 2\n@overload\ndef g(): ...\ndef g(): pass")) == {"A"}
    assert _named_twice(ast.parse("from x import A\nB, C = 1, 2\nA = 3\nC = 4\nD: int\nD = 5")) == {"A", "C"}
