// The currently believed versions of every predicate of these subjects: a batch write's gate input.
UNWIND $subjects AS subject
MATCH (s:Entity {id: subject})-[f:Fact]->(o:Entity)
WHERE f.superseded_at = $open
RETURN s.id, f.predicate, f.id, o.id, f.valid_from, f.valid_to, f.episodes
