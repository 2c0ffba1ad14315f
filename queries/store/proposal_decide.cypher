// Record the review decision on a pending proposal.
MATCH (p:Proposal {id: $id}) WHERE p.state = 'pending'
SET p.state = $state, p.decided_at = $at, p.reason = $reason, p.decision = $decision
RETURN p.id
