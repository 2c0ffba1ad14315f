"""Named Cypher queries, one per ``.cypher`` file in ``queries/``, loaded once.

Internal: the store's own queries; users run theirs with ``Store.cypher`` and ``Store.query``.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import tables

__all__ = ["QUERIES", "parameters_of", "queries_dir"]

_HERE = Path(__file__).resolve().parent
_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def queries_dir() -> Path:
    """Where the .cypher files are: inside the installed package, or the repository's queries/."""
    for candidate in (_HERE / "queries", _HERE.parent / "queries"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("graphmem's queries/ directory is missing from this installation")


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _load() -> dict[str, str]:
    root = queries_dir()
    return {
        str(path.relative_to(root).with_suffix("")): _strip_comments(path.read_text()).strip()
        for path in sorted(root.rglob("*.cypher"))
    }


#: Every named query: the files of ``queries/``, and the statements derived from the table
#: declarations (``schema/NAME``, ``insert/NAME``, ``insert_rows/NAME``: see :mod:`graphmem.tables`).
QUERIES: dict[str, str] = {**_load(), **tables.queries()}
_PARAMETERS = {name: frozenset(_PARAMETER.findall(text)) for name, text in QUERIES.items()}


def parameters_of(name: str) -> frozenset[str]:
    """The ``$parameters`` a named query expects."""
    return _PARAMETERS[name]


def description_of(name: str) -> str:
    """The first comment line of a query file: what it answers."""
    path = queries_dir() / f"{name}.cypher"
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("//"):
            return line.lstrip()[2:].strip()
    return ""
