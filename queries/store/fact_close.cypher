// Close a believed version's transaction period (the only update a version's period ever gets).
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id AND f.superseded_at = $open
MATCH (b:FactBody {id: $id})
SET f.superseded_at = $at, b.superseded_by = $superseded_by, b.closed_by = $decision, b.reason = $reason
RETURN f.id
