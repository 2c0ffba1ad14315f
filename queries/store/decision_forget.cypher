// Blank the reason text of a write and the proposal it names, when that proposal was purged.
MATCH (d:Decision {id: $id}) SET d.reason = NULL, d.proposal = NULL
