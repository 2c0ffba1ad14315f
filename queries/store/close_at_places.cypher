// Close the believed edges $ids of the entities at $places (store/entity_places), each at its own
// time ($ats, in the order of $ids), a batch write's closes: both engines read only those
// entities' edges (see store/believed_at_places); the edges of other predicates are set aside
// before the list of ids is searched, once per edge (half the CPU of searching it for every
// open edge at those places, then again for its time: benchmarks/gate_statements.py); their
// bodies are recorded apart (store/batch_close_bodies).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND f.superseded_at = $open AND f.predicate IN $predicates
WITH f, list_position($ids, f.id) AS at
WHERE at > 0
SET f.superseded_at = list_extract($ats, at)
RETURN f.id
