"""Named Cypher queries, one per ``.cypher`` file in ``queries/``, loaded once.

The store's own queries say two things by name rather than spelling them out, and they are
written in as the files are loaded: ``{{believed f $as_of}}``, the rule of what the store believed
at a moment (:func:`graphmem.core.as_known.cypher`), and ``{{fact_columns f b}}``, every column of
the Fact table as declared (:mod:`graphmem.core.tables`), each returned under its own name from
the edge ``f`` or its body ``b`` (the FactBody row the query matched by ``f.id``), and
``{{body_columns b}}``, the Fact columns kept apart in the body ``b``, in their declared order.

Internal: the store's own queries; users run theirs with ``Store.cypher`` and ``Store.query``.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core import as_known, tables

__all__ = ["QUERIES", "expand", "parameters_of", "queries_dir"]

_HERE = Path(__file__).resolve().parent
_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def queries_dir() -> Path:
    """Where the .cypher files are: inside the installed package, or the repository's queries/."""
    for candidate in (_HERE.parent / "queries", _HERE.parent.parent / "queries"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("graphmem's queries/ directory is missing from this installation")


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


_MACRO = re.compile(r"\{\{\s*(\w+)((?:\s+[^\s}]+)*)\s*\}\}")


def _macro(match: re.Match[str]) -> str:
    name, args = match.group(1), match.group(2).split()
    if name == "believed" and len(args) == 2:
        return as_known.cypher(*args)
    if name == "fact_columns" and len(args) == 2:
        return tables.by_name("Fact").values(*args)
    if name == "body_columns" and len(args) == 1:  # a fact body's columns, in Fact.apart's order
        return ", ".join(f"{args[0]}.{column}" for column in tables.by_name("Fact").apart)
    raise ValueError(f"unknown query macro {match.group(0)!r}")


def expand(text: str) -> str:
    """A query's text with its ``{{...}}`` names written in."""
    return _MACRO.sub(_macro, text)


def _load() -> dict[str, str]:
    root = queries_dir()
    return {
        str(path.relative_to(root).with_suffix("")): expand(_strip_comments(path.read_text()).strip())
        for path in sorted(root.rglob("*.cypher"))
    }


#: Every named query: the files of ``queries/``, and the statements derived from the table
#: declarations (``schema/NAME``, ``insert/NAME``, ``insert_rows/NAME``: see :mod:`graphmem.core.tables`).
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
