// Set the supporting episodes of many versions (a batch write's links for NOOP asserts).
LOAD FROM $rows
MATCH (s:Entity {id: subject})
MATCH (s)-[f:Fact]->()
WHERE f.id = version
SET f.episodes = linked
RETURN f.id
