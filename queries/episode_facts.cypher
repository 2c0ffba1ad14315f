// The facts an episode supports, as recorded up to --as-of, with the episode's own text.
// param: episode — the episode's id (list them with `graphmem episodes`)
MATCH (e:Episode {id: $episode})
WHERE e.received_at <= $as_of
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WITH e, f  // kuzu 0.11 filters the wrong rows here without it when only f's columns are returned
WHERE list_contains(f.episodes, e.id) AND f.recorded_at <= $as_of
RETURN f.id AS id, f.subject_name AS subject, f.predicate AS predicate, f.object_name AS object,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at,
       CASE WHEN f.superseded_at <= $as_of AND f.reason IS NOT NULL THEN 'retracted'
            WHEN f.superseded_at <= $as_of THEN 'superseded'
            WHEN f.valid_from > $valid_at THEN 'upcoming'
            WHEN f.valid_to <= $valid_at THEN 'ended'
            ELSE 'current' END AS status,
       e.kind AS episode_kind, e.text AS episode_text
ORDER BY recorded_at, id
