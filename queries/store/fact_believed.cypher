// The believed versions of one (subject, predicate) whose valid end is in [$since, $until): the write gate's input.
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WITH s, f, o
WHERE f.predicate = $predicate AND f.superseded_at = $open AND f.valid_to >= $since AND f.valid_to < $until
RETURN f.id, o.id, f.valid_from, f.valid_to
