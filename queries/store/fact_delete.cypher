// Purge one version (store/version_key_delete removes its VersionKey entry).
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WHERE f.id = $id
DELETE f
