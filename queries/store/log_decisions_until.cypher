// The writes made by $at, one column per field (a named query's graph).
MATCH (d:Decision) WHERE d.at <= $at
RETURN d.id AS id, d.op AS op, d.at AS at, d.created AS created, d.closed AS closed, d.episode AS episode, d.reason AS reason, d.proposal AS proposal
