// Append many writes to the log (a batch write; $rows is an Arrow table).
LOAD FROM $rows
CREATE (:Decision {id: id, op: op, at: written_at, created: created, closed: closed, episode: episode, reason: reason, proposal: proposal})
