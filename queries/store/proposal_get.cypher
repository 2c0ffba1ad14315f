// One proposal by id (a review decision reads the one it decides, not the whole queue).
MATCH (p:Proposal {id: $id})
RETURN p.id, p.op, p.subject, p.predicate, p.object, p.valid_from, p.valid_to, p.episode, p.quote, p.source, p.proposed_at, p.state, p.decided_at, p.reason, p.decision
