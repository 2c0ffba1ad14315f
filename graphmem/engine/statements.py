"""Named Cypher queries, one per ``.cypher`` file in ``queries/``, loaded once.

The store's own queries say two things by name rather than spelling them out, and they are
written in as the files are loaded: ``{{believed f $as_of}}``, the rule of what the store believed
at a moment (:func:`graphmem.core.as_known.cypher`), and ``{{fact_columns f b}}``, every column of
the Fact table as declared (:mod:`graphmem.core.tables`), each returned under its own name from
the edge ``f`` or its body ``b`` (the FactBody row the query matched by ``f.id``),
``{{believed_columns f b}}``, the same less :data:`UNREAD_WHEN_BELIEVED` (for versions believed at
the question's moment, whose closing is not yet known there), and
``{{body_columns b}}``, the Fact columns kept apart in the body ``b``, in their declared order,
``{{edge_columns f}}``, the columns the Fact edge ``f`` itself stores, in their declared order,
and ``{{hint JOIN ORDER}}``, a join order for the engines that plan better when told
(:data:`HINTED`; written as ``HINT JOIN ORDER`` there and left out elsewhere).

Internal: the store's own queries; users run theirs with ``Store.cypher`` and ``Store.query``.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core import as_known, tables

__all__ = ["HINTED", "QUERIES", "UNREAD_WHEN_BELIEVED", "WRITING", "expand", "may_write", "parameters_of",
           "queries_dir"]

_HERE = Path(__file__).resolve().parent

#: The columns a closing sets that are kept in a version's body (FactBody): a version believed at T
#: was not closed by T, so as of T they read as open (:data:`graphmem.core.as_known.CLOSING`) and
#: a belief need not read them (the lists cost the read the most; at 1M versions leaving them out
#: saves about a sixth of the engine's statement). The reader fills them in.
UNREAD_WHEN_BELIEVED = tuple(name for name in tables.by_name("Fact").apart if name in as_known.CLOSING)
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
_HINT = re.compile(r"\{\{\s*hint\b")


def _macro(match: re.Match[str], hints: bool) -> str:
    name, args = match.group(1), match.group(2).split()
    if name == "believed" and len(args) == 2:
        return as_known.cypher(*args)
    if name == "fact_columns" and len(args) == 2:
        return tables.by_name("Fact").values(*args)
    if name == "believed_columns" and len(args) == 2:
        return tables.by_name("Fact").values(*args, unread=UNREAD_WHEN_BELIEVED)
    if name == "body_columns" and len(args) == 1:  # a fact body's columns, in Fact.apart's order
        return ", ".join(f"{args[0]}.{column}" for column in tables.by_name("Fact").apart)
    if name == "edge_columns" and len(args) == 1:  # what a Fact edge stores, in its declared order
        return ", ".join(f"{args[0]}.{column.name}" for column in tables.by_name("Fact").stored)
    if name == "hint" and args:
        return "HINT " + " ".join(args) if hints else ""
    raise ValueError(f"unknown query macro {match.group(0)!r}")


def expand(text: str, *, hints: bool = False) -> str:
    """A query's text with its ``{{...}}`` names written in (``hints``: its join hints too)."""
    return _MACRO.sub(lambda match: _macro(match, hints), text)


def _read() -> dict[str, str]:
    root = queries_dir()
    return {str(path.relative_to(root).with_suffix("")): _strip_comments(path.read_text())
            for path in sorted(root.rglob("*.cypher"))}


def _expanded(files: dict[str, str], *, hints: bool = False) -> dict[str, str]:
    return {name: _without_blank_lines(expand(text, hints=hints)) for name, text in files.items()}


def _without_blank_lines(text: str) -> str:  # a hint left out leaves its line empty
    return "\n".join(line for line in text.splitlines() if line.strip())


#: Every named query: the files of ``queries/``, and the statements derived from the table
#: declarations (``schema/NAME``, ``insert/NAME``, ``insert_rows/NAME``: see :mod:`graphmem.core.tables`).
_FILES = _read()
QUERIES: dict[str, str] = {**_expanded(_FILES), **tables.queries()}
#: The named queries that say a join order (``{{hint ...}}``), with it written in: what an
#: engine that follows hints runs instead (see ``Engine.follows_hints``).
HINTED: dict[str, str] = _expanded({name: text for name, text in _FILES.items() if _HINT.search(text)}, hints=True)
_PARAMETERS = {name: frozenset(_PARAMETER.findall(text)) for name, text in QUERIES.items()}

#: A word of a statement that may change what the store holds (or does not only read it): where
#: one appears, even in a literal or a name, the statement is taken to write.
_WRITE_WORD = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|DROP|ALTER|COPY|IMPORT|ATTACH|DETACH|LOAD|INSTALL"
                         r"|CALL|BEGIN|COMMIT|ROLLBACK|CHECKPOINT)\b", re.IGNORECASE)


def may_write(text: str) -> bool:
    """Whether a statement may change the store: it holds a word that writes (erring towards yes)."""
    return _WRITE_WORD.search(text) is not None


#: The named queries that may write (:func:`may_write`).
WRITING: frozenset[str] = frozenset(name for name, text in QUERIES.items() if may_write(text))


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
