// Versions by id: each one's body by key, then its edge through its subject (never a scan of every edge).
UNWIND $ids AS i
MATCH (b:FactBody {id: i})
MATCH (s:Entity {id: b.subject})-[f:Fact]->(o:Entity)
WHERE f.id = i
RETURN s.id, s.name, o.id, o.name, f, b
