// The believed versions of each (subject, wanted predicate) whose valid end is at or after ends_from: a batch write's gate input.
LOAD FROM $rows
MATCH (s:Entity {id: subject})
MATCH (s)-[f:Fact]->(o:Entity)
WHERE f.superseded_at = $open AND f.predicate = wanted AND f.valid_to >= ends_from
MATCH (b:FactBody {id: f.id})
RETURN s.id, f.predicate, f.id, o.id, f.valid_from, f.valid_to, b.episodes
