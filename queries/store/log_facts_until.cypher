// Every version recorded by $at, with its endpoints, one column per field (a named query's graph).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $at
MATCH (b:FactBody {id: f.id})
RETURN s.id AS `from`, o.id AS `to`, {{fact_columns f b}}, s.name AS subject_name, s.kind AS subject_kind, o.name AS object_name, o.kind AS object_kind
