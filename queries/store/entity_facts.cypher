// Every version ever written with an entity as subject or object.
MATCH (s:Entity {id: $id})-[f:Fact]->(o:Entity)
MATCH (b:FactBody {id: f.id})
RETURN s.id, s.name, o.id, o.name, f, b
UNION
MATCH (s:Entity)-[f:Fact]->(o:Entity {id: $id})
MATCH (b:FactBody {id: f.id})
RETURN s.id, s.name, o.id, o.name, f, b
