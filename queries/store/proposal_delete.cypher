// Purge a proposal.
MATCH (p:Proposal {id: $id}) DELETE p
