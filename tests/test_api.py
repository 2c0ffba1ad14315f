"""The public API is what docs/api.md lists: each public module's ``__all__``, documented and annotated.

Every other module is internal by its place: inside one of the internal bands' folders (see
docs/architecture.md), or named with a leading underscore inside a public package.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api.md"
SECTION = re.compile(r"^## `([\w.]+)`$")
ROW = re.compile(r"^\| `(\w+)` \|")

#: Modules on other branches that are to be marked (docstring and ``__all__``) once merged.
NOT_YET_MARKED: set[str] = set()
#: Public modules whose signatures are not all annotated yet (on other branches).
NOT_YET_ANNOTATED: set[str] = set()


def documented() -> dict[str, list[str]]:
    """docs/api.md's sections named after a module, each with the names of its table."""
    found: dict[str, list[str]] = {}
    module = None
    for line in API.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = SECTION.match(line)
            module = heading.group(1) if heading else None
            if module is not None:
                assert module not in found, f"docs/api.md has two sections for {module}"
                found[module] = []
        elif module is not None and (row := ROW.match(line)):
            found[module].append(row.group(1))
    return found


DOCUMENTED = documented()
PUBLIC = sorted(DOCUMENTED)


def all_modules() -> list[str]:
    """Every module of graphmem and visualize, by its import name (``__main__`` aside)."""
    names = []
    for package in ("graphmem", "visualize"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__main__":
                continue
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def source_of(name: str) -> Path:
    path = ROOT.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def pending(name: str, waiting: set[str]) -> bool:
    """True for a module in ``waiting`` or inside a package there (``graphmem`` itself stands alone)."""
    return any(name == w or (w != "graphmem" and name.startswith(w + ".")) for w in waiting)


def marked(names: list[str], waiting: set[str], reason: str) -> list:
    """The names, those still waiting expected to fail (strictly: once they pass, the list must shrink)."""
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=reason)) if pending(n, waiting) else n
            for n in names]


def test_the_page_documents_the_main_modules():
    assert {"graphmem", "graphmem.models", "graphmem.errors", "graphmem.when", "graphmem.extract",
            "graphmem.recall", "visualize"} <= set(PUBLIC)
    assert all(DOCUMENTED[m] for m in PUBLIC), "a module section lists no names"


@pytest.mark.parametrize("name", PUBLIC)
def test_all_is_what_the_page_lists(name):
    module = importlib.import_module(name)
    exported, listed = set(module.__all__), DOCUMENTED[name]
    assert len(listed) == len(set(listed)), f"docs/api.md lists a name twice under {name}"
    assert not exported - set(listed), f"{name} exports, undocumented: {sorted(exported - set(listed))}"
    assert not set(listed) - exported, f"docs/api.md lists, not in {name}.__all__: {sorted(set(listed) - exported)}"


def _doc_comment(name: str) -> bool:
    """A ``#:`` comment just above the assignment of ``name`` somewhere in graphmem or visualize."""
    pattern = re.compile(rf"^#:.*\n(?:#:.*\n)*{re.escape(name)}\b[^\n=]*=", re.MULTILINE)
    return any(pattern.search(path.read_text(encoding="utf-8"))
               for package in ("graphmem", "visualize") for path in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_exists_and_is_documented(name):
    module = importlib.import_module(name)
    for attribute in module.__all__:
        assert hasattr(module, attribute), f"{name}.{attribute} does not exist"
        value = getattr(module, attribute)
        if inspect.isclass(value) or inspect.isfunction(value) or inspect.ismodule(value):
            assert (value.__doc__ or "").strip(), f"{name}.{attribute} has no docstring"
        else:  # a type alias or a constant: a ``#:`` comment says what it is
            assert _doc_comment(attribute), f"{name}.{attribute} has no #: comment where it is assigned"


def _signatures(module: ModuleType) -> list[tuple[str, inspect.Signature]]:
    """The public functions of ``module``'s ``__all__`` and the public methods its classes define."""
    found = []

    def ours(function: object) -> bool:
        return getattr(function, "__module__", "").split(".")[0] in ("graphmem", "visualize")

    for attribute in module.__all__:
        value = getattr(module, attribute)
        if inspect.isfunction(value) and ours(value):
            found.append((attribute, inspect.signature(value)))
        elif inspect.isclass(value) and ours(value):
            for member, raw in vars(value).items():
                if member.startswith("_") and member not in ("__init__", "__call__"):
                    continue
                function = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
                if inspect.isfunction(function) and ours(function):
                    found.append((f"{attribute}.{member}", inspect.signature(function)))
    return found


@pytest.mark.parametrize("name", marked(PUBLIC, NOT_YET_ANNOTATED, "annotated on another branch"))
def test_every_public_signature_is_annotated(name):
    missing = []
    for where, signature in _signatures(importlib.import_module(name)):
        for parameter in signature.parameters.values():
            if parameter.name not in ("self", "cls") and parameter.annotation is inspect.Parameter.empty:
                missing.append(f"{where}({parameter.name})")
        if signature.return_annotation is inspect.Signature.empty and not where.endswith("__init__"):
            missing.append(f"{where} -> ?")
    assert not missing, f"unannotated in {name}: {', '.join(missing)}"


def _static_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return list(ast.literal_eval(node.value))
    return None


#: The folders of graphmem whose every module is internal (the bands under the public API, and the
#: front ends, which are programs rather than libraries).
INTERNAL_FOLDERS = ("core", "engine", "read", "write", "query", "log", "cli", "explorer", "pages", "scenarios",
                    "holding")


def internal_by_place(name: str) -> bool:
    """True when a module's place says it is internal: an internal folder, or a leading underscore."""
    parts = name.split(".")
    return (parts[0] == "graphmem" and len(parts) > 1 and parts[1] in INTERNAL_FOLDERS) or any(
        part.startswith("_") for part in parts[1:])


@pytest.mark.parametrize("name", marked(all_modules(), NOT_YET_MARKED, "marked after the merge"))
def test_every_module_is_public_or_internal_by_its_place(name):
    tree = ast.parse(source_of(name).read_text(encoding="utf-8"))
    assert _static_all(tree) is not None, f"{name} has no __all__"
    if name in DOCUMENTED:
        assert not internal_by_place(name), f"{name} is documented in docs/api.md but its place says internal"
    elif source_of(name).name != "__init__.py" or _static_all(tree):  # a bare package of public modules
        assert internal_by_place(name), (
            f"{name} is neither in docs/api.md nor internal by its place (an internal folder or a leading _)")


@pytest.mark.parametrize("name", [m for m in all_modules() if not pending(m, NOT_YET_MARKED)])
def test_every_exported_name_exists(name):
    module = importlib.import_module(name)
    missing = [attribute for attribute in module.__all__ if not hasattr(module, attribute)]
    assert not missing, f"{name}.__all__ names what it does not have: {missing}"


def test_an_undocumented_export_would_be_caught(monkeypatch):
    """The checks above read real values: a new export without a row in docs/api.md fails them."""
    import graphmem.when

    monkeypatch.setattr(graphmem.when, "__all__", [*graphmem.when.__all__, "_reference"])
    with pytest.raises(AssertionError, match="undocumented: \\['_reference'\\]"):
        test_all_is_what_the_page_lists("graphmem.when")
    with pytest.raises(AssertionError, match="_reference has no docstring"):
        test_every_public_name_exists_and_is_documented("graphmem.when")

