// Writes with $after < at <= $until, oldest first.
MATCH (d:Decision) WHERE d.at > $after AND d.at <= $until
RETURN d.id, d.op, d.at, d.created, d.closed, d.episode, d.reason, d.proposal ORDER BY d.at
