// Every version ever written.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
RETURN s.id, s.name, o.id, o.name, f
