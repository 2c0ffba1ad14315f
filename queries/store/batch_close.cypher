// Close many believed versions (a batch write; $rows is an Arrow table, keys matched in separate clauses).
LOAD FROM $rows
MATCH (s:Entity {id: subject})
MATCH (s)-[f:Fact]->()
WHERE f.id = version AND f.superseded_at = $open
MATCH (b:FactBody {id: f.id})
SET f.superseded_at = closed_at, b.superseded_by = replaced_by, b.closed_by = closing_decision, b.reason = retract_reason
RETURN f.id
