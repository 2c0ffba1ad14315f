// Every version ever written, one column per field (the recall index keeps them all).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
RETURN f.id AS id, s.id AS subject_id, s.name AS subject, s.kind AS subject_kind, o.id AS object_id, o.name AS object, o.kind AS object_kind, f.predicate AS predicate, f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at, f.superseded_at AS superseded_at, f.episodes AS episodes, f.supersedes AS supersedes, f.superseded_by AS superseded_by, f.created_by AS created_by, f.closed_by AS closed_by, f.reason AS reason
