// The whole write log, oldest first.
MATCH (d:Decision) RETURN d.id, d.op, d.at, d.created, d.closed, d.episode, d.reason, d.proposal ORDER BY d.at
