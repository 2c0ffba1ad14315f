// Blank the reason text of a write whose versions were all purged.
MATCH (d:Decision {id: $id}) SET d.reason = NULL
