// Episodes by id.
MATCH (e:Episode) WHERE e.id IN $ids RETURN e.id, e.kind, e.text, e.actor, e.reference_time, e.received_at
