// Append one write to the log.
CREATE (:Decision {id: $id, op: $op, at: $at, created: $created, closed: $closed, episode: $episode, reason: $reason, proposal: $proposal})
