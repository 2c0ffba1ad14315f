// One version by id (a scan: relationship properties have no index).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.id = $id
RETURN s.id, s.name, o.id, o.name, f
