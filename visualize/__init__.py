"""Self-contained HTML views of a graphmem store: snapshot, belief evolution, entity timeline.

Pure page builders take model objects and return HTML text; the ``render_*`` wrappers read
what they need from a :class:`graphmem.Store` and write the page to a file. Pages inline all
their JavaScript and open from disk with no network.
"""

from ._evolution import evolution_html
from ._render import render_evolution, render_snapshot, render_timeline
from ._snapshot import snapshot_html
from ._timeline import timeline_html

__all__ = [
    "evolution_html",
    "render_evolution",
    "render_snapshot",
    "render_timeline",
    "snapshot_html",
    "timeline_html",
]
