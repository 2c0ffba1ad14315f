// Close many believed versions (a batch write; $rows is an Arrow table): each found from its subject, planned
// as a walk of every edge (see batch_believed; large stores close one edge at a time instead:
// store/fact_close_edge, then store/batch_close_bodies).
LOAD FROM $rows
MATCH (s:Entity {id: subject})-[f:Fact]->(o:Entity)
WHERE f.id = version AND f.superseded_at = $open
HINT (s JOIN f) JOIN o
MATCH (b:FactBody {id: f.id})
SET f.superseded_at = closed_at, b.superseded_by = replaced_by, b.closed_by = closing_decision, b.reason = retract_reason
RETURN f.id
