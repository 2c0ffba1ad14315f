// Versions believed at $as_of, whatever their valid time.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of
RETURN s.id, s.name, o.id, o.name, f
