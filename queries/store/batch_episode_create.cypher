// Record many episodes (a batch write).
UNWIND $rows AS r
CREATE (:Episode {id: r.id, kind: r.kind, text: r.text, actor: r.actor, reference_time: r.reference_time, received_at: r.received_at})
