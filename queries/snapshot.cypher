// Facts believed at --as-of and valid at --valid-at (every valid time with --valid-at all).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of
  AND ($all_valid OR (f.valid_from <= $valid_at AND f.valid_to > $valid_at))
RETURN f.id AS id, f.subject_name AS subject, f.predicate AS predicate, f.object_name AS object,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at,
       CASE WHEN f.valid_from > $valid_at THEN 'upcoming'
            WHEN f.valid_to <= $valid_at THEN 'ended'
            ELSE 'current' END AS status
ORDER BY subject, predicate, valid_from, object, id
