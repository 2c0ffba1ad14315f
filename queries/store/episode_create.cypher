// Record an episode.
CREATE (:Episode {id: $id, kind: $kind, text: $text, actor: $actor, reference_time: $reference_time, received_at: $received_at})
