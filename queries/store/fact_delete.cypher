// Purge one version.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id
DELETE f
