// Every version recorded by $at, with its endpoints, one column per field (a named query's graph).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $at
RETURN s.id AS `from`, o.id AS `to`, f.id AS id, f.predicate AS predicate, f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at, f.superseded_at AS superseded_at, f.episodes AS episodes, f.supersedes AS supersedes, f.superseded_by AS superseded_by, f.created_by AS created_by, f.closed_by AS closed_by, f.reason AS reason, s.name AS subject_name, s.kind AS subject_kind, o.name AS object_name, o.kind AS object_kind
