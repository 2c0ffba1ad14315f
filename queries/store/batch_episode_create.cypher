// Record many episodes (a batch write; $rows is an Arrow table).
LOAD FROM $rows
CREATE (:Episode {id: id, kind: kind, text: text, actor: actor, reference_time: reference_time, received_at: received_at})
