// Rewrite the reason of a write with a purged name taken out.
MATCH (d:Decision {id: $id}) SET d.reason = $reason
