// The currently believed versions of these subjects for these predicates: a batch write's gate input.
LOAD FROM $rows
MATCH (s:Entity {id: subject})
MATCH (s)-[f:Fact]->(o:Entity)
WHERE f.superseded_at = $open AND f.predicate IN $predicates
RETURN s.id, f.predicate, f.id, o.id, f.valid_from, f.valid_to, f.episodes
