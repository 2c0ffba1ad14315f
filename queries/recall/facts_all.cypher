// Every version ever written, one column per field the recall index keeps.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
RETURN f.id AS id, s.id AS subject_id, s.name AS subject, s.kind AS subject_kind, o.id AS object_id, o.name AS object, o.kind AS object_kind, f.predicate AS predicate, f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at, f.superseded_at AS superseded_at, f.reason AS reason, f.episodes AS episodes
