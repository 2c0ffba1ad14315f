// Every version ever written.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
MATCH (b:FactBody {id: f.id})
RETURN s.id, s.name, o.id, o.name, f, b
