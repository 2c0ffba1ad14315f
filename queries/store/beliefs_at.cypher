// Versions believed at $as_of and valid at $valid_at, one column per field.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of
  AND f.valid_from <= $valid_at AND f.valid_to > $valid_at
RETURN s.id AS subject_id, s.name AS subject, s.kind AS subject_kind, o.id AS object_id, o.name AS object, o.kind AS object_kind, f.id AS id, f.predicate AS predicate, f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at, f.superseded_at AS superseded_at, f.episodes AS episodes, f.supersedes AS supersedes, f.superseded_by AS superseded_by, f.created_by AS created_by, f.closed_by AS closed_by, f.reason AS reason
