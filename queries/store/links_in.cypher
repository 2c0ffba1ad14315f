// The believed facts (other than $predicate) from any of $others to entity $id, as (subject, predicate, object).
MATCH (s:Entity)-[f:Fact]->(o:Entity {id: $id})
WHERE f.predicate <> $predicate AND f.superseded_at = $open AND list_contains($others, s.id)
RETURN s.id, f.predicate, o.id
