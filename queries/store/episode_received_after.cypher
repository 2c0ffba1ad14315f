// Ids of the episodes received after $at: a link to one of them was not yet known at $at.
MATCH (e:Episode) WHERE e.received_at > $at RETURN e.id
