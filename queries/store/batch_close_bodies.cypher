// Record on many versions' bodies what closed them ($rows is an Arrow table; their edges are closed apart).
LOAD FROM $rows
MATCH (b:FactBody {id: version})
WHERE b.subject = subject
SET b.superseded_by = replaced_by, b.closed_by = closing_decision, b.reason = retract_reason
RETURN b.id
