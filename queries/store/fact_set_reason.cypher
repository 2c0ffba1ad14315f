// Rewrite the reason a version was closed with a purged name taken out.
MATCH (s:Entity {id: $subject})-[f:Fact]->()
WITH s, f
WHERE f.id = $id
MATCH (b:FactBody {id: $id})
SET b.reason = $reason
RETURN f.id
