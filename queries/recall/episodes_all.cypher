// Every episode's id, text and receipt time, for the recall index.
MATCH (e:Episode) RETURN e.id AS id, e.text AS text, e.received_at AS received_at
