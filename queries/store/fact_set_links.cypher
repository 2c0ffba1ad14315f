// Rewrite a version's links after a purge removed what they named.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id
MATCH (b:FactBody {id: $id})
SET b.episodes = $episodes, b.supersedes = $supersedes, b.superseded_by = $superseded_by
RETURN f.id
