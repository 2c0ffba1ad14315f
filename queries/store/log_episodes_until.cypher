// The episodes received by $at, one column per field (a named query's graph).
MATCH (e:Episode) WHERE e.received_at <= $at
RETURN e.id AS id, e.kind AS kind, e.text AS text, e.actor AS actor, e.reference_time AS reference_time, e.received_at AS received_at
