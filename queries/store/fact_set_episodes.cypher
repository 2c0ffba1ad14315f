// Set a believed version's supporting episodes (one more was linked to it).
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id
MATCH (b:FactBody {id: $id})
SET b.episodes = $episodes
RETURN f.id
