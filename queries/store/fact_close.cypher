// Close a believed version's transaction period (the only update a version's period ever gets).
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id AND f.superseded_at = $open
SET f.superseded_at = $at, f.superseded_by = $superseded_by, f.closed_by = $decision, f.reason = $reason
RETURN f.id
