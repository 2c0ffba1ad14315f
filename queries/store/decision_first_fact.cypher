// The store's first write that created a version (no row for none): when, and when the proposal it approved was
// made (null: it approved none, or that proposal was purged).
MATCH (d:Decision) WHERE size(d.created) > 0
WITH d ORDER BY d.at LIMIT 1
OPTIONAL MATCH (p:Proposal) WHERE p.id = d.proposal
RETURN d.at, p.proposed_at
