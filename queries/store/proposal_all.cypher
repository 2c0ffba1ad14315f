// Every proposal, oldest first.
MATCH (p:Proposal)
RETURN p.*
ORDER BY p.proposed_at, p.id
