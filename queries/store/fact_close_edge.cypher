// Close a believed version's edge (its body is closed apart: store/batch_close_bodies).
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id AND f.superseded_at = $open
SET f.superseded_at = $at
RETURN f.id
