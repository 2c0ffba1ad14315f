// Every proposal, oldest first.
MATCH (p:Proposal)
RETURN p.id, p.op, p.subject, p.predicate, p.object, p.valid_from, p.valid_to, p.episode, p.quote, p.source, p.proposed_at, p.state, p.decided_at, p.reason, p.decision
ORDER BY p.proposed_at, p.id
