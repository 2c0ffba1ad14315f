// The subjects' predicates rewritten most often: versions written up to --as-of, per (subject, predicate).
// param: limit (int, default 10) — how many pairs to list
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $as_of
// kuzu 0.11.3 returns null for aggregates listed after a count(DISTINCT ...): keep it last.
RETURN s.name AS subject, f.predicate AS predicate, count(*) AS versions,
       max(f.recorded_at) AS last_written, count(DISTINCT o.id) AS values
ORDER BY versions DESC, last_written DESC, subject, predicate
LIMIT $limit
