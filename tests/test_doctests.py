"""The examples in docstrings run, as written, on the engine under test."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def with_examples() -> list[str]:
    """Every module of graphmem and visualize whose docstrings hold an example (``>>> ``)."""
    found = []
    for package in ("graphmem", "visualize"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_the_examples_are_found():
    assert {"graphmem._store", "graphmem.query.guard", "graphmem.core.as_known"} <= set(with_examples())


@pytest.mark.parametrize("name", with_examples())
def test_the_examples_in_docstrings_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (run it with -s)"
