// Rewrite a version's links after a purge removed what they named.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id
SET f.episodes = $episodes, f.supersedes = $supersedes, f.superseded_by = $superseded_by
RETURN f.id
