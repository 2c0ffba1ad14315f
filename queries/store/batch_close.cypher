// Close many believed versions (a batch write); the subject is projected first so the engine hash-joins.
UNWIND $rows AS r
WITH r, r.subject AS subject
MATCH (s:Entity {id: subject})-[f:Fact]->()
WHERE f.id = r.id AND f.superseded_at = $open
SET f.superseded_at = r.superseded_at, f.superseded_by = r.superseded_by, f.closed_by = r.closed_by, f.reason = r.reason
RETURN f.id
