// Purge one version: its edge and its body.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WHERE f.id = $id
MATCH (b:FactBody {id: $id})
DELETE f, b
