// Queue a proposed fact for review.
CREATE (:Proposal {id: $id, op: $op, subject: $subject, predicate: $predicate, object: $object, valid_from: $valid_from, valid_to: $valid_to, episode: $episode, quote: $quote, source: $source, proposed_at: $proposed_at, state: 'pending', decided_at: NULL, reason: NULL, decision: NULL})
