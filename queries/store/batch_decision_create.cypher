// Append many writes to the log (a batch write).
UNWIND $rows AS r
CREATE (:Decision {id: r.id, op: r.op, at: r.at, created: r.created, closed: r.closed, episode: r.episode, reason: r.reason, proposal: r.proposal})
