// The episodes received at or after $at, oldest first, for the message index (graphmem/recall/_messages.py).
MATCH (e:Episode) WHERE e.received_at >= $at
RETURN e.id AS id, e.kind AS kind, e.actor AS actor, e.text AS text, e.reference_time AS said, e.received_at AS received
ORDER BY e.received_at
