// Purge one version.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WHERE f.id = $id
DELETE f
