// Link one more supporting episode to a version.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id
SET f.episodes = list_append(f.episodes, $episode)
RETURN f.id
