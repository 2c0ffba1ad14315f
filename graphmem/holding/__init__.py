"""One store, many programs: the process that holds a store serves it to the others.

A long-running process that opens a store (``graphmem serve``, ``graphmem mcp``, ``graphmem
explore``, a :class:`graphmem.Store` in Python) *holds* it: it serves the store on a Unix-domain
socket in the store's directory (:mod:`.wire`, :mod:`.holder`). Any other process that opens
the store becomes its client: ``Store(path)`` returns a :class:`.remote.RemoteStore`, and a
command line is run by the holder as typed (:mod:`graphmem._launch`). Without a holder, a
one-off command opens the store itself for its short life.

Internal: see docs/semantics.md ("One store, many programs") and the README's security section.
"""

__all__: list[str] = []
