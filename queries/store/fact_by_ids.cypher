// Versions by id, each found among its subject's edges through VersionKey.
UNWIND $ids AS i
MATCH (k:VersionKey {id: i})
MATCH (s:Entity {id: k.subject})-[f:Fact]->(o:Entity)
WHERE f.id = i
RETURN s.id, s.name, o.id, o.name, f
