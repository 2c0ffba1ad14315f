// Every version ever written of one (subject, predicate).
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate
MATCH (b:FactBody {id: f.id})
RETURN s.id, s.name, o.id, o.name, f, b
