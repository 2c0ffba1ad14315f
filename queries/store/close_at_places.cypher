// Close the believed edges $ids of the entities at $places (store/entity_places), each at its own
// time ($ats, in the order of $ids), a batch write's closes: both engines read only those
// entities' edges (see store/believed_at_places); their bodies are recorded apart
// (store/batch_close_bodies).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND list_contains($ids, f.id) AND f.superseded_at = $open
SET f.superseded_at = list_extract($ats, list_position($ids, f.id))
RETURN f.id
