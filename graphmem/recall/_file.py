"""The message index's file and what a store's opening asks of it, without loading search.

Opening a store (every command) must not import the search modules; this one imports only ``sqlite3``.

Internal: :mod:`graphmem.recall._messages` keeps the file; ``Store`` opening asks :func:`purged_since`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

__all__ = ["FILE", "purged_since"]

#: The index's file, in the store's directory.
FILE = "messages.sqlite"


def purged_since(path: Path, meta: Mapping[str, str]) -> bool:
    """True when the file at ``path`` follows a store whose tombstone counter has since moved (a purge the file
    has not followed), read without changing it."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        known = dict(db.execute("SELECT key, value FROM state"))
    except sqlite3.DatabaseError:
        return False  # not a file it can read: the next search says so, opening the store does not fail
    finally:
        db.close()
    return bool(known) and known.get("t", "0") != (meta.get("seq:t") or "0")
