// Every version recorded by $at, with its endpoints, one column per field (a named query's graph).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $at
RETURN s.id AS `from`, o.id AS `to`, {{fact_columns f}}, s.name AS subject_name, s.kind AS subject_kind, o.name AS object_name, o.kind AS object_kind
