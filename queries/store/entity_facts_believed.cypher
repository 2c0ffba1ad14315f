// The versions believed at $as_of with an entity as subject or object (a timeline's: the rest are
// left in the engine rather than read, given their bodies and dropped).
MATCH (s:Entity {id: $id})-[f:Fact]->(o:Entity)
WHERE {{believed f $as_of}}
RETURN s.id, s.name, o.id, o.name, f
UNION
MATCH (s:Entity)-[f:Fact]->(o:Entity {id: $id})
WHERE {{believed f $as_of}}
RETURN s.id, s.name, o.id, o.name, f
