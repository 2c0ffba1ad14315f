"""``--param`` on the command line: ``NAME=VALUE`` (and ``NAME:TYPE=VALUE`` for Cypher).

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput

if TYPE_CHECKING:
    from .._store import Store

__all__ = ["cypher_params", "named_params"]

_TIME_NAME = re.compile(r"(_at|_of|_from|_to)$|^t\d+$")
_NAME = re.compile(r"[A-Za-z_]\w*")


def split_params(pairs) -> dict[str, tuple[str | None, str]]:
    """``NAME[:TYPE]=VALUE`` texts as {name: (type or None, value)}."""
    found: dict[str, tuple[str | None, str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        name, _, kind = key.strip().partition(":")
        if not sep or not _NAME.fullmatch(name):
            raise InvalidInput(f"--param takes NAME=VALUE (or NAME:TYPE=VALUE), not {pair!r}")
        if name in found:
            raise InvalidInput(f"--param {name} is given twice")
        found[name] = (kind.strip() or None, value)
    return found


def cypher_params(store: Store, pairs) -> dict[str, Any]:
    """``--param`` texts as values for a user's Cypher query.

    A value is text unless its name carries a type (``limit:int=5``, types as for named
    queries) or looks like a time: names ending in ``_at``, ``_of``, ``_from`` or ``_to``, and
    ``t1``, ``t2``, ... are read as times in the store's zone (``entity`` gives the entity's id).
    """
    values: dict[str, Any] = {}
    for name, (kind, text) in split_params(pairs).items():
        kind = kind or ("time" if _TIME_NAME.search(name) else "text")
        values[name] = store.time(text) if kind == "time" else store.parameter(name, kind, text)
    return values


def named_params(pairs) -> dict[str, str]:
    """``--param NAME=VALUE`` texts for a named query (which declares its own types)."""
    found = split_params(pairs)
    for name, (kind, _) in found.items():
        if kind is not None:
            raise InvalidInput(f"named queries declare their parameters' types: write --param {name}=VALUE")
    return {name: text for name, (_, text) in found.items()}
