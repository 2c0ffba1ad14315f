// Every version of a subject's predicate written up to --as-of, newest first, with status and sources.
// param: subject (entity) — the subject, by name or id
// param: predicate — the predicate, e.g. lives_in
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate AND f.recorded_at <= $as_of
OPTIONAL MATCH (e:Episode)
WHERE list_contains(f.episodes, e.id) AND e.received_at <= $as_of
// (Both engines read null + ': ' as ': ', so a missing episode is kept out explicitly.)
WITH f, o, collect(CASE WHEN e.id IS NULL THEN NULL ELSE e.kind + ': ' + e.text END) AS texts
// What was closed after --as-of is shown open: the answer as of a time never changes later.
// (Each CASE repeats the test: kuzu 0.11.3 misorders a boolean carried through WITH here.)
RETURN f.id AS id, f.object_name AS object, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.recorded_at AS recorded_at,
       CASE WHEN f.superseded_at <= $as_of THEN f.superseded_at END AS superseded_at,
       CASE WHEN f.superseded_at <= $as_of AND f.reason IS NOT NULL THEN 'retracted'
            WHEN f.superseded_at <= $as_of THEN 'superseded'
            WHEN f.valid_from > $valid_at THEN 'upcoming'
            WHEN f.valid_to <= $valid_at THEN 'ended'
            ELSE 'current' END AS status,
       CASE WHEN f.superseded_at <= $as_of THEN f.superseded_by ELSE CAST([] AS STRING[]) END AS superseded_by,
       CASE WHEN f.superseded_at <= $as_of THEN f.reason END AS reason,
       coalesce(texts, CAST([] AS STRING[])) AS sources
ORDER BY recorded_at DESC, valid_from DESC, id DESC
