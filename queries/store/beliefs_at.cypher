// Versions believed at $as_of and valid at $valid_at.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of
  AND f.valid_from <= $valid_at AND f.valid_to > $valid_at
RETURN s.id, s.name, o.id, o.name, f
