// Set the supporting episodes of many versions (a batch write's links to NOOP asserts).
UNWIND $rows AS r
WITH r, r.subject AS subject
MATCH (s:Entity {id: subject})-[f:Fact]->()
WHERE f.id = r.id
SET f.episodes = r.episodes
RETURN f.id
