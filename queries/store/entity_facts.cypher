// Every version ever written with an entity as subject or object.
MATCH (s:Entity {id: $id})-[f:Fact]->(o:Entity)
RETURN s.id, s.name, o.id, o.name, f
UNION
MATCH (s:Entity)-[f:Fact]->(o:Entity {id: $id})
RETURN s.id, s.name, o.id, o.name, f
