"""The pure core: rules over plain values, with no engine, store or clock in sight.

Interval algebra and the gate's decisions (:mod:`.temporal`, :mod:`.gate`), how names become
entities (:mod:`.names`), entity kinds (:mod:`.entity_kinds`), the tables declared once
(:mod:`.tables`) and the mapping of their rows to models (:mod:`.rows`), times at the boundary
(:mod:`.times`), the invariants (:mod:`.invariants`, and over Arrow :mod:`.columnar_invariants`),
and the JSON shapes every front end answers with (:mod:`.json_shapes`).

Internal: modules here import nothing of graphmem but each other, :mod:`graphmem.errors` and
:mod:`graphmem.models`.
"""

__all__: list[str] = []
