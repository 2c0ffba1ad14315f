// Versions by id (a scan: relationship properties have no index).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.id IN $ids
RETURN s.id, s.name, o.id, o.name, f
