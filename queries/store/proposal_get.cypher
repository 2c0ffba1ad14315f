// One proposal by id.
MATCH (p:Proposal {id: $id}) RETURN p.*
