// Every episode, oldest reference time first.
MATCH (e:Episode) RETURN e.id, e.kind, e.text, e.actor, e.reference_time, e.received_at ORDER BY e.reference_time, e.id
