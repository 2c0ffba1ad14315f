// The entities linked to an entity by facts believed at --as-of and valid at --valid-at, and how.
// param: entity (entity) — the entity, by name or id
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE s.id = $entity OR o.id = $entity
WITH s, f, o
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of
  AND ($all_valid OR (f.valid_from <= $valid_at AND f.valid_to > $valid_at))
RETURN CASE WHEN s.id = $entity THEN o.name ELSE s.name END AS other,
       CASE WHEN s.id = $entity THEN 'out' ELSE 'in' END AS direction,
       f.predicate AS predicate, f.valid_from AS valid_from, f.valid_to AS valid_to, f.id AS id
ORDER BY other, predicate, valid_from, id
