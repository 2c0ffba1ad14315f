// What started and stopped being believed after t1 up to t2, write by write, and why.
// param: t1 (time) — the earlier transaction time (excluded)
// param: t2 (time) — the later transaction time (included)
MATCH (d:Decision)
WHERE d.at > $t1 AND d.at <= $t2
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.created_by = d.id OR f.closed_by = d.id
// (Not list_contains(d.created, f.id): kuzu 0.11.3 evaluates it wrongly in RETURN after this join.)
RETURN d.at AS at, d.op AS op, d.id AS decision,
       CASE WHEN f.created_by = d.id THEN 'started' ELSE 'stopped' END AS believed,
       f.id AS id, f.subject_name AS subject, f.predicate AS predicate, f.object_name AS object,
       f.valid_from AS valid_from, f.valid_to AS valid_to, d.reason AS reason
ORDER BY at, decision, believed DESC, id
