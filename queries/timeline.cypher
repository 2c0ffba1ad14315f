// An entity's facts (as subject or object) laid out on valid time, as believed at --as-of.
// param: entity (entity) — the entity, by name or id
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE s.id = $entity OR o.id = $entity
WITH s, f, o
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of
RETURN f.valid_from AS valid_from, f.valid_to AS valid_to, f.subject_name AS subject,
       f.predicate AS predicate, f.object_name AS object,
       CASE WHEN f.valid_from > $valid_at THEN 'upcoming'
            WHEN f.valid_to <= $valid_at THEN 'ended'
            ELSE 'current' END AS status,
       f.id AS id
ORDER BY valid_from, predicate, id
