// Every version ever written of one (subject, predicate).
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate
RETURN s.id, s.name, o.id, o.name, f
