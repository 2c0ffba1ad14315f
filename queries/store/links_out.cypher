// The believed facts (other than $predicate) from entity $id to any of $others, as (subject, predicate, object).
MATCH (s:Entity {id: $id})-[f:Fact]->(o:Entity)
WHERE f.predicate <> $predicate AND f.superseded_at = $open AND list_contains($others, o.id)
RETURN s.id, f.predicate, o.id
