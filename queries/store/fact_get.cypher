// One version by id, among its subject's edges (the subject from store/version_subject).
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WHERE f.id = $id
RETURN s.id, s.name, o.id, o.name, f
